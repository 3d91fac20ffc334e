/**
 * The OAuth 2.1 authorization server end to end, with the official MCP TypeScript SDK client
 * exactly as an agent uses it: it gets a 401 from /mcp (or /sse), reads the protected-resource
 * metadata the challenge names, discovers the authorization server, registers dynamically, sends
 * the user to /oauth/authorize with PKCE and `resource`; the test plays the user's browser on the
 * consent page over HTTP (page parsed, POST /auth/password-authorize, redirects followed), then
 * the SDK exchanges the code and calls tools. Real HTTP on an ephemeral port, a platform on a
 * slice of the real corpus with embedded PGlite.
 */
import { createHash, randomBytes } from 'node:crypto';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { DEFAULT_SLICES, writeCorpusSlice } from './fixtures/corpus-slice.js';
import { Browser, formAction, inputValue } from './helpers/browser.js';
import { call, cookieFrom, freePort } from './helpers/http.js';
import { jwtClaims, MemoryOAuthClient } from './helpers/oauth-client.js';
import { makeTestDataDir } from './helpers/pglite-template.js';

const PASSWORD = 'correct horse battery staple 42';
/** The agent's redirect URI: never contacted, the test reads the code from the redirect to it. */
const REDIRECT_URI = 'http://127.0.0.1:9/oauth/callback';

/** The base URL of the running platform (for the helpers outside the describe). */
let currentBase = '';

