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
 *
 * This class is the SearchEngine port and the tables' lifecycle; its parts live beside it:
 * `lancedb-filters.ts` (filter columns and the SQL `where`), `lancedb-tables.ts` (schemas and
 * rows), `lancedb-search.ts` (the two legs), `lancedb-writes.ts` (write lock, batch rows,
 * keyword indexes) and `lancedb-vectors.ts` (vector generations and meta.json).
 */
// size: already cut into seven lancedb-*.ts parts; what remains is the SearchEngine port's ~25 short methods over the state they share (open tables, the write lock, meta re-checks, the passage cache), which reads best as one class
import { mkdir, rm } from 'node:fs/promises';
import * as lancedb from '@lancedb/lancedb';
import type {
  DocumentHit,
  DocumentInput,
  DocumentPlace,
  EngineCallOptions,
  EngineFilters,
  SearchEngine,
  StoredChunk,
} from '../search-engine.js';
import { documentPlace } from '../search-engine.js';
import type { DocumentMetadata, DocumentWithoutText, LegalDocument } from '../../domain/legal-document.js';
import type { CompoundVocabulary } from '../compounds.js';
import { ANALYSIS_VERSION } from '../text-analysis.js';
import { buildWhere, inLists, nullableString, plainRows } from './lancedb-filters.js';
import { type HeldVectors, VectorMemory } from './lancedb-vector-memory.js';
import { chunkContents, keywordSearch, passageVectorsOf, vectorScoresOf, vectorSearch } from './lancedb-search.js';
import { CHUNKS, CHUNKS_SCHEMA, DOCUMENTS, DOCUMENTS_SCHEMA, FTS_COLUMN, METADATA_COLUMNS, rowToDocument, rowToMetadata } from './lancedb-tables.js';
import { VectorGenerations } from './lancedb-vectors.js';
import { VocabularyStore } from './lancedb-vocabulary.js';
import { PASSAGE_CACHE_SIZE, PassageCache } from './lancedb-passage-cache.js';
import { readEveryIndexFile } from './lancedb-integrity.js';
import { isLanceStorageError } from './lancedb-storage-errors.js';
import { batchRows, createFtsIndex, deleteChunksOf, ensureReadIndexes, ensureScalarIndex, optimizeWhenNeeded, WriteLock } from './lancedb-writes.js';
import { StoredLedger, type StoredVersion } from './lancedb-stored-ledger.js';

export { buildWhere, sqlString } from './lancedb-filters.js';

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
  /** Quiet time after the last write before a stale compound vocabulary is rebuilt, or the vectors held in memory are loaded again (default 30 s). */
  vocabularyQuietMs?: number;
  /** Where the engine reports background work (the compound vocabulary's builds). */
  log?: (message: string) => void;
  /** Passages kept between searches (0 turns the cache off). */
  passageCacheSize?: number;
  /** Whether the indexed vector generation is kept in memory as int8 (default true; lancedb-vector-memory.ts). */
  vectorMemory?: boolean;
}

/** Searches look at meta.json at most this often (ms). */
const META_RECHECK_MS = 1000;

/** Versions older than this are pruned by optimize(). */
const KEEP_VERSIONS_MS = 2 * 60_000;

export class LanceDbEngine implements SearchEngine {
  private db: lancedb.Connection | null = null;
  private documents!: lancedb.Table;
  /** Columns of the documents table but the large ones, for hits that need no text. */
  private columnsWithoutText: string[] | null = null;
  private chunks!: lancedb.Table;
  private readonly generations: VectorGenerations;
  private ftsReady = false;
  private readonly writes = new WriteLock();
  /** The stored documents' hashes, kept between writes (lancedb-stored-ledger.ts). */
  private readonly ledger = new StoredLedger();
  /** Chunks written since the last optimize (not in the full-text index yet). */
  private unindexedChunks = 0;
  /** When a read last looked at meta.json (performance.now()). */
  private metaCheckedAt = 0;
  private readonly options: Required<Omit<LanceDbEngineOptions, 'log' | 'passageCacheSize' | 'vectorMemory'>>;
  /** Passages of earlier searches' hits, dropped when the chunks table moves. */
  private readonly passageCache: PassageCache;
  /** The indexed generation's vectors, quantised, for the legs' exact scores without a read. */
  private readonly vectorMemory: VectorMemory;
  /** The corpus vocabulary of the compounding languages the keyword leg splits and joins compounds with. */
  private readonly vocabulary: VocabularyStore;

