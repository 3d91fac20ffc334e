/**
 * The embedded search engine: LanceDB tables in one directory.
 *
 * - `documents`: one row per document (every metadata column as a nullable string,
 *   `court_tier` int32, `short_names` / `extra` as JSON strings, the full `text`, the
 *   ingest's `content_hash` and the `analysis_version` its terms were produced with).
 *   Serves getDocuments, contentHashes and scanMetadata.
 * - `chunks`: one row per passage (`chunk_id` = `<docId>#<n>`, `doc_id`, `seq`, the filter
 *   columns, `title`, `content` = the original passage, `search_text` = the analysed terms
 *   of title + canonical path + short names + identifiers + content, see text-analysis.ts).
 *   `search_text` carries the full-text index (whitespace tokenizer: no lowercasing,
 *   stemming or stopwords in LanceDB, the analysis already did it).
 * - `vectors_<generation>`: one row per embedded chunk (`chunk_id`, `doc_id`, the filter
 *   columns, `vector` fixed-size list of float32), for the model named in `meta.json`.
 *   Vectors live in their own table so that replacing the model builds a new table and
 *   swaps it in atomically (the old model's vectors are never mixed with the new ones,
 *   and the keyword index is never rebuilt because vectors change).
 * - `meta.json`: `{ vectorModel, dimension, vectorTable, generation }`.
 *
 * Writes are serialised inside the process; reads never wait for them. Rows appended since
 * the last `optimize()` are searched by a flat scan until the next optimize indexes them.
 */
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { Field, FixedSizeList, Float32, Int32, Schema, Utf8 } from 'apache-arrow';
import type {
  DocumentHit,
  DocumentInput,
  DocumentPlace,
  EngineFilters,
  SearchEngine,
  StoredChunk,
} from '../search-engine.js';
import type { DocumentMetadata, DocumentWithoutText, LegalDocument, Namespace } from '../../modules/legal-data/legal-document.js';
import { ANALYSIS_VERSION, analyzeDocumentText, analyzeQuery, resolveDocumentLanguage } from '../text-analysis.js';

export interface LanceDbEngineOptions {
  /** Vectors needed before a vector index is built (below, flat search is exact and fast enough). */
  vectorIndexMinRows?: number;
  /** Seconds between checks for changes made by another process (e.g. a CLI ingest). */
  readConsistencySeconds?: number;
  /**
   * Chunks appended without an optimize() after which upsertDocuments optimizes by itself,
   * so searches during a long ingest never flat-scan more than this many rows.
   */
  autoOptimizeChunks?: number;
}

const DOCUMENTS = 'documents';
const CHUNKS = 'chunks';
const META_FILE = 'meta.json';
const FTS_COLUMN = 'search_text';
/** Largest number of literals in one `IN (...)` list. */
const IN_LIST_MAX = 1000;
/** Rows buffered by replaceVectors before one append. */
const VECTOR_WRITE_ROWS = 20_000;
/** Versions older than this are pruned by optimize(). */
const KEEP_VERSIONS_MS = 2 * 60_000;

/** Nullable string columns of `documents`, in LegalDocument order (court_tier, short_names, extra apart). */
const DOC_STRING_COLUMNS = [
  'source', 'source_id', 'namespace', 'country', 'title', 'text',
  'language', 'date', 'url', 'court', 'jurisdiction', 'chamber', 'ecli', 'case_number', 'decision_type',
  'decision_number', 'authority', 'document_type', 'status', 'identifier', 'eli_uri', 'effective_date',
  'expiry_date', 'granularity', 'unit_type', 'unit_number', 'canonical_path', 'parent_source_id', 'summary',
  'subdivision',
] as const;
const REQUIRED_DOC_COLUMNS = new Set(['source', 'source_id', 'namespace', 'country', 'title', 'text']);

/** Columns both legs filter on, copied onto every chunk and vector row. */
const FILTER_STRING_COLUMNS = ['namespace', 'country', 'source', 'language', 'date', 'court', 'jurisdiction'] as const;

/** Columns of `documents` that scanMetadata reads (no text, extra, summary or hash). */
const METADATA_COLUMNS = [
  'id',
  ...DOC_STRING_COLUMNS.filter((c) => c !== 'text' && c !== 'summary'),
  'court_tier',
  'short_names',
];

const utf8 = (name: string, nullable = true) => new Field(name, new Utf8(), nullable);

