// size: the facade every door calls, one short method per operation of LegalDataApi (search, documents, resolve, discovery, statistics, readiness) over the modules that do the work (search.service, the resolver, the catalogue, the citator, the admission); split by operation it would only scatter the one place where billing and the request's engine budget are applied
/**
 * The legal-data module's service: the one implementation of LegalDataApi that REST,
 * GraphQL and MCP all call. Discovery and statistics come from an in-memory snapshot
 * refreshed after each ingest step.
 */
import type { RequestContext } from '../../context.js';
import type { Embedder } from '../../engines/embedder.js';
import type { Logger } from '../../logger.js';
import type { EngineFilters, SearchEngine } from '../../engines/search-engine.js';
import type { CitationAuthority } from '../../engines/hybrid-fusion.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import { parseInput } from '../../validation.js';
import { z } from 'zod';
import { broadcast } from '../../util/broadcast.js';
import type { StageTimer } from '../../util/stage-timer.js';
import { CatalogSnapshot } from './catalog-snapshot.js';
import type { CountriesResponse, CourtInfo, Manifest, Readiness, SourceFilters, SourcesResponse, Stats } from './catalog.schema.js';
import { type QueueLag, recordingReadiness } from './recording-readiness.js';
import type { CatalogSource } from './corpus/corpus-reader.js';
import type { IngestState } from './ingest/ingest.service.js';
import type { CitationCounts } from './ingest/citation-counts.js';
import { type DocumentRead, type DocumentReadRequest, type LegalDataApi, MAX_DOCUMENTS_PER_READ } from './legal-data.port.js';
import { documentVersion } from './document-version.js';
import { documentId, NAMESPACES, type LegalDocument } from '../../domain/legal-document.js';
import type { ResolveCoverage, ResolveResponse } from './resolve.schema.js';
import { ReferenceResolver } from './resolver/resolve.service.js';
import type { ResolveHints } from './resolver/resolver.js';
import { AUTHORITY_SATURATION, AUTHORITY_WEIGHT, search } from './search.service.js';
import { SearchAdmission } from './search-admission.js';
import { EngineCallSlots, EngineWork, requestEngine } from '../../engines/request-engine.js';
import type { UsageGuard } from '../usage/usage-guard.js';
import { documentFacts, resolveFacts, searchFacts } from './usage-facts.js';
import { citedBy, citedByPerYear, cites, coverCitatorReads, withCitedByCount, type CitatorDeps } from './citator/citator.service.js';
import { citedByCounts } from './citator/citator.queries.js';
import { searchRequestSchema, type SearchResponse } from './search.schema.js';

export interface LegalDataDeps {
  engine: SearchEngine;
  embedder: Embedder | null;
  engineName: string;
  /** The sources catalogue from the relational store. */
  loadCatalogue: () => Promise<CatalogSource[]>;
  /** True when the relational store answers. */
  pingDatabase: () => Promise<boolean>;
  /** How far usage rows and analytics events lag (UsageService / AnalyticsRecorder.recordingLag; analytics null until its module is up), for /ready. */
  usageRecording?: () => QueueLag<NonNullable<Readiness['usage_recording']>>;
  analyticsRecording?: () => QueueLag<NonNullable<Readiness['analytics_recording']>> | null;
  version: string;
  /** The REST operations the manifest lists (read when it is built: the routes are mounted after this service). */
  endpoints: () => string[];
  /** Authentication, plan limits and usage counting of the billable calls (src/modules/usage). */
  usage: UsageGuard;
  /** Wall-time budget of one reference resolution (RESOLVE_TIMEOUT_MS); default 1500. */
  resolveTimeoutMs?: number;
  /** Wall-time budget of a search's vector leg (VECTOR_TIMEOUT_MS); past it the search is keyword-only and says `degraded`. */
  vectorTimeoutMs?: number;
  /** Keyword passages the vector leg's query moves towards (SEARCH_FEEDBACK_PASSAGES). */
  feedbackPassages?: number;
  /** The corpus's citation counts (citation-counts.ts), read with the catalogue; null until counted. */
  loadCitationCounts?: () => Promise<CitationCounts | null>;
  /** Weight of the citation authority prior (SEARCH_AUTHORITY_WEIGHT; 0 = off). */
  authorityWeight?: number;
  /** Where a degraded search is reported. */
  logger?: Logger;
  /** Engine reads one request may have running at once (ENGINE_CALLS_PER_REQUEST); default 4. */
  engineCallsPerRequest?: number;
  /** Requests whose searches run at once (SEARCH_CONCURRENCY, resolved); absent or 0 = no gate. */
  searchConcurrency?: number;
}