  constructor(
    private readonly dir: string,
    options: LanceDbEngineOptions = {},
  ) {
    this.options = {
      vectorIndexMinRows: options.vectorIndexMinRows ?? 50_000,
      readConsistencySeconds: options.readConsistencySeconds ?? 2,
      autoOptimizeChunks: options.autoOptimizeChunks ?? 100_000,
      vocabularyQuietMs: options.vocabularyQuietMs ?? 30_000,
    };
    this.generations = new VectorGenerations(dir, this.options.vectorIndexMinRows);
    this.vocabulary = new VocabularyStore(dir, options.log);
    this.passageCache = new PassageCache(() => this.chunks, options.passageCacheSize ?? PASSAGE_CACHE_SIZE);
    this.vectorMemory = new VectorMemory({ enabled: options.vectorMemory ?? true, quietMs: this.options.vocabularyQuietMs, log: options.log });
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
    await this.vocabulary.load();
    if (this.vocabulary.current === null) this.vocabulary.refreshIfStale(this.chunks, await this.chunks.countRows());
    // An index built before the legs' filter columns (or the vectors' chunk ids) had their
    // indexes gets them now, in the background (searches meanwhile scan, as before).
    if (this.ftsReady) this.write(() => this.ensureReadIndexes()).catch(() => undefined);
  }

  /**
   * Whether an ingest should count the compound vocabulary from the corpus before it writes:
   * when the index is empty (a first ingest or a rebuild) or its vocabulary was not counted
   * from the corpus (an index of an older version: the documents written from now on are
   * split). A resumed or incremental ingest keeps the stored one, so the terms already written
   * and the query side stay consistent.
   */
  async needsCompoundVocabulary(): Promise<boolean> {
    this.requireOpen();
    await this.vocabulary.reloadIfChanged();
    return this.vocabulary.current?.origin !== 'corpus' || (await this.documents.countRows()) === 0;
  }

  /** Stores the vocabulary an ingest counted from the corpus; documents written from now on are split with it. */
  setCompoundVocabulary(vocabulary: CompoundVocabulary): Promise<void> {
    return this.write(() => this.vocabulary.setCorpusVocabulary(vocabulary));
  }

  /** Builds the compound vocabulary now if it is missing or stale, and resolves once it is done (tests, benchmarks). */
  async vocabularyReady(): Promise<void> {
    this.requireOpen();
    await this.vocabulary.idle();
    this.vocabulary.refreshIfStale(this.chunks, await this.chunks.countRows());
    await this.vocabulary.idle();
  }

  /** The read indexes of the chunks table and of the current vector generation, inside the write lock. */
  private async ensureReadIndexes(): Promise<void> {
    await ensureReadIndexes(this.chunks);
    const vectors = this.generations.table;
    if (vectors) await ensureReadIndexes(vectors);
  }

  async close(): Promise<void> {
    if (!this.db) return;
    await this.writes.idle();
    this.vocabulary.close();
    await this.vocabulary.idle();
    await this.vectorMemory.stop();
    this.generations.close();
    this.chunks.close();
    this.documents.close();
    this.db.close();
    this.db = null;
  }

  /** Reads every file of the index once (lancedb-integrity.ts); throws, naming the table, when one is damaged. */
  async verifyIndex(): Promise<void> {
    this.requireOpen();
    const vectors = this.generations.table;
    await readEveryIndexFile([
      { name: DOCUMENTS, table: this.documents, idColumn: 'id' },
      { name: CHUNKS, table: this.chunks, idColumn: 'chunk_id' },
      ...(vectors ? [{ name: this.generations.meta.vectorTable ?? 'vectors', table: vectors, idColumn: 'chunk_id' }] : []),
    ]);
  }

