/**
 * Vector generations of the embedded engine. Each embedding model's vectors live in their own
 * table, `vectors_<generation>`, named by `meta.json` (`{ vectorModel, dimension, vectorTable,
 * generation }`): replacing the model builds a new table and swaps it in atomically, so the
 * old model's vectors are never mixed with the new ones, and the keyword index is never rebuilt
 * because vectors change. Every method that changes a generation runs inside the engine's
 * write lock.
 */
import { readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { filterValuesOfRow, type FilterValues } from './lancedb-filters.js';
import { norm } from '../vector-math.js';
import { DOCUMENT_FILTER_COLUMNS, docIdOfChunk, parseJson, vectorsSchema } from './lancedb-tables.js';

const META_FILE = 'meta.json';
/** Rows buffered by `replace` before one append. */
const VECTOR_WRITE_ROWS = 20_000;

export interface Meta {
  vectorModel: string | null;
  dimension: number | null;
  vectorTable: string | null;
  generation: number;
}
const EMPTY_META: Meta = { vectorModel: null, dimension: null, vectorTable: null, generation: 0 };

export class VectorGenerations {
  meta: Meta = { ...EMPTY_META };
  /** The current generation's table (null: no vectors). */
  table: lancedb.Table | null = null;
  /** Whether the current table has its HNSW index (else searches scan it flat). */
  hasIndex = false;
  private metaMtimeMs = 0;

  constructor(
    private readonly dir: string,
    /** Vectors needed before a vector index is built (below, flat search is exact and fast enough). */
    private readonly indexMinRows: number,
  ) {}

  private get metaPath(): string {
    return path.join(this.dir, META_FILE);
  }

  /** Reloads meta.json when another process changed it (always with `force`). */
  async load(db: lancedb.Connection, force = false): Promise<void> {
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
      this.table?.close();
      this.table = null;
      this.hasIndex = false;
      if (meta.vectorTable && (await db.tableNames()).includes(meta.vectorTable)) {
        this.table = await db.openTable(meta.vectorTable);
        this.hasIndex = (await this.table.listIndices()).some((i) => i.columns.includes('vector'));
      } else if (meta.vectorTable) {
        // The vectors are gone (a crash between two steps): report no model so the ingest re-embeds.
        meta.vectorModel = null;
        meta.vectorTable = null;
      }
    }
    this.meta = meta;
  }

  close(): void {
    this.table?.close();
    this.table = null;
  }

  private async save(meta: Meta): Promise<void> {
    const tmp = `${this.metaPath}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify(meta, null, 2));
    await rename(tmp, this.metaPath);
    this.meta = meta;
    this.metaMtimeMs = (await stat(this.metaPath)).mtimeMs;
  }

  /** Points meta.json at another vector table (or none) and drops the previous one. */
  private async swap(db: lancedb.Connection, meta: Meta, table: lancedb.Table | null): Promise<void> {
    const previous = this.meta.vectorTable;
    await this.save(meta);
    // The previous handle is not closed: a search may still be reading through it.
    this.table = table;
    this.hasIndex = false;
    if (previous && previous !== meta.vectorTable && (await db.tableNames()).includes(previous)) await db.dropTable(previous);
  }

  /** The current table, created (as a new generation) for the first vectors of the model. */
  async ensureTable(db: lancedb.Connection): Promise<lancedb.Table> {
    if (this.table) return this.table;
    const generation = this.meta.generation + 1;
    const name = `vectors_${generation}`;
    if ((await db.tableNames()).includes(name)) await db.dropTable(name);
    const table = await db.createEmptyTable(name, vectorsSchema(this.meta.dimension!));
    await this.swap(db, { ...this.meta, vectorTable: name, generation }, table);
    return table;
  }

  /** Sets the model the vectors are of; another model (or none) starts a new, empty generation. */
  async setModel(db: lancedb.Connection, modelId: string | null, dimension: number | null): Promise<void> {
    if (modelId === null) {
      await this.swap(db, { vectorModel: null, dimension: null, vectorTable: null, generation: this.meta.generation + 1 }, null);
      return;
    }
    if (dimension === null || !Number.isInteger(dimension) || dimension <= 0) throw new Error(`setVectorModel: bad dimension ${dimension}`);
    if (this.meta.vectorModel === modelId && (this.meta.dimension === dimension || this.meta.dimension === null)) {
      if (this.meta.dimension === null) await this.save({ ...this.meta, dimension });
      return;
    }
    // Another model: its vectors start from nothing (the old model's are dropped).
    await this.swap(db, { vectorModel: modelId, dimension, vectorTable: null, generation: this.meta.generation + 1 }, null);
  }

  /**
   * Builds the next generation from `vectors` (chunk id -> vector) for `modelId`, indexes it
   * when large, and swaps it in; on failure the half-built table is dropped and the current
   * generation stays.
   */
  async replace(
    db: lancedb.Connection,
    documents: lancedb.Table,
    modelId: string,
    vectors: AsyncIterable<Map<string, Float32Array>>,
    onStep: (step: string) => void = () => {},
  ): Promise<void> {
    const generation = this.meta.generation + 1;
    const name = `vectors_${generation}`;
    if ((await db.tableNames()).includes(name)) await db.dropTable(name); // leftover of a failed run
    const filtersByDoc = await documentFilterValues(documents);
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
      if (table && (await (table as lancedb.Table).countRows()) >= this.indexMinRows) {
        // Compacted before the index is built: compacting after it remaps the index, which cost as
        // long as building it (the first start's "compacting vectors": 271 s after a 309 s build).
        onStep('compacting vectors');
        await (table as lancedb.Table).optimize({ cleanupOlderThan: new Date() });
        onStep('vector index (HNSW)');
        await createVectorIndex(table as lancedb.Table);
      }
    } catch (error) {
      (table as lancedb.Table | null)?.close();
      if ((await db.tableNames()).includes(name)) await db.dropTable(name);
      throw error;
    }
    await this.swap(db, { vectorModel: modelId, dimension: dimension ?? this.meta.dimension, vectorTable: table ? name : null, generation }, table);
    this.hasIndex = table !== null && (await (table as lancedb.Table).listIndices()).some((i) => i.columns.includes('vector'));
  }

  /** Builds the HNSW index of the current table once it is large enough (inside optimize). */
  async indexWhenLarge(onBuild: () => void = () => {}): Promise<void> {
    if (!this.table || this.hasIndex) return;
    if ((await this.table.countRows()) < this.indexMinRows) return;
    onBuild();
    await createVectorIndex(this.table);
    this.hasIndex = true;
  }
}

/** HNSW over scalar-quantised vectors, cosine distance (one graph up to ~1M vectors). */
async function createVectorIndex(table: lancedb.Table): Promise<void> {
  const rows = await table.countRows();
  await table.createIndex('vector', {
    config: lancedb.Index.hnswSq({ distanceType: 'cosine', numPartitions: Math.max(1, Math.round(rows / 1_000_000)) }),
    replace: true,
  });
}

/** Filter columns of every stored document (for the rows of a new vector table). */
async function documentFilterValues(documents: lancedb.Table): Promise<Map<string, FilterValues>> {
  const out = new Map<string, FilterValues>();
  for await (const batch of documents.query().select(DOCUMENT_FILTER_COLUMNS)) {
    for (const row of batch.toArray() as unknown as Record<string, unknown>[]) out.set(String(row.id), filterValuesOfRow(row));
  }
  return out;
}
