/**
 * Sliding-window request counters behind one small interface, with an in-process store and a
 * Redis store (redis-counter-store.ts; atomic: one Lua script per request checks every window and
 * counts). Both run the same algorithm: counts are kept in fixed buckets (1 s for the minute
 * window, 1 min for the day, 1 h for the period) and a window counts every bucket that overlaps
 * it, so a limit is never exceeded and Retry-After is at most one bucket late.
 *
 * A subject (`user:<id>`, `workspace:<id>`, `op:<operation>:<who>`...) holds any named windows: the
 * plan windows and the operation budgets use the same calls. A budget whose counts are backed by
 * stored rows passes `rebuild` (the plan windows: the usage table): a store that does not hold the
 * subject's window (in-process counters after a restart, Redis after it lost its data or before it
 * ever counted the subject) rebuilds it from that source before it is trusted, once, atomically
 * across processes. Budgets without a source (operation limits) start empty.
 *
 * rate-limiter-flexible (issue #32 item 5): dropped, not used. Compared against its
 * RateLimiterRedis, RateLimiterUnion and RateLimiterMemory sources (v5):
 * - CONSUME_SCRIPT checks every window of a request (minute, day, billing period) and counts in all
 *   of them only when all have room, in one atomic step. The library's windows are fixed (a key
 *   that expires `duration` after its first point, one INCRBY script per key); RateLimiterUnion
 *   consumes each limiter separately (Promise.all), so a request refused by the day window is still
 *   counted in the minute window, and a refused consume is counted in its own window too (INCRBY
 *   before the check). It has no sliding window, no window tied to calendar bounds (`fixed`: the
 *   billing period from its start to its end), no look-only evaluation of several windows with
 *   cost 0, and no Retry-After computed from the bucket that frees the needed slot.
 * - REFUND_SCRIPT takes one request back from the bucket it was counted in (`at`); the library's
 *   `reward` gives points back to the current window only, which after a window boundary is the
 *   wrong one.
 * - What it had that this did not: an insurance limiter when Redis fails (in-process counters per
 *   process, which lets each process hand out the whole limit: we answer 503 instead, see
 *   docs/reliability.md), and no rebuilding from stored rows at all, which is what issue #33 needs.
 *   Rebuilding on its `customIncrTtlLuaScript` hook would keep one key per window and leave the
 *   multi-window step, the refund and the rebuild ours: nothing would be left to the library.
 */

export interface WindowSpec {
  /** `minute`, `day`, `period`... (the name in 429 details and RateLimit headers). */
  name: string;
  /** null = counted, never limited. */
  limit: number | null;
  durationMs: number;
  bucketMs: number;
  /** A fixed window (a billing period): counts from `fixedStart`, frees everything at `fixedEnd`. */
  fixed?: { start: number; end: number };
}

export interface WindowState {
  name: string;
  limit: number | null;
  /** Requests in the window, including this one when it was counted. */
  count: number;
  /** Milliseconds until the oldest counted request leaves the window (0 when empty). */
  resetMs: number;
}

export interface ConsumeResult {
  allowed: boolean;
  /** When refused: milliseconds until every full window has a free slot. */
  retryAfterMs: number;
  /** When refused: the window that frees last. */
  blockedBy: string | null;
  windows: WindowState[];
}

export interface ConsumeOptions {
  now: number;
  /** false: count even when over a limit (administrators, RATE_LIMITS=off). */
  enforce: boolean;
  /** 1 to count a request, 0 to only look. */
  cost: number;
  /**
   * Where the subject's counts are stored for good (the usage rows): called for each window the
   * store does not hold, before the window is trusted. Without it a missing window starts empty.
   */
  rebuild?: CounterSource;
}

/** A window's counts rebuilt from stored rows: bucket index (epoch ms / bucketMs) -> count. */
export type CounterSource = (window: WindowSpec) => Promise<Map<number, number>>;

export interface CounterStore {
  readonly kind: 'memory' | 'redis';
  /** Checks every window and, when all have room (or `enforce` is false), counts `cost` at `now`. */
  consume(subject: string, windows: WindowSpec[], options: ConsumeOptions): Promise<ConsumeResult>;
  /** Takes back one request counted at `at` (it ended in a server error). */
  refund(subject: string, windows: WindowSpec[], at: number): Promise<void>;
  /** Forgets everything counted for `subject` in these windows (by name), as if nothing had been. */
  clear(subject: string, windows: WindowSpec[]): Promise<void>;
  close(): Promise<void>;
}

export interface Evaluated {
  count: number;
  resetMs: number;
  /** Milliseconds until `need` more requests fit; 0 when they fit now. */
  retryMs: number;
}