  /** A read failed on a damaged file of the index (lancedb-storage-errors.ts), not on a bug. */
  isStorageError(error: unknown): boolean {
    return isLanceStorageError(error);
  }

  /** The version each table is at (its newest manifest): the ingest records them, the next start compares. */
  async tableVersions(): Promise<Record<string, number>> {
    this.requireOpen();
    const vectors = this.generations.table;
    const [documents, chunks, vectorsVersion] = await Promise.all([this.documents.version(), this.chunks.version(), vectors?.version()]);
    return { [DOCUMENTS]: documents, [CHUNKS]: chunks, ...(vectors && vectorsVersion !== undefined ? { [this.generations.meta.vectorTable ?? 'vectors']: vectorsVersion } : {}) };
  }

  /** Closes the engine (whatever state its tables are in) and deletes the index directory; open() then starts an empty one. */
  async discardIndex(): Promise<void> {
    await this.close().catch(() => undefined);
    this.db = null;
    this.ftsReady = false;
    this.unindexedChunks = 0;
    this.columnsWithoutText = null;
    this.ledger.drop();
    await rm(this.dir, { recursive: true, force: true });
  }

  private requireOpen(): lancedb.Connection {
    if (!this.db) throw new Error('LanceDbEngine: call open() first');
    return this.db;
  }

  async refresh(): Promise<void> {
    this.requireOpen();
    await Promise.all([this.documents.checkoutLatest(), this.chunks.checkoutLatest()]);
    this.passageCache.clear();
    this.ftsReady = (await this.chunks.listIndices()).some((i) => i.columns.includes(FTS_COLUMN));
    await this.loadMeta(false, false, true);
    await this.generations.table?.checkoutLatest();
    await this.vocabulary.reloadIfChanged();
    // Another process wrote (the startup ingest's child): its vocabulary is rebuilt here once
    // the writes have been quiet, as after our own writes.
    this.vocabulary.refreshWhenQuiet(this.chunks, () => this.chunks.countRows(), this.options.vocabularyQuietMs);
  }

  /** Runs a write inside the write lock, with meta.json as it is on disk. */
  private write<T>(fn: (db: lancedb.Connection) => Promise<T>): Promise<T> {
    const db = this.requireOpen();
    return this.writes.exclusive(async () => {
      await this.loadMeta(false, true);
      try {
        const result = await fn(db);
        await this.ledger.settle(this.documents, this.chunks);
        return result;
      } catch (error) {
        this.ledger.drop();
        throw error;
      } finally {
        this.passageCache.clear();
        this.vectorMemory.recheck();
      }
    });
  }

  /**
   * Reloads meta.json when another process changed it (or on open); not while our own write
   * owns it. Reads check it (a `stat`) at most once per META_RECHECK_MS: another process's
   * new vector generation is seen within that time, or at once after `refresh()`.
   */
  private async loadMeta(force = false, fromWrite = false, recheck = false): Promise<void> {
    const db = this.requireOpen();
    if (this.writes.writing && !fromWrite && !force) return;
    if (!force && !fromWrite && !recheck && performance.now() - this.metaCheckedAt < META_RECHECK_MS) return;
    this.metaCheckedAt = performance.now();
    await this.generations.load(db, force);
  }

  // -------------------------------------------------------------------------------------------
  // Search

  async keywordSearch(query: string, filters: EngineFilters, limit: number, options: EngineCallOptions = {}): Promise<DocumentHit[]> {
    this.requireOpen();
    // Another process's ingest may have stored a new vocabulary (read once, when it changed).
    if (!this.writes.writing) await this.vocabulary.reloadIfChanged(META_RECHECK_MS);
    return keywordSearch(this.chunks, query, filters, limit, this.vocabulary.current, options.signal);
  }