describe('OAuth 2.1 authorization server for MCP clients', () => {
  let platform: Platform;
  let base: string;
  const clients: Client[] = [];

  const register = async (email: string, acceptTerms = true) => {
    const res = await call(`${base}/auth/register`, 'POST', { email, password: PASSWORD, accept_terms: acceptTerms, acknowledge_privacy: acceptTerms });
    expect(res.status).toBe(200);
    return res.body.id as string;
  };

  /** The user's side of the authorization: the consent page, the password form, the redirects back to the agent. */
  const signInOnConsentPage = async (browser: Browser, authorizationUrl: URL, email: string) => {
    const { page } = await browser.follow(authorizationUrl.href, () => false);
    expect(page.status).toBe(200);
    expect(new URL(page.url).pathname).toMatch(/^\/oauth\/interaction\/[\w-]+$/);
    const mcpFlow = inputValue(page.text, 'mcp_flow')!;
    const action = formAction(page.text, /Sign in and allow access/)!;
    expect(action).toBe(`${base}/auth/password-authorize`);
    const answer = await browser.postJson(action, { email, password: PASSWORD, mcp_flow: mcpFlow });
    expect([answer.status, answer.text]).toEqual([200, expect.stringContaining('redirect_url')]);
    const { redirect_url } = JSON.parse(answer.text) as { redirect_url: string };
    const { stoppedAt } = await browser.follow(redirect_url, (location) => location.href.startsWith(REDIRECT_URI));
    expect(stoppedAt).not.toBeNull();
    return { page, params: stoppedAt!.searchParams };
  };

  /** What an agent does on its first connection: 401 -> discovery -> registration -> authorization -> code -> token. */
  const authorizeAgent = async (kind: 'streamable' | 'sse', email: string) => {
    const provider = new MemoryOAuthClient({ redirectUrl: REDIRECT_URI, clientName: `Jest agent (${kind})` });
    const endpoint = new URL(`${base}/${kind === 'streamable' ? 'mcp' : 'sse'}`);
    // every request the SDK sends, to check it discovered the server the way the specification says
    const requests: string[] = [];
    const recording = (input: string | URL, init?: RequestInit) => {
      const url = new URL(String(input instanceof Request ? input.url : input));
      requests.push(`${init?.method ?? 'GET'} ${url.pathname}`);
      return fetch(input, init);
    };
    const transport = () =>
      kind === 'streamable'
        ? new StreamableHTTPClientTransport(endpoint, { authProvider: provider, fetch: recording })
        : new SSEClientTransport(endpoint, { authProvider: provider, fetch: recording });
    const first = transport();
    await expect(new Client({ name: 'jest-agent', version: '1.0.0' }).connect(first)).rejects.toThrow(/Unauthorized/i);
    expect(provider.authorizationUrl).not.toBeNull();
    const { page, params } = await signInOnConsentPage(new Browser(), provider.authorizationUrl!, email);
    expect(params.get('iss')).toBe(base);
    await first.finishAuth(params.get('code')!);
    const client = new Client({ name: 'jest-agent', version: '1.0.0' });
    await client.connect(transport());
    clients.push(client);
    return { provider, client, endpoint, consentPage: page, requests };
  };

  beforeAll(async () => {
    const corpus = await writeCorpusSlice([DEFAULT_SLICES[0]!, { file: 'case_law/DE-BGH.jsonl.gz', lines: 10 }]);
    const dataDir = await makeTestDataDir('oauth-e2e-');
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    currentBase = base;
    const config = loadConfig({ DATA_DIR: dataDir, CORPUS_DIR: corpus.dir, PORT: String(port), EMBEDDER: 'none', BASE_URL: base });
    platform = await startPlatform(config, createLogger('silent'));
    await platform.ingestDone;
    // a start on a loaded 2-core machine can outlast jest's default hook time (not an assertion)
  }, 400_000);

  afterAll(async () => {
    await platform?.stop();
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  });

  describe('an agent over streamable HTTP (/mcp)', () => {
    let agent: Awaited<ReturnType<typeof authorizeAgent>>;
    let userId: string;

    beforeAll(async () => {
      userId = await register('mcp-agent-user@example.org');
      agent = await authorizeAgent('streamable', 'mcp-agent-user@example.org');
    });

    it('found the authorization server from the 401: protected-resource metadata, then RFC 8414 metadata, then registration', async () => {
      const discovery = agent.requests.slice(0, agent.requests.indexOf('POST /oauth/register') + 1);
      expect(discovery).toEqual([
        'POST /mcp', // 401 naming the metadata
        'GET /.well-known/oauth-protected-resource/mcp',
        'GET /.well-known/oauth-authorization-server',
        'POST /oauth/register',
      ]);
      expect(agent.requests).toContain('POST /oauth/token');
    });

    it('registered dynamically, named the client, scope and resource on the consent page, and got a JWT for /mcp', async () => {
      expect(agent.consentPage.text).toContain('Jest agent (streamable)');
      expect(agent.consentPage.text).toContain(`<code>${base}/mcp</code>`);
      expect(agent.consentPage.text).toMatch(/<strong>mcp<\/strong>/);
      const tokens = agent.provider.tokens()!;
      expect(tokens.token_type).toMatch(/^bearer$/i);
      expect(tokens.expires_in).toBe(3600);
      expect(tokens.refresh_token).toEqual(expect.any(String));
      const claims = jwtClaims(tokens.access_token);
      expect(claims).toMatchObject({ iss: base, aud: `${base}/mcp`, sub: userId, scope: 'mcp', client_id: agent.provider.clientInformation()!.client_id });
      expect((claims.exp as number) - (claims.iat as number)).toBe(3600);
    });

    it('lists the tools and calls search, get_document and resolve_reference with the access token', async () => {
      const { tools } = await agent.client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['search', 'get_document', 'resolve_reference']));
      const search = await agent.client.callTool({ name: 'search', arguments: { q: 'Schadensersatz Eigentum', namespace: 'legislation', country: ['DE'], top_k: 3 } });
      expect(search.isError).toBeFalsy();
      const hit = (search.structuredContent as { hits: { source: string; source_id: string }[] }).hits[0]!;
      const doc = await agent.client.callTool({ name: 'get_document', arguments: { source: hit.source, source_id: hit.source_id } });
      expect(doc.isError).toBeFalsy();
      expect(doc.structuredContent).toMatchObject({ source: hit.source, source_id: hit.source_id });
      const resolved = await agent.client.callTool({ name: 'resolve_reference', arguments: { reference: '§ 823 Abs. 1 BGB' } });
      expect(resolved.structuredContent).toMatchObject({ resolved: true, documents: [expect.objectContaining({ source_id: 'bgb/823' })] });
    });

    it('counts the tool calls as usage of the user (no API key), like any billable call', async () => {
      await platform.accounts.usage.flush();
      const rows: { endpoint: string; api_key_id: string | null }[] = await platform.orm.em
        .fork()
        .getConnection()
        .execute('select endpoint, api_key_id from usage_event where user_id = ? order by id', [userId]);
      expect(rows.map((r) => r.endpoint)).toEqual(['search', 'documents', 'resolve']);
      expect(rows.every((r) => r.api_key_id === null)).toBe(true);
    });

    it('refreshes the token with rotation: a new pair works, the old refresh token is refused', async () => {
      const before = agent.provider.tokens()!;
      expect(await auth(agent.provider, { serverUrl: agent.endpoint })).toBe('AUTHORIZED');
      const after = agent.provider.tokens()!;
      expect(after.access_token).not.toBe(before.access_token);
      expect(after.refresh_token).toEqual(expect.any(String));
      expect(after.refresh_token).not.toBe(before.refresh_token);
      expect(jwtClaims(after.access_token)).toMatchObject({ aud: `${base}/mcp`, sub: userId });

      const client = new Client({ name: 'jest-agent', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(agent.endpoint, { authProvider: agent.provider }));
      clients.push(client);
      expect((await client.callTool({ name: 'discover_countries', arguments: {} })).isError).toBeFalsy();

      const replay = await tokenRequest({ grant_type: 'refresh_token', refresh_token: before.refresh_token!, client_id: agent.provider.clientInformation()!.client_id });
      expect(replay.status).toBe(400);
      expect(replay.body.error).toBe('invalid_grant');
    });
  });

  describe('an agent over the legacy SSE transport (/sse)', () => {
    let agent: Awaited<ReturnType<typeof authorizeAgent>>;

    beforeAll(async () => {
      await register('sse-agent-user@example.org');
      agent = await authorizeAgent('sse', 'sse-agent-user@example.org');
    });

    it('discovers through /sse, gets a token whose aud is /sse, and calls search, get_document and resolve_reference', async () => {
      expect(agent.requests.slice(0, 2)).toEqual(['GET /sse', 'GET /.well-known/oauth-protected-resource/sse']);
      expect(jwtClaims(agent.provider.tokens()!.access_token).aud).toBe(`${base}/sse`);
      const search = await agent.client.callTool({ name: 'search', arguments: { q: 'Schadensersatz', namespace: 'legislation', top_k: 2 } });
      expect(search.isError).toBeFalsy();
      const hit = (search.structuredContent as { hits: { source: string; source_id: string }[] }).hits[0]!;
      const doc = await agent.client.callTool({ name: 'get_document', arguments: { source: hit.source, source_id: hit.source_id } });
      expect(doc.structuredContent).toMatchObject({ source_id: hit.source_id });
      const resolved = await agent.client.callTool({ name: 'resolve_reference', arguments: { reference: '§ 823 BGB' } });
      expect(resolved.structuredContent).toMatchObject({ resolved: true });
    });

    it('refuses a token issued for the other resource (and at REST), with the resource_metadata challenge', async () => {
      const sseToken = agent.provider.tokens()!.access_token;
      const atMcp = await call(`${base}/mcp`, 'POST', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { key: sseToken });
      expect(atMcp.status).toBe(401);
      expect(atMcp.headers.get('www-authenticate')).toBe(
        `Bearer error="invalid_token", error_description="Access token was issued for another resource; ask for one with resource=${base}/mcp", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp", scope="mcp"`,
      );
      const atRest = await call(`${base}/v1/search`, 'POST', { q: 'Eigentum' }, { key: sseToken });
      expect(atRest.status).toBe(401);
      expect(atRest.body.detail).toMatch(/only by the MCP endpoints/);
      const forged = `${sseToken.slice(0, -4)}AAAA`;
      expect((await call(`${base}/sse/messages?sessionId=x`, 'POST', {}, { key: forged })).status).toBe(401);
    });

    it('ends the tokens of an account with the account (deleted: its valid JWT is refused, its refresh token too)', async () => {
      const tokens = agent.provider.tokens()!;
      const headers = { accept: 'application/json, text/event-stream' };
      const login = await call(`${base}/auth/login`, 'POST', { email: 'sse-agent-user@example.org', password: PASSWORD });
      const cookie = cookieFrom(login.headers, 'session')!;
      const userId = login.body.id as string;
      const grantRows = () => platform.orm.em.fork().getConnection().execute("select model from oauth_model where payload->>'accountId' = ?", [userId]);
      expect((await grantRows()).map((r: { model: string }) => r.model)).toEqual(expect.arrayContaining(['Grant', 'RefreshToken']));
      expect((await call(`${base}/auth/me`, 'DELETE', { confirmation: 'DELETE' }, { cookie })).status).toBe(200);
      const refused = await call(`${base}/sse`, 'GET', undefined, { key: tokens.access_token, headers });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toMatch(/error="invalid_token", error_description="The account of this access token no longer exists/);
      const refresh = await tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: agent.provider.clientInformation()!.client_id });
      expect([refresh.status, refresh.body.error]).toEqual([400, 'invalid_grant']);
      expect(await grantRows()).toEqual([]);
    });
  });

  describe('a user lists the agents they authorised and revokes them', () => {
    const headers = { accept: 'application/json, text/event-stream' };
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    let cookie: string;
    let first: Awaited<ReturnType<typeof authorizeAgent>>;
    let second: Awaited<ReturnType<typeof authorizeAgent>>;

    beforeAll(async () => {
      await register('revoking-user@example.org');
      first = await authorizeAgent('streamable', 'revoking-user@example.org');
      second = await authorizeAgent('streamable', 'revoking-user@example.org');
      cookie = cookieFrom((await call(`${base}/auth/login`, 'POST', { email: 'revoking-user@example.org', password: PASSWORD })).headers, 'session')!;
    });

    it('lists one entry per client, the same over REST and GraphQL', async () => {
      const listed = await call(`${base}/v1/oauth/grants`, 'GET', undefined, { cookie });
      expect(listed.status).toBe(200);
      const ids = [first, second].map((agent) => agent.provider.clientInformation()!.client_id);
      expect(listed.body.map((g: { id: string }) => g.id).sort()).toEqual([...ids].sort());
      expect(listed.body.find((g: { id: string }) => g.id === ids[0])).toEqual({
        id: ids[0],
        client_id: ids[0],
        client_name: 'Jest agent (streamable)',
        client_uri: null,
        scopes: ['mcp'],
        // asked for /mcp; one grant covers the whole MCP server (src/oauth/grant-resources.ts)
        resources: [base, `${base}/mcp`, `${base}/sse`],
        authorized_at: expect.any(String),
        expires_at: expect.any(String),
      });
      const graph = await call(`${base}/graphql`, 'POST', { query: '{ oauthGrants { id client_id client_name client_uri scopes resources authorized_at expires_at } }' }, { cookie });
      expect(graph.body).toEqual({ data: { oauthGrants: listed.body } });
      // nobody else sees them
      await register('bystander@example.org');
      const bystander = cookieFrom((await call(`${base}/auth/login`, 'POST', { email: 'bystander@example.org', password: PASSWORD })).headers, 'session')!;
      expect((await call(`${base}/v1/oauth/grants`, 'GET', undefined, { cookie: bystander })).body).toEqual([]);
      expect((await call(`${base}/v1/oauth/grants/${ids[0]}`, 'DELETE', undefined, { cookie: bystander })).status).toBe(404);
      expect((await call(`${base}/v1/oauth/grants`, 'GET')).status).toBe(401);
    });

    it('revoking over REST ends that client\'s access token and refresh token at once, and only that client\'s', async () => {
      const clientId = first.provider.clientInformation()!.client_id;
      const tokens = first.provider.tokens()!;
      expect((await call(`${base}/mcp`, 'POST', list, { key: tokens.access_token, headers })).status).toBe(200);
      const revoked = await call(`${base}/v1/oauth/grants/${clientId}`, 'DELETE', undefined, { cookie });
      expect(revoked).toMatchObject({ status: 200, body: { status: 'revoked', id: clientId } });
      const refused = await call(`${base}/mcp`, 'POST', list, { key: tokens.access_token, headers });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toMatch(/error="invalid_token", error_description="The account of this access token no longer exists, was signed out, or revoked this client/);
      const refresh = await tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: clientId });
      expect([refresh.status, refresh.body.error]).toEqual([400, 'invalid_grant']);
      // the other agent goes on
      expect((await call(`${base}/mcp`, 'POST', list, { key: second.provider.tokens()!.access_token, headers })).status).toBe(200);
      expect((await call(`${base}/v1/oauth/grants`, 'GET', undefined, { cookie })).body.map((g: { id: string }) => g.id)).toEqual([second.provider.clientInformation()!.client_id]);
      expect((await call(`${base}/v1/oauth/grants/${clientId}`, 'DELETE', undefined, { cookie })).status).toBe(404);
    });

    it('revoking through GraphQL does the same', async () => {
      const clientId = second.provider.clientInformation()!.client_id;
      const tokens = second.provider.tokens()!;
      const revoked = await call(`${base}/graphql`, 'POST', { query: 'mutation($id: ID!) { revokeOAuthGrant(id: $id) { status id } }', variables: { id: clientId } }, { cookie });
      expect(revoked.body).toEqual({ data: { revokeOAuthGrant: { status: 'revoked', id: clientId } } });
      expect((await call(`${base}/mcp`, 'POST', list, { key: tokens.access_token, headers })).status).toBe(401);
      const refresh = await tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: clientId });
      expect([refresh.status, refresh.body.error]).toEqual([400, 'invalid_grant']);
      expect((await call(`${base}/v1/oauth/grants`, 'GET', undefined, { cookie })).body).toEqual([]);
      const again = await call(`${base}/graphql`, 'POST', { query: 'mutation($id: ID!) { revokeOAuthGrant(id: $id) { status } }', variables: { id: clientId } }, { cookie });
      expect(again.body.errors[0].extensions.code).toBe('NOT_FOUND');
    });

    it('authorising an agent afterwards works: revocation ended grants, not the account', async () => {
      const agent = await authorizeAgent('streamable', 'revoking-user@example.org');
      expect((await call(`${base}/mcp`, 'POST', list, { key: agent.provider.tokens()!.access_token, headers })).status).toBe(200);
    });
  });

  describe('authorization server rules (plain HTTP, a browser on the consent page)', () => {
    const pkce = () => {
      const verifier = randomBytes(32).toString('base64url');
      return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
    };
    const newClient = async (metadata: Record<string, unknown> = {}) => {
      const res = await call(`${base}/oauth/register`, 'POST', { client_name: 'Rules client', redirect_uris: [REDIRECT_URI], ...metadata });
      expect(res.status).toBe(201);
      return res.body as { client_id: string } & Record<string, unknown>;
    };
    const authorizeUrl = (clientId: string, params: Record<string, string | undefined> = {}) => {
      const url = new URL(`${base}/oauth/authorize`);
      const all: Record<string, string | undefined> = {
        response_type: 'code',
        client_id: clientId,
        redirect_uri: REDIRECT_URI,
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
        resource: `${base}/mcp`,
        scope: 'mcp',
        state: 'state-123',
        ...params,
      };
      for (const [k, v] of Object.entries(all)) if (v !== undefined) url.searchParams.set(k, v);
      return url.href;
    };
    /** The error the authorization endpoint redirects back to the client with. */
    const authorizationError = async (url: string) => {
      const { stoppedAt } = await new Browser().follow(url, (location) => location.href.startsWith(REDIRECT_URI));
      expect(stoppedAt).not.toBeNull();
      // errors of a request for a token response type come in the fragment
      return { ...Object.fromEntries(stoppedAt!.searchParams), ...Object.fromEntries(new URLSearchParams(stoppedAt!.hash.slice(1))) };
    };
    const openConsent = async (browser: Browser, url: string) => {
      const { page } = await browser.follow(url, () => false);
      expect(page.status).toBe(200);
      return { page, mcpFlow: inputValue(page.text, 'mcp_flow')! };
    };

    it('publishes RFC 8414 metadata (root and path-aware) and RFC 9728 metadata, every URL under BASE_URL', async () => {
      const root = await call(`${base}/.well-known/oauth-authorization-server`, 'GET');
      expect(root.status).toBe(200);
      // RFC 8414 §2: issuer, authorization_endpoint, token_endpoint (code grant), response_types_supported are required
      expect(root.body).toMatchObject({
        issuer: base,
        authorization_endpoint: `${base}/oauth/authorize`,
        token_endpoint: `${base}/oauth/token`,
        registration_endpoint: `${base}/oauth/register`,
        jwks_uri: `${base}/oauth/jwks`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
      });
      for (const value of Object.values(root.body).filter((v): v is string => typeof v === 'string' && v.startsWith('http'))) {
        expect(value.startsWith(base)).toBe(true);
      }
      for (const resourcePath of ['/mcp', '/sse', '/sse/messages']) {
        expect((await call(`${base}/.well-known/oauth-authorization-server${resourcePath}`, 'GET')).body).toEqual(root.body);
      }
      expect((await call(`${base}/.well-known/oauth-authorization-server/v1/search`, 'GET')).status).toBe(404);
      // readable from browser-based clients (the SDK sends MCP-Protocol-Version, which needs a preflight)
      expect(root.headers.get('access-control-allow-origin')).toBe('*');
      const preflight = await fetch(`${base}/.well-known/oauth-protected-resource/mcp`, { method: 'OPTIONS', headers: { origin: 'https://inspector.example', 'access-control-request-headers': 'mcp-protocol-version' } });
      expect([preflight.status, preflight.headers.get('access-control-allow-headers')]).toEqual([204, expect.stringMatching(/MCP-Protocol-Version/i)]);
      // RFC 9728 §2: resource is required; authorization_servers names this issuer
      for (const resourcePath of ['', '/mcp', '/sse']) {
        const prm = await call(`${base}/.well-known/oauth-protected-resource${resourcePath}`, 'GET');
        expect(prm.body).toMatchObject({ resource: `${base}${resourcePath}`, authorization_servers: [base], scopes_supported: ['mcp'] });
      }
      const jwks = await call(root.body.jwks_uri, 'GET');
      expect(jwks.body.keys).toEqual([expect.objectContaining({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', kid: expect.any(String) })]);
      expect(jwks.body.keys[0].d).toBeUndefined();
    });

    it('registers every client as public, whatever authentication it asked for, and refuses invalid metadata', async () => {
      for (const method of ['client_secret_basic', 'client_secret_post', 'none', undefined]) {
        const client = await newClient(method ? { token_endpoint_auth_method: method } : {});
        expect(client.token_endpoint_auth_method).toBe('none');
        expect(client.client_secret).toBeUndefined();
      }
      const noRedirect = await call(`${base}/oauth/register`, 'POST', { client_name: 'x' });
      expect(noRedirect.status).toBe(400);
      expect(noRedirect.body.error).toMatch(/^invalid_(client_metadata|redirect_uri)$/);
      const implicit = await call(`${base}/oauth/register`, 'POST', { redirect_uris: [REDIRECT_URI], response_types: ['token'] });
      expect(implicit.status).toBe(400);
      expect(implicit.body.error).toBe('invalid_client_metadata');
    });

    it('limits client registrations per IP (429 with Retry-After)', async () => {
      const from = { 'x-forwarded-for': '203.0.113.77' }; // another client IP, told by the loopback proxy
      for (let i = 0; i < 50; i++) {
        expect((await call(`${base}/oauth/register`, 'POST', { redirect_uris: [REDIRECT_URI] }, { headers: from })).status).toBe(201);
      }
      const refused = await call(`${base}/oauth/register`, 'POST', { redirect_uris: [REDIRECT_URI] }, { headers: from });
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ error: 'too_many_requests' });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await call(`${base}/oauth/register`, 'POST', { redirect_uris: [REDIRECT_URI] })).status).toBe(201);
    });

    it('refuses a PKCE downgrade: plain and a missing challenge', async () => {
      const { client_id } = await newClient();
      const plain = await authorizationError(authorizeUrl(client_id, { code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }));
      expect(plain).toMatchObject({ error: 'invalid_request', state: 'state-123', iss: base });
      const missing = await authorizationError(authorizeUrl(client_id, { code_challenge: undefined, code_challenge_method: undefined }));
      expect(missing).toMatchObject({ error: 'invalid_request', error_description: expect.stringMatching(/PKCE/) });
    });

    it('refuses an unknown resource with invalid_target', async () => {
      const { client_id } = await newClient();
      for (const resource of ['https://elsewhere.example/mcp', `${base}/v1/search`]) {
        expect(await authorizationError(authorizeUrl(client_id, { resource }))).toMatchObject({ error: 'invalid_target', state: 'state-123' });
      }
    });

    it('refuses the implicit flow and the password grant (OAuth 2.1)', async () => {
      const { client_id } = await newClient();
      expect(await authorizationError(authorizeUrl(client_id, { response_type: 'token' }))).toMatchObject({ error: 'unsupported_response_type' });
      const password = await tokenRequest({ grant_type: 'password', username: 'a@example.org', password: PASSWORD, client_id });
      expect([password.status, password.body.error]).toEqual([400, 'unsupported_grant_type']);
      const clientCredentials = await tokenRequest({ grant_type: 'client_credentials', client_id });
      expect([clientCredentials.status, clientCredentials.body.error]).toEqual([400, 'unsupported_grant_type']);
    });

    it('refuses a tampered mcp_flow, one from another browser, a cross-site post and a wrong password', async () => {
      await register('consent-rules@example.org');
      const { client_id } = await newClient();
      const browser = new Browser();
      const { mcpFlow } = await openConsent(browser, authorizeUrl(client_id));
      const target = `${base}/auth/password-authorize`;
      const body = { email: 'consent-rules@example.org', password: PASSWORD };
      // one character of the signed parameters changed
      const [payload, mac] = mcpFlow.split('.') as [string, string];
      const altered = `${payload.slice(0, 10)}${payload[10] === 'A' ? 'B' : 'A'}${payload.slice(11)}.${mac}`;
      const tampered = await browser.postJson(target, { ...body, mcp_flow: altered });
      expect(tampered.status).toBe(400);
      expect(JSON.parse(tampered.text).detail).toMatch(/mcp_flow is not valid/);
      const otherBrowser = await new Browser().postJson(target, { ...body, mcp_flow: mcpFlow });
      expect(otherBrowser.status).toBe(403);
      const crossSite = await browser.postJson(target, { ...body, mcp_flow: mcpFlow }, { origin: 'https://attacker.example' });
      expect(crossSite.status).toBe(403);
      const wrong = await browser.postJson(target, { ...body, password: 'not the password at all', mcp_flow: mcpFlow });
      expect(wrong.status).toBe(401);
      expect(JSON.parse(wrong.text)).toEqual({ detail: 'Invalid email or password' });
      const missing = await browser.postJson(target, { email: 'consent-rules@example.org', mcp_flow: mcpFlow });
      expect(missing.status).toBe(422);
      // the same page still works with the right password
      const ok = await browser.postJson(target, { ...body, mcp_flow: mcpFlow });
      expect(ok.status).toBe(200);
    });

    it('asks an account without the current terms to accept them, then authorizes', async () => {
      const userId = await register('no-terms@example.org', false);
      const { client_id } = await newClient();
      const browser = new Browser();
      const { mcpFlow } = await openConsent(browser, authorizeUrl(client_id));
      const target = `${base}/auth/password-authorize`;
      const asked = await browser.postJson(target, { email: 'no-terms@example.org', password: PASSWORD, mcp_flow: mcpFlow });
      expect(asked.status).toBe(403);
      expect(JSON.parse(asked.text)).toMatchObject({ legal_acceptance_required: true, terms_version: '2025-01', detail: expect.stringMatching(/accept_terms=true/) });
      const accepted = await browser.postJson(target, { email: 'no-terms@example.org', password: PASSWORD, mcp_flow: mcpFlow, accept_terms: true, acknowledge_privacy: true });
      expect(accepted.status).toBe(200);
      const [row] = await platform.orm.em.fork().getConnection().execute('select terms_version from app_user where id = ?', [userId]);
      expect(row.terms_version).toBe('2025-01');
      const { stoppedAt } = await browser.follow(JSON.parse(accepted.text).redirect_url, (l) => l.href.startsWith(REDIRECT_URI));
      expect(stoppedAt!.searchParams.get('code')).toEqual(expect.any(String));
    });

    it('sends access_denied to the client when the user denies', async () => {
      const { client_id } = await newClient();
      const browser = new Browser();
      const { page } = await openConsent(browser, authorizeUrl(client_id));
      const deny = await browser.postForm(formAction(page.text, /Deny access/)!, {});
      expect(deny.status).toBe(303);
      const { stoppedAt } = await browser.follow(new URL(deny.location!, base).href, (l) => l.href.startsWith(REDIRECT_URI));
      expect(Object.fromEntries(stoppedAt!.searchParams)).toMatchObject({ error: 'access_denied', state: 'state-123' });
    });

    it('works without JavaScript: the form posts, errors come back on the page, success redirects; a signed-in browser approves the next client', async () => {
      await register('no-js@example.org');
      const first = await newClient({ client_name: 'First <b>client</b>' });
      const browser = new Browser();
      const { page, mcpFlow } = await openConsent(browser, authorizeUrl(first.client_id));
      expect(page.text).toMatch(/^<!doctype html>\n<html lang="en">/);
      expect(page.text).toContain('<label for="email">E-mail</label>');
      // the client's name is escaped (numeric or named entities alike), never markup
      expect(page.text).toMatch(/First &(#60|lt);b&(#62|gt);client&(#60|lt);\/b&(#62|gt);/);
      expect(page.text).not.toContain('<b>client');
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      const action = formAction(page.text, /Sign in and allow access/)!;
      const wrong = await browser.postForm(action, { email: 'no-js@example.org', password: 'wrong password here', mcp_flow: mcpFlow });
      expect(wrong.status).toBe(401);
      expect(wrong.text).toContain('<p class="error" role="alert">Invalid email or password</p>');
      const ok = await browser.postForm(action, { email: 'no-js@example.org', password: PASSWORD, mcp_flow: mcpFlow });
      expect(ok.status).toBe(303);
      const { stoppedAt } = await browser.follow(new URL(ok.location!, base).href, (l) => l.href.startsWith(REDIRECT_URI));
      expect(stoppedAt!.searchParams.get('code')).toEqual(expect.any(String));

      // the same browser, another client: it is signed in, so the page offers to approve as that account
      const second = await newClient({ client_name: 'Second client' });
      const { page: again } = await openConsent(browser, authorizeUrl(second.client_id));
      expect(again.text).toContain('Signed in as no-js@example.org');
      const approve = await browser.postForm(formAction(again.text, /Allow access as/)!, {});
      expect(approve.status).toBe(303);
      const back = await browser.follow(new URL(approve.location!, base).href, (l) => l.href.startsWith(REDIRECT_URI));
      expect(back.stoppedAt!.searchParams.get('code')).toEqual(expect.any(String));
      // a browser that never signed in cannot approve
      const stranger = new Browser();
      const { page: strangerPage } = await openConsent(stranger, authorizeUrl(second.client_id));
      expect(formAction(strangerPage.text, /Allow access as/)).toBeNull();
    });

    it('ends the authorization server\'s sign-in at /auth/logout: afterwards no client is approved without a password', async () => {
      await register('logout-ends-oauth@example.org');
      const browser = new Browser();
      // signed in to the dashboard, the user approves a first client (oidc-provider starts its own session)
      const login = await browser.postJson(`${base}/auth/login`, { email: 'logout-ends-oauth@example.org', password: PASSWORD });
      expect(login.status).toBe(200);
      const first = await newClient({ client_name: 'Before logout' });
      const { page } = await openConsent(browser, authorizeUrl(first.client_id));
      const approved = await browser.postForm(formAction(page.text, /Allow access as/)!, {});
      expect(approved.status).toBe(303);
      const back = await browser.follow(new URL(approved.location!, base).href, (l) => l.href.startsWith(REDIRECT_URI));
      expect(back.stoppedAt!.searchParams.get('code')).toEqual(expect.any(String));
      expect(browser.cookieNamesFor(`${base}/oauth/authorize`)).toContain('oauth_session');
      // a second client is offered "Allow as" while signed in (the session is live)
      const second = await newClient({ client_name: 'After logout' });
      const { page: before } = await openConsent(browser, authorizeUrl(second.client_id));
      expect(before.text).toContain('Signed in as logout-ends-oauth@example.org');
      const pendingApprove = formAction(before.text, /Allow access as/)!;

      expect((await browser.postJson(`${base}/auth/logout`, {})).status).toBe(200);

      // the page opened before the logout can no longer approve: its sign-in is gone (oidc-provider
      // refuses the interaction of an ended session), the user starts again from the application
      const stale = await browser.postForm(pendingApprove, {});
      expect(stale.status).toBe(400);
      expect(stale.location).toBeNull();
      expect(stale.text).toContain('This authorization request expired or was started in another browser');
      // a new client's page offers no "Allow as", only the password form
      const { page: after } = await openConsent(browser, authorizeUrl(second.client_id));
      expect(after.text).not.toContain('Signed in as');
      expect(formAction(after.text, /Allow access as/)).toBeNull();
      expect(formAction(after.text, /Sign in and allow access/)).toEqual(`${base}/auth/password-authorize`);
      // the client approved before the logout is not let through silently either: it gets the page
      const { stoppedAt, page: again } = await browser.follow(authorizeUrl(first.client_id), (l) => l.href.startsWith(REDIRECT_URI));
      expect(stoppedAt).toBeNull();
      expect(new URL(again.url).pathname).toMatch(/^\/oauth\/interaction\/[\w-]+$/);
      expect(formAction(again.text, /Allow access as/)).toBeNull();
    });

    it('keeps the consent page\'s own strict headers under the service-wide security headers (http BASE_URL: no HSTS)', async () => {
      const client = await newClient({ client_name: 'Headers client' });
      const { page } = await openConsent(new Browser(), authorizeUrl(client.client_id));
      expect(page.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'");
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      expect(page.headers.get('referrer-policy')).toBe('same-origin');
      expect(page.headers.get('strict-transport-security')).toBeNull();
    });

    it('takes the client_id in the body with any client_secret, or in a Basic header, and ignores the secret', async () => {
      await register('token-auth@example.org');
      const { client_id } = await newClient({ token_endpoint_auth_method: 'client_secret_post' });
      const codeFor = async () => {
        const { verifier, challenge } = pkce();
        const browser = new Browser();
        const { mcpFlow } = await openConsent(browser, authorizeUrl(client_id, { code_challenge: challenge }));
        const ok = await browser.postJson(`${base}/auth/password-authorize`, { email: 'token-auth@example.org', password: PASSWORD, mcp_flow: mcpFlow });
        const { stoppedAt } = await browser.follow(JSON.parse(ok.text).redirect_url, (l) => l.href.startsWith(REDIRECT_URI));
        return { code: stoppedAt!.searchParams.get('code')!, verifier };
      };
      const exchange = (code: string, verifier: string) => ({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT_URI, resource: `${base}/mcp` });

      const post = await codeFor();
      const viaBody = await tokenRequest({ ...exchange(post.code, post.verifier), client_id, client_secret: 'anything at all' });
      expect(viaBody.status).toBe(200);
      expect(jwtClaims(viaBody.body.access_token)).toMatchObject({ aud: `${base}/mcp`, client_id });

      const basic = await codeFor();
      const viaBasic = await tokenRequest(exchange(basic.code, basic.verifier), { authorization: `Basic ${Buffer.from(`${client_id}:ignored`).toString('base64')}` });
      expect(viaBasic.status).toBe(200);

      const mismatch = await tokenRequest({ ...exchange(basic.code, basic.verifier), client_id: 'another' }, { authorization: `Basic ${Buffer.from(`${client_id}:x`).toString('base64')}` });
      expect([mismatch.status, mismatch.body.error]).toEqual([400, 'invalid_request']);
      // a code is single use, and a wrong PKCE verifier is refused
      const reused = await tokenRequest({ ...exchange(post.code, post.verifier), client_id });
      expect(reused.body.error).toBe('invalid_grant');
      const third = await codeFor();
      const badVerifier = await tokenRequest({ ...exchange(third.code, pkce().verifier), client_id });
      expect(badVerifier.body.error).toBe('invalid_grant');
    });
  });

  it('refuses a revoked API key at /mcp (keys and tokens share the door)', async () => {
    await register('key-user@example.org');
    const login = await call(`${base}/auth/login`, 'POST', { email: 'key-user@example.org', password: PASSWORD });
    const cookie = cookieFrom(login.headers, 'session')!;
    const key = (await call(`${base}/v1/keys`, 'POST', { name: 'agent' }, { cookie })).body as { key: string; id: string };
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const headers = { accept: 'application/json, text/event-stream' };
    expect((await call(`${base}/mcp`, 'POST', list, { key: key.key, headers })).status).toBe(200);
    expect((await call(`${base}/v1/keys/${key.id}`, 'DELETE', undefined, { cookie })).status).toBe(200);
    const refused = await call(`${base}/mcp`, 'POST', list, { key: key.key, headers });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token", error_description="Invalid or revoked API key", resource_metadata="/);
  });
});

/** POST /oauth/token with a form body; answers status and JSON. */
async function tokenRequest(fields: Record<string, string>, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(`${currentBase}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, body: await res.json() };
}
