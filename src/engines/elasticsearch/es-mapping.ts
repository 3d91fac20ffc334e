/**
 * The Elasticsearch indexes of the search engine and their explicit mappings (no dynamic
 * fields anywhere: an unexpected field is an error, not a guessed type).
 *
 * - `<prefix>documents` (an alias on `<prefix>documents-<generation>`): one ES document per
 *   legal document (`_id` = its id): every metadata field as a `keyword` (filters, exact
 *   look-ups), dates as `date`, `court_tier` as `integer`, the full `text`, `summary` and
 *   `extra` kept in `_source` but not indexed, the ingest's `content_hash`, the
 *   `analysis_version` and `chunk_count` (how many passages it owns, so a re-ingest deletes
 *   exactly the passages the new version no longer has).
 * - `<prefix>chunks` (an alias on `<prefix>chunks-<generation>`): one ES document per passage
 *   (`_id` = `<docId>#<seq>`), the filter fields copied from its document (both legs filter
 *   the chunks, as in the embedded engine), `content` (the original passage, not indexed) and
 *   `search` (title + canonical path + short names + identifiers + passage, the text the
 *   embedded engine puts in its full-text column), analysed per language: `search.<lang>`
 *   with Elasticsearch's built-in analyser for that language, `search.std` with the standard
 *   analyser for every other language. With `VECTOR_ENGINE=elasticsearch` each chunk also
 *   carries `vector`, a `dense_vector` (cosine, HNSW) whose dimension is fixed by the first
 *   vector written (a model of another dimension builds a new chunks generation).
 * - `<prefix>meta`: one document (`_id` = `vectors`): `{ vectorModel, dimension }`.
 *
 * Readers go through the aliases; a rebuild writes new generations and switches both aliases
 * in one `_aliases` call at the end, so a search never sees a half-built index.
 */
import { normalizeLanguage } from '../language-detection.js';

/**
 * Languages of the corpus (ISO 639-1, see ../shared/corpus/STATS-*.md: fr, en, de, es, pt,
 * it, lb, sv, hr, el, hu, da, nl, cs, pl, fi, lv, ar, lt lead; the rest of the world after
 * them) -> Elasticsearch's built-in language analyser. Luxembourgish borrows the German one
 * (as the embedded engine's stemmer does); Chinese, Japanese and Korean use `cjk` (bigrams,
 * as the embedded engine does). Croatian, Serbian and Polish have no built-in analyser in
 * every supported Elasticsearch version (Polish needs the Stempel plugin): they, like every
 * language not listed, go to `search.std`. Only analysers documented since Elasticsearch 8.0
 * are named, since an unknown one would fail the index creation.
 */
export const ES_LANGUAGE_ANALYZERS: Record<string, string> = {
  ar: 'arabic',
  hy: 'armenian',
  eu: 'basque',
  bn: 'bengali',
  bg: 'bulgarian',
  ca: 'catalan',
  zh: 'cjk',
  ja: 'cjk',
  ko: 'cjk',
  cs: 'czech',
  da: 'danish',
  nl: 'dutch',
  en: 'english',
  et: 'estonian',
  fi: 'finnish',
  fr: 'french',
  gl: 'galician',
  de: 'german',
  lb: 'german',
  el: 'greek',
  hi: 'hindi',
  hu: 'hungarian',
  id: 'indonesian',
  ga: 'irish',
  it: 'italian',
  lv: 'latvian',
  lt: 'lithuanian',
  no: 'norwegian',
  nb: 'norwegian',
  nn: 'norwegian',
  fa: 'persian',
  pt: 'portuguese',
  ro: 'romanian',
  ru: 'russian',
  ckb: 'sorani',
  es: 'spanish',
  sv: 'swedish',
  tr: 'turkish',
  th: 'thai',
};

/** Sub-field of `search` for languages without a built-in analyser. */
export const STANDARD_FIELD = 'std';

/** The `search.*` sub-fields (one per distinct analyser, named after the analyser). */
export const SEARCH_SUBFIELDS: Record<string, string> = Object.fromEntries([
  ...[...new Set(Object.values(ES_LANGUAGE_ANALYZERS))].map((analyzer) => [analyzer, analyzer]),
  [STANDARD_FIELD, 'standard'],
]);

/** The `search.*` sub-field a text of this language is indexed in (and a query of it searched in). */
export function searchSubfield(language: string | null | undefined): string {
  const l = normalizeLanguage(language);
  return (l && ES_LANGUAGE_ANALYZERS[l]) ?? STANDARD_FIELD;
}

