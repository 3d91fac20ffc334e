/**
 * What the doors (REST, GraphQL, MCP) may ask of the legal-data module. Each method takes
 * the request context first and validates its own input: a door only maps protocols.
 */
import type { CitedByResponse, CitesResponse } from './citator/citator.schema.js';
import type { CitedByYear } from './citator/cited-by-years.js';
import type { RequestContext } from '../../context.js';
import type { CountriesResponse, CourtInfo, Manifest, Readiness, SourceFilters, SourcesResponse, Stats } from './catalog.schema.js';
import type { LegalDocument } from '../../domain/legal-document.js';
import type { ResolveCoverage, ResolveResponse } from './resolve.schema.js';
import type { SearchResponse } from './search.schema.js';
import type { StageTimer } from '../../util/stage-timer.js';

/** What identifies a document's current content for HTTP caches (src/modules/legal-data/document-version.ts). */
export interface DocumentVersion {
  /** The opaque part of its strong entity tag: a hash of the document as served. */
  etag: string;
  /** Its date (decision, enactment) as the last modification, when it has one. */
  lastModified: Date | null;
}

/** How a door reads a document when the client may not need its body. */
export interface DocumentReadRequest {
  /** Only the headers are wanted (HEAD). */
  headOnly: boolean;
  /** True when the client already holds this version (its If-None-Match names it). */
  isCurrent(version: DocumentVersion): boolean;
}

export interface DocumentRead {
  document: LegalDocument;
  version: DocumentVersion;
  /** False for a read that ends without the body (HEAD, or the client's copy is current): not counted. */
  billed: boolean;
}

/** How many documents one getDocuments call reads (and bills as one read): search's top_k bound. */
export const MAX_DOCUMENTS_PER_READ = 100;

export interface LegalDataApi {
  /** Validates `input` against searchRequestSchema (ValidationError with locs relative to the body). */
  search(ctx: RequestContext, input: unknown, timer?: StageTimer): Promise<SearchResponse>;
  /** NotFoundError when unknown. `source` is `<country>/<source_name>`. */
  getDocument(ctx: RequestContext, source: string, sourceId: string): Promise<LegalDocument>;
  /**
   * getDocument for a client that may not need the body: a HEAD, or a revalidation of a copy it
   * holds (`isCurrent`), ends without it and is not billed (credentials are still required);
   * otherwise billed like getDocument. NotFoundError when unknown.
   */
  readDocument(ctx: RequestContext, source: string, sourceId: string, request: DocumentReadRequest): Promise<DocumentRead>;
  /**
   * The documents of a list resolved in one step (GraphQL's federated `Document` references,
   * batched per request): at most MAX_DOCUMENTS_PER_READ ids (`<source>/<source_id>`), one
   * engine read, billed as ONE documents read (docs/graphql.md, "Document references"). Ids that
   * name no document are absent from the map; more ids than the bound is a ValidationError.
   */
  getDocuments(ctx: RequestContext, ids: readonly string[]): Promise<Map<string, LegalDocument>>;
  /** The documents citing a document (citator, issue 37): filters, sort and cursor of citedByQuerySchema; billed as a documents read; NotFoundError when unknown. */
  citedBy(ctx: RequestContext, source: string, sourceId: string, input: unknown): Promise<CitedByResponse>;
  /** What a document cites: resolved links in order of appearance, then the unresolved citations; billed as a documents read. */
  cites(ctx: RequestContext, source: string, sourceId: string): Promise<CitesResponse>;
  /** How many documents cite each of `ids` (0 for none), in one read; not billed (asked for documents already read). */
  citedByCounts(ctx: RequestContext, ids: readonly string[]): Promise<Map<string, number>>;
  /** Documents citing the document `id` per year of the citing document, with the cited-by filters (citedByFiltersSchema); not billed, like the counts. */
  citedByPerYear(ctx: RequestContext, id: string, filters: unknown): Promise<CitedByYear[]>;
  /** The spec's CountriesResponse: jurisdictions with documents. */
  countries(ctx: RequestContext): Promise<CountriesResponse>;
  /**
   * The spec's SourcesResponse (the canonical country code and its sources). NotFoundError for a
   * country with no catalogued source; sources without documents are left out unless `includeEmpty`.
   */
  sources(ctx: RequestContext, country: string, options?: { includeEmpty?: boolean }): Promise<SourcesResponse>;
  /** NotFoundError for an unknown source; namespace defaults to the source's largest one. */
  filters(ctx: RequestContext, source: string, namespace?: string): Promise<SourceFilters>;
  courts(ctx: RequestContext, options: { country?: string; source?: string }): Promise<CourtInfo[]>;
  stats(ctx: RequestContext): Promise<Stats>;
  manifest(ctx: RequestContext): Promise<Manifest>;
  readiness(): Promise<Readiness>;
  /**
   * Resolves a citation to exact documents (validates `input` against resolveRequestSchema).
   * Billable like search. An unresolvable reference is an answer (`none`), not an error.
   */
  resolve(ctx: RequestContext, input: unknown): Promise<ResolveResponse>;
  /** Per source: whether resolve patterns reach it, how many, and its document count. */
  resolveCoverage(ctx: RequestContext): Promise<ResolveCoverage>;
}
