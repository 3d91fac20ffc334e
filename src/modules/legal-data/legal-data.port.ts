/**
 * What the doors (REST, GraphQL, MCP) may ask of the legal-data module. Each method takes
 * the request context first and validates its own input: a door only maps protocols.
 */
import type { RequestContext } from '../../context.js';
import type { CountriesResponse, CourtInfo, Manifest, Readiness, SourceFilters, SourcesResponse, Stats } from './catalog.schema.js';
import type { LegalDocument } from '../../domain/legal-document.js';
import type { ResolveCoverage, ResolveResponse } from './resolve.schema.js';
import type { SearchResponse } from './search.schema.js';
import type { StageTimer } from '../../util/stage-timer.js';

export interface LegalDataApi {
  /** Validates `input` against searchRequestSchema (ValidationError with locs relative to the body). */
  search(ctx: RequestContext, input: unknown, timer?: StageTimer): Promise<SearchResponse>;
  /** NotFoundError when unknown. `source` is `<country>/<source_name>`. */
  getDocument(ctx: RequestContext, source: string, sourceId: string): Promise<LegalDocument>;
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
