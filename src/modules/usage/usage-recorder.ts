/**
 * The usage recorder: every counted billable call becomes one `usage_event` row, written in small
 * batches off the request path (one INSERT per batch, at most `delayMs` later or as soon as
 * `maxBatch` rows wait) so a request never waits for its own usage row. Readers of usage rows
 * (the usage record, rebuilding in-process counters, account erasure) call `flush()` first, so
 * every counted request is visible to them; shutdown flushes the last rows.
 *
 * Rows still queued when the process dies are lost (at most `delayMs` worth): the batch lives in
 * memory only, by design for now.
 */
import { backgroundEm } from '../../context.js';
import type { MikroORM } from '@mikro-orm/core';
import type { Logger } from '../../logger.js';
import { insertUsageEvents, type UsageEventRow } from './usage-event.queries.js';

export type { UsageEventRow } from './usage-event.queries.js';

/** How many erased accounts the recorder remembers (their later rows lose user and key). */
const FORGOTTEN_MAX = 10_000;

/** Writes usage rows in small batches off the request path (see the module comment). */
export class UsageRecorder {
  private pending: UsageEventRow[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  /** Deleted accounts: their rows are written without user and key (bounded; see forget). */
  private readonly forgotten = new Set<string>();

  constructor(
    private readonly orm: MikroORM,
    private readonly logger: Pick<Logger, 'error'>,
    private readonly delayMs = 200,
    private readonly maxBatch = 500,
  ) {}

  /** Queues one row; it is written within `delayMs`, or at once when the batch is full. */
  add(row: UsageEventRow): void {
    this.pending.push(row.user_id !== null && this.forgotten.has(row.user_id) ? { ...row, user_id: null, api_key_id: null } : row);
    if (this.pending.length >= this.maxBatch) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.delayMs);
  }

  /**
   * An account is being deleted: its queued rows lose user and key now, and so do rows added
   * later (a billable call that was running when the account went). `undo()` if the deletion fails.
   */
  forget(userId: string): { undo(): void } {
    if (this.forgotten.size >= FORGOTTEN_MAX) this.forgotten.delete(this.forgotten.values().next().value!);
    this.forgotten.add(userId);
    this.pending = this.pending.map((r) => (r.user_id === userId ? { ...r, user_id: null, api_key_id: null } : r));
    return { undo: () => void this.forgotten.delete(userId) };
  }

  /** Writes every pending row; resolves when they are in the database (a failed batch is logged, not thrown). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const rows = this.pending;
    this.pending = [];
    this.writing = this.writing.then(async () => {
      if (rows.length === 0) return;
      try {
        await insertUsageEvents(backgroundEm(this.orm), rows);
      } catch (error) {
        this.logger.error(`usage: could not record ${rows.length} usage row(s)`, error);
      }
    });
    return this.writing;
  }
}