/**
 * Bump when the mapping or the text put into `search` changes in a way that needs every
 * document indexed again: stored documents of another version are left out of contentHashes,
 * so the ingest rewrites them.
 */
export const ES_MAPPING_VERSION = 1;

/** Keyword fields of the documents index (the metadata, filters and look-ups). */
export const DOCUMENT_KEYWORD_FIELDS = [
  'id', 'source', 'source_id', 'namespace', 'country', 'language', 'url', 'court', 'jurisdiction', 'chamber', 'ecli',
  'case_number', 'decision_type', 'decision_number', 'authority', 'document_type', 'status', 'identifier', 'eli_uri',
  'granularity', 'unit_type', 'unit_number', 'canonical_path', 'parent_source_id', 'subdivision', 'short_names',
  'content_hash',
] as const;
export const DOCUMENT_DATE_FIELDS = ['date', 'effective_date', 'expiry_date'] as const;

/**
 * Dates are `YYYY-MM-DD` in the corpus; a year or a month alone is accepted too. A malformed
 * value does not reject the document: it is kept in `_source` and left out of the date index
 * (such a document never passes a date filter, like a document without a date).
 */
const dateField = { type: 'date', format: 'strict_date||strict_year_month||strict_year', ignore_malformed: true } as const;
/**
 * Longer values stay in `_source` but are not indexed (Lucene refuses terms over 32,766 bytes,
 * which would fail the whole document): 8,191 characters of up to 4 bytes each.
 */
const keyword = { type: 'keyword', ignore_above: 8191 } as const;

/** One shard holds ~10-50 GB: ELASTICSEARCH_SHARDS / ELASTICSEARCH_REPLICAS raise these for the worldwide corpus (docs/SCALING.md). */
export function indexSettings(shards = 1, replicas = 0) {
  return { number_of_shards: shards, number_of_replicas: replicas };
}

export function documentsMapping() {
  const properties: Record<string, unknown> = {};
  for (const f of DOCUMENT_KEYWORD_FIELDS) properties[f] = keyword;
  for (const f of DOCUMENT_DATE_FIELDS) properties[f] = dateField;
  properties.court_tier = { type: 'integer' };
  properties.title = { type: 'keyword', index: false, doc_values: false };
  properties.text = { type: 'text', index: false };
  properties.summary = { type: 'text', index: false };
  properties.extra = { type: 'object', enabled: false };
  properties.analysis_version = { type: 'integer' };
  properties.chunk_count = { type: 'integer' };
  return { dynamic: 'strict', properties } as const;
}

/** The chunks mapping; `vectors`: the `dense_vector` field for VECTOR_ENGINE=elasticsearch. */
export function chunksMapping(vectors: boolean) {
  const fields: Record<string, unknown> = {};
  for (const [name, analyzer] of Object.entries(SEARCH_SUBFIELDS)) fields[name] = { type: 'text', analyzer };
  const properties: Record<string, unknown> = {
    chunk_id: keyword,
    doc_id: keyword,
    seq: { type: 'integer' },
    namespace: keyword,
    country: keyword,
    source: keyword,
    language: keyword,
    date: dateField,
    court: keyword,
    jurisdiction: keyword,
    court_tier: { type: 'integer' },
    title: { type: 'keyword', index: false, doc_values: false },
    content: { type: 'text', index: false },
    // The object holds one sub-field per analyser; each chunk fills the one of its language.
    search: { type: 'object', dynamic: 'strict', properties: Object.fromEntries(Object.entries(fields)) },
  };
  // Float HNSW (no int8/bbq quantisation): the score is the exact cosine, as the fusion needs.
  if (vectors) properties.vector = { type: 'dense_vector', similarity: 'cosine', index: true, index_options: { type: 'hnsw' } };
  return { dynamic: 'strict', properties } as const;
}

export const META_MAPPING = {
  dynamic: 'strict',
  properties: { vectorModel: keyword, dimension: { type: 'integer' } },
} as const;

export interface IndexNames {
  documents: string;
  chunks: string;
  meta: string;
}

/** Alias names for a prefix (`legal-` -> `legal-documents`, `legal-chunks`, `legal-meta`). */
export function aliasNames(prefix: string): IndexNames {
  return { documents: `${prefix}documents`, chunks: `${prefix}chunks`, meta: `${prefix}meta` };
}

/** The concrete index of an alias for one generation. */
export function generationIndex(alias: string, generation: number): string {
  return `${alias}-${generation}`;
}