/** The key of a request's engine slots among its loaders (one set per request, however many aliases or tool calls it holds). */
const ENGINE_SLOTS = Symbol('engineSlots');
const DEFAULT_ENGINE_CALLS_PER_REQUEST = 4;

const namespaceParam = z.enum(NAMESPACES).optional();

/** Where the embedding model stands (EMBEDDER=auto trains it at first start). */
export type ModelState = NonNullable<Readiness['embedding_model']>;

export class LegalDataService implements LegalDataApi {
  private snapshot: CatalogSnapshot | null = null;
  private refreshing: Promise<void> | null = null;
  private queuedRefresh: Promise<void> | null = null;
  private ingest: IngestState | null = null;
  private indexComplete = false;
  private model: ModelState | null = null;
  /**
   * Why the index is being rebuilt, until the rebuild completes: found damaged at start
   * (index-health.ts; the start-up ingest is the rebuild) or while serving (index-repair.ts;
   * `started` once the index was deleted and its ingest began: an ingest that was running
   * before, into the damaged index, does not end it).
   */
  private indexRebuild: { reason: string; started: boolean } | null = null;
  private citationCounts: CitationCounts | null = null;

  private readonly resolver: ReferenceResolver;
  /** The citator's reads (citator/citator.service.ts) over this service's usage guard and engine. */
  private readonly citator: CitatorDeps = { usage: this.deps.usage, documents: (ctx, ids) => this.engineFor(ctx).getDocuments(ids) };
  /** What requests made the engine do: reads started, finished, dropped when abandoned, waiting (request-engine.ts). */
  readonly engineWork = new EngineWork();
  /** Requests searching at once, the others in arrival order (search-admission.ts). */
  readonly searchAdmission = new SearchAdmission(this.deps.searchConcurrency ?? 0);

  constructor(private readonly deps: LegalDataDeps) {
    this.resolver = new ReferenceResolver({ engine: deps.engine, timeoutMs: deps.resolveTimeoutMs ?? 1500 });
  }

  /** Rebuilds discovery and statistics from the index and the catalogue. */
  async refreshCatalog(): Promise<void> {
    // Callers during a rebuild share ONE follow-up rebuild (the running one may predate their
    // writes); callers with none running start it.
    if (this.refreshing) {
      this.queuedRefresh ??= this.refreshing.catch(() => undefined).then(() => {
        this.queuedRefresh = null;
        return this.refreshCatalog();
      });
      return this.queuedRefresh;
    }
    this.refreshing = this.rebuildCatalog().finally(() => (this.refreshing = null));
    return this.refreshing;
  }

  private async rebuildCatalog(): Promise<void> {
    const [sources, chunks, model, citationCounts] = await Promise.all([
      this.deps.loadCatalogue(),
      this.deps.engine.countChunks(),
      this.deps.engine.vectorModel(),
      this.deps.loadCitationCounts?.().catch((error: Error) => {
        this.deps.logger?.warn(`search: citation counts unreadable, searching without the authority prior (${error.message})`);
        return null;
      }) ?? null,
    ]);
    this.citationCounts = citationCounts;
    // One scan of the index feeds both the catalogue snapshot and the resolver's reference index
    // (whose cache of resolutions is dropped with it).
    const [forCatalog, forResolver] = broadcast(this.deps.engine.scanMetadata(), 2);
    const [snapshot] = await Promise.all([
      CatalogSnapshot.build(forCatalog, sources, {
        chunks: chunks.total,
        chunksWithVectors: chunks.withVectors,
        embeddingModel: model,
      }),
      this.resolver.refresh(forResolver),
    ]);
    this.snapshot = snapshot;
  }

  /** Billable: charged to the caller (see UsageGuard). */
  resolve(ctx: RequestContext, input: unknown): Promise<ResolveResponse> {
    return this.deps.usage.charge(ctx, 'resolve', () => this.resolver.resolve(input, { signal: ctx.signal, engineFor: (signal) => this.engineFor(ctx, signal) }), resolveFacts);
  }

