/**
 * Client ID metadata documents (draft-ietf-oauth-client-id-metadata-document, MCP authorization
 * 2025-11-25): the official MCP SDK client uses an https URL as its client_id, without
 * registering; the authorization server fetches the document behind it, checks it and caches it.
 *
 * The documents are served by an HTTPS server this test starts on 127.0.0.1, with a certificate
 * made here (openssl) and added to this process's trusted CAs. The platform runs with
 * OAUTH_CLIENT_METADATA_ALLOW_PRIVATE=true, or it would refuse 127.0.0.1 (that refusal is
 * src/oauth/client-metadata-fetch.test.ts). The user's consent is driven over HTTP by a
 * cookie-jar browser, as in test/oauth-mcp-clients.e2e.test.ts.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { DEFAULT_SLICES, writeCorpusSlice } from './fixtures/corpus-slice.js';
import { Browser, inputValue } from './helpers/browser.js';
import { call, freePort } from './helpers/http.js';
import { jwtClaims, MemoryOAuthClient } from './helpers/oauth-client.js';

const PASSWORD = 'correct horse battery staple 42';
const REDIRECT_URI = 'http://127.0.0.1:9/oauth/callback';

/** A self-signed certificate for 127.0.0.1, made with the openssl command. */
async function selfSignedCertificate(dir: string): Promise<{ key: string; cert: string }> {
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  await promisify(execFile)('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', keyFile, '-out', certFile,
  ]);
  return { key: await readFile(keyFile, 'utf8'), cert: await readFile(certFile, 'utf8') };
}