const DOCUMENTS_SCHEMA = new Schema([
  utf8('id', false),
  ...DOC_STRING_COLUMNS.map((c) => utf8(c, !REQUIRED_DOC_COLUMNS.has(c))),
  new Field('court_tier', new Int32(), true),
  utf8('short_names', false),
  utf8('extra', false),
  utf8('content_hash', false),
  new Field('analysis_version', new Int32(), false),
]);

const filterFields = () => [
  ...FILTER_STRING_COLUMNS.map((c) => utf8(c, c === 'namespace' || c === 'country' || c === 'source' ? false : true)),
  new Field('court_tier', new Int32(), true),
];

const CHUNKS_SCHEMA = new Schema([
  utf8('chunk_id', false),
  utf8('doc_id', false),
  new Field('seq', new Int32(), false),
  ...filterFields(),
  utf8('title', false),
  utf8('content', false),
  utf8(FTS_COLUMN, false),
]);

function vectorsSchema(dimension: number): Schema {
  return new Schema([
    utf8('chunk_id', false),
    utf8('doc_id', false),
    ...filterFields(),
    new Field('vector', new FixedSizeList(dimension, new Field('item', new Float32(), true)), false),
  ]);
}

interface Meta {
  vectorModel: string | null;
  dimension: number | null;
  vectorTable: string | null;
  generation: number;
}
const EMPTY_META: Meta = { vectorModel: null, dimension: null, vectorTable: null, generation: 0 };

type FilterValues = {
  namespace: string;
  country: string;
  source: string;
  language: string | null;
  date: string | null;
  court: string | null;
  jurisdiction: string | null;
  court_tier: number | null;
};

/** A SQL string literal (single quotes doubled). */
export function sqlString(value: string): string {
  return `'${String(value).replace(/'/g, "''")}'`;
}

function inLists(column: string, values: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < values.length; i += IN_LIST_MAX) {
    out.push(`${column} IN (${values.slice(i, i + IN_LIST_MAX).map(sqlString).join(', ')})`);
  }
  return out;
}

/** The SQL `where` of the filters (used as a prefilter by both legs). */
export function buildWhere(filters: EngineFilters): string {
  const parts = [`namespace = ${sqlString(filters.namespace)}`];
  if (filters.countries && filters.countries.length > 0) parts.push(`country IN (${filters.countries.map(sqlString).join(', ')})`);
  if (filters.sources && filters.sources.length > 0) parts.push(`source IN (${filters.sources.map(sqlString).join(', ')})`);
  if (filters.court !== undefined && filters.court !== null) parts.push(`court = ${sqlString(filters.court)}`);
  if (filters.courtTier !== undefined && filters.courtTier !== null) {
    if (!Number.isInteger(filters.courtTier)) throw new Error(`courtTier must be an integer (got ${filters.courtTier})`);
    parts.push(`court_tier = ${filters.courtTier}`);
  }
  if (filters.jurisdiction !== undefined && filters.jurisdiction !== null) parts.push(`jurisdiction = ${sqlString(filters.jurisdiction)}`);
  if (filters.language !== undefined && filters.language !== null) parts.push(`language = ${sqlString(filters.language)}`);
  if (filters.dateStart) parts.push(`\`date\` >= ${sqlString(filters.dateStart)}`);
  if (filters.dateEnd) parts.push(`\`date\` <= ${sqlString(filters.dateEnd)}`);
  return parts.join(' AND ');
}

function nullableString(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return String(value);
}

function intOrNull(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  const n = typeof value === 'bigint' ? Number(value) : Number(value);
  return Number.isFinite(n) ? Math.trunc(n) : null;
}

