/**
 * The counters of counter-store.ts in Redis (REDIS_URL): the same algorithm in Lua, so that
 * checking every window and counting is one atomic step, correct with any number of server
 * processes. One hash per subject and window (field = bucket index, value = count); expired
 * buckets are deleted as they are read.
 *
 * Rebuilding (issue #33 item 3): a window rebuilt from stored rows carries the field `seeded`. A
 * hash without it (Redis restarted empty, evicted or expired the key, or never counted the
 * subject) is not trusted: CONSUME_SCRIPT counts nothing and names the windows to rebuild, the
 * caller's source (the usage rows) is read, and SEED_SCRIPT writes them only if no other process
 * did meanwhile (the first rebuild wins; the others are dropped), then the consume runs again.
 *
 * Faults (item 4): every call is bounded by `timeoutMs` (REDIS_COMMAND_TIMEOUT_MS), and the client
 * does not queue commands while disconnected, so a frozen or stopped Redis fails the call at once
 * or within the timeout; every failure becomes `unavailable` (503 with Retry-After), never a 500.
 * The deadline is ours rather than the client's `commandTimeout` alone: when the event loop runs
 * late (a burst of password hashing), a timer fires before the socket is read, so a reply that
 * already arrived would be taken for a timeout; ours looks at the socket once more (one
 * `setImmediate`, which runs after the loop's I/O phase) before it gives up.
 */
import type { Redis } from 'ioredis';
import { DomainError } from '../../errors.js';
import { type ConsumeOptions, type ConsumeResult, type CounterStore, decide, type Evaluated, type WindowSpec } from './counter-store.js';

/** Seconds a client is told to wait when Redis does not answer (a restart or a failover takes a few). */
export const REDIS_RETRY_AFTER_SECONDS = 5;

const CONSUME_SCRIPT = `
local now = tonumber(ARGV[1])
local enforce = ARGV[2] == '1'
local cost = tonumber(ARGV[3])
local need = math.max(cost, 1)
local n = #KEYS
local missing = {}
for i = 1, n do
  local base = 3 + (i - 1) * 7
  if ARGV[base + 7] == '1' and redis.call('HEXISTS', KEYS[i], 'seeded') == 0 then
    missing[#missing + 1] = i
  end
end
if #missing > 0 then
  local out = { -1 }
  for _, i in ipairs(missing) do out[#out + 1] = i end
  return out
end
local counts, resets, retries = {}, {}, {}
local blocked = false
for i = 1, n do
  local base = 3 + (i - 1) * 7
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
    if b ~= nil then
      local c = tonumber(flat[j + 1])
      if (b + 1) * bucketMs > start then
        count = count + c
        live[#live + 1] = { b, c }
      else
        redis.call('HDEL', KEYS[i], flat[j])
      end
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
    local base = 3 + (i - 1) * 7
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

/** KEYS[1] = one window's hash; ARGV = ttl, then bucket, count pairs. Writes only when no rebuild came first. */
const SEED_SCRIPT = `
if redis.call('HEXISTS', KEYS[1], 'seeded') == 1 then return 0 end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'seeded', '1')
for j = 2, #ARGV, 2 do
  redis.call('HSET', KEYS[1], ARGV[j], ARGV[j + 1])
end
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[1]))
return 1
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
  rateSeed(key: string, ...args: (string | number)[]): Promise<number>;
  rateRefund(numKeys: number, ...args: (string | number)[]): Promise<number>;
};

/** How often one consume may find windows to rebuild (another process's rebuild, an eviction) before it gives up with 503. */
const REBUILD_ATTEMPTS = 3;

/** The key prefix of this version's hash layout (see the constructor). */
export const LAYOUT_PREFIX = 'lsp:rl2:';

/** Counters in Redis (REDIS_URL): shared by every server process, atomic per request. */
export class RedisCounterStore implements CounterStore {
  readonly kind = 'redis' as const;
  private readonly redis: RedisWithScripts;

