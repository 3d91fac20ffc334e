/**
 * Plan limits with Redis counters (REDIS_URL) shared by two server processes on one PostgreSQL
 * database: the limit holds across both, 429 carries a correct Retry-After, and anonymous callers
 * (ALLOW_ANONYMOUS=true) are limited per client IP under the Anonymous plan; sign-in attempts are
 * counted atomically across both processes; a GraphQL persisted query registered with one process
 * runs by its hash alone on the other.
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { closeOrm, createOrm } from '../src/db/orm.js';
import { TEST_POSTGRES_ADMIN_URL } from './helpers/test-databases.js';
import { createLogger } from '../src/logger.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { argon2Work } from '../src/modules/accounts/passwords.js';
import { call, cookieFrom } from './helpers/http.js';
import { spendFreeMinuteAcross } from './helpers/shared-limits.js';

const settle = () => new Promise((resolve) => setTimeout(resolve, 500));
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function admin(sql: string): Promise<void> {
  const orm = await createOrm({ databaseUrl: TEST_POSTGRES_ADMIN_URL, dataDir: '' });
  try {
    await orm.em.getConnection().execute(sql, [], 'run');
  } finally {
    await closeOrm(orm);
  }
}

describe('plan limits with Redis counters across two server processes (PostgreSQL)', () => {
  const database = `lsp_test_${randomBytes(6).toString('hex')}`;
  const platforms: Platform[] = [];
  // a client IP of its own per run (X-Forwarded-For is trusted from loopback), so earlier runs' counters never interfere
  const clientIp = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

  beforeAll(async () => {
    await admin(`create database "${database}"`);
    const url = new URL(TEST_POSTGRES_ADMIN_URL);
    url.pathname = `/${database}`;
    for (let i = 0; i < 2; i++) {
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'limits-redis-'));
      const config = loadConfig({
        DATA_DIR: dataDir,
        DATABASE_URL: url.toString(),
        REDIS_URL,
        ALLOW_ANONYMOUS: 'true',
        INGEST_ON_START: 'false',
        PORT: '0',
        SESSION_SECRET: 'one secret shared by both processes, 32+ chars',
      });
      platforms.push(await startPlatform(config, createLogger('silent')));
    }
  });

  afterAll(async () => {
    for (const platform of platforms) await platform.stop();
    await admin(`drop database if exists "${database}" with (force)`);
  });

  it('limits an account across both processes with 429 and a Retry-After until the minute window frees a slot', async () => {
    const [a, b] = platforms.map((p) => p.url!);
    const email = `redis-${randomBytes(4).toString('hex')}@example.org`;
    // registrations are limited per IP in Redis, which outlives this run: register from this run's own address
    await call(`${a}/auth/register`, 'POST', { email, password: 'a sturdy passphrase 42', accept_terms: true, acknowledge_privacy: true }, { headers: { 'x-forwarded-for': clientIp } });
    const cookie = cookieFrom((await call(`${b}/auth/login`, 'POST', { email, password: 'a sturdy passphrase 42' })).headers, 'session')!;
    const key = (await call(`${a}/v1/keys`, 'POST', {}, { cookie })).body.key as string;
    const started = Date.now();
    for (const refused of await spendFreeMinuteAcross(a, b, key)) {
      const retry = Number(refused.headers.get('retry-after'));
      expect(retry).toBeGreaterThanOrEqual(Math.floor(60 - (Date.now() - started) / 1000) - 1);
      expect(retry).toBeLessThanOrEqual(61);
    }
    await settle(); // each process writes its usage rows in batches every 200 ms
    const usage = await call(`${b}/v1/usage/me`, 'GET', undefined, { cookie });
    expect(usage.body.requests_today).toBe(10);
  });

  it('lets anonymous callers use the Anonymous plan per client IP: 3 per minute', async () => {
    const [a, b] = platforms.map((p) => p.url!);
    const headers = { 'x-forwarded-for': clientIp };
    for (let i = 0; i < 3; i++) {
      const res = await call(`${i % 2 ? a : b}/v1/documents/EU/EUR-Lex/anon${i}`, 'GET', undefined, { headers });
      expect(res.status).toBe(404);
    }
    const refused = await call(`${a}/v1/documents/EU/EUR-Lex/anon`, 'GET', undefined, { headers });
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toBe('Rate limit exceeded: the Anonymous plan allows 3 requests per minute');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(55);
    expect(refused.headers.get('ratelimit-policy')).toBe('"minute";q=3;w=60, "day";q=5;w=86400, "period";q=20;w=2592000');
    // another IP has its own counters
    const other = await call(`${b}/v1/documents/EU/EUR-Lex/anon`, 'GET', undefined, { headers: { 'x-forwarded-for': `${clientIp.slice(0, -1)}9` } });
    expect([404, 429]).toContain(other.status);
    await settle();
    const [{ n }] = await platforms[0]!.orm.em.fork().getConnection().execute('select count(*) as n from usage_event where client_ip = ?', [clientIp]);
    expect(Number(n)).toBe(3);
  });

  it('counts sign-in attempts atomically across both processes: 50 parallel wrong guesses verify at most the free failures and one paced attempt', async () => {
    const [a, b] = platforms.map((p) => p.url!);
    const email = `guessed-${randomBytes(4).toString('hex')}@example.org`;
    const ip = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
    await call(`${a}/auth/register`, 'POST', { email, password: 'a sturdy passphrase 42', accept_terms: true, acknowledge_privacy: true }, { headers: { 'x-forwarded-for': ip } });
    const before = argon2Work.verifications; // both platforms run in this process
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => call(`${i % 2 ? a : b}/auth/login`, 'POST', { email, password: `wrong guess ${i}` }, { headers: { 'x-forwarded-for': ip } })),
    );
    // the account's free failures and at most one paced attempt, whichever process answered
    const { freeFailuresPerAccount } = platforms[0]!.config.accounts.signInThrottle;
    const verified = argon2Work.verifications - before;
    expect(verified).toBeGreaterThanOrEqual(freeFailuresPerAccount);
    expect(verified).toBeLessThanOrEqual(freeFailuresPerAccount + 1);
    expect(answers.filter((r) => r.status === 401)).toHaveLength(verified);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(50 - verified);
  });

  it('runs by hash on one process a persisted query registered with the other (automatic persisted queries in Redis)', async () => {
    const [a, b] = platforms.map((p) => p.url!);
    const query = `query Persisted${randomBytes(6).toString('hex')} { __typename }`;
    const extensions = { persistedQuery: { version: 1, sha256Hash: createHash('sha256').update(query).digest('hex') } };
    expect((await call(`${b}/graphql`, 'POST', { extensions })).body).toEqual({ errors: [expect.objectContaining({ extensions: expect.objectContaining({ code: 'PERSISTED_QUERY_NOT_FOUND' }) })] });
    expect((await call(`${a}/graphql`, 'POST', { query, extensions })).body).toEqual({ data: { __typename: 'Query' } });
    // the registration is written after the answer: ask until process b sees it
    let byHash = await call(`${b}/graphql`, 'POST', { extensions });
    for (let tries = 0; tries < 50 && byHash.body.errors; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      byHash = await call(`${b}/graphql`, 'POST', { extensions });
    }
    expect(byHash.body).toEqual({ data: { __typename: 'Query' } });
    const get = await call(`${b}/graphql?extensions=${encodeURIComponent(JSON.stringify(extensions))}`, 'GET', undefined, { headers: { 'apollo-require-preflight': 'true' } });
    expect(get.body).toEqual({ data: { __typename: 'Query' } });
  });
});
