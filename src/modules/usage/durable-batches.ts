/**
 * A write-behind queue of row batches that loses nothing on a write error (issue #33 item 2). Rows
 * are added per kind (usage rows today; #35's analytics rows later: one writer each) and written
 * in batches off the request path, at most `delayMs` later or as soon as `maxBatch` rows wait.
 *
 * When a write fails (the database is down, its disk is full, a timeout), nothing is dropped:
 * - the batches that could not be written go to spill files in `spillDir` (batch-spill.ts: one
 *   atomic file per batch), so memory stays small and a crash during the outage loses nothing
 *   that was spilled; spill files left by an earlier run are replayed at `start()`;
 * - if the spill fails too (the local disk is full), they stay in memory up to `maxMemoryRows`;
 *   past that the oldest are dropped, each time logged as an error and counted (`lag().dropped_rows`);
 * - writing is retried with a backoff (0.5 s doubling to 30 s), oldest batch first, and every
 *   flush tries again at once; the log says when recording lags (at most every 30 s) and when it
 *   has caught up.
 * Writers must be idempotent (the usage rows carry an event id: `on conflict do nothing`): a
 * batch is written again when the outcome of a write was unknown, or when the process died
 * between writing a spill file's rows and deleting the file.
 */
import { rename } from 'node:fs/promises';
import type { Logger } from '../../logger.js';
import { listSpilled, readSpilled, removeSpilled, spillBatch, type SpilledBatch } from './batch-spill.js';

/** One kind of row: how a batch is written, and how a row read back from a spill file is revived. */
export interface BatchKind<Row> {
  /** File-name safe (`usage_event`). */
  name: string;
  /** Writes the rows; idempotent (see the module comment). */
  write(rows: Row[]): Promise<void>;
  /** A row from its JSON form (dates come back as strings). */
  revive(json: unknown): Row;
}

/** What `/ready` shows of the queue. */
export interface BatchLag {
  /** Rows added and not yet written (in memory and spilled). */
  pending_rows: number;
  /** Age of the oldest of them; null when none waits. */
  oldest_pending_seconds: number | null;
  spilled_batches: number;
  /** Rows given up since the start (neither the database, the spill folder nor memory took them). */
  dropped_rows: number;
  /** A write failed and rows wait for the retry. */
  lagging: boolean;
}

interface MemoryBatch {
  kind: string;
  rows: unknown[];
  firstAt: number;
}

export interface DurableBatchOptions {
  /** Where failed batches are spilled (`DATA_DIR/usage-spill`); null = memory only (tests, tools). */
  spillDir: string | null;
  maxMemoryRows: number;
  delayMs?: number;
  maxBatch?: number;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  now?: () => number;
  /** What its log lines start with (`usage`, `analytics`): the shutdown summary says whose rows were left. */
  label?: string;
}

const BACKOFF_FIRST_MS = 500;
const BACKOFF_MAX_MS = 30_000;
const LAG_LOG_EVERY_MS = 30_000;

export class DurableBatches {
  private readonly kinds = new Map<string, BatchKind<unknown>>();
  /** Rows added since the last flush, per kind. */
  private open = new Map<string, MemoryBatch>();
  /** Batches whose write and spill both failed. */
  private held: MemoryBatch[] = [];
  private spilled: SpilledBatch[] = [];
  private timer: NodeJS.Timeout | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private failures = 0;
  private failingSince: number | null = null;
  private lastLagLog = 0;
  private dropped = 0;
  private closed = false;

  constructor(
    kinds: BatchKind<unknown>[],
    private readonly options: DurableBatchOptions,
  ) {
    for (const kind of kinds) this.kinds.set(kind.name, kind);
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  private get label(): string {
    return this.options.label ?? 'usage';
  }

  /** Picks up the spill files an earlier run left, and writes them (in the background). */
  async start(): Promise<void> {
    if (!this.options.spillDir) return;
    const left = (await listSpilled(this.options.spillDir)).filter((b) => this.kinds.has(b.kind));
    if (left.length === 0) return;
    this.spilled.push(...left);
    this.options.logger.info(`${this.label}: ${left.length} spilled batch(es) (${left.reduce((n, b) => n + b.rows, 0)} rows) from an earlier run: writing them`);
    void this.flush();
  }

  /** Queues one row; it is written within `delayMs`, or at once when the batch is full. */
  add(kind: string, row: unknown): void {
    let batch = this.open.get(kind);
    if (!batch) this.open.set(kind, (batch = { kind, rows: [], firstAt: this.now() }));
    batch.rows.push(row);
    const retrying = this.retryTimer !== null;
    // while the writes fail, wait for the retry unless memory fills up
    if ((!retrying && batch.rows.length >= (this.options.maxBatch ?? 500)) || this.memoryRows() >= this.options.maxMemoryRows) void this.flush();
    else if (!retrying) this.timer ??= setTimeout(() => void this.flush(), this.options.delayMs ?? 200);
  }

  /** Writes every waiting batch now; resolves when done or failed (a failure is kept for the retry, never thrown). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const fresh = [...this.open.values()];
    this.open = new Map();
    this.writing = this.writing.then(() => this.writeAll(fresh));
    return this.writing;
  }

  /** Flushes; whatever still cannot be written is spilled (or held) for the next start. */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (this.held.length > 0) this.options.logger.error(`${this.label}: ${this.memoryRows()} row(s) could be neither written nor spilled before the stop: lost`);
    else if (this.spilled.length > 0) this.options.logger.warn(`${this.label}: ${this.spilled.length} spilled batch(es) left in ${this.options.spillDir}: written at the next start`);
  }