  /**
   * The engine as `ctx`'s request sees it: its reads share the request's slots and stop when
   * `signal` aborts (the request's own, or a budget's signal that follows it).
   */
  private engineFor(ctx: RequestContext, signal: AbortSignal = ctx.signal): SearchEngine {
    const slots = ctx.loader(ENGINE_SLOTS, () => new EngineCallSlots(this.deps.engineCallsPerRequest ?? DEFAULT_ENGINE_CALLS_PER_REQUEST));
    return requestEngine(this.deps.engine, { signal, slots, work: this.engineWork });
  }

  /** Needs credentials (the spec opens only discovery, stats and the manifest), not billable. */
  async resolveCoverage(ctx: RequestContext): Promise<ResolveCoverage> {
    this.deps.usage.admit(ctx);
    return this.resolver.coverage();
  }

  /** Called by the background ingest with its progress; `complete` once the corpus is indexed. */
  setIngestState(state: IngestState | null, complete: boolean): void {
    this.ingest = state;
    this.indexComplete = complete;
    if (complete && this.indexRebuild?.started) this.indexRebuild = null;
  }

  /** Called at start when the index was found damaged and is rebuilt from the corpus: /ready says why. */
  setIndexRebuild(reason: string | null): void {
    this.indexRebuild = reason === null ? null : { reason, started: true };
  }

  /** Called when a read of the index failed with a storage error while serving (index-repair.ts): not ready until rebuilt. */
  indexDamaged(reason: string): void {
    this.indexRebuild = { reason, started: false };
  }

  /** The damaged index was deleted and its rebuild's ingest starts (index-repair.ts via platform.ts). */
  indexRebuildStarted(): void {
    if (this.indexRebuild) this.indexRebuild.started = true;
    this.indexComplete = false;
  }

  /** Why the index is being rebuilt, or null (index-repair.ts: one rebuild at a time). */
  indexRebuildReason(): string | null {
    return this.indexRebuild?.reason ?? null;
  }

  /** The embedder the vector leg uses now (EMBEDDER=auto switches to the trained model once it is ready). */
  get embedder(): Embedder | null {
    return this.deps.embedder;
  }

  /** Called while the model is trained and the index embedded; not ready until `ready`. */
  setModelState(state: ModelState | null): void {
    this.model = state;
  }

  /** Switches the vector leg to a model (it serves once the index holds that model's vectors). */
  setEmbedder(embedder: Embedder | null): void {
    this.deps.embedder = embedder;
  }

  /** Billable: charged to the caller (see UsageGuard). */
  search(ctx: RequestContext, input: unknown, timer?: StageTimer): Promise<SearchResponse> {
    const citations = (text: string, filters: EngineFilters) => this.resolver.citedDocuments(text, citationHints(filters));
    const places = (ids: string[]) => this.resolver.documentPlaces(ids);
    const metadata = (ids: string[]) => this.resolver.documentMetadata(ids);
    const sources = (source: string) => this.snapshot?.sourceNotice(source) ?? null;
    const authority = this.authority();
    return this.deps.usage.charge(ctx, 'search', async () => {
      // a malformed search is refused at once (422), not after waiting its turn
      parseInput(searchRequestSchema, input);
      return this.searchAdmission.run(ctx, () => search(
        { engine: this.engineFor(ctx), embedder: this.deps.embedder, citations, places, metadata, sources, authority, citedByCounts: (ids) => citedByCounts(ctx.em, ids), vectorTimeoutMs: this.deps.vectorTimeoutMs, feedbackPassages: this.deps.feedbackPassages, logger: this.deps.logger },
        input,
        timer,
      ).then((answer) => {
        // the legs' refinements swallow their errors: an abandoned search ends here, unanswered and unbilled
        ctx.signal.throwIfAborted();
        return answer;
      }));
    }, (answer) => searchFacts(input, answer));
  }

  /** The citation authority prior, once the corpus's citations are counted (and unless its weight is 0). */
  private authority(): CitationAuthority | undefined {
    const counts = this.citationCounts;
    const weight = this.deps.authorityWeight ?? AUTHORITY_WEIGHT;
    if (!counts || weight <= 0) return undefined;
    return { citedBy: (id) => counts.get(id) ?? 0, weight, saturation: AUTHORITY_SATURATION };
  }