  async vectorSearch(vector: Float32Array, filters: EngineFilters, limit: number, options: EngineCallOptions = {}): Promise<DocumentHit[]> {
    this.requireOpen();
    if (limit <= 0) return [];
    await this.loadMeta();
    const { table, hasIndex, meta } = this.generations;
    if (!table) return [];
    const held = await this.heldVectors();
    return vectorSearch({ table, hasIndex, dimension: meta.dimension, held }, vector, filters, limit, options.signal);
  }

  async vectorScores(vector: Float32Array, hits: DocumentHit[]): Promise<DocumentHit[]> {
    this.requireOpen();
    await this.loadMeta();
    const { table, meta } = this.generations;
    if (!table) return [];
    return vectorScoresOf({ table, dimension: meta.dimension, held: await this.heldVectors() }, vector, hits);
  }

  async passageVectors(chunkIds: string[]): Promise<Map<string, Float32Array>> {
    this.requireOpen();
    await this.loadMeta();
    const { table } = this.generations;
    if (!table) return new Map();
    const held = await this.heldVectors();
    return held ? held.vectorsOf(chunkIds) : passageVectorsOf(table, chunkIds);
  }

  /**
   * The current generation's vectors held in memory, when it has its HNSW index and memory has
   * them (else null: a table without the index is small and read exactly by a flat scan).
   */
  private async heldVectors(): Promise<HeldVectors | null> {
    const { table, hasIndex } = this.generations;
    return table && hasIndex ? this.vectorMemory.current(table) : null;
  }

  /** Resolves once the vectors of the indexed generation are held in memory (benchmarks, tests). */
  async vectorsHeld(): Promise<boolean> {
    await this.heldVectors();
    await this.vectorMemory.settled();
    return (await this.heldVectors()) !== null;
  }

