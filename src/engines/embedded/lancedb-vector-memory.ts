/**
 * The indexed vector generation kept in memory, quantised to int8 with one scale per vector:
 * ~100 MB for the full corpus (394k passages of 256 dimensions) where float32 would take 400 MB.
 *
 * Why: besides its graph search, a search read stored vectors twice, each time as an engine call
 * (about a millisecond before it reads anything, then the read): the vector leg's exact
 * refinement reread its HNSW candidates' vectors from disk, and relevance feedback read its
 * keyword candidates' vectors by chunk id. On the full corpus that was ~5 ms of a search's
 * ~30 ms of processor (docs/search.md, issue 38); from memory both cost microseconds. The cosine
 * of a quantised vector is within ~1e-3 of the exact one (`lancedb-vector-memory.test.ts`),
 * far below the gaps the fusion ranks by.
 *
 * Memory holds one version of one table. As the passage cache, it looks at the table's version
 * at most once per `recheckMs` and drops everything when it moved (an ingest's write, an optimize,
 * another process's write seen through the read-consistency interval); it loads again once the
 * table has been still for `quietMs`, so a long ingest never reloads it batch after batch.
 * Meanwhile, and for tables without their HNSW index (small ones, searched exactly by a flat
 * scan), searches read the table as before. Loading is lazy (the first search that could use
 * it): the ingest's child process, which never searches, never loads it.
 */
import type * as lancedb from '@lancedb/lancedb';
import { grownArray } from '../vector-math.js';
import { ChunkIdIndex } from './chunk-id-index.js';

export interface VectorMemoryOptions {
  /** Off: every read goes to the table (SEARCH_VECTOR_MEMORY=false). */
  enabled: boolean;
  /** How often the table's version is looked at (ms). */
  recheckMs?: number;
  /** How long the table must have been still before a (re)load (ms). */
  quietMs?: number;
  /** Rows read per query while loading (default LOAD_WINDOW_ROWS). */
  loadWindowRows?: number;
  log?: (message: string) => void;
}

/** One table version's vectors, quantised. */
export class HeldVectors {
  constructor(
    readonly table: lancedb.Table,
    readonly version: number,
    readonly dimension: number,
    private readonly ids: ChunkIdIndex,
    private readonly codes: Int8Array,
    private readonly scales: Float32Array,
    /** Norm of each dequantised vector (the cosine is the dequantised vector's, exactly). */
    private readonly norms: Float32Array,
  ) {}

  get size(): number {
    return this.ids.size;
  }

  /** Bytes held (codes, scales, norms and the chunk ids). */
  get bytes(): number {
    return this.codes.byteLength + this.scales.byteLength + this.norms.byteLength + this.ids.byteLength;
  }

  has(chunkId: string): boolean {
    return this.ids.rowOf(chunkId) !== undefined;
  }

  /** The chunk's vector, dequantised (undefined when the table holds none for it). */
  vector(chunkId: string): Float32Array | undefined {
    const row = this.ids.rowOf(chunkId);
    if (row === undefined) return undefined;
    const out = new Float32Array(this.dimension);
    const scale = this.scales[row];
    const offset = row * this.dimension;
    for (let i = 0; i < this.dimension; i++) out[i] = this.codes[offset + i] * scale;
    return out;
  }

  /** The vectors of these chunks, dequantised (chunks without one absent). */
  vectorsOf(chunkIds: string[]): Map<string, Float32Array> {
    const out = new Map<string, Float32Array>();
    for (const id of chunkIds) {
      const v = this.vector(id);
      if (v) out.set(id, v);
    }
    return out;
  }

  /** Cosine similarity of `query` (of norm `queryNorm`) with the chunk's vector; undefined when not held. */
  cosine(query: Float32Array, queryNorm: number, chunkId: string): number | undefined {
    const row = this.ids.rowOf(chunkId);
    if (row === undefined) return undefined;
    const offset = row * this.dimension;
    let dot = 0;
    for (let i = 0; i < this.dimension; i++) dot += query[i] * this.codes[offset + i];
    const n = this.norms[row];
    return n > 0 && queryNorm > 0 ? (dot * this.scales[row]) / (queryNorm * n) : 0;
  }
}

export class VectorMemory {
  private held: HeldVectors | null = null;
  private loading: Promise<void> | null = null;
  private checking: Promise<void> | null = null;
  private checkedAt = -Infinity;
  /** The table and version last seen, and when it last moved (-Infinity: never seen moving). */
  private seen: { table: lancedb.Table; version: number } | null = null;
  private movedAt = -Infinity;
  /** A load that failed is not retried before the table moves (or for a minute). */
  private failedAt = -Infinity;
  private stopped = false;
  private readonly recheckMs: number;
  private readonly quietMs: number;

  constructor(private readonly options: VectorMemoryOptions) {
    this.recheckMs = options.recheckMs ?? 1000;
    this.quietMs = options.quietMs ?? 30_000;
  }

  /**
   * The held vectors of `table`'s current version, or null (off, not loaded yet, or the table
   * moved since: then a load starts once the table has been still for `quietMs`).
   */
  async current(table: lancedb.Table): Promise<HeldVectors | null> {
    if (!this.options.enabled || this.stopped) return null;
    if (this.held && this.held.table !== table) this.held = null;
    if (performance.now() - this.checkedAt >= this.recheckMs) {
      this.checking ??= this.checkVersion(table).finally(() => (this.checking = null));
      await this.checking;
    }
    if (!this.held) this.loadWhenQuiet(table);
    return this.held;
  }