function filterValues(doc: LegalDocument): FilterValues {
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

function documentRow(doc: LegalDocument, contentHash: string): Record<string, unknown> {
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

function parseJson<T>(value: unknown, fallback: T): T {
  if (typeof value !== 'string' || value === '') return fallback;
  try {
    return JSON.parse(value) as T;
  } catch {
    return fallback;
  }
}

function rowToMetadata(row: Record<string, unknown>): DocumentMetadata {
  const out: Record<string, unknown> = { id: String(row.id) };
  for (const c of DOC_STRING_COLUMNS) {
    if (c === 'text' || c === 'summary') continue;
    out[c] = REQUIRED_DOC_COLUMNS.has(c) ? String(row[c] ?? '') : nullableString(row[c]);
  }
  out.namespace = out.namespace as Namespace;
  out.court_tier = intOrNull(row.court_tier);
  out.short_names = parseJson<string[]>(row.short_names, []);
  return out as unknown as DocumentMetadata;
}

function rowToDocument(row: Record<string, unknown>): LegalDocument {
  const meta = rowToMetadata(row) as unknown as Record<string, unknown>;
  meta.text = String(row.text ?? '');
  meta.summary = nullableString(row.summary);
  meta.extra = parseJson<Record<string, unknown>>(row.extra, {});
  return meta as unknown as LegalDocument;
}

/** The doc id of a chunk id (`<docId>#<n>`; doc ids may themselves contain `#`). */
function docIdOfChunk(chunkId: string): string {
  const i = chunkId.lastIndexOf('#');
  return i < 0 ? chunkId : chunkId.slice(0, i);
}

/** Header text indexed with every chunk of a document, so titles and identifiers match. */
function searchHeader(doc: LegalDocument): string {
  return [doc.title, doc.canonical_path, ...(doc.short_names ?? []), doc.ecli, doc.case_number, doc.identifier]
    .filter((v): v is string => typeof v === 'string' && v.length > 0)
    .join('\n');
}

function norm(v: Float32Array): number {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  return Math.sqrt(s);
}

/** Cosine similarity of two vectors (0 when either is zero). */
function cosine(a: Float32Array, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

/** Keeps each document's best row (rows come best first). */
function collapse<T extends { doc_id: string }>(rows: T[]): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const r of rows) {
    if (seen.has(r.doc_id)) continue;
    seen.add(r.doc_id);
    out.push(r);
  }
  return out;
}

export class LanceDbEngine implements SearchEngine {
  private db: lancedb.Connection | null = null;
  private documents!: lancedb.Table;
  /** Columns of the documents table but the large ones, for hits that need no text. */
  private columnsWithoutText: string[] | null = null;
  private chunks!: lancedb.Table;
  private vectors: lancedb.Table | null = null;
  private meta: Meta = { ...EMPTY_META };
  private metaMtimeMs = 0;
  private ftsReady = false;
  private hasVectorIndex = false;
  private writeQueue: Promise<unknown> = Promise.resolve();
  /** True while a write runs: it owns meta.json, reads do not reload it then. */
  private writing = false;
  /** Chunks written since the last optimize (not in the full-text index yet). */
  private unindexedChunks = 0;
  private readonly options: Required<LanceDbEngineOptions>;

  constructor(
    private readonly dir: string,
    options: LanceDbEngineOptions = {},
  ) {
    this.options = {
      vectorIndexMinRows: options.vectorIndexMinRows ?? 50_000,
      readConsistencySeconds: options.readConsistencySeconds ?? 2,
      autoOptimizeChunks: options.autoOptimizeChunks ?? 100_000,
    };
  }

  // -------------------------------------------------------------------------------------------
  // Lifecycle

  async open(): Promise<void> {
    if (this.db) return;
    await mkdir(this.dir, { recursive: true });
    const db = await lancedb.connect(this.dir, { readConsistencyInterval: this.options.readConsistencySeconds });
    const names = new Set(await db.tableNames());
    this.documents = names.has(DOCUMENTS) ? await db.openTable(DOCUMENTS) : await db.createEmptyTable(DOCUMENTS, DOCUMENTS_SCHEMA);
    this.chunks = names.has(CHUNKS) ? await db.openTable(CHUNKS) : await db.createEmptyTable(CHUNKS, CHUNKS_SCHEMA);
    this.db = db;
    await this.loadMeta(true);
    this.ftsReady = (await this.chunks.listIndices()).some((i) => i.columns.includes(FTS_COLUMN));
  }

  async close(): Promise<void> {
    if (!this.db) return;
    await this.writeQueue.catch(() => undefined);
    this.vectors?.close();
    this.chunks.close();
    this.documents.close();
    this.db.close();
    this.db = null;
    this.vectors = null;
  }

  private requireOpen(): lancedb.Connection {
    if (!this.db) throw new Error('LanceDbEngine: call open() first');
    return this.db;
  }

  /** Runs write operations one at a time. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const guarded = async () => {
      this.writing = true;
      try {
        return await fn();
      } finally {
        this.writing = false;
      }
    };
    const run = this.writeQueue.then(guarded, guarded);
    this.writeQueue = run.catch(() => undefined);
    return run;
  }

  // -------------------------------------------------------------------------------------------
  // meta.json

  private get metaPath(): string {
    return path.join(this.dir, META_FILE);
  }

  /** Reloads meta.json when another process changed it (or on open). */
  private async loadMeta(force = false, fromWrite = false): Promise<void> {
    const db = this.requireOpen();
    if (this.writing && !fromWrite && !force) return;
    let mtime = 0;
    try {
      mtime = (await stat(this.metaPath)).mtimeMs;
    } catch {
      mtime = 0;
    }
    if (!force && mtime === this.metaMtimeMs) return;
    this.metaMtimeMs = mtime;
    const meta: Meta = mtime ? { ...EMPTY_META, ...parseJson<Partial<Meta>>(await readFile(this.metaPath, 'utf8'), {}) } : { ...EMPTY_META };
    if (meta.vectorTable !== this.meta.vectorTable || force) {
      this.vectors?.close();
      this.vectors = null;
      this.hasVectorIndex = false;
      if (meta.vectorTable && (await db.tableNames()).includes(meta.vectorTable)) {
        this.vectors = await db.openTable(meta.vectorTable);
        this.hasVectorIndex = (await this.vectors.listIndices()).some((i) => i.columns.includes('vector'));
      } else if (meta.vectorTable) {
        // The vectors are gone (a crash between two steps): report no model so the ingest re-embeds.
        meta.vectorModel = null;
        meta.vectorTable = null;
      }
    }
    this.meta = meta;
  }

  private async saveMeta(meta: Meta): Promise<void> {
    const tmp = `${this.metaPath}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify(meta, null, 2));
    await rename(tmp, this.metaPath);
    this.meta = meta;
    this.metaMtimeMs = (await stat(this.metaPath)).mtimeMs;
  }

  // -------------------------------------------------------------------------------------------
  // Search

  async keywordSearch(query: string, filters: EngineFilters, limit: number): Promise<DocumentHit[]> {
    this.requireOpen();
    if (limit <= 0) return [];
    const terms = analyzeQuery(query, { language: filters.language ?? null });
    if (terms.length === 0) return [];
    const where = buildWhere(filters);
    const text = terms.join(' ');
    let k = Math.max(limit * 4, 20);
    for (;;) {
      const rows = (await this.chunks
        .query()
        .fullTextSearch(new lancedb.MatchQuery(text, FTS_COLUMN, { operator: lancedb.Operator.Or }))
        .where(where)
        .select(['doc_id', 'content', '_score'])
        .limit(k)
        .toArray()) as { doc_id: string; content: string; _score: number }[];
      const best = collapse(rows);
      if (best.length >= limit || rows.length < k || k >= limit * 64) {
        return best.slice(0, limit).map((r) => ({ docId: r.doc_id, score: Number(r._score), passage: r.content }));
      }
      k *= 4;
    }
  }

  async vectorSearch(vector: Float32Array, filters: EngineFilters, limit: number): Promise<DocumentHit[]> {
    this.requireOpen();
    if (limit <= 0) return [];
    await this.loadMeta();
    const table = this.vectors;
    if (!table || this.meta.dimension !== vector.length || norm(vector) === 0) return [];
    const where = buildWhere(filters);
    let k = Math.max(limit * 4, 20);
    for (;;) {
      let q = table
        .query()
        .nearestTo(vector)
        .column('vector')
        .distanceType('cosine')
        .where(where)
        .select(['chunk_id', 'doc_id', 'vector'])
        .limit(k);
      if (this.hasVectorIndex) q = q.ef(Math.max(k * 2, 100));
      // The candidates are rescored with their exact cosine similarity: the HNSW index works on
      // scalar-quantised vectors and reports another distance than a flat search does (for
      // unit vectors, squared L2 = 2 - 2 cos instead of 1 - cos), and the hybrid fusion needs
      // the model's true cosine on every path.
      const rows = ((await q.toArray()) as { chunk_id: string; doc_id: string; vector: ArrayLike<number> | { toArray(): ArrayLike<number> } }[]).map((r) => ({
        chunk_id: r.chunk_id,
        doc_id: r.doc_id,
        score: cosine(vector, 'toArray' in r.vector ? r.vector.toArray() : r.vector),
      }));
      rows.sort((a, b) => b.score - a.score);
      const best = collapse(rows);
      if (best.length >= limit || rows.length < k || k >= limit * 64) {
        const top = best.slice(0, limit);
        const passages = await this.chunkContents(top.map((r) => r.chunk_id));
        return top.map((r) => ({ docId: r.doc_id, score: r.score, passage: passages.get(r.chunk_id) ?? '' }));
      }
      k *= 4;
    }
  }

  private async chunkContents(chunkIds: string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const where of inLists('chunk_id', chunkIds)) {
      const rows = (await this.chunks.query().where(where).select(['chunk_id', 'content']).toArray()) as { chunk_id: string; content: string }[];
      for (const r of rows) out.set(r.chunk_id, r.content);
    }
    return out;
  }

  // -------------------------------------------------------------------------------------------
  // Documents

  async documentPlaces(ids: string[]): Promise<Map<string, DocumentPlace>> {
    this.requireOpen();
    const out = new Map<string, DocumentPlace>();
    for (const where of inLists('id', [...new Set(ids)])) {
      const rows = (await this.documents
        .query()
        .where(`${where} AND parent_source_id IS NOT NULL`)
        .select(['id', 'source', 'parent_source_id', 'canonical_path'])
        .toArray()) as { id: string; source: string; parent_source_id: string; canonical_path: string | null }[];
      for (const r of rows) {
        const parentId = `${r.source}/${r.parent_source_id}`;
        const path = r.canonical_path ?? '';
        const cut = path.lastIndexOf(' > ');
        out.set(r.id, { parentId, section: cut > 0 ? `${parentId} | ${path.slice(0, cut)}` : null });
      }
    }
    return out;
  }

  async documentsMatching(ids: string[], filters: EngineFilters): Promise<DocumentHit[]> {
    this.requireOpen();
    const wanted = [...new Set(ids)];
    const found = new Map<string, string>();
    for (const where of inLists('doc_id', wanted)) {
      const rows = (await this.chunks
        .query()
        .where(`${where} AND seq = 0 AND ${buildWhere(filters)}`)
        .select(['doc_id', 'content'])
        .toArray()) as { doc_id: string; content: string }[];
      for (const r of rows) found.set(r.doc_id, r.content);
    }
    return wanted.filter((id) => found.has(id)).map((id) => ({ docId: id, score: 0, passage: found.get(id)! }));
  }

  async getDocuments(ids: string[]): Promise<Map<string, LegalDocument>> {
    this.requireOpen();
    const out = new Map<string, LegalDocument>();
    for (const where of inLists('id', [...new Set(ids)])) {
      const rows = (await this.documents.query().where(where).toArray()) as Record<string, unknown>[];
      for (const row of rows) out.set(String(row.id), rowToDocument(row));
    }
    return out;
  }

  async getDocumentsWithoutText(ids: string[]): Promise<Map<string, DocumentWithoutText>> {
    this.requireOpen();
    this.columnsWithoutText ??= (await this.documents.schema()).fields.map((f) => f.name).filter((n) => n !== 'text' && n !== 'extra');
    const out = new Map<string, DocumentWithoutText>();
    for (const where of inLists('id', [...new Set(ids)])) {
      const rows = (await this.documents.query().where(where).select(this.columnsWithoutText).toArray()) as Record<string, unknown>[];
      for (const row of rows) out.set(String(row.id), { ...rowToMetadata(row), summary: nullableString(row.summary) });
    }
    return out;
  }

  /**
   * Hashes of the stored documents. A document whose terms were produced by another version
   * of the text analysis is left out, so the ingest indexes it again.
   */
  async contentHashes(docIds: string[]): Promise<Map<string, string>> {
    this.requireOpen();
    const out = new Map<string, string>();
    for (const [id, { hash, analysisVersion }] of await this.storedVersions(docIds)) {
      if (analysisVersion === ANALYSIS_VERSION) out.set(id, hash);
    }
    return out;
  }

  private async storedVersions(docIds: string[]): Promise<Map<string, { hash: string; analysisVersion: number }>> {
    const out = new Map<string, { hash: string; analysisVersion: number }>();
    for (const where of inLists('id', [...new Set(docIds)])) {
      const rows = (await this.documents.query().where(where).select(['id', 'content_hash', 'analysis_version']).toArray()) as {
        id: string;
        content_hash: string;
        analysis_version: number;
      }[];
      for (const r of rows) out.set(r.id, { hash: r.content_hash, analysisVersion: Number(r.analysis_version) });
    }
    return out;
  }

  async *scanMetadata(): AsyncIterable<DocumentMetadata[]> {
    this.requireOpen();
    const BATCH = 2000;
    let pending: DocumentMetadata[] = [];
    for await (const batch of this.documents.query().select(METADATA_COLUMNS)) {
      for (const row of batch.toArray() as unknown as Record<string, unknown>[]) {
        pending.push(rowToMetadata(row));
        if (pending.length >= BATCH) {
          yield pending;
          pending = [];
        }
      }
    }
    if (pending.length > 0) yield pending;
  }

  async countDocuments(): Promise<number> {
    this.requireOpen();
    return this.documents.countRows();
  }

  async countChunks(): Promise<{ total: number; withVectors: number }> {
    this.requireOpen();
    await this.loadMeta();
    const [total, withVectors] = await Promise.all([this.chunks.countRows(), this.vectors ? this.vectors.countRows() : 0]);
    return { total, withVectors };
  }

  upsertDocuments(batch: DocumentInput[]): Promise<void> {
    this.requireOpen();
    return this.exclusive(async () => {
      await this.loadMeta(false, true);
      const byId = new Map<string, DocumentInput>();
      for (const input of batch) byId.set(input.document.id, input); // the last one of an id wins
      if (byId.size === 0) return;
      const inputs = [...byId.values()];

      const docRows: Record<string, unknown>[] = [];
      const chunkRows: Record<string, unknown>[] = [];
      const vectorRows: Record<string, unknown>[] = [];
      for (const { document: doc, contentHash, chunks } of inputs) {
        docRows.push(documentRow(doc, contentHash));
        const filters = filterValues(doc);
        const language = resolveDocumentLanguage(doc.text, doc.language);
        const header = searchHeader(doc);
        const list = chunks.length > 0 ? chunks : [{ content: '' }];
        list.forEach((chunk, seq) => {
          const chunkId = `${doc.id}#${seq}`;
          chunkRows.push({
            chunk_id: chunkId,
            doc_id: doc.id,
            seq,
            ...filters,
            title: doc.title ?? '',
            content: chunk.content,
            [FTS_COLUMN]: analyzeDocumentText(`${header}\n${chunk.content}`, language, { detect: false }),
          });
          const vector = 'vector' in chunk ? chunk.vector : undefined;
          if (vector) {
            if (!this.meta.vectorModel || !this.meta.dimension) {
              throw new Error('upsertDocuments: chunks carry vectors but no vector model is set (call setVectorModel first)');
            }
            if (vector.length !== this.meta.dimension) {
              throw new Error(`upsertDocuments: vector of ${chunkId} has dimension ${vector.length}, the index holds ${this.meta.dimension}`);
            }
            if (norm(vector) > 0) vectorRows.push({ chunk_id: chunkId, doc_id: doc.id, ...filters, vector });
          }
        });
      }

      const ids = inputs.map((i) => i.document.id);
      const existing = [...(await this.storedVersions(ids)).keys()];
      // The document row carries the content hash the ingest compares, so it is written LAST:
      // after a crash mid-batch the hash still says "changed" and the resumed ingest rewrites
      // the chunks. Chunks a crash left behind for a not-yet-written document are removed too.
      const stale = [...new Set([...existing, ...(await this.orphanedChunkOwners(ids, existing))])];
      for (const where of inLists('doc_id', stale)) {
        await this.chunks.delete(where);
        if (this.vectors) await this.vectors.delete(where);
      }
      await this.chunks.add(chunkRows);
      if (vectorRows.length > 0) {
        const vectors = await this.ensureVectorTable();
        await vectors.add(vectorRows);
      }
      if (existing.length > 0) {
        await this.documents.mergeInsert('id').whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(docRows);
      } else {
        await this.documents.add(docRows);
      }
      this.unindexedChunks += chunkRows.length;
      if (!this.ftsReady) await this.createFtsIndex();
      else if (this.unindexedChunks >= this.options.autoOptimizeChunks) await this.optimizeNow();
    });
  }

  /** Ids among `ids` (not stored as documents) that still own chunks: leftovers of a crash. */
  private async orphanedChunkOwners(ids: string[], stored: string[]): Promise<string[]> {
    const known = new Set(stored);
    const fresh = ids.filter((id) => !known.has(id));
    const owners = new Set<string>();
    for (const where of inLists('doc_id', fresh)) {
      const rows = (await this.chunks.query().where(where).select(['doc_id']).toArray()) as { doc_id: string }[];
      for (const row of rows) owners.add(row.doc_id);
    }
    return [...owners];
  }

  deleteDocuments(ids: string[]): Promise<void> {
    this.requireOpen();
    return this.exclusive(async () => {
      await this.loadMeta(false, true);
      const unique = [...new Set(ids)];
      for (const where of inLists('doc_id', unique)) {
        await this.chunks.delete(where);
        if (this.vectors) await this.vectors.delete(where);
      }
      for (const where of inLists('id', unique)) await this.documents.delete(where);
    });
  }

  // -------------------------------------------------------------------------------------------
  // Vectors

  async vectorModel(): Promise<string | null> {
    this.requireOpen();
    await this.loadMeta();
    return this.meta.vectorModel;
  }

  async *scanChunks(batchSize: number): AsyncIterable<StoredChunk[]> {
    this.requireOpen();
    const size = Math.max(1, batchSize);
    let pending: StoredChunk[] = [];
    for await (const batch of this.chunks.query().select(['chunk_id', 'doc_id', 'title', 'content'])) {
      for (const row of batch.toArray() as unknown as { chunk_id: string; doc_id: string; title: string; content: string }[]) {
        pending.push({ chunkId: row.chunk_id, docId: row.doc_id, title: row.title, content: row.content });
        if (pending.length >= size) {
          yield pending;
          pending = [];
        }
      }
    }
    if (pending.length > 0) yield pending;
  }

  setVectorModel(modelId: string | null, dimension: number | null): Promise<void> {
    this.requireOpen();
    return this.exclusive(async () => {
      await this.loadMeta(false, true);
      if (modelId === null) {
        await this.swapVectors({ vectorModel: null, dimension: null, vectorTable: null, generation: this.meta.generation + 1 }, null);
        return;
      }
      if (dimension === null || !Number.isInteger(dimension) || dimension <= 0) throw new Error(`setVectorModel: bad dimension ${dimension}`);
      if (this.meta.vectorModel === modelId && (this.meta.dimension === dimension || this.meta.dimension === null)) {
        if (this.meta.dimension === null) await this.saveMeta({ ...this.meta, dimension });
        return;
      }
      // Another model: its vectors start from nothing (the old model's are dropped).
      await this.swapVectors({ vectorModel: modelId, dimension, vectorTable: null, generation: this.meta.generation + 1 }, null);
    });
  }

  replaceVectors(modelId: string, vectors: AsyncIterable<Map<string, Float32Array>>): Promise<void> {
    this.requireOpen();
    return this.exclusive(async () => {
      await this.loadMeta(false, true);
      const db = this.requireOpen();
      const generation = this.meta.generation + 1;
      const name = `vectors_${generation}`;
      if ((await db.tableNames()).includes(name)) await db.dropTable(name); // leftover of a failed run
      const filtersByDoc = await this.documentFilterValues();
      let table: lancedb.Table | null = null;
      let dimension: number | null = null;
      let buffer: Record<string, unknown>[] = [];
      const flush = async () => {
        if (buffer.length === 0 || dimension === null) return;
        table ??= await db.createEmptyTable(name, vectorsSchema(dimension));
        await table.add(buffer);
        buffer = [];
      };
      try {
        for await (const map of vectors) {
          for (const [chunkId, vector] of map) {
            dimension ??= vector.length;
            if (vector.length !== dimension) throw new Error(`replaceVectors: vector of ${chunkId} has dimension ${vector.length}, expected ${dimension}`);
            const docId = docIdOfChunk(chunkId);
            const filters = filtersByDoc.get(docId);
            if (!filters || norm(vector) === 0) continue; // a chunk deleted meanwhile, or an empty text
            buffer.push({ chunk_id: chunkId, doc_id: docId, ...filters, vector });
          }
          if (buffer.length >= VECTOR_WRITE_ROWS) await flush();
        }
        await flush();
        // Index a large new table before it goes live, so searches never fall back to a flat scan.
        if (table && (await (table as lancedb.Table).countRows()) >= this.options.vectorIndexMinRows) {
          await LanceDbEngine.createVectorIndex(table as lancedb.Table);
        }
      } catch (error) {
        (table as lancedb.Table | null)?.close();
        if ((await db.tableNames()).includes(name)) await db.dropTable(name);
        throw error;
      }
      await this.swapVectors(
        { vectorModel: modelId, dimension: dimension ?? this.meta.dimension, vectorTable: table ? name : null, generation },
        table,
      );
      this.hasVectorIndex = table !== null && (await (table as lancedb.Table).listIndices()).some((i) => i.columns.includes('vector'));
    });
  }

  /** Points meta.json at another vector table (or none) and drops the previous one. */
  private async swapVectors(meta: Meta, table: lancedb.Table | null): Promise<void> {
    const db = this.requireOpen();
    const previous = this.meta.vectorTable;
    await this.saveMeta(meta);
    // The previous handle is not closed: a search may still be reading through it.
    this.vectors = table;
    this.hasVectorIndex = false;
    if (previous && previous !== meta.vectorTable && (await db.tableNames()).includes(previous)) await db.dropTable(previous);
  }

  private async ensureVectorTable(): Promise<lancedb.Table> {
    if (this.vectors) return this.vectors;
    const db = this.requireOpen();
    const generation = this.meta.generation + 1;
    const name = `vectors_${generation}`;
    if ((await db.tableNames()).includes(name)) await db.dropTable(name);
    const table = await db.createEmptyTable(name, vectorsSchema(this.meta.dimension!));
    await this.swapVectors({ ...this.meta, vectorTable: name, generation }, table);
    return table;
  }

  /** Filter columns of every stored document (for the rows of a new vector table). */
  private async documentFilterValues(): Promise<Map<string, FilterValues>> {
    const out = new Map<string, FilterValues>();
    const columns = ['id', ...FILTER_STRING_COLUMNS, 'court_tier'];
    for await (const batch of this.documents.query().select(columns)) {
      for (const row of batch.toArray() as unknown as Record<string, unknown>[]) {
        out.set(String(row.id), {
          namespace: String(row.namespace),
          country: String(row.country),
          source: String(row.source),
          language: nullableString(row.language),
          date: nullableString(row.date),
          court: nullableString(row.court),
          jurisdiction: nullableString(row.jurisdiction),
          court_tier: intOrNull(row.court_tier),
        });
      }
    }
    return out;
  }

  // -------------------------------------------------------------------------------------------
  // Indexes

  private async createFtsIndex(): Promise<void> {
    if ((await this.chunks.countRows()) === 0) return;
    await this.chunks.createIndex(FTS_COLUMN, {
      config: lancedb.Index.fts({
        baseTokenizer: 'whitespace',
        lowercase: false,
        stem: false,
        removeStopWords: false,
        asciiFolding: false,
        withPosition: false,
        maxTokenLength: 64,
      }),
      replace: true,
    });
    this.ftsReady = true;
    this.unindexedChunks = 0;
  }

  /** HNSW over scalar-quantised vectors, cosine distance (one graph up to ~1M vectors). */
  private static async createVectorIndex(table: lancedb.Table): Promise<void> {
    const rows = await table.countRows();
    await table.createIndex('vector', {
      config: lancedb.Index.hnswSq({ distanceType: 'cosine', numPartitions: Math.max(1, Math.round(rows / 1_000_000)) }),
      replace: true,
    });
  }

  private static async ensureScalarIndex(table: lancedb.Table, column: string): Promise<void> {
    const indices = await table.listIndices();
    if (indices.some((i) => i.columns.includes(column))) return;
    if ((await table.countRows()) === 0) return;
    await table.createIndex(column, { config: lancedb.Index.btree() });
  }

  optimize(): Promise<void> {
    this.requireOpen();
    return this.exclusive(async () => {
      await this.loadMeta(false, true);
      await this.optimizeNow();
    });
  }

  /** Builds missing indexes, folds appended rows into them, compacts and prunes (inside the write lock). */
  private async optimizeNow(): Promise<void> {
    this.unindexedChunks = 0;
    const cleanupOlderThan = new Date(Date.now() - KEEP_VERSIONS_MS);
    // Keyword leg: the full-text index, lookups by chunk and document id, then compaction
    // (optimize also adds the rows appended since to every index).
    if (!this.ftsReady) await this.createFtsIndex();
    await LanceDbEngine.ensureScalarIndex(this.chunks, 'doc_id');
    await LanceDbEngine.ensureScalarIndex(this.chunks, 'chunk_id');
    await this.chunks.optimize({ cleanupOlderThan });
    await LanceDbEngine.ensureScalarIndex(this.documents, 'id');
    await this.documents.optimize({ cleanupOlderThan });
    if (this.vectors) {
      await LanceDbEngine.ensureScalarIndex(this.vectors, 'doc_id');
      const rows = await this.vectors.countRows();
      if (!this.hasVectorIndex && rows >= this.options.vectorIndexMinRows) {
        await LanceDbEngine.createVectorIndex(this.vectors);
        this.hasVectorIndex = true;
      }
      await this.vectors.optimize({ cleanupOlderThan });
    }
  }
}
