/**
 * Abuse resistance of the HTTP layer over real HTTP (issue 11): which proxies are believed about
 * the client's IP (TRUST_PROXY), cross-site state changes that ride on the session cookie, the
 * caps on open SSE streams, and NUL characters in strings that would reach the database. One
 * platform on a tiny slice of the real corpus, embedded PGlite, in-process counters.
 */
import { EXPLORER_CSP } from '../src/http/graphql-explorer.js';
import type { Platform } from '../src/platform.js';
import { call, cookieFrom } from './helpers/http.js';
import { startTestPlatform } from './helpers/platform.js';

const BASE_URL = 'https://legal.example';
const FOREIGN = 'https://evil.example';
const PASSWORD = 'a sturdy passphrase 42';

describe('HTTP hardening', () => {
  let platform: Platform;
  let url: string;
  let seq = 0;

  /** A new account with accepted terms, signed in, with one API key. */
  async function newAccount(): Promise<{ email: string; cookie: string; key: string; keyId: string }> {
    const email = `hardening${++seq}@example.org`;
    expect((await call(`${url}/auth/register`, 'POST', { email, password: PASSWORD, accept_terms: true, acknowledge_privacy: true })).status).toBe(200);
    const login = await call(`${url}/auth/login`, 'POST', { email, password: PASSWORD });
    const cookie = cookieFrom(login.headers, 'session')!;
    const created = await call(`${url}/v1/keys`, 'POST', { name: 'own' }, { cookie });
    expect(created.status).toBe(200);
    return { email, cookie, key: created.body.key, keyId: created.body.id };
  }

  beforeAll(async () => {
    platform = await startTestPlatform([{ file: 'legislation/EU-EUR-Lex.jsonl.gz', lines: 5 }], {
      BASE_URL,
      ALLOW_ANONYMOUS: 'true',
      DEV_LOGIN: 'true',
      // the test client is the loopback peer; 10.0.0.0/8 plays the deployment's own proxies
      TRUST_PROXY: 'loopback, 10.0.0.0/8',
      SSE_MAX_SESSIONS: '3',
      SSE_MAX_SESSIONS_PER_ACCOUNT: '2',
      // the accounts here are not verified: let them reach the per-account cap (sse-streams.e2e tests the lower one)
      SSE_MAX_SESSIONS_UNVERIFIED: '2',
    });
    url = platform.url!;
  });

  afterAll(async () => {
    await platform?.stop();
  });

  describe('TRUST_PROXY', () => {
    const anonymousSearch = (forwardedFor?: string) =>
      call(`${url}/v1/search`, 'POST', { q: 'data protection' }, forwardedFor ? { headers: { 'x-forwarded-for': forwardedFor } } : undefined);

    it('keys the Anonymous plan on the client a trusted hop names, and on the first untrusted hop otherwise', async () => {
      // 203.0.113.9 is not a trusted proxy: what it claims about the client (the first,
      // spoofable entries) is ignored, so every request below is its own, whatever it claims.
      for (const spoofed of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) {
        expect((await anonymousSearch(`${spoofed}, 203.0.113.9`)).status).toBe(200);
      }
      const fourth = await anonymousSearch('198.51.100.4, 203.0.113.9');
      expect(fourth.status).toBe(429); // Anonymous: 3 per minute per IP
      expect(fourth.headers.get('retry-after')).toMatch(/^\d+$/);
      expect((await anonymousSearch('203.0.113.9')).status).toBe(429);

      // 10.1.2.3 is a trusted proxy: each client it names has a quota of its own (with only
      // loopback trusted, all of them would share the proxy's).
      for (let i = 0; i < 3; i++) expect((await anonymousSearch('198.51.100.7, 10.1.2.3')).status).toBe(200);
      expect((await anonymousSearch('198.51.100.7, 10.1.2.3')).status).toBe(429);
      expect((await anonymousSearch('198.51.100.8, 10.1.2.3')).status).toBe(200);
      // ...and so does the loopback peer itself, without any forwarding header.
      expect((await anonymousSearch()).status).toBe(200);
    });
  });

  describe('cross-site requests that ride on the session cookie', () => {
    it('refuses POST and DELETE /v1/keys and DELETE /auth/me from another origin (403), and changes nothing', async () => {
      const account = await newAccount();
      const fromForeignPage = { cookie: account.cookie, headers: { origin: FOREIGN } };
      const created = await call(`${url}/v1/keys`, 'POST', { name: 'forged' }, fromForeignPage);
      expect(created.status).toBe(403);
      expect(created.body.detail).toMatch(/Cross-site request refused/);
      expect((await call(`${url}/v1/keys/${account.keyId}`, 'DELETE', undefined, fromForeignPage)).status).toBe(403);
      expect((await call(`${url}/auth/me`, 'DELETE', { confirmation: 'DELETE' }, fromForeignPage)).status).toBe(403);
      // Fetch Metadata alone (no Origin) says the same
      const metadataOnly = { cookie: account.cookie, headers: { 'sec-fetch-site': 'cross-site' } };
      expect((await call(`${url}/v1/keys`, 'POST', { name: 'forged' }, metadataOnly)).status).toBe(403);
      expect((await call(`${url}/auth/logout`, 'POST', undefined, metadataOnly)).status).toBe(403);

      const keys = await call(`${url}/v1/keys`, 'GET', undefined, { cookie: account.cookie });
      expect(keys.body.map((k: { name: string }) => k.name)).toEqual(['own']);
      expect((await call(`${url}/auth/me`, 'GET', undefined, { cookie: account.cookie })).status).toBe(200);
    });

    it('lets the same origin, API keys and cookie-less requests through', async () => {
      const account = await newAccount();
      const sameOrigin = await call(`${url}/v1/keys`, 'POST', { name: 'from the dashboard' }, { cookie: account.cookie, headers: { origin: BASE_URL, 'sec-fetch-site': 'same-origin' } });
      expect(sameOrigin.status).toBe(200);
      // an API key cannot be attached by a page of another site: its Origin does not matter
      const withKey = await call(`${url}/v1/keys`, 'POST', { name: 'by key' }, { key: account.key, headers: { origin: FOREIGN } });
      expect(withKey.status).toBe(200);
      expect((await call(`${url}/v1/keys/${withKey.body.id}`, 'DELETE', undefined, { key: account.key, headers: { origin: FOREIGN } })).status).toBe(200);
      // nothing ambient authenticates a request without cookies
      const login = await call(`${url}/auth/login`, 'POST', { email: account.email, password: PASSWORD }, { headers: { origin: FOREIGN } });
      expect(login.status).toBe(200);
      // the same-origin deletion goes through
      const deleted = await call(`${url}/auth/me`, 'DELETE', { confirmation: 'DELETE' }, { cookie: account.cookie, headers: { origin: BASE_URL } });
      expect(deleted.status).toBe(200);
    });

    it('never reads a body without Content-Type as JSON (the no-CORS form-post vector)', async () => {
      const account = await newAccount();
      const res = await fetch(`${url}/v1/keys`, { method: 'POST', headers: { cookie: account.cookie }, body: new Blob(['{"name": "untyped"}']) });
      expect(res.status).toBe(422);
      expect(((await res.json()) as { detail: unknown[] }).detail[0]).toMatchObject({ type: 'model_attributes_type', loc: ['body'] });
    });
  });

  describe('NUL characters', () => {
    const nulIssue = (field: string) => expect.objectContaining({ type: 'value_error', loc: ['body', field], msg: expect.stringMatching(/NUL character/) });

    it.each([
      ['/auth/login', { email: 'nul\u0000@example.org', password: PASSWORD }],
      ['/auth/register', { email: 'nul\u0000@example.org', password: PASSWORD, accept_terms: true, acknowledge_privacy: true }],
      ['/auth/dev-login', { email: 'nul\u0000@example.org' }],
      ['/auth/password-reset/request', { email: 'nul\u0000@example.org' }],
    ])('%s refuses a NUL in the e-mail with a 422 naming the field', async (route, body) => {
      const res = await call(`${url}${route}`, 'POST', body);
      expect(res.status).toBe(422);
      expect(res.body.detail).toEqual([nulIssue('email')]);
    });

    it('POST /oauth/register refuses a NUL in the client metadata with the OAuth error (400 invalid_client_metadata)', async () => {
      const res = await call(`${url}/oauth/register`, 'POST', { redirect_uris: ['http://127.0.0.1:9/cb'], client_name: 'agent\u0000' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'invalid_client_metadata', error_description: 'client_name must not contain the NUL character' });
    });

    it('POST /v1/keys refuses a NUL in the name with a 422 naming the field', async () => {
      const account = await newAccount();
      const res = await call(`${url}/v1/keys`, 'POST', { name: 'bad\u0000name' }, { cookie: account.cookie });
      expect(res.status).toBe(422);
      expect(res.body.detail).toEqual([nulIssue('name')]);
    });
  });

  describe('SSE sessions', () => {
    const streams: AbortController[] = [];
    afterAll(() => streams.forEach((s) => s.abort()));

    /** Opens GET /sse; answers the response and, when it opened, the session's message path. */
    async function openSse(key: string): Promise<{ status: number; headers: Headers; endpoint: string | null; close(): void }> {
      const abort = new AbortController();
      streams.push(abort);
      const res = await fetch(`${url}/sse`, { headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' }, signal: abort.signal });
      if (res.status !== 200) {
        await res.text();
        return { status: res.status, headers: res.headers, endpoint: null, close: () => abort.abort() };
      }
      const reader = res.body!.getReader();
      let text = '';
      while (!/data: (\S+)/.test(text)) text += new TextDecoder().decode((await reader.read()).value);
      return { status: res.status, headers: res.headers, endpoint: /data: (\S+)/.exec(text)![1]!, close: () => abort.abort() };
    }

    it('caps open streams per account and in total (429 + Retry-After); another account cannot post into a stream (403)', async () => {
      const a = await newAccount();
      const b = await newAccount();
      const first = await openSse(a.key);
      const second = await openSse(a.key);
      expect([first.status, second.status]).toEqual([200, 200]);
      const third = await openSse(a.key);
      expect(third.status).toBe(429);
      expect(third.headers.get('retry-after')).toMatch(/^\d+$/);

      const ofB = await openSse(b.key);
      expect(ofB.status).toBe(200); // the third stream in all
      const overall = await openSse(b.key);
      expect(overall.status).toBe(429);

      const message = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
      const intrusion = await call(`${url}${first.endpoint}`, 'POST', message, { key: b.key });
      expect(intrusion.status).toBe(403);
      expect((await call(`${url}${first.endpoint}`, 'POST', message, { key: a.key })).status).toBe(202);

      // a closed stream frees its slot
      second.close();
      let again = await openSse(a.key);
      for (let i = 0; i < 50 && again.status === 429; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        again = await openSse(a.key);
      }
      expect(again.status).toBe(200);
    });
  });

  describe('security headers (helmet) with an https BASE_URL', () => {
    const DASHBOARD_CSP =
      "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'";

    it('sends HSTS and the other helmet headers on API answers, with a same-origin referrer policy', async () => {
      for (const res of [await call(`${url}/v1/stats`, 'GET'), await call(`${url}/auth/me`, 'GET'), await call(`${url}/no/such/path`, 'GET')]) {
        expect(res.headers.get('strict-transport-security')).toBe(`max-age=${platform.config.hstsMaxAgeSeconds}; includeSubDomains`);
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
        expect(res.headers.get('content-security-policy')).toMatch(/default-src 'self'.*frame-ancestors 'self'.*upgrade-insecure-requests/);
        expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin');
        // not no-referrer: under it a browser sends `Origin: null` with same-origin POSTs, which the cross-site defence refuses
        expect(res.headers.get('referrer-policy')).toBe('same-origin');
        expect(res.headers.get('x-powered-by')).toBeNull();
      }
    });

    it('leaves the dashboard its own stricter CSP and cache policy, and keeps hashed assets cacheable for signed-in browsers', async () => {
      const account = await newAccount();
      const index = await call(`${url}/dashboard/`, 'GET', undefined, { cookie: account.cookie });
      expect(index.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
      expect(index.headers.get('cache-control')).toBe('no-cache');
      expect(index.headers.get('strict-transport-security')).toMatch(/^max-age=\d+/);
      const asset = /\/dashboard\/assets\/[^"]+\.js/.exec(String(index.body))?.[0];
      // only when the dashboard is built (dist/ is not committed; `npm run build:dashboard`)
      if (asset) {
        const res = await fetch(`${url}${asset}`, { headers: { cookie: account.cookie } });
        await res.arrayBuffer();
        expect(res.status).toBe(200);
        expect(res.headers.get('cache-control')).toMatch(/max-age=31536000/);
      }
    });

    it('serves a browser\'s GET /graphql the query explorer with its own CSP (data: fonts on that page only), not stored; API clients reach the gateway', async () => {
      const page = await call(`${url}/graphql`, 'GET', undefined, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
      // 503 only when the dashboard (and with it the explorer) is not built: dist/ is not committed
      expect([200, 503]).toContain(page.status);
      expect(page.headers.get('content-security-policy')).toBe(EXPLORER_CSP);
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.headers.get('strict-transport-security')).toMatch(/^max-age=\d+/);
      const api = await call(`${url}/graphql?query=${encodeURIComponent('{ __typename }')}`, 'GET', undefined, { headers: { 'apollo-require-preflight': 'true' } });
      expect(api.body).toEqual({ data: { __typename: 'Query' } });
    });

    it('lets oidc-provider\'s form_post answer reach the client: no form-action limit and no opener isolation under /oauth', async () => {
      const res = await call(`${url}/oauth/authorize?client_id=nobody`, 'GET');
      expect(res.headers.get('content-security-policy') ?? '').not.toMatch(/form-action/);
      expect(res.headers.get('cross-origin-opener-policy')).toBeNull();
      expect(res.headers.get('strict-transport-security')).toMatch(/^max-age=\d+/);
    });
  });
});