  constructor(
    redis: Redis,
    /**
     * `rl2`: the hashes gained the `seeded` field (rebuilt windows), which the scripts of earlier
     * versions (prefix `lsp:rl:`) would read as a bucket and fail on. Keys of their own keep a
     * rolling deploy's older processes working; this version finds its keys missing and rebuilds
     * them from the usage rows (see `seed`), so nothing counted before is forgotten.
     */
    private readonly prefix = LAYOUT_PREFIX,
    private readonly timeoutMs = 250,
  ) {
    redis.defineCommand('rateConsume', { lua: CONSUME_SCRIPT });
    redis.defineCommand('rateSeed', { numberOfKeys: 1, lua: SEED_SCRIPT });
    redis.defineCommand('rateRefund', { lua: REFUND_SCRIPT });
    this.redis = redis as RedisWithScripts;
  }

  async consume(subject: string, windows: WindowSpec[], options: ConsumeOptions): Promise<ConsumeResult> {
    const keys = windows.map((w) => this.key(subject, w));
    const args: (string | number)[] = [options.now, options.enforce ? '1' : '0', options.cost];
    for (const w of windows) {
      args.push(w.bucketMs, w.limit ?? -1, w.durationMs, w.fixed?.start ?? 0, w.fixed?.end ?? 0, Math.ceil(ttlOf(w, options.now)), options.rebuild ? '1' : '0');
    }
    for (let attempt = 1; ; attempt++) {
      const out = await this.command(() => this.redis.rateConsume(keys.length, ...keys, ...args));
      if (out[0] !== -1) return this.result(out, windows, options);
      if (attempt >= REBUILD_ATTEMPTS) throw unavailable();
      const missing = out.slice(1).map((i) => windows[Number(i) - 1]!);
      // the source (usage rows) is read outside Redis; a failure there is the database's own error
      const rebuilt = await Promise.all(missing.map(async (w) => ({ w, buckets: await options.rebuild!(w) })));
      for (const { w, buckets } of rebuilt) {
        const pairs = [...buckets].flatMap(([b, c]) => [String(b), c]);
        await this.command(() => this.redis.rateSeed(this.key(subject, w), Math.ceil(ttlOf(w, options.now)), ...pairs));
      }
    }
  }

  async refund(subject: string, windows: WindowSpec[], at: number): Promise<void> {
    const keys = windows.map((w) => this.key(subject, w));
    await this.command(() => this.redis.rateRefund(keys.length, ...keys, ...windows.map((w) => String(Math.floor(at / w.bucketMs)))));
  }

  async clear(subject: string, windows: WindowSpec[]): Promise<void> {
    if (windows.length) await this.command(() => this.redis.del(...windows.map((w) => this.key(subject, w))));
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  private result(out: number[], windows: WindowSpec[], options: ConsumeOptions): ConsumeResult {
    const evaluated: Evaluated[] = windows.map((_, i) => ({
      count: Number(out[1 + i * 3]),
      resetMs: Number(out[2 + i * 3]),
      retryMs: Number(out[3 + i * 3]),
    }));
    const result = decide(evaluated, windows, options);
    // the script's own decision is authoritative (it is what was counted)
    return { ...result, allowed: out[0] === 1 };
  }

  /** One Redis call; a timeout, a refused connection or a Redis error becomes `unavailable`. */
  private async command<T>(run: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => setImmediate(() => reject(new Error(`no answer within ${this.timeoutMs} ms`))), this.timeoutMs);
    });
    try {
      return await Promise.race([run(), deadline]);
    } catch (error) {
      throw unavailable(error);
    } finally {
      clearTimeout(timer);
    }
  }

  private key(subject: string, window: WindowSpec): string {
    return `${this.prefix}${subject}:${window.name}`;
  }
}

/** How long a window's hash outlives its last count: the window and one bucket. */
function ttlOf(w: WindowSpec, now: number): number {
  return w.fixed ? Math.max(w.fixed.end - now, 0) + w.bucketMs : w.durationMs + w.bucketMs;
}

function unavailable(cause?: unknown): DomainError {
  const error = new DomainError('unavailable', 'The rate-limit counters do not answer; try again shortly', { retryAfterSeconds: REDIS_RETRY_AFTER_SECONDS });
  if (cause !== undefined) (error as Error).cause = cause;
  return error;
}
