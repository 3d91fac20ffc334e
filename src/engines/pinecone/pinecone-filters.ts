/**
 * What a passage's vector carries in Pinecone, and the request filters in Pinecone's filter
 * language. Only the fields the filters need are stored (Pinecone caps metadata at 40 KB per
 * record and bills storage by size): the text stays in the search engine.
 *
 * - `doc_id`: the document (to delete a document's passages by filter on re-ingest)
 * - `country`, `source`, `language`, `court`, `jurisdiction`: strings, `$eq` / `$in`
 * - `court_tier`: a number, `$eq`
 * - `date`: the document date as the number YYYYMMDD (Pinecone's `$gte` / `$lte` compare
 *   numbers only); a year alone is YYYY0000 and a month YYYYMM00, so numbers order exactly
 *   as the embedded engine's `YYYY-MM-DD` strings do.
 *
 * Absent values are left out (Pinecone has no null): a filter on the field then excludes the
 * record, as SQL's `NULL = 'x'` does in the embedded engine. The namespace is not a field:
 * each corpus namespace is a Pinecone namespace.
 */
import { intOrNull } from '../filter-values.js';
import type { EngineFilters } from '../search-engine.js';

export interface VectorMetadata {
  [key: string]: string | number;
}

/** The fields of a document the vector metadata is made of (a LegalDocument or a metadata row). */
export interface FilterSource {
  id: string;
  country: string;
  source: string;
  language?: string | null;
  date?: string | null;
  court?: string | null;
  jurisdiction?: string | null;
  court_tier?: number | null;
}

/** `YYYY-MM-DD` (or `YYYY`, `YYYY-MM`) as YYYYMMDD; null when it is not a date. */
export function dateNumber(date: string | null | undefined): number | null {
  const m = /^(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?/.exec(String(date ?? ''));
  if (!m) return null;
  return Number(m[1]) * 10_000 + Number(m[2] ?? 0) * 100 + Number(m[3] ?? 0);
}

/** The metadata stored with every passage vector of a document. */
export function vectorMetadata(doc: FilterSource): VectorMetadata {
  const out: VectorMetadata = { doc_id: doc.id, country: doc.country, source: doc.source };
  for (const key of ['language', 'court', 'jurisdiction'] as const) {
    const value = doc[key];
    if (value !== null && value !== undefined && value !== '') out[key] = String(value);
  }
  const courtTier = intOrNull(doc.court_tier);
  if (courtTier !== null) out.court_tier = courtTier;
  const date = dateNumber(doc.date);
  if (date !== null) out.date = date;
  return out;
}

/** The filters (all but the namespace, which selects the Pinecone namespace) as a Pinecone filter; undefined when none. */
export function pineconeFilter(filters: EngineFilters): Record<string, unknown> | undefined {
  const parts: Record<string, unknown>[] = [];
  if (filters.countries && filters.countries.length > 0) parts.push({ country: { $in: [...filters.countries] } });
  if (filters.sources && filters.sources.length > 0) parts.push({ source: { $in: [...filters.sources] } });
  if (filters.court !== undefined && filters.court !== null) parts.push({ court: { $eq: filters.court } });
  if (filters.courtTier !== undefined && filters.courtTier !== null) {
    if (!Number.isInteger(filters.courtTier)) throw new Error(`courtTier must be an integer (got ${filters.courtTier})`);
    parts.push({ court_tier: { $eq: filters.courtTier } });
  }
  if (filters.jurisdiction !== undefined && filters.jurisdiction !== null) parts.push({ jurisdiction: { $eq: filters.jurisdiction } });
  if (filters.language !== undefined && filters.language !== null) parts.push({ language: { $eq: filters.language } });
  const start = filters.dateStart ? dateNumber(filters.dateStart) : null;
  const end = filters.dateEnd ? dateNumber(filters.dateEnd) : null;
  if (filters.dateStart && start === null) throw new Error(`dateStart must be YYYY-MM-DD (got ${filters.dateStart})`);
  if (filters.dateEnd && end === null) throw new Error(`dateEnd must be YYYY-MM-DD (got ${filters.dateEnd})`);
  if (start !== null && end !== null) parts.push({ date: { $gte: start, $lte: end } });
  else if (start !== null) parts.push({ date: { $gte: start } });
  else if (end !== null) parts.push({ date: { $lte: end } });
  if (parts.length === 0) return undefined;
  return parts.length === 1 ? parts[0] : { $and: parts };
}