  lag(): BatchLag {
    const memory = this.held.length + this.open.size;
    const firsts = [...this.spilled.map((b) => b.firstAt), ...this.held.map((b) => b.firstAt), ...[...this.open.values()].map((b) => b.firstAt)];
    const pending = this.memoryRows() + this.spilled.reduce((n, b) => n + b.rows, 0);
    return {
      pending_rows: pending,
      oldest_pending_seconds: memory + this.spilled.length > 0 ? Math.max(0, Math.round((this.now() - Math.min(...firsts)) / 1000)) : null,
      spilled_batches: this.spilled.length,
      dropped_rows: this.dropped,
      lagging: this.failingSince !== null,
    };
  }

  private memoryRows(): number {
    let n = 0;
    for (const b of this.held) n += b.rows.length;
    for (const b of this.open.values()) n += b.rows.length;
    return n;
  }

  /** Oldest first: spill files, then batches held in memory, then the fresh ones. */
  private async writeAll(fresh: MemoryBatch[]): Promise<void> {
    let failure: unknown = null;
    while (this.spilled.length > 0 && failure === null) {
      const batch = this.spilled[0]!;
      try {
        const rows = (await readSpilled(batch)).map((r) => this.kinds.get(batch.kind)!.revive(r));
        await this.kinds.get(batch.kind)!.write(rows);
        await removeSpilled(batch);
        this.spilled.shift();
      } catch (error) {
        if (error instanceof SyntaxError) this.setAside(batch);
        else failure = error;
      }
    }
    const waiting = [...this.held, ...fresh];
    this.held = [];
    const unwritten: MemoryBatch[] = [];
    for (const batch of waiting) {
      if (failure === null) {
        try {
          await this.kinds.get(batch.kind)!.write(batch.rows);
          continue;
        } catch (error) {
          failure = error;
        }
      }
      unwritten.push(batch);
    }
    if (failure === null) return this.caughtUp();
    await this.keep(unwritten);
    this.retryLater(failure);
  }

  /** Spills what could not be written; what cannot be spilled either is held in memory, within the bound. */
  private async keep(batches: MemoryBatch[]): Promise<void> {
    for (const batch of batches) {
      if (batch.rows.length === 0) continue;
      if (this.options.spillDir) {
        try {
          this.spilled.push(await spillBatch(this.options.spillDir, batch.kind, batch.rows, batch.firstAt));
          continue;
        } catch (error) {
          this.options.logger.error(`${this.label}: could not spill ${batch.rows.length} row(s) to ${this.options.spillDir}; keeping them in memory`, error);
        }
      }
      this.held.push(batch);
    }
    while (this.held.length > 0 && this.memoryRows() > this.options.maxMemoryRows) {
      const oldest = this.held.shift()!;
      this.dropped += oldest.rows.length;
      this.options.logger.error(`${this.label}: dropped ${oldest.rows.length} ${oldest.kind} row(s): neither the database nor the spill folder takes them and memory is full (USAGE_MEMORY_MAX_ROWS=${this.options.maxMemoryRows})`);
    }
  }

  /** A spill file that does not parse (written by hand, or a disk error): kept as `*.bad` for an operator, never retried. */
  private setAside(batch: SpilledBatch): void {
    this.spilled.shift();
    this.dropped += batch.rows;
    this.options.logger.error(`${this.label}: spill file ${batch.file} is unreadable: renamed to *.bad, its ${batch.rows} row(s) not written`);
    void rename(batch.file, `${batch.file}.bad`).catch(() => undefined);
  }

  private retryLater(failure: unknown): void {
    this.failures++;
    this.failingSince ??= this.now();
    const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** (this.failures - 1));
    if (this.now() - this.lastLagLog >= LAG_LOG_EVERY_MS) {
      this.lastLagLog = this.now();
      const lag = this.lag();
      this.options.logger.warn(
        `${this.label}: recording lags: ${lag.pending_rows} row(s) not written yet (oldest ${lag.oldest_pending_seconds ?? 0} s ago, ${lag.spilled_batches} batch(es) spilled); next try in ${Math.round(delay / 100) / 10} s: ${(failure as Error)?.message ?? failure}`,
      );
    }
    if (this.closed) return;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.flush();
    }, delay);
    this.retryTimer.unref();
  }

  private caughtUp(): void {
    if (this.failingSince !== null) this.options.logger.info(`${this.label}: recording caught up after ${Math.round((this.now() - this.failingSince) / 1000)} s`);
    this.failures = 0;
    this.failingSince = null;
    this.lastLagLog = 0;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }
}