  /** Billable: charged to the caller (see UsageGuard). */
  getDocument(ctx: RequestContext, source: string, sourceId: string): Promise<LegalDocument> {
    return this.deps.usage.charge(ctx, 'documents', async () => {
      const id = documentId(source, sourceId);
      const doc = (await this.engineFor(ctx).getDocuments([id])).get(id);
      if (!doc) throw new NotFoundError(`Document not found: ${source}/${sourceId}`);
      return coverCitatorReads(ctx, new Map([[id, doc]])).get(id)!;
    }, (doc) => documentFacts([doc]));
  }

  /**
   * Billable as ONE documents read for the whole list (docs/graphql.md, "Document references"):
   * one charge and one engine read, however many of its ids name a document.
   */
  async getDocuments(ctx: RequestContext, ids: readonly string[]): Promise<Map<string, LegalDocument>> {
    if (ids.length > MAX_DOCUMENTS_PER_READ) {
      const msg = `List should have at most ${MAX_DOCUMENTS_PER_READ} items after validation, not ${ids.length}`;
      throw new ValidationError([{ type: 'too_long', loc: ['ids'], msg, input: ids.length, ctx: { max_length: MAX_DOCUMENTS_PER_READ } }]);
    }
    const read = async () => coverCitatorReads(ctx, await this.engineFor(ctx).getDocuments([...new Set(ids)]));
    return this.deps.usage.charge(ctx, 'documents', read, (found) => documentFacts([...found.values()]));
  }

  /**
   * A document read whose body the client may not need (see LegalDataApi.readDocument): the
   * credentials are checked as for any billable call, but a read that ends without the body (a
   * HEAD, or a copy the client already holds) is neither counted against the plan nor limited, only
   * recorded for the statistics as such. Every other read is billed like getDocument (a missing
   * document included, as there).
   */
  async readDocument(ctx: RequestContext, source: string, sourceId: string, request: DocumentReadRequest): Promise<DocumentRead> {
    this.deps.usage.admit(ctx);
    const id = documentId(source, sourceId);
    const doc = (await this.deps.engine.getDocuments([id])).get(id);
    if (!doc && request.headOnly) throw new NotFoundError(`Document not found: ${source}/${sourceId}`);
    if (!doc) {
      // billed like any read of a missing document (its 404 is counted); indexed in between: served
      const found = await this.getDocument(ctx, source, sourceId);
      return { document: found, version: documentVersion(found), billed: true };
    }
    const version = documentVersion(doc);
    if (request.headOnly) {
      this.deps.usage.recordUnbilled(ctx, 'documents.head', 200);
      return { document: doc, version, billed: false };
    }
    if (request.isCurrent(version)) {
      this.deps.usage.recordUnbilled(ctx, 'documents.not_modified', 304);
      return { document: doc, version, billed: false };
    }
    return this.deps.usage.charge(ctx, 'documents', async () => ({ document: await withCitedByCount(ctx, doc), version, billed: true }), (read) => documentFacts([read.document]));
  }

  // The citator's reads (citator/citator.service.ts, billing there); the counts are not billed: they come with documents already read.
  readonly citedBy = (ctx: RequestContext, source: string, sourceId: string, input: unknown) => citedBy(this.citator, ctx, source, sourceId, input);
  readonly cites = (ctx: RequestContext, source: string, sourceId: string) => cites(this.citator, ctx, source, sourceId);
  readonly citedByCounts = (ctx: RequestContext, ids: readonly string[]) => citedByCounts(ctx.em, ids);
  readonly citedByPerYear = (ctx: RequestContext, id: string, filters: unknown) => citedByPerYear(ctx, id, filters);

  countries(ctx: RequestContext): Promise<CountriesResponse> {
    return this.agentBillable(ctx, 'discover_countries', async () => ({ countries: (await this.catalog()).countries() }));
  }

  sources(ctx: RequestContext, country: string, options: { includeEmpty?: boolean } = {}): Promise<SourcesResponse> {
    return this.agentBillable(ctx, 'discover_sources', async () => {
      const snapshot = await this.catalog();
      const code = snapshot.resolveCountry(country);
      if (!code) throw new NotFoundError(`Unknown country: ${country}`);
      return { country: code, sources: snapshot.sourcesOf(code, options.includeEmpty ?? false) };
    });
  }

