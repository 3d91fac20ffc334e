import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { type CounterStore, MemoryCounterStore, type WindowSpec } from './counter-store.js';
import { LAYOUT_PREFIX, RedisCounterStore } from './redis-counter-store.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** These tests are about counting, not deadlines: the first command (connect, load the scripts) of a loaded machine may pass the 250 ms default. */
const UNHURRIED_MS = 10_000;

const stores: [string, () => CounterStore][] = [
  ['in-process', () => new MemoryCounterStore()],
  ['Redis', () => new RedisCounterStore(new Redis(REDIS_URL), `lsp-test:${randomUUID()}:`, UNHURRIED_MS)],
];

const minute: WindowSpec = { name: 'minute', limit: 3, durationMs: 60_000, bucketMs: 1000 };
const day: WindowSpec = { name: 'day', limit: 5, durationMs: 86_400_000, bucketMs: 60_000 };

describe.each(stores)('%s counter store', (_name, make) => {
  let store: CounterStore;
  beforeEach(() => {
    store = make();
  });
  afterEach(async () => {
    await store.close();
  });

  it('refuses past the limit with the time until the oldest request leaves the window, and counts nothing refused', async () => {
    const t0 = 1_700_000_000_000;
    for (const dt of [0, 10_000, 20_000]) {
      expect((await store.consume('s', [minute, day], { now: t0 + dt, enforce: true, cost: 1 })).allowed).toBe(true);
    }
    const refused = await store.consume('s', [minute, day], { now: t0 + 30_000, enforce: true, cost: 1 });
    expect(refused).toMatchObject({ allowed: false, blockedBy: 'minute', retryAfterMs: 31_000 });
    expect(refused.windows.map((w) => w.count)).toEqual([3, 3]);
    // one second after the first request left the window, one slot is free again
    const later = await store.consume('s', [minute, day], { now: t0 + 61_000, enforce: true, cost: 1 });
    expect(later.allowed).toBe(true);
    expect(later.windows.map((w) => w.count)).toEqual([3, 4]);
    // the day window now blocks one request later, until its oldest minute bucket leaves
    await store.consume('s', [minute, day], { now: t0 + 200_000, enforce: true, cost: 1 });
    const daily = await store.consume('s', [minute, day], { now: t0 + 300_000, enforce: true, cost: 1 });
    expect(daily.blockedBy).toBe('day');
    expect(daily.retryAfterMs).toBe(Math.ceil((t0 + 1) / 60_000) * 60_000 + 86_400_000 - (t0 + 300_000));
  });

  it('counts without refusing when not enforcing, and peeks without counting', async () => {
    const now = 1_700_000_000_000;
    for (let i = 0; i < 5; i++) await store.consume('p', [minute], { now, enforce: false, cost: 1 });
    const peek = await store.consume('p', [minute], { now, enforce: true, cost: 0 });
    expect(peek).toMatchObject({ allowed: false, windows: [expect.objectContaining({ count: 5 })] });
    await store.refund('p', [minute], now);
    expect((await store.consume('p', [minute], { now, enforce: false, cost: 0 })).windows[0]!.count).toBe(4);
  });

  it('clears one subject\'s windows and nothing else', async () => {
    const now = 1_700_000_000_000;
    for (let i = 0; i < 3; i++) {
      await store.consume('cleared', [minute, day], { now, enforce: true, cost: 1 });
      await store.consume('kept', [minute], { now, enforce: true, cost: 1 });
    }
    expect((await store.consume('cleared', [minute], { now, enforce: true, cost: 0 })).allowed).toBe(false);
    await store.clear('cleared', [minute, day]);
    expect((await store.consume('cleared', [minute, day], { now, enforce: true, cost: 0 })).windows.map((w) => w.count)).toEqual([0, 0]);
    expect((await store.consume('kept', [minute], { now, enforce: true, cost: 0 })).windows[0]!.count).toBe(3);
  });

  it('frees a fixed (billing) window at its end', async () => {
    const start = 1_700_000_000_000;
    const billing: WindowSpec = { name: 'period', limit: 2, durationMs: 1_000_000, bucketMs: 3_600_000, fixed: { start, end: start + 1_000_000 } };
    await store.consume('b', [billing], { now: start + 10, enforce: true, cost: 1 });
    await store.consume('b', [billing], { now: start + 20, enforce: true, cost: 1 });
    const refused = await store.consume('b', [billing], { now: start + 30, enforce: true, cost: 1 });
    expect(refused).toMatchObject({ allowed: false, retryAfterMs: 1_000_000 - 30 });
  });
});

describe('Redis counter store key layout', () => {
  it('keeps its keys apart from the layout of earlier versions (lsp:rl:), whose scripts cannot read the seeded field', async () => {
    const redis = new Redis(REDIS_URL);
    try {
      const store = new RedisCounterStore(redis, undefined, UNHURRIED_MS);
      const subject = `layout-test-${randomUUID()}`;
      const windows = [{ name: 'minute', limit: 5, durationMs: 60_000, bucketMs: 1000 }];
      await store.consume(subject, windows, { now: Date.now(), enforce: true, cost: 1 });
      expect(await redis.keys(`lsp:rl:${subject}:*`)).toEqual([]);
      expect(await redis.keys(`${LAYOUT_PREFIX}${subject}:*`)).toEqual([`${LAYOUT_PREFIX}${subject}:minute`]);
      await redis.del(`${LAYOUT_PREFIX}${subject}:minute`);
    } finally {
      redis.disconnect();
    }
  });
});
