/**
 * The authorization server with clients nobody here wrote (issue #34 items 1, 3 and 10): the
 * official MCP SDK (`Client` with `StreamableHTTPClientTransport` and `SSEClientTransport` sharing
 * one `OAuthClientProvider`, its `auth()` flow and `refreshAuthorization`) and oauth4webapi (strict
 * RFC 8414 / 7591 / 9207 checks) registering as a native app. The user's consent is driven over
 * HTTP by a cookie-jar browser, as in test/oauth.e2e.test.ts. Real HTTP, a platform on a slice of
 * the real corpus with embedded PGlite.
 */
import { discoverAuthorizationServerMetadata, refreshAuthorization } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InvalidGrantError, InvalidTargetError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import * as oauth from 'oauth4webapi';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { DEFAULT_SLICES, writeCorpusSlice } from './fixtures/corpus-slice.js';
import { Browser, inputValue } from './helpers/browser.js';
import { call, cookieFrom, freePort } from './helpers/http.js';
import { jwtClaims, MemoryOAuthClient } from './helpers/oauth-client.js';
import { makeTestDataDir } from './helpers/pglite-template.js';

const PASSWORD = 'correct horse battery staple 42';
const SDK_REDIRECT_URI = 'http://127.0.0.1:9/oauth/callback';
/** oauth4webapi speaks to an http issuer only when told to (the test platform has no TLS). */
const insecure = { [oauth.allowInsecureRequests]: true } as const;