  /** The next look rechecks the table's version (after a write of this process: no stale second). */
  recheck(): void {
    this.checkedAt = -Infinity;
  }

  /** Drops the held vectors and ends a running load at its next batch (the engine closes). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.held = null;
    await this.loading;
  }

  /** Resolves when no load is running (tests and benchmarks wait for the memory to fill). */
  async settled(): Promise<void> {
    await this.loading;
  }

  private async checkVersion(table: lancedb.Table): Promise<void> {
    const version = await table.version();
    this.checkedAt = performance.now();
    if (this.seen && (this.seen.table !== table || this.seen.version !== version)) this.movedAt = performance.now();
    this.seen = { table, version };
    if (this.held && this.held.version !== version) this.held = null;
  }

  private loadWhenQuiet(table: lancedb.Table): void {
    const now = performance.now();
    if (this.loading || now - this.movedAt < this.quietMs || now - this.failedAt < Math.max(this.quietMs, 60_000)) return;
    this.loading = this.load(table)
      .catch((error: Error) => {
        this.failedAt = performance.now();
        this.options.log?.(`passage vectors not held in memory (${error.message}); searches read them from the index`);
      })
      .finally(() => (this.loading = null));
  }

  private async load(table: lancedb.Table): Promise<void> {
    const started = performance.now();
    const version = await table.version();
    const expected = await table.countRows();
    let dimension = 0;
    let codes = new Int8Array(0);
    let scales = new Float32Array(Math.max(expected, 1));
    let norms = new Float32Array(scales.length);
    const chunkIds = new ChunkIdIndex();
    let row = 0;
    // Read in windows of LOAD_WINDOW_ROWS: one scan of the whole table let the engine read ahead
    // hundreds of MB, which the allocator kept after the load (+320 MB of RSS where the vectors
    // take 100 MB); windows keep the process ~30 MB above what it holds (docs/search.md).
    const window = this.options.loadWindowRows ?? LOAD_WINDOW_ROWS;
    for (let offset = 0; ; offset += window) {
      let read = 0;
      for await (const batch of table.query().select(['chunk_id', 'vector']).offset(offset).limit(window) as AsyncIterable<ArrowBatch>) {
        if (this.stopped) return;
        const ids = batch.getChild('chunk_id');
        const vectors = batch.getChild('vector');
        const n = batch.numRows;
        read += n;
        if (!ids || !vectors || n === 0) continue;
        const values = vectors.getChildAt(0)!.toArray() as Float32Array;
        if (dimension === 0) {
          dimension = values.length / n;
          codes = new Int8Array(scales.length * dimension);
        }
        if (row + n > scales.length) {
          const capacity = Math.max(row + n, Math.ceil(scales.length * 1.25));
          [codes, scales, norms] = [grownArray(codes, capacity * dimension), grownArray(scales, capacity), grownArray(norms, capacity)];
        }
        for (const data of ids.data) {
          for (let j = 0; j < data.length; j++) chunkIds.append(data.values, data.valueOffsets[j]!, data.valueOffsets[j + 1]!);
        }
        for (let i = 0; i < n; i++) quantise(values, i * dimension, dimension, codes, row + i, scales, norms);
        row += n;
      }
      if (read < window) break;
      await new Promise((resolve) => setImmediate(resolve)); // searches run between windows
    }
    // The table moved during the read: what was read may mix two versions.
    if (this.stopped || (await table.version()) !== version || dimension === 0) return;
    if (chunkIds.size !== row) throw new Error(`read ${row} vectors but ${chunkIds.size} chunk ids`);
    chunkIds.seal();
    this.held = new HeldVectors(table, version, dimension, chunkIds, codes, scales, norms);
    const mb = (this.held.bytes / 1024 / 1024).toFixed(0);
    this.options.log?.(`${row.toLocaleString('en')} passage vectors held in memory (int8, ${mb} MB) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
}

/** Rows read per query while loading (see load). */
const LOAD_WINDOW_ROWS = 4096;

/** The part of an Arrow record batch the load reads (LanceDB bundles its own apache-arrow). */
interface ArrowBatch {
  numRows: number;
  getChild(name: string): {
    /** The column's chunks (a Utf8 chunk: its bytes and each row's start, the next row's start ending it). */
    data: { length: number; values: Uint8Array; valueOffsets: Int32Array }[];
    getChildAt(i: number): { toArray(): unknown } | null;
  } | null;
}

/** Quantises `dimension` values from `values[offset]` into row `row` (scale = max |x| / 127). */
function quantise(values: Float32Array, offset: number, dimension: number, codes: Int8Array, row: number, scales: Float32Array, norms: Float32Array): void {
  let max = 0;
  for (let i = 0; i < dimension; i++) max = Math.max(max, Math.abs(values[offset + i]));
  const scale = max > 0 ? max / 127 : 0;
  let sum = 0;
  const out = row * dimension;
  for (let i = 0; i < dimension; i++) {
    const code = scale > 0 ? Math.round(values[offset + i] / scale) : 0;
    codes[out + i] = code;
    sum += code * code;
  }
  scales[row] = scale;
  norms[row] = Math.sqrt(sum) * scale;
}