describe('client ID metadata documents (an https URL as client_id, no registration)', () => {
  let platform: Platform;
  let base: string;
  let documents: Server;
  let documentsBase: string;
  /** What the documents server answers, by path; and how often each path was asked for. */
  const routes = new Map<string, (res: ServerResponse) => void>();
  const hits = new Map<string, number>();
  const client = new Client({ name: 'cimd-agent', version: '1.0.0' });

  /** A client metadata document for `url` (the draft's fields), with `overrides`. */
  const documentFor = (url: string, overrides: Record<string, unknown> = {}) => ({
    client_id: url,
    client_name: 'Metadata document agent',
    client_uri: 'https://agent.example/',
    redirect_uris: [REDIRECT_URI],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    ...overrides,
  });
  const serveJson = (route: string, body: unknown, headers: Record<string, string> = {}) =>
    routes.set(route, (res) => {
      res.writeHead(200, { 'content-type': 'application/json', ...headers });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    });

  /** GET /oauth/authorize for `clientId` as a browser would: the status and the page. */
  const authorize = async (clientId: string) => {
    const query = new URLSearchParams({ client_id: clientId, response_type: 'code', redirect_uri: REDIRECT_URI, code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256', scope: 'mcp' });
    const res = await fetch(`${base}/oauth/authorize?${query}`, { redirect: 'manual' });
    return { status: res.status, location: res.headers.get('location'), text: await res.text() };
  };

  beforeAll(async () => {
    const tmp = await mkdtemp(path.join(os.tmpdir(), 'cimd-e2e-'));
    const { key, cert } = await selfSignedCertificate(tmp);
    // the authorization server's fetch runs in this process: it trusts the test's certificate
    tls.setDefaultCACertificates([...tls.getCACertificates('default'), cert]);
    documents = createServer({ key, cert }, (req, res) => {
      const route = new URL(req.url!, 'https://x').pathname;
      hits.set(route, (hits.get(route) ?? 0) + 1);
      const handler = routes.get(route);
      if (handler) handler(res);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
    documentsBase = `https://127.0.0.1:${(documents.address() as AddressInfo).port}`;

    const corpus = await writeCorpusSlice([DEFAULT_SLICES[0]!]);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const config = loadConfig({ DATA_DIR: path.join(tmp, 'data'), CORPUS_DIR: corpus.dir, PORT: String(port), EMBEDDER: 'none', BASE_URL: base, OAUTH_CLIENT_METADATA_ALLOW_PRIVATE: 'true' });
    platform = await startPlatform(config, createLogger('silent'));
    await platform.ingestDone;
  }, 400_000);

  afterAll(async () => {
    await client.close().catch(() => undefined);
    await platform?.stop();
    documents?.closeAllConnections();
    await new Promise((resolve) => documents?.close(resolve));
  });

  it('says so in its metadata', async () => {
    const metadata = await call(`${base}/.well-known/oauth-authorization-server`, 'GET');
    expect(metadata.body.client_id_metadata_document_supported).toBe(true);
  });

  it('the official SDK client runs the authorization code + PKCE flow with its document URL as client_id, and the document is fetched once', async () => {
    const clientId = `${documentsBase}/clients/agent.json`;
    serveJson('/clients/agent.json', documentFor(clientId), { 'cache-control': 'max-age=600' });
    const email = 'cimd-user@example.org';
    expect((await call(`${base}/auth/register`, 'POST', { email, password: PASSWORD, accept_terms: true, acknowledge_privacy: true })).status).toBe(200);

    const provider = new MemoryOAuthClient({ redirectUrl: REDIRECT_URI, clientName: 'Metadata document agent', clientMetadataUrl: clientId });
    const url = new URL(`${base}/mcp`);
    const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
    await expect(new Client({ name: 'cimd-agent', version: '1.0.0' }).connect(first)).rejects.toThrow(/Unauthorized/i);
    expect(provider.authorizationUrl!.searchParams.get('client_id')).toBe(clientId);

    // the consent page names the client from its document, and the host that published it
    const browser = new Browser();
    const { page } = await browser.follow(provider.authorizationUrl!.href, () => false);
    expect(page.text).toContain('Metadata document agent');
    expect(page.text).toContain(`This client is described by <strong>${new URL(clientId).host}</strong> (<code>${clientId}</code>)`);
    const answer = await browser.postJson(`${base}/auth/password-authorize`, { email, password: PASSWORD, mcp_flow: inputValue(page.text, 'mcp_flow') });
    expect(answer.status).toBe(200);
    const { stoppedAt } = await browser.follow(JSON.parse(answer.text).redirect_url, (l) => l.href.startsWith(REDIRECT_URI));
    await first.finishAuth(stoppedAt!.searchParams.get('code')!);

    await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    expect(jwtClaims(provider.tokens()!.access_token)).toMatchObject({ client_id: clientId, aud: `${base}/mcp` });
    // nothing was registered, and the document was read once for the whole flow (cached for its max-age)
    const clients = await platform.orm.em.fork().getConnection().execute(`select id from oauth_model where model = 'Client'`);
    expect(clients).toEqual([]);
    expect(hits.get('/clients/agent.json')).toBe(1);
  });

  it.each([
    ['its client_id is another URL', 'mismatch', (url: string) => documentFor(`${url}-other`), 'invalid_client_metadata: client_id metadata document client_id does not match'],
    ['it asks for a client secret', 'secret', (url: string) => documentFor(url, { token_endpoint_auth_method: 'client_secret_post' }), 'invalid_client_metadata: client_id metadata document must not use shared-secret'],
    // the draft allows private_key_jwt; this server has public clients only (docs/mcp-oauth.md)
    ['it asks for private_key_jwt', 'private-key-jwt', (url: string) => documentFor(url, { token_endpoint_auth_method: 'private_key_jwt', jwks_uri: 'https://agent.example/jwks' }), 'invalid_client_metadata: token_endpoint_auth_method'],
    ['its redirect URI is plain http to another host', 'http-redirect', (url: string) => documentFor(url, { redirect_uris: ['http://agent.example/cb'] }), 'invalid_redirect_uri: redirect_uris using http must point to a loopback address'],
    ['it is larger than 5 KiB', 'large', (url: string) => documentFor(url, { client_name: 'x'.repeat(6000) }), 'invalid_client: client_id metadata document fetch failed'],
    ['it is not JSON', 'not-json', () => '<html>hello</html>', 'invalid_client: client_id metadata document fetch failed'],
  ])('refuses a document when %s', async (_case, name, body, message) => {
    const clientId = `${documentsBase}/bad/${name}.json`;
    serveJson(`/bad/${name}.json`, body(clientId));
    const refused = await authorize(clientId);
    // an error page, never a redirect to a redirect URI the server could not trust
    expect([refused.status, refused.location]).toEqual([400, null]);
    expect(refused.text).toContain(message);
    // it was fetched (a refused document is not cached: oidc-provider looks the client up twice while answering)
    expect(hits.get(`/bad/${name}.json`)).toBeGreaterThan(0);
  });

  it('refuses a document behind a redirect (not followed), a 404, and one that does not come within the time bound', async () => {
    const target = `${documentsBase}/clients/agent.json`;
    const targetHits = hits.get('/clients/agent.json') ?? 0;
    routes.set('/bad/redirect.json', (res) => res.writeHead(302, { location: target }).end());
    routes.set('/bad/slow.json', () => undefined); // never answers
    for (const name of ['redirect', 'missing', 'slow']) {
      const refused = await authorize(`${documentsBase}/bad/${name}.json`);
      expect([name, refused.status, refused.location, (hits.get(`/bad/${name}.json`) ?? 0) > 0]).toEqual([name, 400, null, true]);
      expect(refused.text).toContain('invalid_client: client_id metadata document fetch failed');
    }
    expect(hits.get('/clients/agent.json') ?? 0).toBe(targetHits);
  }, 60_000);
});
