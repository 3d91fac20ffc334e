/**
 * Redis faults under the plan limits (issue #33 items 3 and 4), on a Redis server of this test's
 * own (test/helpers/own-servers.ts) and a database of its own on the shared PostgreSQL:
 * - counters that Redis does not hold (never counted there, or lost when Redis restarted empty)
 *   are rebuilt from the usage rows before they are trusted: an account over its daily limit
 *   stays refused;
 * - a frozen Redis (SIGSTOP) and a stopped one are answered 503 with Retry-After, not a hang or
 *   a 500, and nothing is counted for the refused requests.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { call, cookieFrom, type HttpResult } from './helpers/http.js';
import { startOwnRedis, type OwnRedis } from './helpers/own-servers.js';
import { openTestDatabase, type TestDatabase } from './helpers/test-databases.js';

/** A request that would otherwise hang: the test's own deadline (well above REDIS_COMMAND_TIMEOUT_MS) turns a hang into a failure. */
async function documentRequest(base: string, key: string): Promise<HttpResult> {
  const res = await fetch(`${base}/v1/documents/EU/EUR-Lex/x`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(15_000) });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

describe('plan limits when Redis loses its data, freezes or stops', () => {
  let redis: OwnRedis;
  let database: TestDatabase;
  let platform: Platform;

  beforeAll(async () => {
    redis = await startOwnRedis();
    database = await openTestDatabase('postgresql');
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'redis-faults-'));
    const config = loadConfig({
      DATA_DIR: dataDir,
      DATABASE_URL: database.orm.config.get('clientUrl')!,
      REDIS_URL: redis.url,
      REDIS_COMMAND_TIMEOUT_MS: '250',
      INGEST_ON_START: 'false',
      PORT: '0',
    });
    platform = await startPlatform(config, createLogger('silent'));
  });

  afterAll(async () => {
    redis.thaw();
    await platform?.stop();
    await redis?.stop();
    await database?.dispose();
  });

  async function freeAccount(): Promise<{ key: string; userId: string }> {
    const base = platform.url!;
    const email = `faults-${randomBytes(4).toString('hex')}@example.org`;
    const registered = await call(`${base}/auth/register`, 'POST', { email, password: 'a sturdy passphrase 42', accept_terms: true, acknowledge_privacy: true });
    const cookie = cookieFrom((await call(`${base}/auth/login`, 'POST', { email, password: 'a sturdy passphrase 42' })).headers, 'session')!;
    const key = (await call(`${base}/v1/keys`, 'POST', {}, { cookie })).body.key as string;
    return { key, userId: registered.body.id as string };
  }

  /** `n` usage rows of `userId`, written straight into the table (what an earlier day of traffic left). */
  async function storedRows(userId: string, n: number, agoMs: number): Promise<void> {
    const at = new Date(Date.now() - agoMs);
    await database.orm.em
      .fork()
      .getConnection()
      .execute("insert into usage_event (user_id, endpoint, status, created_at) select ?, 'documents', 404, ? from generate_series(1, ?)", [userId, at, n], 'run');
  }

  async function rowsOf(userId: string): Promise<number> {
    await platform.accounts.usage.flush();
    const [{ n }] = await database.orm.em.fork().getConnection().execute('select count(*) as n from usage_event where user_id = ?', [userId]);
    return Number(n);
  }

  it('rebuilds a counter Redis does not hold from the usage rows: 40 requests today (limit 20) stay refused, also after Redis restarts empty', async () => {
    const { key, userId } = await freeAccount();
    await storedRows(userId, 40, 2 * 3600_000);
    const first = await documentRequest(platform.url!, key);
    expect(first.status).toBe(429);
    expect(first.body.detail).toBe('Rate limit exceeded: the Free plan allows 20 requests per day (rolling 24 hours)');

    await redis.stop();
    await redis.start();
    for (let i = 0; i < 3; i++) {
      const again = await documentRequest(platform.url!, key);
      // right after the restart the client may still be reconnecting (503), never a 200
      expect([429, 503]).toContain(again.status);
    }
    const settled = await waitForStatus(() => documentRequest(platform.url!, key), (s) => s !== 503);
    expect(settled.status).toBe(429);
    expect(await rowsOf(userId)).toBe(40);
  });

  it('rebuilds the period counter too: 600 requests two days ago (Free: 600 per 30 days) refuse the next one', async () => {
    const { key, userId } = await freeAccount();
    await storedRows(userId, 600, 2 * 24 * 3600_000);
    const refused = await documentRequest(platform.url!, key);
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toBe('Rate limit exceeded: the Free plan allows 600 requests per period');
  });

  it('keeps counting in Redis once rebuilt: the rows written and the counter agree', async () => {
    const { key, userId } = await freeAccount();
    await storedRows(userId, 15, 3600_000);
    const answers: number[] = [];
    for (let i = 0; i < 7; i++) answers.push((await documentRequest(platform.url!, key)).status);
    expect(answers).toEqual([404, 404, 404, 404, 404, 429, 429]);
    expect(await rowsOf(userId)).toBe(20);
  });

  it('answers 503 with Retry-After while Redis is frozen, and counts nothing', async () => {
    const { key, userId } = await freeAccount();
    expect((await documentRequest(platform.url!, key)).status).toBe(404);
    redis.freeze();
    try {
      const frozen = await documentRequest(platform.url!, key);
      expect(frozen.status).toBe(503);
      expect(Number(frozen.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(frozen.body.detail).toMatch(/rate-limit counters/i);
    } finally {
      redis.thaw();
    }
    const after = await waitForStatus(() => documentRequest(platform.url!, key), (s) => s !== 503);
    expect(after.status).toBe(404);
    expect(await rowsOf(userId)).toBe(2);
  });

  it('answers 503 with Retry-After while Redis is stopped, then serves again', async () => {
    const { key, userId } = await freeAccount();
    expect((await documentRequest(platform.url!, key)).status).toBe(404);
    await redis.stop();
    try {
      const down = await documentRequest(platform.url!, key);
      expect(down.status).toBe(503);
      expect(Number(down.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    } finally {
      await redis.start();
    }
    const after = await waitForStatus(() => documentRequest(platform.url!, key), (s) => s !== 503);
    // Redis came back empty: the account's counters were rebuilt from its rows (1 before, this one)
    expect(after.status).toBe(404);
    expect(after.headers.get('ratelimit')).toMatch(/^"minute";r=8;/);
    expect(await rowsOf(userId)).toBe(2);
  });
});

/** Repeats `request` until its status passes `done` (the client reconnects to a restarted Redis within a second or so). */
async function waitForStatus(request: () => Promise<HttpResult>, done: (status: number) => boolean): Promise<HttpResult> {
  for (let attempt = 0; ; attempt++) {
    const res = await request();
    if (done(res.status) || attempt >= 100) return res;
    await new Promise((r) => setTimeout(r, 100));
  }
}
