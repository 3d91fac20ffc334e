/**
 * Sliding-window request counters behind one small interface, with an in-process store and a
 * Redis store (atomic: one Lua script per request checks every window and counts). Both run the
 * same algorithm: counts are kept in fixed buckets (1 s for the minute window, 1 min for the day,
 * 1 h for the period) and a window counts every bucket that overlaps it, so a limit is never
 * exceeded and Retry-After is at most one bucket late.
 *
 * Why not rate-limiter-flexible (a dependency, v5; compared against its RateLimiterRedis,
 * RateLimiterUnion and RateLimiterMemory sources in node_modules, issue #32):
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
 *   wrong one. `clear` is the library's `delete`, the one part it does as well.
 * - What the library has and this does not: an insurance limiter when Redis fails, in-memory block
 *   caching, queueing. Those are the subjects of issues #33 and #35 (counters rebuilt from the
 *   usage table after Redis loses its data, Redis timeouts, one budget for every door).
 * Plan: keep these scripts for now; in #33/#35 either rebuild on the library with our own Lua
 * through its `customIncrTtlLuaScript` hook (which keeps one key per window, so the atomic
 * multi-window check stays ours), or drop the dependency, which nothing in src imports today.
 */
import type { Redis } from 'ioredis';

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
}

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

interface Evaluated {
  count: number;
  resetMs: number;
  /** Milliseconds until `need` more requests fit; 0 when they fit now. */
  retryMs: number;
}

/** The shared algorithm over one window's buckets (bucket index -> count). */
function evaluate(buckets: [number, number][], window: WindowSpec, now: number, need: number): Evaluated {
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

function decide(evaluated: Evaluated[], windows: WindowSpec[], options: ConsumeOptions): ConsumeResult {
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
  private sweeps = 0;

  async consume(subject: string, windows: WindowSpec[], options: ConsumeOptions): Promise<ConsumeResult> {
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

  /**
   * Replaces a subject's buckets of one window (bucket index -> count): how counters that
   * restarted empty are rebuilt from the usage rows (see UsageService).
   */
  seed(subject: string, window: WindowSpec, buckets: Map<number, number>): void {
    this.data.set(`${subject}:${window.name}`, { window, buckets: new Map(buckets) });
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

/**
 * The same algorithm in Lua, so that checking every window and counting is one atomic step in
 * Redis, correct with any number of server processes. One hash per subject and window
 * (field = bucket index, value = count); expired buckets are deleted as they are read.
 */
const CONSUME_SCRIPT = `
local now = tonumber(ARGV[1])
local enforce = ARGV[2] == '1'
local cost = tonumber(ARGV[3])
local need = math.max(cost, 1)
local n = #KEYS
local counts, resets, retries = {}, {}, {}
local blocked = false
for i = 1, n do
  local base = 3 + (i - 1) * 6
  local bucketMs = tonumber(ARGV[base + 1])
  local limit = tonumber(ARGV[base + 2])
  local duration = tonumber(ARGV[base + 3])
  local fixedStart = tonumber(ARGV[base + 4])
  local fixedEnd = tonumber(ARGV[base + 5])
  local fixed = fixedEnd > 0
  local start = fixed and fixedStart or (now - duration)
  local flat = redis.call('HGETALL', KEYS[i])
  local live = {}
  local count = 0
  for j = 1, #flat, 2 do
    local b = tonumber(flat[j])
    local c = tonumber(flat[j + 1])
    if (b + 1) * bucketMs > start then
      count = count + c
      live[#live + 1] = { b, c }
    else
      redis.call('HDEL', KEYS[i], flat[j])
    end
  end
  table.sort(live, function(x, y) return x[1] < y[1] end)
  local function leaves(b)
    if fixed then return fixedEnd - now end
    return (b + 1) * bucketMs + duration - now
  end
  local reset = 0
  if #live > 0 then reset = math.max(0, leaves(live[1][1])) end
  local retry = 0
  if limit >= 0 and count + need > limit then
    if fixed then retry = fixedEnd - now else retry = duration end
    local freed = 0
    for _, bc in ipairs(live) do
      freed = freed + bc[2]
      if count - freed + need <= limit then
        retry = leaves(bc[1])
        break
      end
    end
    retry = math.max(1, retry)
    blocked = true
  end
  counts[i] = count
  resets[i] = reset
  retries[i] = retry
end
local allowed = (not enforce) or (not blocked)
if allowed and cost > 0 then
  for i = 1, n do
    local base = 3 + (i - 1) * 6
    local bucketMs = tonumber(ARGV[base + 1])
    local ttl = tonumber(ARGV[base + 6])
    redis.call('HINCRBY', KEYS[i], string.format('%d', math.floor(now / bucketMs)), cost)
    redis.call('PEXPIRE', KEYS[i], ttl)
  end
end
local out = { allowed and 1 or 0 }
for i = 1, n do
  out[#out + 1] = counts[i]
  out[#out + 1] = resets[i]
  out[#out + 1] = retries[i]
end
return out
`;

const REFUND_SCRIPT = `
for i = 1, #KEYS do
  local left = redis.call('HINCRBY', KEYS[i], ARGV[i], -1)
  if left <= 0 then redis.call('HDEL', KEYS[i], ARGV[i]) end
end
return 1
`;

type RedisWithScripts = Redis & {
  rateConsume(numKeys: number, ...args: (string | number)[]): Promise<number[]>;
  rateRefund(numKeys: number, ...args: (string | number)[]): Promise<number>;
};

/** Counters in Redis (REDIS_URL): shared by every server process, atomic per request. */
export class RedisCounterStore implements CounterStore {
  readonly kind = 'redis' as const;
  private readonly redis: RedisWithScripts;

  constructor(
    redis: Redis,
    private readonly prefix = 'lsp:rl:',
  ) {
    redis.defineCommand('rateConsume', { lua: CONSUME_SCRIPT });
    redis.defineCommand('rateRefund', { lua: REFUND_SCRIPT });
    this.redis = redis as RedisWithScripts;
  }

  async consume(subject: string, windows: WindowSpec[], options: ConsumeOptions): Promise<ConsumeResult> {
    const keys = windows.map((w) => this.key(subject, w));
    const args: (string | number)[] = [options.now, options.enforce ? '1' : '0', options.cost];
    for (const w of windows) {
      const ttl = w.fixed ? Math.max(w.fixed.end - options.now, 0) + w.bucketMs : w.durationMs + w.bucketMs;
      args.push(w.bucketMs, w.limit ?? -1, w.durationMs, w.fixed?.start ?? 0, w.fixed?.end ?? 0, Math.ceil(ttl));
    }
    const out = await this.redis.rateConsume(keys.length, ...keys, ...args);
    const evaluated: Evaluated[] = windows.map((_, i) => ({
      count: Number(out[1 + i * 3]),
      resetMs: Number(out[2 + i * 3]),
      retryMs: Number(out[3 + i * 3]),
    }));
    const result = decide(evaluated, windows, options);
    // the script's own decision is authoritative (it is what was counted)
    return { ...result, allowed: out[0] === 1 };
  }

  async refund(subject: string, windows: WindowSpec[], at: number): Promise<void> {
    const keys = windows.map((w) => this.key(subject, w));
    await this.redis.rateRefund(keys.length, ...keys, ...windows.map((w) => String(Math.floor(at / w.bucketMs))));
  }

  async clear(subject: string, windows: WindowSpec[]): Promise<void> {
    if (windows.length) await this.redis.del(...windows.map((w) => this.key(subject, w)));
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  private key(subject: string, window: WindowSpec): string {
    return `${this.prefix}${subject}:${window.name}`;
  }
}
