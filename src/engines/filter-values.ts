/**
 * The values a document is filtered by (namespace, country, source, language, date, court,
 * jurisdiction, court tier), normalised once for every engine: each copies them onto what its
 * legs filter (LanceDB's chunk and vector rows, Elasticsearch's passages, Pinecone's metadata).
 */
import type { LegalDocument } from '../domain/legal-document.js';

export type FilterValues = {
  namespace: string;
  country: string;
  source: string;
  language: string | null;
  date: string | null;
  court: string | null;
  jurisdiction: string | null;
  court_tier: number | null;
};

export function nullableString(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return String(value);
}

export function intOrNull(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  const n = Number(value); // bigint columns too
  return Number.isFinite(n) ? Math.trunc(n) : null;
}

/** The filter columns of a document. */
export function filterValues(doc: LegalDocument): FilterValues {
  return {
    namespace: doc.namespace,
    country: doc.country,
    source: doc.source,
    language: nullableString(doc.language),
    date: nullableString(doc.date),
    court: nullableString(doc.court),
    jurisdiction: nullableString(doc.jurisdiction),
    court_tier: intOrNull(doc.court_tier),
  };
}
