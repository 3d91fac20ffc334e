/**
 * Tables of the embedded engine and their rows: the `documents` and `chunks` schemas, a
 * generation's `vectors_<n>` schema, and the mapping between LegalDocument and rows.
 */
import { Field, FixedSizeList, Float32, Int32, Schema } from 'apache-arrow';
import type { DocumentMetadata, LegalDocument, Namespace } from '../../domain/legal-document.js';
import { ANALYSIS_VERSION } from '../text-analysis.js';
import { FILTER_STRING_COLUMNS, filterFields, intOrNull, nullableString, utf8 } from './lancedb-filters.js';

export const DOCUMENTS = 'documents';
export const CHUNKS = 'chunks';
export const FTS_COLUMN = 'search_text';

/** Nullable string columns of `documents`, in LegalDocument order (court_tier, short_names, extra apart). */
export const DOC_STRING_COLUMNS = [
  'source', 'source_id', 'namespace', 'country', 'title', 'text',
  'language', 'date', 'url', 'court', 'jurisdiction', 'chamber', 'ecli', 'case_number', 'decision_type',
  'decision_number', 'authority', 'document_type', 'status', 'identifier', 'eli_uri', 'effective_date',
  'expiry_date', 'granularity', 'unit_type', 'unit_number', 'canonical_path', 'parent_source_id', 'summary',
  'subdivision',
] as const;
const REQUIRED_DOC_COLUMNS = new Set(['source', 'source_id', 'namespace', 'country', 'title', 'text']);

/** Columns of `documents` that scanMetadata reads (no text, extra, summary or hash). */
export const METADATA_COLUMNS = [
  'id',
  ...DOC_STRING_COLUMNS.filter((c) => c !== 'text' && c !== 'summary'),
  'court_tier',
  'short_names',
];

export const DOCUMENTS_SCHEMA = new Schema([
  utf8('id', false),
  ...DOC_STRING_COLUMNS.map((c) => utf8(c, !REQUIRED_DOC_COLUMNS.has(c))),
  new Field('court_tier', new Int32(), true),
  utf8('short_names', false),
  utf8('extra', false),
  utf8('content_hash', false),
  new Field('analysis_version', new Int32(), false),
]);

export const CHUNKS_SCHEMA = new Schema([
  utf8('chunk_id', false),
  utf8('doc_id', false),
  new Field('seq', new Int32(), false),
  ...filterFields(),
  utf8('title', false),
  utf8('content', false),
  utf8(FTS_COLUMN, false),
]);

/** Schema of a vector generation's table. */
export function vectorsSchema(dimension: number): Schema {
  return new Schema([
    utf8('chunk_id', false),
    utf8('doc_id', false),
    ...filterFields(),
    new Field('vector', new FixedSizeList(dimension, new Field('item', new Float32(), true)), false),
  ]);
}

/** Columns of `documents` that a new vector generation copies onto its rows. */
export const DOCUMENT_FILTER_COLUMNS = ['id', ...FILTER_STRING_COLUMNS, 'court_tier'];

/** The `documents` row of a document. */
export function documentRow(doc: LegalDocument, contentHash: string): Record<string, unknown> {
  const row: Record<string, unknown> = { id: doc.id };
  for (const c of DOC_STRING_COLUMNS) {
    const v = nullableString((doc as unknown as Record<string, unknown>)[c]);
    row[c] = REQUIRED_DOC_COLUMNS.has(c) ? (v ?? '') : v;
  }
  row.court_tier = intOrNull(doc.court_tier);
  row.short_names = JSON.stringify(Array.isArray(doc.short_names) ? doc.short_names : []);
  row.extra = JSON.stringify(doc.extra ?? {});
  row.content_hash = contentHash;
  row.analysis_version = ANALYSIS_VERSION;
  return row;
}

export function parseJson<T>(value: unknown, fallback: T): T {
  if (typeof value !== 'string' || value === '') return fallback;
  try {
    return JSON.parse(value) as T;
  } catch {
    return fallback;
  }
}

/**
 * A document's metadata from its row, as one object literal: every field written at once gives
 * V8 one fixed shape for the 136k records the resolver keeps in memory (fields added one by one
 * in a loop turned each record into a hash table: ~1.2 KB more per document, 165 MB on the full
 * corpus). The columns with few distinct values are interned (one string per value).
 */
export function rowToMetadata(row: Record<string, unknown>): DocumentMetadata {
  const text = (c: string) => nullableString(row[c]);
  const few = (c: string) => intern(nullableString(row[c]));
  return {
    id: String(row.id),
    source: intern(String(row.source ?? '')),
    source_id: String(row.source_id ?? ''),
    namespace: intern(String(row.namespace ?? '')) as Namespace,
    country: intern(String(row.country ?? '')),
    title: String(row.title ?? ''),
    language: few('language'),
    date: few('date'),
    url: text('url'),
    court: few('court'),
    jurisdiction: few('jurisdiction'),
    chamber: few('chamber'),
    ecli: text('ecli'),
    case_number: text('case_number'),
    decision_type: few('decision_type'),
    decision_number: text('decision_number'),
    authority: few('authority'),
    document_type: few('document_type'),
    status: few('status'),
    identifier: text('identifier'),
    eli_uri: text('eli_uri'),
    effective_date: few('effective_date'),
    expiry_date: few('expiry_date'),
    granularity: few('granularity'),
    unit_type: few('unit_type'),
    unit_number: text('unit_number'),
    canonical_path: text('canonical_path'),
    parent_source_id: few('parent_source_id'),
    subdivision: few('subdivision'),
    court_tier: intOrNull(row.court_tier),
    short_names: parseJson<string[]>(row.short_names, []),
  } as DocumentMetadata;
}

/** One copy of each value of the few-valued columns (at most INTERNED values; then values are kept as read). */
const INTERNED = 100_000;
const interned = new Map<string, string>();
function intern<T extends string | null>(value: T): T {
  if (value === null) return value;
  const known = interned.get(value);
  if (known !== undefined) return known as T;
  if (interned.size < INTERNED) interned.set(value, value);
  return value;
}

export function rowToDocument(row: Record<string, unknown>): LegalDocument {
  const meta = rowToMetadata(row) as unknown as Record<string, unknown>;
  meta.text = String(row.text ?? '');
  meta.summary = nullableString(row.summary);
  meta.extra = parseJson<Record<string, unknown>>(row.extra, {});
  return meta as unknown as LegalDocument;
}

/** The doc id of a chunk id (`<docId>#<n>`; doc ids may themselves contain `#`). */
export function docIdOfChunk(chunkId: string): string {
  const i = chunkId.lastIndexOf('#');
  return i < 0 ? chunkId : chunkId.slice(0, i);
}

/** Header text indexed with every chunk of a document, so titles and identifiers match. */
export function searchHeader(doc: LegalDocument): string {
  return [doc.title, doc.canonical_path, ...(doc.short_names ?? []), doc.ecli, doc.case_number, doc.identifier]
    .filter((v): v is string => typeof v === 'string' && v.length > 0)
    .join('\n');
}

