/**
 * Query DSL of the Elasticsearch engine: the filters (one `bool.filter` clause per condition,
 * the same conditions as the embedded engine's SQL `where`), the keyword leg (BM25 over the
 * `search.*` sub-fields, collapsed to each document's best passage) and the vector leg (kNN
 * prefiltered by the same clauses). Pure functions: tests assert their output.
 */
import type { EngineFilters } from '../search-engine.js';
import { searchSubfield } from './es-mapping.js';

export type QueryClause = Record<string, unknown>;

/** The filter clauses of a request (ANDed; a chunk passes when it matches all of them). */
export function filterClauses(filters: EngineFilters): QueryClause[] {
  const out: QueryClause[] = [{ term: { namespace: filters.namespace } }];
  if (filters.countries && filters.countries.length > 0) out.push({ terms: { country: filters.countries } });
  if (filters.sources && filters.sources.length > 0) out.push({ terms: { source: filters.sources } });
  if (filters.court !== undefined && filters.court !== null) out.push({ term: { court: filters.court } });
  if (filters.courtTier !== undefined && filters.courtTier !== null) {
    if (!Number.isInteger(filters.courtTier)) throw new Error(`courtTier must be an integer (got ${filters.courtTier})`);
    out.push({ term: { court_tier: filters.courtTier } });
  }
  if (filters.jurisdiction !== undefined && filters.jurisdiction !== null) out.push({ term: { jurisdiction: filters.jurisdiction } });
  if (filters.language !== undefined && filters.language !== null) out.push({ term: { language: filters.language } });
  if (filters.dateStart || filters.dateEnd) {
    const range: Record<string, string> = { format: 'strict_date' };
    if (filters.dateStart) range.gte = filters.dateStart;
    if (filters.dateEnd) range.lte = filters.dateEnd;
    out.push({ range: { date: range } });
  }
  return out;
}

/**
 * The keyword leg's search body: every query word is optional (OR, like the embedded leg),
 * BM25 per chunk over the text the embedded engine indexes (title, path, short names,
 * identifiers and the passage in one field, all of weight 1). With a language filter only
 * that language's sub-field is searched (its documents are all there); without one every
 * sub-field is, each analysing the query with its own language's analyser, and a chunk
 * scores by the one field it fills (best_fields). `collapse` keeps each document's best chunk.
 */
export function keywordSearchBody(query: string, filters: EngineFilters, limit: number): Record<string, unknown> {
  const fields = filters.language ? [`search.${searchSubfield(filters.language)}`] : ['search.*'];
  return {
    size: limit,
    query: {
      bool: {
        must: [{ multi_match: { query, fields, type: 'best_fields', operator: 'or' } }],
        filter: filterClauses(filters),
      },
    },
    collapse: { field: 'doc_id' },
    _source: ['doc_id', 'content'],
    track_total_hits: false,
  };
}

/** The vector leg's search body for `k` nearest chunks (the caller collapses them to documents). */
export function vectorSearchBody(vector: Float32Array, filters: EngineFilters, k: number): Record<string, unknown> {
  return {
    size: k,
    knn: {
      field: 'vector',
      query_vector: Array.from(vector),
      k,
      num_candidates: Math.min(10_000, Math.max(k * 2, 100)),
      filter: { bool: { filter: filterClauses(filters) } },
    },
    _source: ['doc_id', 'content'],
    track_total_hits: false,
  };
}

/**
 * Elasticsearch's `cosine` similarity scores `(1 + cos) / 2`; the fusion needs the model's
 * cosine, as the embedded leg reports it. The vectors are indexed without quantisation
 * (`index_options.type: hnsw`), so the score is the exact cosine of the stored vector.
 */
export function cosineOfScore(score: number): number {
  return 2 * score - 1;
}
