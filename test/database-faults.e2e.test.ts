/**
 * A frozen PostgreSQL (issue #33 item 4): the service on a cluster of this test's own
 * (test/helpers/own-servers.ts), every postgres process stopped with SIGSTOP (connections stay
 * open, nothing answers). Requests that need the database are answered 503 with Retry-After
 * (DATABASE_STATEMENT_TIMEOUT_MS, DATABASE_ACQUIRE_TIMEOUT_MS) instead of hanging, on REST, GraphQL
 * and MCP alike, and the service serves again once PostgreSQL does. A statement that runs past the
 * timeout on a live server is cancelled and mapped the same way.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { asDomainError, DomainError } from '../src/errors.js';
import { createLogger } from '../src/logger.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { call, cookieFrom } from './helpers/http.js';
import { startOwnPostgres, type OwnPostgres } from './helpers/own-servers.js';

/** The test's own deadline, far above the configured timeouts: a hang fails the test instead of passing it. */
async function send(url: string, init: RequestInit = {}): Promise<{ status: number; retryAfter: string | null; body: any }> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(20_000) });
  const text = await res.text();
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: text ? JSON.parse(text) : null };
}

describe('a frozen PostgreSQL', () => {
  let postgres: OwnPostgres;
  let platform: Platform;
  let key: string;
  let cookie: string;

  beforeAll(async () => {
    postgres = await startOwnPostgres();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'database-faults-'));
    platform = await startPlatform(
      loadConfig({ DATA_DIR: dataDir, DATABASE_URL: postgres.url, DATABASE_STATEMENT_TIMEOUT_MS: '1000', DATABASE_ACQUIRE_TIMEOUT_MS: '1000', INGEST_ON_START: 'false', PORT: '0' }),
      createLogger('silent'),
    );
    const base = platform.url!;
    const email = `frozen-${randomBytes(4).toString('hex')}@example.org`;
    await call(`${base}/auth/register`, 'POST', { email, password: 'a sturdy passphrase 42', accept_terms: true, acknowledge_privacy: true });
    cookie = cookieFrom((await call(`${base}/auth/login`, 'POST', { email, password: 'a sturdy passphrase 42' })).headers, 'session')!;
    key = (await call(`${base}/v1/keys`, 'POST', {}, { cookie })).body.key as string;
  });

  afterAll(async () => {
    postgres?.thaw();
    await platform?.stop();
    postgres?.dispose();
  });

  it('answers 503 with Retry-After on every door while it is frozen, then serves again', async () => {
    const base = platform.url!;
    expect((await send(`${base}/v1/documents/EU/EUR-Lex/x`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(404);
    postgres.freeze();
    try {
      const search = await send(`${base}/v1/documents/EU/EUR-Lex/x`, { headers: { authorization: `Bearer ${key}` } });
      expect(search.status).toBe(503);
      expect(Number(search.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(search.body).toEqual({ detail: 'The database does not answer; try again shortly' });

      const usage = await send(`${base}/v1/usage/me`, { headers: { cookie } });
      expect(usage.status).toBe(503);
      expect(usage.retryAfter).not.toBeNull();

      const graphql = await send(`${base}/graphql`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ me { email } }' }) });
      // the session is read before the operation runs: 503 from there, or SERVICE_UNAVAILABLE from a resolver
      if (graphql.status === 503) expect(graphql.body.detail).toBe('The database does not answer; try again shortly');
      else expect(JSON.stringify(graphql.body)).toContain('SERVICE_UNAVAILABLE');
    } finally {
      postgres.thaw();
    }
    let after = 0;
    for (let i = 0; i < 50 && after !== 404; i++) {
      after = (await send(`${base}/v1/documents/EU/EUR-Lex/x`, { headers: { authorization: `Bearer ${key}` } })).status;
      if (after !== 404) await new Promise((r) => setTimeout(r, 200));
    }
    expect(after).toBe(404);
  });

  it('cancels a statement that runs past DATABASE_STATEMENT_TIMEOUT_MS, mapped to unavailable', async () => {
    const failure = await platform.orm.em
      .fork()
      .getConnection()
      .execute('select pg_sleep(3)')
      .then(() => null, (error: unknown) => error);
    expect((failure as { code?: string }).code).toBe('57014');
    const mapped = asDomainError(failure);
    expect(mapped).toBeInstanceOf(DomainError);
    expect((mapped as DomainError).code).toBe('unavailable');
  });
});
