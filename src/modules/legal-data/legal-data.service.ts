/**
 * The legal-data module's service: the one implementation of LegalDataApi that REST,
 * GraphQL and MCP all call. Discovery and statistics come from an in-memory snapshot
 * refreshed after each ingest step.
 */
import type { RequestContext } from '../../context.js';
import type { Embedder } from '../../engines/embedder.js';
import type { SearchEngine } from '../../engines/search-engine.js';
import { NotFoundError } from '../../errors.js';
import { parseInput } from '../../validation.js';
import { z } from 'zod';
import { CatalogSnapshot } from './catalog-snapshot.js';
import type { CountryInfo, CourtInfo, Manifest, Readiness, SourceFilters, SourceInfo, Stats } from './catalog.schema.js';
import type { CatalogSource } from './ingest/corpus-reader.js';
import type { IngestState } from './ingest/ingest.service.js';
import type { LegalDataApi } from './legal-data.port.js';
import { documentId, NAMESPACES, type LegalDocument } from './legal-document.js';
import { search } from './search.service.js';
import type { SearchResponse } from './search.schema.js';

export interface LegalDataDeps {
  engine: SearchEngine;
  embedder: Embedder | null;
  engineName: string;
  /** The sources catalogue from the relational store. */
  loadCatalogue: () => Promise<CatalogSource[]>;
  /** True when the relational store answers. */
  pingDatabase: () => Promise<boolean>;
  version: string;
  endpoints: string[];
}

const namespaceParam = z.enum(NAMESPACES).optional();

export class LegalDataService implements LegalDataApi {
  private snapshot: CatalogSnapshot | null = null;
  private ingest: IngestState | null = null;
  private indexComplete = false;

  constructor(private readonly deps: LegalDataDeps) {}

  /** Rebuilds discovery and statistics from the index and the catalogue. */
  async refreshCatalog(): Promise<void> {
    const [sources, chunks, model] = await Promise.all([
      this.deps.loadCatalogue(),
      this.deps.engine.countChunks(),
      this.deps.engine.vectorModel(),
    ]);
    this.snapshot = await CatalogSnapshot.build(this.deps.engine.scanMetadata(), sources, {
      chunks: chunks.total,
      chunksWithVectors: chunks.withVectors,
      embeddingModel: model,
    });
  }

  /** Called by the background ingest with its progress; `complete` once the corpus is indexed. */
  setIngestState(state: IngestState | null, complete: boolean): void {
    this.ingest = state;
    this.indexComplete = complete;
  }

  search(_ctx: RequestContext, input: unknown): Promise<SearchResponse> {
    return search(this.deps, input);
  }

  async getDocument(_ctx: RequestContext, source: string, sourceId: string): Promise<LegalDocument> {
    const id = documentId(source, sourceId);
    const doc = (await this.deps.engine.getDocuments([id])).get(id);
    if (!doc) throw new NotFoundError(`Document not found: ${source}/${sourceId}`);
    return doc;
  }

  async countries(_ctx: RequestContext): Promise<CountryInfo[]> {
    return (await this.catalog()).countries();
  }

  async sources(_ctx: RequestContext, country: string, options: { includeEmpty: boolean }): Promise<SourceInfo[]> {
    const snapshot = await this.catalog();
    const code = snapshot.resolveCountry(country);
    if (!code) throw new NotFoundError(`Unknown country: ${country}`);
    return snapshot.sourcesOf(code, options.includeEmpty);
  }

  async filters(_ctx: RequestContext, source: string, namespace?: string): Promise<SourceFilters> {
    const ns = parseInput(z.object({ namespace: namespaceParam }), { namespace }).namespace;
    const snapshot = await this.catalog();
    const canonical = snapshot.resolveSource(source);
    if (!canonical) throw new NotFoundError(`Unknown source: ${source}`);
    return snapshot.filters(canonical, ns);
  }

  async courts(_ctx: RequestContext, options: { country?: string; source?: string }): Promise<CourtInfo[]> {
    const snapshot = await this.catalog();
    const country = options.country ? snapshot.resolveCountry(options.country) : undefined;
    const source = options.source ? snapshot.resolveSource(options.source) : undefined;
    if (options.country && !country) throw new NotFoundError(`Unknown country: ${options.country}`);
    if (options.source && !source) throw new NotFoundError(`Unknown source: ${options.source}`);
    return snapshot.courts({ country: country ?? undefined, source: source ?? undefined });
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
      endpoints: this.deps.endpoints,
    });
  }

  async readiness(): Promise<Readiness> {
    const database = await this.deps.pingDatabase().catch(() => false);
    const index = this.snapshot !== null;
    const ready = database && index && this.indexComplete;
    const i = this.ingest;
    return {
      status: ready ? 'ready' : index ? 'indexing' : 'starting',
      stores: { database, index },
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
    };
  }

  private async catalog(): Promise<CatalogSnapshot> {
    if (!this.snapshot) await this.refreshCatalog();
    return this.snapshot!;
  }
}
