/** The sign-in throttle's rules over the real counter stores (in process and Redis), with a controlled clock. */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { DomainError } from '../../errors.js';
import { type CounterStore, MemoryCounterStore } from '../usage/counter-store.js';
import { RedisCounterStore } from '../usage/redis-counter-store.js';
import { loginDelaySeconds, SignInThrottle, type SignInThrottleSettings } from './sign-in-throttle.js';

const T0 = 1_800_000_000_000;
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** These tests are about counting, not deadlines: the first command (connect, load the scripts) of a loaded machine may pass the 250 ms default. */
const UNHURRIED_MS = 10_000;
/** The configuration's defaults (src/config.ts), but a per-IP bound a test can reach quickly. */
const SETTINGS: SignInThrottleSettings = { windowSeconds: 900, freeFailuresPerAccount: 5, maxDelaySeconds: 60, failuresPerIp: 20 };

async function refusal(attempt: Promise<unknown>): Promise<{ seconds: number; message: string } | null> {
  try {
    await attempt;
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('rate_limited');
    return { seconds: (error as DomainError).details!.retryAfterSeconds!, message: (error as DomainError).message };
  }
}

describe('loginDelaySeconds', () => {
  it('is free up to the free failures, then doubles from one second and stops at the cap', () => {
    expect([0, 1, 5].map((n) => loginDelaySeconds(n, SETTINGS))).toEqual([0, 0, 0]);
    const beyond = Array.from({ length: 9 }, (_, i) => loginDelaySeconds(6 + i, SETTINGS));
    expect(beyond).toEqual([1, 2, 4, 8, 16, 32, 60, 60, 60]);
    expect(loginDelaySeconds(10_000, SETTINGS)).toBe(60);
    expect(loginDelaySeconds(8, { freeFailuresPerAccount: 3, maxDelaySeconds: 5 })).toBe(5);
  });
});

const stores: [string, () => CounterStore][] = [
  ['in-process', () => new MemoryCounterStore()],
  ['Redis', () => new RedisCounterStore(new Redis(REDIS_URL), `lsp-test:${randomUUID()}:`, UNHURRIED_MS)],
];

describe.each(stores)('sign-in throttle (%s counters)', (_name, make) => {
  let store: CounterStore;
  let throttle: SignInThrottle;
  beforeEach(() => {
    store = make();
    throttle = new SignInThrottle(store, SETTINGS);
  });
  afterEach(async () => {
    await store.close();
  });

  it('never locks the right password behind one address: past the free failures the next attempt waits a second, not the window', async () => {
    for (let i = 0; i < SETTINGS.freeFailuresPerAccount; i++) await throttle.attempt('a@example.org', '10.0.0.1', T0 + i);
    const early = await refusal(throttle.attempt('a@example.org', '10.0.0.1', T0 + 100));
    expect(early!.seconds).toBeLessThanOrEqual(2);
    expect(early!.message).toMatch(/^Too many failed sign-in attempts on this account: try again in \d+ seconds?, or reset your password \(POST \/auth\/password-reset\/request\): the link in the e-mail signs you in$/);
    // a second later the owner, from the very same address, gets to try the right password
    const owner = await throttle.attempt('a@example.org', '10.0.0.1', T0 + 2_100);
    await owner.succeeded();
    // a success gives its attempt back: the pace did not grow because of it
    expect(await refusal(throttle.attempt('a@example.org', '10.0.0.1', T0 + 4_200))).toBeNull();
    // everybody else behind that address is untouched
    for (let i = 0; i < 5; i++) expect(await refusal(throttle.attempt(`colleague${i}@example.org`, '10.0.0.1', T0 + 5_000 + i))).toBeNull();
  });

  it('refuses one IP spraying many accounts past its bound, naming the network; a success gives its slot back', async () => {
    const success = await throttle.attempt('owner@example.org', '10.0.0.9', T0);
    await success.succeeded();
    for (let i = 0; i < SETTINGS.failuresPerIp; i++) await throttle.attempt(`user${i}@example.org`, '10.0.0.9', T0 + 1 + i);
    const refused = await refusal(throttle.attempt('another@example.org', '10.0.0.9', T0 + 100));
    expect(refused!.seconds).toBeGreaterThan(800);
    expect(refused!.message).toMatch(/^Too many failed sign-in attempts from this network: try again in \d+ seconds, or reset your password/);
    // a refused attempt counted nothing on the account it named
    expect(await refusal(throttle.attempt('another@example.org', '10.0.0.10', T0 + 101))).toBeNull();
  });

  it('paces one account across addresses with growing delays, capped, and a refused attempt counts nothing', async () => {
    let now = T0;
    let ip = 0;
    const attempt = () => throttle.attempt('victim@example.org', `192.0.2.${++ip % 250}`, now);
    for (let i = 0; i < SETTINGS.freeFailuresPerAccount; i++) await attempt();
    expect((await refusal(attempt()))!.seconds).toBeLessThanOrEqual(2); // the 6th waits 1 s after the 5th
    now += 2_000;
    expect(await refusal(attempt())).toBeNull(); // 6th
    expect((await refusal(attempt()))!.seconds).toBeLessThanOrEqual(3); // the 7th waits 2 s
    now += 3_000;
    expect(await refusal(attempt())).toBeNull(); // 7th
    now += 2_000;
    expect((await refusal(attempt()))!.seconds).toBeGreaterThan(0); // the 8th waits 4 s
    now += 3_000;
    expect(await refusal(attempt())).toBeNull();
    // a minute at most, however many failures
    for (let i = 0; i < 20; i++) {
      now += SETTINGS.maxDelaySeconds * 1000 + 1_000;
      expect(await refusal(attempt())).toBeNull();
    }
    expect((await refusal(attempt()))!.seconds).toBeLessThanOrEqual(SETTINGS.maxDelaySeconds + 1);
  });

  it('forgets the account\'s failures when its owner proves themself through a reset link, not the network\'s', async () => {
    let now = T0;
    for (let i = 0; i < SETTINGS.freeFailuresPerAccount + 3; i++) {
      now += 10_000;
      await throttle.attempt('reset@example.org', '10.0.0.20', now);
    }
    expect((await refusal(throttle.attempt('reset@example.org', '10.0.0.20', now + 100)))!.seconds).toBeGreaterThanOrEqual(4);
    await throttle.clearAccount('reset@example.org');
    for (let i = 0; i < SETTINGS.freeFailuresPerAccount; i++) expect(await refusal(throttle.attempt('reset@example.org', '10.0.0.21', now + 200 + i))).toBeNull();
    // the first address's own count survived the reset: its bound still bites there
    for (let i = 0; i < SETTINGS.failuresPerIp - (SETTINGS.freeFailuresPerAccount + 3); i++) await throttle.attempt(`other${i}@example.org`, '10.0.0.20', now + 300 + i);
    expect(await refusal(throttle.attempt('someone@example.org', '10.0.0.20', now + 400))).not.toBeNull();
  });
});
