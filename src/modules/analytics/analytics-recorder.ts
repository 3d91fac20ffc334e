/**
 * The analytics recorder (issue #35 item 1): every counted billable call (the usage guard tells
 * it, UsageObserver) becomes one small event queued in memory and written in batches off the
 * request path through DurableBatches, as the usage rows are: a failed write is spilled to
 * `DATA_DIR/usage-spill/` (kind `analytics_event`) and retried, and `close()` writes the last
 * events on a clean shutdown. A batch is summed per (dimension, day, account) and added to
 * `analytics_account_day` in one transaction, once (analytics.queries.ts: the batch's key).
 */
import { createHash, randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/core';
import { backgroundEm } from '../../context.js';
import type { Logger } from '../../logger.js';
import { type BatchKind, type BatchLag, DurableBatches } from '../usage/durable-batches.js';
import { existingUserIds } from '../usage/usage-event.queries.js';
import type { CountedCall, UsageObserver } from '../usage/usage-guard.js';
import { RECORDING_LAG_NOT_READY_SECONDS } from '../usage/usage-recorder.js';
import { type AnalyticsEvent, analyticsEventOf } from './analytics-events.js';
import { addAnalyticsBatch } from './analytics-write.queries.js';

export interface AnalyticsRecorderOptions {
  /** `DATA_DIR/usage-spill` (shared with the usage rows, another kind); null = memory only. */
  spillDir?: string | null;
  maxMemoryRows?: number;
  delayMs?: number;
  maxBatch?: number;
}

const KIND = 'analytics_event';

/** An account's user id (a uuid); `anonymous` and the `erased:` keys are not accounts to look up. */
const USER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** How many erased accounts the recorder remembers (as the usage recorder). */
const FORGOTTEN_MAX = 10_000;

export class AnalyticsRecorder implements UsageObserver {
  private readonly batches: DurableBatches;
  /** Erased accounts -> the key their calls are written under (see forget). */
  private readonly forgotten = new Map<string, string>();

  constructor(orm: MikroORM, logger: Pick<Logger, 'info' | 'warn' | 'error'>, options: AnalyticsRecorderOptions = {}) {
    /** Events read back from spill files (see `forgetErasedSinceSpilled`). */
    const replayed = new WeakSet<AnalyticsEvent>();
    const events: BatchKind<AnalyticsEvent> = {
      name: KIND,
      write: async (rows) => {
        const em = backgroundEm(orm);
        await this.forgetErasedSinceSpilled(em, rows.filter((e) => replayed.has(e)));
        await addAnalyticsBatch(em, batchKey(rows), rows.map((e) => this.pseudonymised(e)));
      },
      revive: (json) => {
        const event = json as AnalyticsEvent;
        replayed.add(event);
        return event;
      },
    };
    this.batches = new DurableBatches([events as BatchKind<unknown>], {
      spillDir: options.spillDir ?? null,
      maxMemoryRows: options.maxMemoryRows ?? 50_000,
      delayMs: options.delayMs ?? 1000,
      maxBatch: options.maxBatch ?? 2000,
      logger,
      label: 'analytics',
    });
  }

  /** Writes the spill files an earlier run left (in the background). */
  start(): Promise<void> {
    return this.batches.start();
  }

  /** On the request path: builds the call's event and queues it (no I/O). */
  counted(call: CountedCall): void {
    const event = analyticsEventOf(call, randomUUID());
    if (event) this.batches.add(KIND, this.pseudonymised(event));
  }

  /**
   * An account is being erased: its queued events, and those of calls still running, are written
   * under `erasedKey`, the key the erasure gives its stored days. `undo()` if the erasure fails.
   */
  forget(userId: string, erasedKey: string): { undo(): void } {
    if (this.forgotten.size >= FORGOTTEN_MAX) this.forgotten.delete(this.forgotten.keys().next().value!);
    this.forgotten.set(userId, erasedKey);
    return { undo: () => void this.forgotten.delete(userId) };
  }

  /** Writes every queued event (tests and readers that need them now); never throws. */
  flush(): Promise<void> {
    return this.batches.flush();
  }

  lag(): BatchLag {
    return this.batches.lag();
  }

  /** How far recording lags, and whether too far for the process to be ready (the usage rows' rule, for `/ready`). */
  recordingLag(): { lag: BatchLag; tooFarBehind: boolean } {
    const lag = this.batches.lag();
    return { lag, tooFarBehind: (lag.oldest_pending_seconds ?? 0) > RECORDING_LAG_NOT_READY_SECONDS };
  }

  /**
   * Events read back from a spill file may name an account erased since: the memory of erased
   * accounts (`forgotten`) is lost with a restart, and nothing may link the account to the key its
   * stored days were given. Such an account's events get a new random key (remembered, so its
   * later replayed batches share it): the counts stay, the account's id is not written. The cost:
   * on a day with both stored and replayed activity, it counts as two distinct accounts.
   */
  private async forgetErasedSinceSpilled(em: EntityManager, events: readonly AnalyticsEvent[]): Promise<void> {
    const named = [...new Set(events.map((e) => e.account).filter((a) => USER_ID.test(a) && !this.forgotten.has(a)))];
    if (named.length === 0) return;
    const existing = await existingUserIds(em, named);
    for (const account of named) if (!existing.has(account)) this.forget(account, `erased:${randomUUID()}`);
  }

  private pseudonymised(event: AnalyticsEvent): AnalyticsEvent {
    const key = this.forgotten.get(event.account);
    return key ? { ...event, account: key } : event;
  }

  /** Shutdown: the last events written, or spilled for the next start. */
  close(): Promise<void> {
    return this.batches.close();
  }
}

/** The same events give the same key, however often their batch is written (the event ids, not the accounts). */
function batchKey(events: readonly AnalyticsEvent[]): string {
  const hash = createHash('sha256');
  for (const id of events.map((e) => e.event_id).sort()) hash.update(id);
  return hash.digest('hex');
}
