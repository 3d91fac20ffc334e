/**
 * The usage recorder: every counted billable call becomes one `usage_event` row, written in small
 * batches off the request path (durable-batches.ts) so a request never waits for its own usage
 * row. Readers of usage rows (the usage record, rebuilding counters, account erasure) call
 * `flush()` first, so every counted request this process knows of is visible to them when the
 * database takes it; shutdown flushes the last rows.
 *
 * A failed write loses nothing (issue #33 item 2): the batch is spilled to `DATA_DIR/usage-spill/`
 * and retried with a backoff, spill files are replayed at the next start, and each row carries an
 * `event_id` given here so writing a batch twice inserts it once. `lag()` feeds `/ready`.
 */
import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import { backgroundEm } from '../../context.js';
import type { Logger } from '../../logger.js';
import { type BatchKind, type BatchLag, DurableBatches } from './durable-batches.js';
import { existingUserIds, insertUsageEvents, type UsageEventRow } from './usage-event.queries.js';

export type { UsageEventRow } from './usage-event.queries.js';
export type { BatchLag } from './durable-batches.js';

/** How many erased accounts the recorder remembers (their later rows lose user and key). */
const FORGOTTEN_MAX = 10_000;

/**
 * Recording lags too far for this process to be ready: the oldest unwritten row is older than
 * this. A short lag (the database restarting, a failover) keeps the process in the load balancer:
 * taking it out would not help the database, and its requests are counted all the same.
 */
export const RECORDING_LAG_NOT_READY_SECONDS = 900;

export interface UsageRecorderOptions {
  /** `DATA_DIR/usage-spill`; null = failed batches stay in memory only. */
  spillDir?: string | null;
  maxMemoryRows?: number;
  delayMs?: number;
  maxBatch?: number;
}

/** Writes usage rows in small batches off the request path (see the module comment). */
export class UsageRecorder {
  private readonly batches: DurableBatches;
  /** Deleted accounts: their rows are written without user and key (bounded; see forget). */
  private readonly forgotten = new Set<string>();

  constructor(orm: MikroORM, logger: Pick<Logger, 'info' | 'warn' | 'error'>, options: UsageRecorderOptions = {}) {
    /** Rows read back from spill files (see `write`). */
    const replayed = new WeakSet<UsageEventRow>();
    const usageRows: BatchKind<UsageEventRow> = {
      name: 'usage_event',
      write: async (rows) => {
        // Rows read back from a spill file may name an account erased since (the forgotten set
        // lives in memory only, so a restart lost it): for those the database says which
        // accounts still exist. Rows of this run need no read.
        const em = backgroundEm(orm);
        const replayedUsers = [...new Set(rows.flatMap((r) => (r.user_id !== null && replayed.has(r) ? [r.user_id] : [])))];
        const existing = await existingUserIds(em, replayedUsers);
        await insertUsageEvents(em, rows.map((r) => this.anonymised(r, replayed.has(r) && !existing.has(r.user_id!))));
      },
      revive: (json) => {
        const row = json as UsageEventRow & { created_at: string };
        const revived = { ...row, created_at: new Date(row.created_at) };
        replayed.add(revived);
        return revived;
      },
    };
    this.batches = new DurableBatches([usageRows as BatchKind<unknown>], {
      spillDir: options.spillDir ?? null,
      maxMemoryRows: options.maxMemoryRows ?? 50_000,
      delayMs: options.delayMs,
      maxBatch: options.maxBatch,
      logger,
    });
  }

  /** Writes the spill files an earlier run left (in the background). */
  start(): Promise<void> {
    return this.batches.start();
  }

  /** Queues one row; it is written within `delayMs`, or at once when the batch is full. */
  add(row: UsageEventRow): void {
    this.batches.add('usage_event', { ...row, event_id: row.event_id ?? randomUUID() });
  }

  /**
   * An account is being deleted: its queued rows lose user and key when written, and so do rows
   * added later (a billable call that was running when the account went). `undo()` if the deletion fails.
   */
  forget(userId: string): { undo(): void } {
    if (this.forgotten.size >= FORGOTTEN_MAX) this.forgotten.delete(this.forgotten.values().next().value!);
    this.forgotten.add(userId);
    return { undo: () => void this.forgotten.delete(userId) };
  }

  /** Writes every pending row; resolves when they are in the database or kept for the retry (never throws). */
  flush(): Promise<void> {
    return this.batches.flush();
  }

  /** How far recording lags (for `/ready`). */
  lag(): BatchLag {
    return this.batches.lag();
  }

  /** Shutdown: the last rows written, or spilled for the next start. */
  close(): Promise<void> {
    return this.batches.close();
  }

  private anonymised(row: UsageEventRow, accountGone: boolean): UsageEventRow {
    const erased = row.user_id !== null && (accountGone || this.forgotten.has(row.user_id));
    return erased ? { ...row, user_id: null, api_key_id: null } : row;
  }
}