/** The shared algorithm over one window's buckets (bucket index -> count). */
export function evaluate(buckets: [number, number][], window: WindowSpec, now: number, need: number): Evaluated {
  const start = window.fixed ? window.fixed.start : now - window.durationMs;
  // a bucket that overlaps the window counts whole: never under-counts, at most one bucket early
  const live = buckets.filter(([b]) => (b + 1) * window.bucketMs > start);
  live.sort((a, b) => a[0] - b[0]);
  const count = live.reduce((sum, [, c]) => sum + c, 0);
  const leaves = (b: number) => (window.fixed ? window.fixed.end : (b + 1) * window.bucketMs + window.durationMs) - now;
  const resetMs = live.length ? Math.max(0, leaves(live[0]![0])) : 0;
  let retryMs = 0;
  if (window.limit !== null && count + need > window.limit) {
    let freed = 0;
    retryMs = window.fixed ? window.fixed.end - now : window.durationMs;
    for (const [b, c] of live) {
      freed += c;
      if (count - freed + need <= window.limit) {
        retryMs = leaves(b);
        break;
      }
    }
    retryMs = Math.max(1, retryMs);
  }
  return { count, resetMs, retryMs };
}

/** The answer of one consume from each window's evaluation (shared by both stores). */
export function decide(evaluated: Evaluated[], windows: WindowSpec[], options: ConsumeOptions): ConsumeResult {
  let retryAfterMs = 0;
  let blockedBy: string | null = null;
  evaluated.forEach((e, i) => {
    if (e.retryMs > retryAfterMs) {
      retryAfterMs = e.retryMs;
      blockedBy = windows[i]!.name;
    }
  });
  const allowed = !options.enforce || blockedBy === null;
  const counted = allowed && options.cost > 0;
  return {
    allowed,
    retryAfterMs: allowed ? 0 : retryAfterMs,
    blockedBy: allowed ? null : blockedBy,
    windows: windows.map((w, i) => ({
      name: w.name,
      limit: w.limit,
      count: evaluated[i]!.count + (counted ? options.cost : 0),
      resetMs: counted && evaluated[i]!.count === 0 ? (w.fixed ? w.fixed.end - options.now : w.durationMs) : evaluated[i]!.resetMs,
    })),
  };
}

/** Counters in this process's memory: right for one server process; they restart empty. */
export class MemoryCounterStore implements CounterStore {
  readonly kind = 'memory' as const;
  private readonly data = new Map<string, { window: WindowSpec; buckets: Map<number, number> }>();
  /** Rebuilds under way, so that concurrent first calls of a subject wait for one. */
  private readonly rebuilding = new Map<string, Promise<void>>();
  private sweeps = 0;

  async consume(subject: string, windows: WindowSpec[], options: ConsumeOptions): Promise<ConsumeResult> {
    if (options.rebuild) await Promise.all(windows.map((w) => this.rebuilt(subject, w, options.rebuild!)));
    const need = Math.max(1, options.cost);
    const evaluated = windows.map((w) => evaluate([...this.buckets(subject, w)], w, options.now, need));
    const result = decide(evaluated, windows, options);
    if (result.allowed && options.cost > 0) {
      for (const w of windows) {
        const buckets = this.buckets(subject, w);
        const b = Math.floor(options.now / w.bucketMs);
        buckets.set(b, (buckets.get(b) ?? 0) + options.cost);
      }
    }
    if (++this.sweeps % 1000 === 0) this.sweep(options.now);
    return result;
  }

  async refund(subject: string, windows: WindowSpec[], at: number): Promise<void> {
    for (const w of windows) {
      const buckets = this.buckets(subject, w);
      const b = Math.floor(at / w.bucketMs);
      const c = buckets.get(b) ?? 0;
      if (c <= 1) buckets.delete(b);
      else buckets.set(b, c - 1);
    }
  }

  async clear(subject: string, windows: WindowSpec[]): Promise<void> {
    for (const w of windows) this.data.delete(`${subject}:${w.name}`);
  }

  async close(): Promise<void> {
    this.data.clear();
  }

  /** The window held in memory, rebuilt from `source` when it is not (first call since the start, or swept). */
  private async rebuilt(subject: string, window: WindowSpec, source: CounterSource): Promise<void> {
    const key = `${subject}:${window.name}`;
    if (this.data.has(key)) return;
    let rebuilding = this.rebuilding.get(key);
    if (!rebuilding) {
      rebuilding = source(window)
        .then((buckets) => void this.data.set(key, { window, buckets: new Map(buckets) }))
        .finally(() => this.rebuilding.delete(key));
      this.rebuilding.set(key, rebuilding);
    }
    await rebuilding;
  }

  private buckets(subject: string, window: WindowSpec): Map<number, number> {
    const key = `${subject}:${window.name}`;
    let entry = this.data.get(key);
    if (!entry) this.data.set(key, (entry = { window, buckets: new Map() }));
    entry.window = window;
    return entry.buckets;
  }

  /** Drops buckets that left their window so memory stays bounded. */
  private sweep(now: number): void {
    for (const [key, { window, buckets }] of this.data) {
      const start = window.fixed ? window.fixed.start : now - window.durationMs;
      for (const b of buckets.keys()) if ((b + 1) * window.bucketMs <= start) buckets.delete(b);
      if (buckets.size === 0) this.data.delete(key);
    }
  }
}
