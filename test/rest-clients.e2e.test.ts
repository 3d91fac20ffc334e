/**
 * REST details real HTTP clients trip on (issue #34 items 4, 5, 6, 7, 11), checked with Node's
 * own fetch (undici: it decompresses by itself and keeps the response headers as sent): document
 * revalidation (ETag, 304, HEAD) that is not billed, compressed JSON, RateLimit headers only where
 * a limit is enforced, RFC 6750 answers on every door, and the small contract slips. One platform
 * on a slice of the real corpus (embedded PGlite, in-process counters, billing off), and a second
 * one with RATE_LIMITS=off.
 */
import type { Platform } from '../src/platform.js';
import { call, cookieFrom } from './helpers/http.js';
import { startTestPlatform } from './helpers/platform.js';

const PASSWORD = 'a sturdy passphrase 42';
const ADMIN = 'admin-clients@example.org';
const SLICE = [{ file: 'legislation/EU-EUR-Lex.jsonl.gz', lines: 60 }];
/** Starting a platform (ingest, GraphQL composition) on a busy 2-core machine can pass jest's default. */
const STARTUP_MS = 600_000;

describe('REST details real clients depend on', () => {
  let platform: Platform;
  let url: string;
  let seq = 0;

  /** A new signed-in account with one API key. */
  async function newAccount(email = `clients${++seq}@example.org`): Promise<{ id: string; cookie: string; key: string }> {
    const reg = await call(`${url}/auth/register`, 'POST', { email, password: PASSWORD, accept_terms: true, acknowledge_privacy: true }, { headers: { 'x-forwarded-for': `10.9.0.${++seq}` } });
    expect(reg.status).toBe(200);
    const login = await call(`${url}/auth/login`, 'POST', { email, password: PASSWORD });
    const cookie = cookieFrom(login.headers, 'session')!;
    const created = await call(`${url}/v1/keys`, 'POST', { name: 'client' }, { cookie });
    expect(created.status).toBe(200);
    return { id: reg.body.id, cookie, key: created.body.key };
  }

  const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
  let adminAccount: Promise<{ id: string; key: string }> | undefined;
  /** The administrator (ADMIN_EMAILS, verified), made once for the tests that need one. */
  const admin = () =>
    (adminAccount ??= newAccount(ADMIN).then(async (account) => {
      await platform.orm.em.fork().getConnection().execute('update app_user set email_verified = true where id = ?', [account.id]);
      return account;
    }));
  const requestsToday = async (key: string): Promise<number> => (await call(`${url}/v1/usage/me`, 'GET', undefined, { key })).body.requests_today;

  beforeAll(async () => {
    platform = await startTestPlatform(SLICE, { ADMIN_EMAILS: ADMIN });
    url = platform.url!;
  }, STARTUP_MS);

  afterAll(async () => {
    await platform?.stop();
  });

  describe('item 4: document revalidation is not billed', () => {
    it('sends a strong ETag, Last-Modified and private caching; a 304 and a HEAD leave the usage unchanged', async () => {
      const { id, key } = await newAccount();
      // the first record of the slice (a directive of 1985-07-25)
      const hit = { source: 'EU/EUR-Lex', source_id: '31985L0374' };
      const path = `${url}/v1/documents/${hit.source}/${hit.source_id}`;

      // fetch asks for gzip by itself: the identity representation first (a HEAD, never compressed, carries its tag)
      const first = await fetch(path, { headers: { ...bearer(key), 'accept-encoding': 'identity' } });
      expect(first.status).toBe(200);
      const document = (await first.json()) as { date: string };
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/); // strong: no W/
      expect(document.date.slice(0, 10)).toBe('1985-07-25');
      expect(first.headers.get('last-modified')).toBe('Thu, 25 Jul 1985 00:00:00 GMT');
      expect(first.headers.get('cache-control')).toBe('private, max-age=3600');
      const counted = await requestsToday(key);

      // the client's copy is current: 304 with the validators, no body, not billed
      const revalidated = await fetch(path, { headers: { ...bearer(key), 'if-none-match': etag } });
      expect(revalidated.status).toBe(304);
      expect(revalidated.headers.get('etag')).toBe(etag);
      expect(revalidated.headers.get('cache-control')).toBe('private, max-age=3600');
      expect(await revalidated.text()).toBe('');
      // the same with the id in the query, and among other tags
      const byQuery = await fetch(`${url}/v1/documents/${hit.source}?source_id=${encodeURIComponent(hit.source_id)}`, { headers: { ...bearer(key), 'if-none-match': `"stale", ${etag}` } });
      expect(byQuery.status).toBe(304);
      // HEAD: the headers a GET would send, no body, not billed
      const head = await fetch(path, { method: 'HEAD', headers: bearer(key) });
      expect(head.status).toBe(200);
      expect(head.headers.get('etag')).toBe(etag);
      expect(await head.text()).toBe('');
      // a compressed copy has a tag of its own, and revalidates as well
      const compressed = await fetch(path, { headers: { ...bearer(key), 'accept-encoding': 'br' } });
      const compressedTag = compressed.headers.get('etag')!;
      await compressed.arrayBuffer();
      const afterCompressed = await requestsToday(key);
      expect(afterCompressed).toBe(counted + 1);
      expect(compressed.headers.get('content-encoding')).toBe('br');
      expect(compressedTag).toBe(`${etag.slice(0, -1)}-br"`);
      const compressedRevalidated = await fetch(path, { headers: { ...bearer(key), 'if-none-match': compressedTag, 'accept-encoding': 'br' } });
      expect([compressedRevalidated.status, compressedRevalidated.headers.get('etag')]).toEqual([304, compressedTag]);

      expect(await requestsToday(key)).toBe(afterCompressed);
      // an outdated copy is a read like any other: 200, billed
      const stale = await fetch(path, { headers: { ...bearer(key), 'if-none-match': '"outdated"' } });
      expect(stale.status).toBe(200);
      await stale.json();
      expect(await requestsToday(key)).toBe(afterCompressed + 1);

      // counted in the usage statistics as what they are, beside the billed reads
      const endpoints = await call(`${url}/v1/admin/users/${id}/endpoints`, 'GET', undefined, { key: (await admin()).key });
      expect(endpoints.status).toBe(200);
      expect(endpoints.body.endpoints).toEqual(
        expect.arrayContaining([
          { endpoint: 'documents', requests: 3 },
          { endpoint: 'documents.not_modified', requests: 3 },
          { endpoint: 'documents.head', requests: 1 },
        ]),
      );
      expect(endpoints.body.endpoints).toHaveLength(3);
    });

    it('documents the revalidation answers in /openapi.json', async () => {
      const doc = (await (await fetch(`${url}/openapi.json`)).json()) as { paths: Record<string, { get: { responses: Record<string, { headers?: Record<string, unknown> }> } }> };
      for (const path of ['/v1/documents/{country}/{source_name}/{source_id}', '/v1/documents/{country}/{source_name}']) {
        const { responses } = doc.paths[path]!.get;
        expect([path, Object.keys(responses['304']!.headers!)]).toEqual([path, ['ETag', 'Last-Modified', 'Cache-Control']]);
        expect(Object.keys(responses['200']!.headers!)).toEqual(['ETag', 'Last-Modified', 'Cache-Control', 'RateLimit', 'RateLimit-Policy']);
      }
    });

    it('still needs valid credentials for a revalidation', async () => {
      const { key } = await newAccount();
      const head = await fetch(`${url}/v1/documents/EU/EUR-Lex/none`, { method: 'HEAD', headers: bearer(key) });
      expect(head.status).toBe(404);
      expect((await fetch(`${url}/v1/documents/EU/EUR-Lex/none`, { method: 'HEAD' })).status).toBe(401);
      expect((await fetch(`${url}/v1/documents/EU/EUR-Lex/none`, { headers: { 'if-none-match': '"x"' } })).status).toBe(401);
    });
  });

  describe('item 5: compressed JSON', () => {
    it('compresses /openapi.json and a large search with Brotli or gzip as asked, small answers not at all', async () => {
      const { key } = await newAccount();
      const brotli = await fetch(`${url}/openapi.json`, { headers: { 'accept-encoding': 'gzip, br' } });
      expect(brotli.headers.get('content-encoding')).toBe('br');
      expect(brotli.headers.get('vary')).toMatch(/Accept-Encoding/i);
      expect(((await brotli.json()) as { openapi: string }).openapi).toBe('3.1.0');
      const gzip = await fetch(`${url}/openapi.json`, { headers: { 'accept-encoding': 'gzip' } });
      expect(gzip.headers.get('content-encoding')).toBe('gzip');
      await gzip.json();

      const search = await fetch(`${url}/v1/search`, {
        method: 'POST',
        headers: { ...bearer(key), 'content-type': 'application/json', 'accept-encoding': 'gzip, br' },
        body: JSON.stringify({ q: 'regulation', namespace: 'legislation', top_k: 50, result_detail: 'full_text' }),
      });
      expect(search.status).toBe(200);
      expect(search.headers.get('content-encoding')).toBe('br');
      expect(((await search.json()) as { hits: unknown[] }).hits.length).toBeGreaterThan(1);

      const health = await fetch(`${url}/health`, { headers: { 'accept-encoding': 'gzip, br' } });
      expect(health.headers.get('content-encoding')).toBeNull();
      await health.text();
    });

    it('never compresses or holds back an MCP event stream (/sse and /mcp)', async () => {
      const { key } = await newAccount();
      const abort = new AbortController();
      const sse = await fetch(`${url}/sse`, { headers: { ...bearer(key), accept: 'text/event-stream', 'accept-encoding': 'gzip, br' }, signal: abort.signal });
      expect(sse.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(sse.headers.get('content-encoding')).toBeNull();
      // the first event arrives while the stream stays open
      const first = await sse.body!.getReader().read();
      expect(new TextDecoder().decode(first.value)).toContain('event: endpoint');
      abort.abort();

      const init = await fetch(`${url}/mcp`, {
        method: 'POST',
        headers: { ...bearer(key), 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'accept-encoding': 'gzip, br' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fetch', version: '1' } } }),
      });
      expect(init.status).toBe(200);
      expect(init.headers.get('content-encoding')).toBeNull();
      expect(await init.text()).toContain('"serverInfo"');
    });
  });

  describe('item 6: RateLimit headers only where a limit is enforced', () => {
    it('sends them to a limited account and not to an administrator', async () => {
      const user = await newAccount();
      const limited = await fetch(`${url}/v1/documents/EU/EUR-Lex/none`, { headers: bearer(user.key) });
      expect(limited.status).toBe(404);
      expect(limited.headers.get('ratelimit')).toMatch(/^"minute";r=9;t=\d+$/);

      const { key: adminKey } = await admin();
      const unlimited = await fetch(`${url}/v1/documents/EU/EUR-Lex/none`, { headers: bearer(adminKey) });
      expect(unlimited.status).toBe(404);
      expect(unlimited.headers.get('ratelimit')).toBeNull();
      expect(unlimited.headers.get('ratelimit-policy')).toBeNull();
      expect((await call(`${url}/v1/usage/me`, 'GET', undefined, { key: adminKey })).body).toMatchObject({ requests_today: 1, limits_enforced: false });
    });

    it('sends none when RATE_LIMITS=off', async () => {
      const unlimitedPlatform = await startTestPlatform([{ file: 'legislation/EU-EUR-Lex.jsonl.gz', lines: 3 }], { RATE_LIMITS: 'false', ALLOW_ANONYMOUS: 'true' });
      try {
        const res = await fetch(`${unlimitedPlatform.url}/v1/documents/EU/EUR-Lex/none`);
        expect(res.status).toBe(404);
        expect(res.headers.get('ratelimit')).toBeNull();
        expect(res.headers.get('ratelimit-policy')).toBeNull();
      } finally {
        await unlimitedPlatform.stop();
      }
    }, STARTUP_MS);
  });

  describe('item 7: RFC 6750 answers, the same on every door', () => {
    const invalidKey = 'Bearer error="invalid_token", error_description="Invalid or revoked API key"';

    it('answers an invalid key with 401 invalid_token, on billable, account and open endpoints and on GraphQL', async () => {
      const headers = bearer('sk-not-a-key');
      for (const [method, path, body] of [
        ['POST', '/v1/search', { q: 'x' }],
        ['GET', '/v1/usage/me', undefined],
        ['GET', '/v1/stats', undefined],
        ['GET', '/v1/discover/countries', undefined],
        ['POST', '/graphql', { query: '{ __typename }' }],
      ] as const) {
        const res = await call(`${url}${path}`, method, body, { headers });
        expect([path, res.status, res.headers.get('www-authenticate'), res.body]).toEqual([path, 401, invalidKey, { detail: 'Invalid or revoked API key' }]);
      }
      const mcp = await call(`${url}/mcp`, 'POST', {}, { headers });
      expect(mcp.status).toBe(401);
      expect(mcp.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token", error_description="Invalid or revoked API key", resource_metadata="/);
    });

    it('answers a malformed Authorization header with 400 invalid_request on every door', async () => {
      for (const authorization of ['Token abc', 'Bearer', 'Bearer two tokens', 'Basic dXNlcjpwYXNz']) {
        for (const [method, path, body] of [
          ['POST', '/v1/search', { q: 'x' }],
          ['GET', '/v1/stats', undefined],
          ['POST', '/graphql', { query: '{ __typename }' }],
          ['POST', '/mcp', {}],
        ] as const) {
          const res = await call(`${url}${path}`, method, body, { headers: { authorization } });
          expect([authorization, path, res.status, res.body]).toEqual([authorization, path, 400, { detail: 'Invalid Authorization header: expected "Bearer <API_KEY>"' }]);
          expect(res.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_request", error_description="Invalid Authorization header: expected 'Bearer <API_KEY>'"/);
        }
      }
    });

    it('keeps a plain challenge without credentials, and serves open endpoints to a browser whose session cookie expired', async () => {
      const none = await call(`${url}/v1/search`, 'POST', { q: 'x' });
      expect([none.status, none.headers.get('www-authenticate')]).toEqual([401, 'Bearer']);
      const expired = await call(`${url}/v1/stats`, 'GET', undefined, { cookie: 'session=expired-or-forged' });
      expect(expired.status).toBe(200);
      const protectedWithExpired = await call(`${url}/v1/usage/me`, 'GET', undefined, { cookie: 'session=expired-or-forged' });
      expect([protectedWithExpired.status, protectedWithExpired.headers.get('www-authenticate')]).toEqual([401, 'Bearer']);
    });
  });

  describe('item 11: small contract slips', () => {
    it('answers a full per-minute window with a Retry-After of at most 60 seconds', async () => {
      const { key } = await newAccount();
      for (let i = 0; i < 10; i++) expect((await fetch(`${url}/v1/documents/EU/EUR-Lex/r${i}`, { headers: bearer(key) })).status).toBe(404);
      const refused = await fetch(`${url}/v1/documents/EU/EUR-Lex/r10`, { headers: bearer(key) });
      expect(refused.status).toBe(429);
      const retry = Number(refused.headers.get('retry-after'));
      expect(retry).toBeGreaterThanOrEqual(1);
      expect(retry).toBeLessThanOrEqual(60);
      expect(Number(/t=(\d+)/.exec(refused.headers.get('ratelimit')!)![1])).toBeLessThanOrEqual(60);
    });

    it('validates checkout, top-up and auto top-up bodies before saying billing is off', async () => {
      const { cookie } = await newAccount();
      const checkout = await call(`${url}/v1/billing/checkout`, 'POST', { interval: 'weekly' }, { cookie });
      expect(checkout.status).toBe(422);
      expect(checkout.body.detail.map((d: { loc: unknown[] }) => d.loc)).toEqual(expect.arrayContaining([['body', 'plan']]));
      const topup = await call(`${url}/v1/billing/credit-topups/checkout`, 'POST', { amount_usd: 'ten' }, { cookie });
      expect([topup.status, topup.body.detail[0].loc]).toEqual([422, ['body', 'amount_usd']]);
      const auto = await call(`${url}/v1/billing/credit-topups/auto`, 'PUT', { enabled: 'perhaps' }, { cookie });
      expect([auto.status, auto.body.detail[0].loc]).toEqual([422, ['body', 'enabled']]);
      const verify = await call(`${url}/v1/billing/checkout/verify`, 'POST', {}, { cookie });
      expect([verify.status, verify.body.detail[0].loc]).toEqual([422, ['body', 'session_id']]);
      // a valid request the server cannot serve
      const valid = await call(`${url}/v1/billing/credit-topups/checkout`, 'POST', { amount_usd: 20 }, { cookie });
      expect([valid.status, valid.body]).toEqual([503, { detail: 'Billing is not configured on this server' }]);
    });

    it('answers 422 for a path parameter with a NUL or another control character', async () => {
      const { cookie, key } = await newAccount();
      const grant = await call(`${url}/v1/oauth/grants/%00%0a%0d`, 'DELETE', undefined, { cookie });
      expect(grant.status).toBe(422);
      expect(grant.body.detail).toEqual([expect.objectContaining({ type: 'value_error', loc: ['path', 'id'], input: '\u0000\n\r' })]);
      expect((await call(`${url}/v1/keys/%7F`, 'DELETE', undefined, { cookie })).status).toBe(422);
      const document = await call(`${url}/v1/documents/EU/EUR-Lex/a%01b/c`, 'GET', undefined, { key });
      expect([document.status, document.body.detail[0].loc]).toEqual([422, ['path', 'source_id']]);
      expect((await call(`${url}/v1/discover/countries/D%00E/sources`, 'GET')).status).toBe(422);
    });
  });
});