describe('OAuth with real MCP clients (issue #34)', () => {
  let platform: Platform;
  let base: string;
  const clients: Client[] = [];

  const register = async (email: string) => {
    const res = await call(`${base}/auth/register`, 'POST', { email, password: PASSWORD, accept_terms: true, acknowledge_privacy: true });
    expect(res.status).toBe(200);
  };

  /** The user's side: consent page, password sign-in, redirects followed until the client's redirect URI. */
  const consent = async (authorizationUrl: string, email: string, redirectPrefix: string): Promise<URL> => {
    const browser = new Browser();
    const { page } = await browser.follow(authorizationUrl, () => false);
    const mcpFlow = inputValue(page.text, 'mcp_flow');
    if (!mcpFlow) throw new Error(`no consent page: ${page.status} ${page.text.slice(0, 400)}`);
    const answer = await browser.postJson(`${base}/auth/password-authorize`, { email, password: PASSWORD, mcp_flow: mcpFlow });
    expect(answer.status).toBe(200);
    const { stoppedAt } = await browser.follow(JSON.parse(answer.text).redirect_url, (l) => l.href.startsWith(redirectPrefix));
    expect(stoppedAt).not.toBeNull();
    return stoppedAt!;
  };

  /** The user's grants as the dashboard lists them. */
  const grantsOf = async (email: string) => {
    const cookie = cookieFrom((await call(`${base}/auth/login`, 'POST', { email, password: PASSWORD })).headers, 'session')!;
    return (await call(`${base}/v1/oauth/grants`, 'GET', undefined, { cookie })).body as { client_id: string; resources: string[] }[];
  };

  beforeAll(async () => {
    const corpus = await writeCorpusSlice([DEFAULT_SLICES[0]!]);
    const dataDir = await makeTestDataDir('oauth-clients-e2e-');
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const config = loadConfig({ DATA_DIR: dataDir, CORPUS_DIR: corpus.dir, PORT: String(port), EMBEDDER: 'none', BASE_URL: base });
    platform = await startPlatform(config, createLogger('silent'));
    await platform.ingestDone;
    // a start on a loaded 2-core machine can outlast jest's default hook time (not an assertion)
  }, 400_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await platform?.stop();
  });

  describe('item 1: refreshing a grant for the resources of the one MCP server', () => {
    it('the SDK\'s SSEClientTransport and StreamableHTTPClientTransport sharing one provider keep working across refreshes', async () => {
      const email = 'shared-provider@example.org';
      await register(email);
      const provider = new MemoryOAuthClient({ redirectUrl: SDK_REDIRECT_URI, clientName: 'Shared provider agent' });
      const mcpUrl = new URL(`${base}/mcp`);
      const sseUrl = new URL(`${base}/sse`);
      const first = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
      await expect(new Client({ name: 'jest-agent', version: '1.0.0' }).connect(first)).rejects.toThrow(/Unauthorized/i);
      const callback = await consent(provider.authorizationUrl!.href, email, SDK_REDIRECT_URI);
      await first.finishAuth(callback.searchParams.get('code')!);
      const streamable = new Client({ name: 'jest-agent', version: '1.0.0' });
      await streamable.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
      clients.push(streamable);
      expect(jwtClaims(provider.tokens()!.access_token).aud).toBe(`${base}/mcp`);

      // The SSE transport finds the /mcp token refused at /sse and refreshes with resource=/sse.
      const sse = new Client({ name: 'jest-agent', version: '1.0.0' });
      await sse.connect(new SSEClientTransport(sseUrl, { authProvider: provider }));
      clients.push(sse);
      expect(jwtClaims(provider.tokens()!.access_token).aud).toBe(`${base}/sse`);
      expect((await sse.listTools()).tools.length).toBeGreaterThan(0);

      // Back and forth: each transport meets the other's token, refreshes for its own resource, retries.
      for (let round = 0; round < 2; round++) {
        expect((await streamable.listTools()).tools.length).toBeGreaterThan(0);
        expect(jwtClaims(provider.tokens()!.access_token).aud).toBe(`${base}/mcp`);
        expect((await sse.listTools()).tools.length).toBeGreaterThan(0);
        expect(jwtClaims(provider.tokens()!.access_token).aud).toBe(`${base}/sse`);
      }
      // One grant, still standing: the user never had to consent again.
      const clientId = provider.clientInformation()!.client_id;
      expect((await grantsOf(email)).map((g) => g.client_id)).toEqual([clientId]);
    });

    it('a token issued without `resource` is refreshed with resource=/mcp (the SDK\'s refreshAuthorization)', async () => {
      const email = 'no-resource@example.org';
      await register(email);
      const agent = await nativeAgent({ email, redirectUri: 'http://127.0.0.1:7/cb', resource: undefined });
      expect(jwtClaims(agent.tokens.access_token).aud).toBe(base);
      const metadata = await discoverAuthorizationServerMetadata(base);
      const refreshed = await refreshAuthorization(base, {
        metadata,
        clientInformation: { client_id: agent.client.client_id },
        refreshToken: agent.tokens.refresh_token!,
        resource: new URL(`${base}/mcp`),
      });
      expect(jwtClaims(refreshed.access_token).aud).toBe(`${base}/mcp`);
      // and once more without resource: the grant's first resource (the whole service)
      const again = await refreshAuthorization(base, { metadata, clientInformation: { client_id: agent.client.client_id }, refreshToken: refreshed.refresh_token! });
      expect(jwtClaims(again.access_token).aud).toBe(base);
    });

    it('a refused refresh consumes nothing: the retry with a resource the grant covers succeeds and the grant stands', async () => {
      const email = 'refused-refresh@example.org';
      await register(email);
      const agent = await nativeAgent({ email, redirectUri: 'http://127.0.0.1:7/cb', resource: `${base}/mcp` });
      const metadata = await discoverAuthorizationServerMetadata(base);
      const clientInformation = { client_id: agent.client.client_id };
      for (const resource of ['https://elsewhere.example/mcp', `${base}/v1/search`]) {
        await expect(
          refreshAuthorization(base, { metadata, clientInformation, refreshToken: agent.tokens.refresh_token!, resource: new URL(resource) }),
        ).rejects.toBeInstanceOf(InvalidTargetError);
      }
      const retried = await refreshAuthorization(base, { metadata, clientInformation, refreshToken: agent.tokens.refresh_token!, resource: new URL(`${base}/mcp`) });
      expect(jwtClaims(retried.access_token).aud).toBe(`${base}/mcp`);
      expect((await grantsOf(email)).map((g) => g.client_id)).toEqual([agent.client.client_id]);
      // rotation still holds: the refresh token just used is spent, and reusing it ends the grant
      await expect(refreshAuthorization(base, { metadata, clientInformation, refreshToken: agent.tokens.refresh_token! })).rejects.toBeInstanceOf(InvalidGrantError);
      expect(await grantsOf(email)).toEqual([]);
    });

    it('a grant from before the widening covers only its resource: a refresh for another one is refused without consuming the token', async () => {
      // oidc-provider consumes the refresh token before it checks the resource; the check in its
      // rotateRefreshToken hook must run first (this fails if a library upgrade moves the hook)
      const email = 'narrow-grant@example.org';
      await register(email);
      const agent = await nativeAgent({ email, redirectUri: 'http://127.0.0.1:7/cb', resource: `${base}/mcp` });
      const connection = platform.orm.em.fork().getConnection();
      await connection.execute("update oauth_model set payload = jsonb_set(payload, '{resource}', to_jsonb(cast(? as text))) where model = 'RefreshToken' and id = ?", [`${base}/mcp`, agent.tokens.refresh_token!]);
      const rows = (await connection.execute("select payload->'resource' as resource from oauth_model where model = 'RefreshToken' and id = ?", [agent.tokens.refresh_token!])) as { resource: unknown }[];
      expect(rows).toEqual([{ resource: `${base}/mcp` }]);
      const metadata = await discoverAuthorizationServerMetadata(base);
      const clientInformation = { client_id: agent.client.client_id };
      await expect(refreshAuthorization(base, { metadata, clientInformation, refreshToken: agent.tokens.refresh_token!, resource: new URL(`${base}/sse`) })).rejects.toBeInstanceOf(InvalidTargetError);
      const retried = await refreshAuthorization(base, { metadata, clientInformation, refreshToken: agent.tokens.refresh_token!, resource: new URL(`${base}/mcp`) });
      expect(jwtClaims(retried.access_token).aud).toBe(`${base}/mcp`);
      expect((await grantsOf(email)).map((g) => g.client_id)).toEqual([agent.client.client_id]);
    });

    it('a code exchange naming an unknown resource is refused before the code is spent: the retry gets the tokens', async () => {
      const email = 'refused-code@example.org';
      await register(email);
      const agent = await nativeAgent({ email, redirectUri: 'http://127.0.0.1:7/cb', resource: `${base}/mcp`, firstExchangeResource: 'https://elsewhere.example/mcp' });
      expect(agent.refusedFirst).toMatchObject({ error: 'invalid_target' });
      expect(jwtClaims(agent.tokens.access_token).aud).toBe(`${base}/mcp`);
      expect((await grantsOf(email)).map((g) => g.client_id)).toEqual([agent.client.client_id]);
    });
  });

  describe('items 3 and 10: dynamic registration of native clients (oauth4webapi)', () => {
    let as: oauth.AuthorizationServer;

    beforeAll(async () => {
      as = await oauth.processDiscoveryResponse(new URL(base), await oauth.discoveryRequest(new URL(base), { algorithm: 'oauth2', ...insecure }));
    });

    const registerClient = (metadata: Record<string, unknown>) =>
      oauth.dynamicClientRegistrationRequest(as, { client_name: 'Native agent', token_endpoint_auth_method: 'none', ...metadata }, insecure);

    it('registers a private-use scheme and a loopback redirect the way MCP clients send them; the answer has no OpenID fields', async () => {
      const redirects = ['cursor://anysphere.cursor-retrieval/oauth/callback', 'vscode://vscode.github-authentication/did-authenticate', 'http://127.0.0.1/callback', 'http://[::1]/callback', 'http://localhost/callback'];
      const res = await registerClient({ redirect_uris: redirects, grant_types: ['authorization_code', 'refresh_token'] });
      expect(res.status).toBe(201);
      const registered = await oauth.processDynamicClientRegistrationResponse(res);
      expect(registered.redirect_uris).toEqual(redirects);
      // OpenID Connect registration fields: this server issues no ID tokens
      for (const field of ['id_token_signed_response_alg', 'subject_type', 'require_auth_time', 'default_max_age', 'userinfo_signed_response_alg']) {
        expect(registered).not.toHaveProperty(field);
      }
      expect(registered).toMatchObject({ application_type: 'native', token_endpoint_auth_method: 'none' });
    });

    it('a native-style registration completes the flow through its private-use scheme and through a loopback redirect on a new port', async () => {
      const email = 'native-app@example.org';
      await register(email);
      const scheme = await nativeAgent({ email, redirectUri: 'cursor://anysphere.cursor-retrieval/oauth/callback', resource: `${base}/mcp` });
      expect(jwtClaims(scheme.tokens.access_token).aud).toBe(`${base}/mcp`);
      for (const host of ['127.0.0.1', '[::1]', 'localhost']) {
        // registered without a port; the client listens on whichever port it got
        const loopback = await nativeAgent({ email, redirectUri: `http://${host}/callback`, authorizeWith: `http://${host}:53682/callback`, resource: `${base}/mcp` });
        expect(jwtClaims(loopback.tokens.access_token).aud).toBe(`${base}/mcp`);
        const status = await call(`${base}/mcp`, 'POST', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { key: loopback.tokens.access_token, headers: { accept: 'application/json, text/event-stream' } });
        expect(status.status).toBe(200);
      }
    });

    it('refuses plain http to any other host, forbidden schemes and control characters (400 invalid_redirect_uri)', async () => {
      for (const uri of [
        'http://agent.example/callback',
        'http://127.0.0.1.agent.example/callback',
        'http://10.0.0.8/callback',
        'javascript:alert(1)',
        'data:text/html,hi',
        'file:///etc/passwd',
        'http://127.0.0.1/callback\r\nSet-Cookie: a=b',
        'cursor://anysphere.cursor-retrieval/oauth/callback\n',
        'http://127.0.0.1/cb\u0000',
        'https://agent.example/cb\u0007',
        'https://agent.example/cb#fragment',
        'not a uri',
      ]) {
        const res = await registerClient({ redirect_uris: [uri] });
        expect([uri, res.status, ((await res.json()) as { error: string }).error]).toEqual([uri, 400, 'invalid_redirect_uri']);
      }
      // https to any host is a web redirect and stays accepted
      expect((await registerClient({ redirect_uris: ['https://agent.example/callback'] })).status).toBe(201);
    });

    it('refuses control characters in the other URIs of the metadata (400 invalid_client_metadata)', async () => {
      for (const field of ['client_uri', 'logo_uri', 'tos_uri', 'policy_uri']) {
        const res = await registerClient({ redirect_uris: ['http://127.0.0.1/cb'], [field]: 'https://agent.example/\r\nx' });
        expect([field, res.status, ((await res.json()) as { error: string }).error]).toEqual([field, 400, 'invalid_client_metadata']);
      }
    });

    it('at authorization a loopback redirect matches on any port but not on another path, host or scheme; CR/LF never matches', async () => {
      const res = await registerClient({ redirect_uris: ['http://127.0.0.1/callback'] });
      const client = await oauth.processDynamicClientRegistrationResponse(res);
      const authorize = (redirectUri: string) => {
        const url = new URL(as.authorization_endpoint!);
        url.search = new URLSearchParams({ response_type: 'code', client_id: client.client_id, redirect_uri: redirectUri, code_challenge: 'x'.repeat(43), code_challenge_method: 'S256', state: 's' }).toString();
        return call(url.href, 'GET');
      };
      const consentPage = await authorize('http://127.0.0.1:61234/callback');
      expect(consentPage.status).toBe(303);
      expect(consentPage.headers.get('location')).toMatch(/\/oauth\/interaction\//);
      for (const uri of ['http://127.0.0.1:61234/other', 'http://localhost:61234/callback', 'https://127.0.0.1:61234/callback', 'http://127.0.0.1:6\r\n1234/callback', 'http://127.0.0.1:61234/callback\r\nX: y']) {
        const refused = await authorize(uri);
        expect([uri, refused.status, refused.headers.get('location')]).toEqual([uri, 400, null]);
      }
    });
  });

  /**
   * A native client's whole flow with oauth4webapi: registration, authorization request with PKCE
   * (and `resource` when given), the user's consent, the redirect (RFC 9207 `iss` checked), the code
   * exchange. `authorizeWith` is the redirect URI sent at authorization (a loopback one on a port).
   */
  async function nativeAgent(options: { email: string; redirectUri: string; authorizeWith?: string; resource: string | undefined; firstExchangeResource?: string }) {
    const as = await oauth.processDiscoveryResponse(new URL(base), await oauth.discoveryRequest(new URL(base), { algorithm: 'oauth2', ...insecure }));
    const registered = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(
        as,
        { client_name: 'Native agent', redirect_uris: [options.redirectUri], grant_types: ['authorization_code', 'refresh_token'], token_endpoint_auth_method: 'none' },
        insecure,
      ),
    );
    const client: oauth.Client = { client_id: registered.client_id, token_endpoint_auth_method: 'none' };
    const redirectUri = options.authorizeWith ?? options.redirectUri;
    const verifier = oauth.generateRandomCodeVerifier();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: redirectUri,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      scope: 'mcp',
      state: 'native-state',
      ...(options.resource ? { resource: options.resource } : {}),
    }).toString();
    const callback = await consent(url.href, options.email, redirectUri);
    const params = oauth.validateAuthResponse(as, client, callback, 'native-state');
    let refusedFirst: unknown;
    if (options.firstExchangeResource) {
      const refused = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, {
        ...insecure,
        additionalParameters: { resource: options.firstExchangeResource },
      });
      expect(refused.status).toBe(400);
      refusedFirst = await refused.json();
    }
    const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, {
      ...insecure,
      ...(options.resource ? { additionalParameters: { resource: options.resource } } : {}),
    });
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
    return { client: registered, tokens, refusedFirst };
  }
});
