/**
 * Browser apps on other origins (issue #34, item 2, and the Origin part of item 9): CORS on the
 * REST API, GraphQL, the OAuth endpoints a browser-based MCP client calls and the MCP transports;
 * the Origin check of /mcp and /sse; and no session cookie on a request from another origin.
 *
 * First over plain HTTP, the headers as a browser would read them; then in real Chromium, pages
 * served by a second local server call the service: a search with an API key, an MCP client that
 * registers, gets its token and calls /mcp, and a page that sends the session cookie along.
 *
 * Origins: the service's BASE_URL is http://127.0.0.1:<P>. The page server listens on one port Q,
 * reached as http://localhost:Q (listed in MCP_ALLOWED_ORIGINS) and as http://127.0.0.1:Q (not
 * listed; same site as the service, so Chromium sends it the SameSite=Lax session cookie).
 */
import { createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import type { Platform } from '../src/platform.js';
import { launchChromium, type TestBrowser } from './helpers/chromium.js';
import { call, cookieFrom, freePort } from './helpers/http.js';
import { authorizationCode, authorizeAgentWithPassword } from './helpers/oauth-grant.js';
import { startTestPlatform } from './helpers/platform.js';

const PASSWORD = 'correct horse battery staple 34';
const EMAIL = 'browser-apps@example.org';

/** A few BGB provisions: enough to search and to read one document. */
const SLICES = [{ file: 'legislation/DE-GesetzeImInternet.jsonl.gz', lines: 9, keep: (r: Record<string, unknown>) => /^bgb(\/82[3-9]|\/830)?$/.test(String(r.source_id)) }];

/** The request headers a browser app may send, and the response headers it may read (docs/rest-api.md, "Browser apps"). */
const ALLOWED_HEADERS = ['authorization', 'content-type', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id', 'if-none-match'];
const EXPOSED_HEADERS = ['ratelimit', 'ratelimit-policy', 'retry-after', 'www-authenticate', 'etag', 'mcp-session-id', 'server-timing', 'location'];

const listOf = (header: string | null) => (header ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean);

/** A second HTTP server: the browser app's pages (an empty page at every path). Dual-stack, so both localhost and 127.0.0.1 reach it (IPv4 only where there is no IPv6). */
async function startPageServer(): Promise<{ port: number; close(): Promise<void> }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html lang="en"><title>A browser app</title><h1>A browser app</h1></html>');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EAFNOSUPPORT' ? server.listen(0, '127.0.0.1', () => resolve()) : reject(error)));
    server.listen(0, '::', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A GET through node:http: fetch (undici) sets `Sec-Fetch-Mode: cors` itself, whatever the caller says. */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode! }));
    }).on('error', reject);
  });
}

interface WireRequest {
  url: string;
  /** Whether Chromium sent a Cookie header. */
  cookie: boolean;
  /** The status the service answered, also when CORS then kept the answer from the page. */
  status: number | null;
}

/**
 * What Chromium put on the wire for the page's requests to `prefix`, from DevTools' raw network
 * events: playwright's own request events say nothing of a request that CORS failed.
 */