  filters(ctx: RequestContext, source: string, namespace?: string): Promise<SourceFilters> {
    return this.agentBillable(ctx, 'get_filters', async () => {
      const ns = parseInput(z.object({ namespace: namespaceParam }), { namespace }).namespace;
      const snapshot = await this.catalog();
      const canonical = snapshot.resolveSource(source);
      if (!canonical) throw new NotFoundError(`Unknown source: ${source}`);
      return snapshot.filters(canonical, ns);
    });
  }

  courts(ctx: RequestContext, options: { country?: string; source?: string }): Promise<CourtInfo[]> {
    return this.agentBillable(ctx, 'get_courts', async () => {
      const snapshot = await this.catalog();
      const country = options.country ? snapshot.resolveCountry(options.country) : undefined;
      const source = options.source ? snapshot.resolveSource(options.source) : undefined;
      if (options.country && !country) throw new NotFoundError(`Unknown country: ${options.country}`);
      if (options.source && !source) throw new NotFoundError(`Unknown source: ${options.source}`);
      return snapshot.courts({ country: country ?? undefined, source: source ?? undefined });
    });
  }

  async stats(_ctx: RequestContext): Promise<Stats> {
    const stats = (await this.catalog()).stats();
    return { ...stats, index: { ...stats.index, ready: this.indexComplete } };
  }

  async manifest(_ctx: RequestContext): Promise<Manifest> {
    return (await this.catalog()).manifest({
      name: 'legal-search-platform',
      version: this.deps.version,
      engine: this.deps.engineName,
      endpoints: this.deps.endpoints(),
    });
  }

  async readiness(): Promise<Readiness> {
    const [database, engines] = await Promise.all([
      this.deps.pingDatabase().catch(() => false),
      // Engines on outside servers (Elasticsearch, Pinecone) say whether they answer.
      this.deps.engine.health ? this.deps.engine.health().catch((error: unknown) => [{ dependency: 'search engine', ok: false, detail: String(error) }]) : [],
    ]);
    const down = engines.filter((h) => !h.ok);
    // The engine answers again after an outage at start: build the catalogue in the background.
    if (this.snapshot === null && down.length === 0 && engines.length > 0 && !this.refreshing) this.refreshCatalog().catch(() => undefined);
    const index = this.snapshot !== null && down.length === 0;
    const recording = recordingReadiness(this.deps.usageRecording?.() ?? null, this.deps.analyticsRecording?.() ?? null);
    const ready = database && index && this.indexComplete && this.indexRebuild === null && (this.model === null || this.model.status === 'ready' || this.model.status === 'failed') && !recording.tooFarBehind;
    const missing = [
      ...(database ? [] : [{ dependency: 'database', detail: 'the relational store does not answer' }]),
      ...recording.missing,
      ...down.map((h) => ({ dependency: h.dependency, detail: h.detail ?? 'does not answer' })),
    ];
    const i = this.ingest;
    return {
      status: ready ? 'ready' : this.snapshot !== null ? 'indexing' : 'starting',
      stores: { database, index },
      ...(missing.length > 0 ? { missing } : {}),
      ingest: i
        ? {
            phase: i.phase,
            documents_done: i.documents_done,
            documents_total: i.documents_total,
            files_done: i.files_done,
            files_total: i.files_total,
            documents_per_second: i.documents_per_second === null ? null : Math.round(i.documents_per_second),
            eta_seconds: i.eta_seconds === null ? null : Math.round(i.eta_seconds),
          }
        : null,
      ...(this.model ? { embedding_model: this.model } : {}),
      ...recording.fields,
      ...(this.indexRebuild ? { index_rebuild: { reason: this.indexRebuild.reason } } : {}),
    };
  }

  /**
   * Discovery is open on REST and GraphQL (the API specification), but every MCP tool call is
   * billable (issue 6): calls that came through the MCP door are charged like search.
   */
  private agentBillable<T>(ctx: RequestContext, endpoint: string, work: () => Promise<T>): Promise<T> {
    return ctx.door === 'mcp' ? this.deps.usage.charge(ctx, endpoint, work) : work();
  }

  private async catalog(): Promise<CatalogSnapshot> {
    if (!this.snapshot) await this.refreshCatalog();
    return this.snapshot!;
  }
}

/** What a search's filters tell the resolver about the references in its query. */
function citationHints(filters: EngineFilters): ResolveHints {
  return {
    country: filters.countries?.length === 1 ? filters.countries[0] : null,
    type: filters.namespace === 'doctrine' ? null : filters.namespace,
  };
}