  async passages(chunkIds: string[]): Promise<Map<string, string>> {
    this.requireOpen();
    return this.passageCache.get(chunkIds, (missing) => chunkContents(this.chunks, missing));
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
        const place = documentPlace(r.source, r.parent_source_id, r.canonical_path);
        if (place) out.set(r.id, place);
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
      const rows = await plainRows<Record<string, unknown>>(this.documents.query().where(where));
      for (const row of rows) out.set(String(row.id), rowToDocument(row));
    }
    return out;
  }

  async getDocumentsWithoutText(ids: string[]): Promise<Map<string, DocumentWithoutText>> {
    this.requireOpen();
    this.columnsWithoutText ??= (await this.documents.schema()).fields.map((f) => f.name).filter((n) => n !== 'text' && n !== 'extra');
    const out = new Map<string, DocumentWithoutText>();
    for (const where of inLists('id', [...new Set(ids)])) {
      const rows = await plainRows<Record<string, unknown>>(this.documents.query().where(where).select(this.columnsWithoutText));
      for (const row of rows) out.set(String(row.id), { ...rowToMetadata(row), summary: nullableString(row.summary) });
    }
    return out;
  }

  /**
   * Hashes of the stored documents. A document whose terms were produced by another version
   * of the text analysis is left out, so the ingest indexes it again.
   */
  contentHashes(docIds: string[]): Promise<Map<string, string>> {
    // Inside the write lock: the first call reads the ledger and removes a crash's leftovers.
    return this.write(async () => {
      const stored = await this.storedDocuments();
      const out = new Map<string, string>();
      for (const id of docIds) {
        const version = stored.get(id);
        if (version?.analysisVersion === ANALYSIS_VERSION) out.set(id, version.hash);
      }
      return out;
    });
  }

  /** The stored documents' versions (inside the write lock); passages a crash left without their document are removed first. */
  private storedDocuments(): Promise<Map<string, StoredVersion>> {
    return this.ledger.current(this.documents, this.chunks, (orphans) => deleteChunksOf(this.chunks, this.generations.table, orphans));
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
    const vectors = this.generations.table;
    const [total, withVectors] = await Promise.all([this.chunks.countRows(), vectors ? vectors.countRows() : 0]);
    return { total, withVectors };
  }

  upsertDocuments(batch: DocumentInput[]): Promise<void> {
    return this.write(async () => {
      // Only a corpus vocabulary splits documents: it stays as it is while the index lives.
      const current = this.vocabulary.current;
      const { ids, rows } = batchRows(batch, this.generations.meta, current?.origin === 'corpus' ? current : null);
      if (ids.length === 0) return;
      const stored = await this.storedDocuments();
      const existing = ids.filter((id) => stored.has(id));
      // The document row carries the content hash the ingest compares, so it is written LAST:
      // after a crash mid-batch the hash still says "changed" and the resumed ingest rewrites
      // the chunks (the ledger removed the chunks such a crash left behind when it was read).
      await deleteChunksOf(this.chunks, this.generations.table, existing);
      await this.chunks.add(rows.chunks);
      if (rows.vectors.length > 0) {
        const vectors = await this.generations.ensureTable(this.requireOpen());
        await vectors.add(rows.vectors);
      }
      if (existing.length > 0) {
        await this.documents.mergeInsert('id').whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(rows.documents);
      } else {
        await this.documents.add(rows.documents);
      }
      this.ledger.record({ written: new Map(rows.documents.map((d) => [String(d.id), { hash: String(d.content_hash), analysisVersion: Number(d.analysis_version) }])) });
      this.unindexedChunks += rows.chunks.length;
      this.vocabulary.touch(this.options.vocabularyQuietMs);
      if (!this.ftsReady) await this.createFtsIndex();
      else if (this.unindexedChunks >= this.options.autoOptimizeChunks) await this.optimizeNow(() => {});
    });
  }

  deleteDocuments(ids: string[]): Promise<void> {
    return this.write(async () => {
      const unique = [...new Set(ids)];
      await deleteChunksOf(this.chunks, this.generations.table, unique);
      for (const where of inLists('id', unique)) await this.documents.delete(where);
      this.ledger.record({ deleted: unique });
    });
  }

  // -------------------------------------------------------------------------------------------
  // Vectors

  async vectorModel(): Promise<string | null> {
    this.requireOpen();
    await this.loadMeta();
    return this.generations.meta.vectorModel;
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
    return this.write((db) => this.generations.setModel(db, modelId, dimension));
  }

  replaceVectors(modelId: string, vectors: AsyncIterable<Map<string, Float32Array>>, onStep: (step: string) => void = () => {}): Promise<void> {
    return this.write((db) => this.generations.replace(db, this.documents, modelId, vectors, onStep));
  }

  // -------------------------------------------------------------------------------------------
  // Indexes

  private async createFtsIndex(): Promise<void> {
    if (!(await createFtsIndex(this.chunks))) return;
    this.ftsReady = true;
    this.unindexedChunks = 0;
  }

  optimize(onStep: (step: string) => void = () => {}): Promise<void> {
    return this.write(() => this.optimizeNow(onStep));
  }

  /** Builds missing indexes, folds appended rows into them, compacts and prunes (inside the write lock). */
  private async optimizeNow(onStep: (step: string) => void): Promise<void> {
    this.unindexedChunks = 0;
    const cleanupOlderThan = new Date(Date.now() - KEEP_VERSIONS_MS);
    // Keyword leg: the full-text index, lookups by chunk and document id, then compaction
    // (optimize also adds the rows appended since to every index).
    if (!this.ftsReady) {
      onStep('full-text index');
      await this.createFtsIndex();
    }
    onStep('passage lookup indexes');
    await ensureReadIndexes(this.chunks);
    onStep('compacting passages');
    await optimizeWhenNeeded(this.chunks, cleanupOlderThan);
    onStep('compacting documents');
    await ensureScalarIndex(this.documents, 'id');
    await optimizeWhenNeeded(this.documents, cleanupOlderThan);
    const vectors = this.generations.table;
    if (vectors) {
      onStep('vector lookup indexes');
      await ensureReadIndexes(vectors);
      await this.generations.indexWhenLarge(() => onStep('vector index (HNSW)'));
      onStep('compacting vectors');
      await optimizeWhenNeeded(vectors, cleanupOlderThan);
    }
    this.vocabulary.refreshWhenQuiet(this.chunks, () => this.chunks.countRows(), this.options.vocabularyQuietMs);
  }
}