async function wireLog(page: Page, prefix: string) {
  const cdp = await page.context().newCDPSession(page);
  const urls = new Map<string, string>();
  const cookies = new Map<string, boolean>();
  const statuses = new Map<string, number>();
  cdp.on('Network.requestWillBeSent', (e) => {
    if (e.request.url.startsWith(prefix) && e.request.method !== 'OPTIONS') urls.set(e.requestId, e.request.url);
  });
  cdp.on('Network.requestWillBeSentExtraInfo', (e) => cookies.set(e.requestId, Object.keys(e.headers).some((h) => h.toLowerCase() === 'cookie')));
  cdp.on('Network.responseReceivedExtraInfo', (e) => statuses.set(e.requestId, e.statusCode));
  await cdp.send('Network.enable');
  const collect = (match: (r: WireRequest) => boolean) =>
    [...urls].map(([id, url]) => ({ url, cookie: cookies.get(id) ?? false, status: statuses.get(id) ?? null })).filter(match);
  return {
    /** The `count` matching requests, once each has its answer (the raw events may trail the page's promise). */
    async requests(match: (r: WireRequest) => boolean, count: number): Promise<WireRequest[]> {
      for (let i = 0; i < 100 && collect(match).filter((r) => r.status !== null).length < count; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      return collect(match);
    },
  };
}

describe('browser apps of other origins (CORS, Origin on /mcp)', () => {
  let platform: Platform;
  let chromium: TestBrowser;
  let pages: Awaited<ReturnType<typeof startPageServer>>;
  let base: string;
  /** Listed in MCP_ALLOWED_ORIGINS. */
  let listedOrigin: string;
  /** Another origin, not listed. */
  let otherOrigin: string;
  let cookie: string;
  let key: string;
  let accessToken: string;
  let documentPath: string;

  beforeAll(async () => {
    pages = await startPageServer();
    listedOrigin = `http://localhost:${pages.port}`;
    otherOrigin = `http://127.0.0.1:${pages.port}`;
    const port = await freePort();
    [platform, chromium] = await Promise.all([
      startTestPlatform(SLICES, { PORT: String(port), BASE_URL: `http://127.0.0.1:${port}`, MCP_ALLOWED_ORIGINS: listedOrigin }),
      launchChromium(),
    ]);
    base = platform.config.baseUrl;
    expect((await call(`${base}/auth/register`, 'POST', { email: EMAIL, password: PASSWORD, accept_terms: true, acknowledge_privacy: true })).status).toBe(200);
    cookie = cookieFrom((await call(`${base}/auth/login`, 'POST', { email: EMAIL, password: PASSWORD })).headers, 'session')!;
    key = (await call(`${base}/v1/keys`, 'POST', { name: 'browser app' }, { cookie })).body.key;
    accessToken = (await authorizeAgentWithPassword(base, EMAIL, PASSWORD, 'server-side agent')).accessToken;
    const hit = (await call(`${base}/v1/search`, 'POST', { q: 'Schadensersatz', namespace: 'legislation' }, { key })).body.hits[0];
    documentPath = `/v1/documents/${hit.source}/${hit.source_id}`;
  });

  afterAll(async () => {
    await chromium?.close();
    await platform?.stop();
    await pages?.close();
  });

  const preflight = (path: string, origin: string, method = 'POST', headers = 'authorization, content-type') =>
    fetch(`${base}${path}`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers } });

  const mcpCall = (path: string, headers: Record<string, string>, body: unknown = { jsonrpc: '2.0', id: 1, method: 'tools/list' }) =>
    call(`${base}${path}`, 'POST', body, { key: accessToken, headers: { accept: 'application/json, text/event-stream', ...headers } });

  const requestsInPeriod = async () => (await call(`${base}/v1/usage/me`, 'GET', undefined, { cookie })).body.requests_in_period as number;

  describe('over HTTP', () => {
    it('answers the preflight of REST operations with 204 before authentication: any origin, the API headers, never credentials', async () => {
      for (const [method, path] of [
        ['POST', '/v1/search'],
        ['GET', documentPath],
        ['GET', '/v1/usage/me'],
        ['DELETE', '/v1/keys/00000000-0000-0000-0000-000000000000'],
        ['HEAD', '/v1/stats'],
      ] as const) {
        const res = await preflight(path, 'https://app.example', method, ALLOWED_HEADERS.join(', '));
        expect([path, res.status, res.headers.get('access-control-allow-origin')]).toEqual([path, 204, '*']);
        expect(listOf(res.headers.get('access-control-allow-methods'))).toContain(method.toLowerCase());
        expect(listOf(res.headers.get('access-control-allow-headers'))).toEqual(expect.arrayContaining(ALLOWED_HEADERS));
        expect(res.headers.get('access-control-allow-credentials')).toBeNull();
        expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0);
      }
    });

    it('lets a page read the answer, its rate limits and its challenge, with an API key from any origin', async () => {
      const search = await call(`${base}/v1/search`, 'POST', { q: 'Schadensersatz', namespace: 'legislation' }, { key, headers: { origin: 'https://app.example' } });
      expect(search.status).toBe(200);
      expect(search.headers.get('access-control-allow-origin')).toBe('*');
      expect(search.headers.get('access-control-allow-credentials')).toBeNull();
      expect(listOf(search.headers.get('access-control-expose-headers'))).toEqual(expect.arrayContaining(EXPOSED_HEADERS));
      expect(search.headers.get('ratelimit')).toMatch(/r=\d+/);
      const refused = await call(`${base}/v1/search`, 'POST', { q: 'x' }, { key: 'sk-NotAKeyAtAll0000000000000000000000000000', headers: { origin: 'https://app.example' } });
      expect([refused.status, refused.headers.get('access-control-allow-origin')]).toEqual([401, '*']);
      expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer /);
    });

    it('answers the OAuth endpoints a browser-based MCP client calls, and their metadata, for any origin', async () => {
      for (const path of ['/oauth/register', '/oauth/token', '/oauth/revoke', '/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource/mcp']) {
        const res = await preflight(path, 'https://app.example', path.startsWith('/.well-known') ? 'GET' : 'POST', 'content-type, mcp-protocol-version');
        expect([path, res.status, res.headers.get('access-control-allow-origin'), res.headers.get('access-control-allow-credentials')]).toEqual([path, 204, '*', null]);
      }
      const registered = await call(`${base}/oauth/register`, 'POST', { client_name: 'web app', redirect_uris: ['https://app.example/callback'] }, { headers: { origin: 'https://app.example' } });
      expect([registered.status, registered.headers.get('access-control-allow-origin')]).toEqual([201, '*']);
      const metadata = await call(`${base}/.well-known/oauth-protected-resource`, 'GET', undefined, { headers: { origin: 'https://app.example' } });
      expect(metadata.headers.get('access-control-allow-origin')).toBe('*');
    });

    it('gives GraphQL the rule of /v1 (API keys from any origin) and keeps the cookie endpoints of /auth same-origin', async () => {
      const graphql = await preflight('/graphql', 'https://app.example');
      expect([graphql.status, graphql.headers.get('access-control-allow-origin')]).toEqual([204, '*']);
      const login = await preflight('/auth/login', 'https://app.example');
      expect(login.headers.get('access-control-allow-origin')).toBeNull();
      const me = await call(`${base}/auth/me`, 'GET', undefined, { cookie, headers: { origin: 'https://app.example' } });
      expect(me.headers.get('access-control-allow-origin')).toBeNull();
    });

    it("answers /mcp's and /sse's preflight for BASE_URL's origin and the listed ones only; any other Origin is refused 403 with a JSON-RPC error", async () => {
      for (const origin of [listedOrigin, base]) {
        const res = await preflight('/mcp', origin, 'POST', 'authorization, content-type, mcp-protocol-version, mcp-session-id, last-event-id');
        expect([origin, res.status, res.headers.get('access-control-allow-origin'), res.headers.get('access-control-allow-credentials')]).toEqual([origin, 204, origin, null]);
        expect(listOf(res.headers.get('vary'))).toContain('origin');
        expect(listOf(res.headers.get('access-control-allow-headers'))).toEqual(expect.arrayContaining(['mcp-protocol-version', 'mcp-session-id', 'last-event-id']));
      }
      for (const [path, method] of [
        ['/mcp', 'POST'],
        ['/sse', 'GET'],
        ['/sse/messages?sessionId=x', 'POST'],
      ] as const) {
        const res = await preflight(path, otherOrigin, method);
        expect([path, res.status, res.headers.get('access-control-allow-origin')]).toEqual([path, 403, null]);
        expect(await res.json()).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: expect.stringContaining(`Origin ${otherOrigin}`) }, id: null });
      }
    });

    it('runs an MCP call with a token from a listed origin, from BASE_URL and without Origin (SDKs, curl); refuses it from any other origin', async () => {
      const listed = await mcpCall('/mcp', { origin: listedOrigin });
      expect([listed.status, listed.headers.get('access-control-allow-origin')]).toEqual([200, listedOrigin]);
      expect(listed.body.result.tools.length).toBeGreaterThan(0);
      expect((await mcpCall('/mcp', { origin: base })).status).toBe(200);
      expect((await mcpCall('/mcp', {})).status).toBe(200);
      for (const origin of [otherOrigin, 'null', 'https://legal.example.evil']) {
        const refused = await mcpCall('/mcp', { origin });
        expect([origin, refused.status, refused.body.error?.code]).toEqual([origin, 403, -32000]);
      }
      const sse = await call(`${base}/sse`, 'GET', undefined, { key: accessToken, headers: { origin: otherOrigin } });
      expect(sse.status).toBe(403);
    });

    it('never authenticates a request from another origin by the session cookie, GET included; an API key beside it still works', async () => {
      expect((await call(`${base}/v1/usage/me`, 'GET', undefined, { cookie })).status).toBe(200);
      expect((await call(`${base}/v1/usage/me`, 'GET', undefined, { cookie, headers: { origin: base } })).status).toBe(200);
      for (const origin of ['https://app.example', otherOrigin, 'null']) {
        expect([origin, (await call(`${base}/v1/usage/me`, 'GET', undefined, { cookie, headers: { origin } })).status]).toEqual([origin, 401]);
      }
      expect((await call(`${base}/v1/usage/me`, 'GET', undefined, { key, cookie, headers: { origin: otherOrigin } })).status).toBe(200);
      // without Origin (a no-cors GET: an image, a script), Fetch Metadata tells; a navigation (a link followed) keeps its cookie
      const usage = (headers: Record<string, string>) => rawGet(`${base}/v1/usage/me`, { cookie, ...headers });
      expect((await usage({ 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'no-cors' })).status).toBe(401);
      expect((await usage({ 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' })).status).toBe(401);
      expect((await usage({ 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' })).status).toBe(200);
      // a frame in another site's page navigates too, but is no link the user followed
      expect((await usage({ 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe' })).status).toBe(401);
      expect((await usage({ 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' })).status).toBe(200);
    });
  });

  describe('in Chromium', () => {
    const contexts: BrowserContext[] = [];

    afterAll(async () => {
      await Promise.all(contexts.map((c) => c.close()));
    });

    /** A page at `url` in a fresh browser context (its own cookies). */
    async function pageAt(url: string): Promise<Page> {
      const { context, page } = await chromium.newPage();
      contexts.push(context);
      await page.goto(url);
      return page;
    }

    it('a page of another origin searches with an API key and reads the hits and the RateLimit header', async () => {
      const page = await pageAt(`${otherOrigin}/search`);
      const answer = await page.evaluate(
        async ({ base, key }) => {
          const res = await fetch(`${base}/v1/search`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
            body: JSON.stringify({ q: 'Schadensersatz', namespace: 'legislation' }),
          });
          const body = (await res.json()) as { hits: { source_id: string }[] };
          return { status: res.status, hits: body.hits.length, rateLimit: res.headers.get('RateLimit'), policy: res.headers.get('RateLimit-Policy') };
        },
        { base, key },
      );
      expect(answer).toEqual({ status: 200, hits: expect.any(Number), rateLimit: expect.stringMatching(/r=\d+/), policy: expect.stringMatching(/q=\d+/) });
      expect(answer.hits).toBeGreaterThan(0);
    });

    it('a browser-based MCP client on a listed origin registers, exchanges its code and calls /mcp (initialize, tools/list) with its token', async () => {
      const page = await pageAt(`${listedOrigin}/app`);
      const redirectUri = `${listedOrigin}/callback`;
      const registered = await page.evaluate(
        async ({ base, redirectUri }) => {
          const res = await fetch(`${base}/oauth/register`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ client_name: 'browser MCP client', redirect_uris: [redirectUri], grant_types: ['authorization_code', 'refresh_token'], token_endpoint_auth_method: 'none' }),
          });
          return { status: res.status, clientId: ((await res.json()) as { client_id: string }).client_id };
        },
        { base, redirectUri },
      );
      expect(registered.status).toBe(201);
      // the user's consent (the page would open it in a popup) is driven over HTTP
      const { code, verifier } = await authorizationCode(base, { clientId: registered.clientId, redirectUri, email: EMAIL, password: PASSWORD });
      const session = await page.evaluate(
        async ({ base, redirectUri, clientId, code, verifier }) => {
          const token = await fetch(`${base}/oauth/token`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: redirectUri, client_id: clientId, resource: `${base}/mcp` }).toString(),
          });
          const { access_token } = (await token.json()) as { access_token: string };
          const rpc = async (id: number, method: string, params: Record<string, unknown>, extra: Record<string, string> = {}) => {
            const res = await fetch(`${base}/mcp`, {
              method: 'POST',
              headers: { Authorization: `Bearer ${access_token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...extra },
              body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
            });
            return { status: res.status, body: (await res.json()) as { result: Record<string, any> } };
          };
          const initialize = await rpc(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'browser', version: '1.0.0' } });
          const tools = await rpc(2, 'tools/list', {}, { 'MCP-Protocol-Version': '2025-06-18' });
          return {
            tokenStatus: token.status,
            initialize: [initialize.status, typeof initialize.body.result.serverInfo?.name],
            tools: [tools.status, (tools.body.result.tools as { name: string }[]).map((t) => t.name)],
          };
        },
        { base, redirectUri, clientId: registered.clientId, code, verifier },
      );
      expect(session).toEqual({ tokenStatus: 200, initialize: [200, 'string'], tools: [200, expect.arrayContaining(['search', 'get_document'])] });
    });

    it('a page of an unlisted origin cannot call /mcp, even with a valid token', async () => {
      const page = await pageAt(`${otherOrigin}/app`);
      const outcome = await page.evaluate(
        async ({ base, accessToken }) => {
          try {
            const res = await fetch(`${base}/mcp`, {
              method: 'POST',
              headers: { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
              body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
            });
            return `read ${res.status}`;
          } catch (error) {
            return `refused: ${(error as Error).name}`;
          }
        },
        { base, accessToken },
      );
      expect(outcome).toBe('refused: TypeError');
    });

    it('a page of another origin gets nothing from the session cookie: unreadable, and not authenticated even when Chromium sends it', async () => {
      const page = await pageAt(`${otherOrigin}/app`);
      await page.context().addCookies([{ name: 'session', value: cookie.split('=')[1]!, url: base, httpOnly: true, sameSite: 'Lax' }]);
      const wire = await wireLog(page, base);
      const before = await requestsInPeriod();
      const outcome = await page.evaluate(
        async ({ base, documentPath }) => {
          const attempt = async (init: RequestInit, path: string) => {
            try {
              const res = await fetch(`${base}${path}`, { credentials: 'include', ...init });
              return res.type === 'opaque' ? 'opaque' : `read ${res.status}`;
            } catch (error) {
              return `refused: ${(error as Error).name}`;
            }
          };
          return {
            get: await attempt({}, documentPath),
            post: await attempt({ method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ q: 'Schadensersatz' }) }, '/v1/search'),
            // a no-cors GET reaches the service with the cookie too; Cross-Origin-Resource-Policy keeps even its opaque answer from the page
            noCors: await attempt({ mode: 'no-cors' }, documentPath),
          };
        },
        { base, documentPath },
      );
      expect(outcome).toEqual({ get: 'refused: TypeError', post: 'refused: TypeError', noCors: 'refused: TypeError' });
      // Chromium did send the cookie (same site), and the service served the document to no one
      const documentRequests = await wire.requests((r) => r.url.endsWith(documentPath), 2);
      expect(documentRequests.map(({ cookie, status }) => ({ cookie, status }))).toEqual([
        { cookie: true, status: 401 },
        { cookie: true, status: 401 },
      ]);
      expect(await requestsInPeriod()).toBe(before);

      // the same cookie on BASE_URL's own origin is the dashboard's: authenticated, and counted
      const own = await page.context().newPage();
      await own.goto(`${base}/health`);
      const read = await own.evaluate(async (documentPath) => (await fetch(documentPath, { credentials: 'include' })).status, documentPath);
      expect(read).toBe(200);
      expect(await requestsInPeriod()).toBe(before + 1);
    });
  });
});
