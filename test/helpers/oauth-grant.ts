/**
 * An OAuth grant obtained the way an MCP agent and its user obtain one, over plain HTTP: dynamic
 * registration, /oauth/authorize with PKCE and `resource`, the consent page's password sign-in
 * (POST /auth/password-authorize), the redirect back with the code, the code exchanged at
 * /oauth/token. For tests that need a user's grant without driving the MCP SDK.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Browser, inputValue } from './browser.js';
import { call } from './http.js';

/** The agent's redirect URI: never contacted, the code is read from the redirect to it. */
const REDIRECT_URI = 'http://127.0.0.1:9/oauth/callback';

export interface AuthorizedAgent {
  clientId: string;
  accessToken: string;
  refreshToken: string;
}

/** Registers a client named `clientName` and has `email` authorise it for `${base}/mcp`; its tokens. */
export async function authorizeAgentWithPassword(base: string, email: string, password: string, clientName: string): Promise<AuthorizedAgent> {
  const registered = await call(`${base}/oauth/register`, 'POST', {
    client_name: clientName,
    redirect_uris: [REDIRECT_URI],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  });
  if (registered.status !== 201) throw new Error(`client registration: ${registered.status} ${JSON.stringify(registered.body)}`);
  const clientId = registered.body.client_id as string;
  const { code, verifier } = await authorizationCode(base, { clientId, redirectUri: REDIRECT_URI, email, password });
  const tokens = await tokenRequest(base, {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    redirect_uri: REDIRECT_URI,
    resource: `${base}/mcp`,
    client_id: clientId,
  });
  if (tokens.status !== 200) throw new Error(`token: ${tokens.status} ${JSON.stringify(tokens.body)}`);
  return { clientId, accessToken: tokens.body.access_token, refreshToken: tokens.body.refresh_token };
}

/**
 * The user's half of an authorization for a registered client: /oauth/authorize with PKCE and
 * `resource` = `${base}/mcp`, the consent page's password sign-in, the redirect back; the code
 * and the PKCE verifier the client then exchanges at /oauth/token.
 */
export async function authorizationCode(
  base: string,
  client: { clientId: string; redirectUri: string; email: string; password: string },
): Promise<{ code: string; verifier: string }> {
  const verifier = randomBytes(32).toString('base64url');
  const authorize = new URL(`${base}/oauth/authorize`);
  for (const [k, v] of Object.entries({
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    resource: `${base}/mcp`,
    scope: 'mcp',
    state: 'state-1',
  })) {
    authorize.searchParams.set(k, v);
  }
  const browser = new Browser();
  const { page } = await browser.follow(authorize.href, () => false);
  const mcpFlow = inputValue(page.text, 'mcp_flow');
  if (!mcpFlow) throw new Error(`no consent page: ${page.status} ${page.text.slice(0, 300)}`);
  const answer = await browser.postJson(`${base}/auth/password-authorize`, { email: client.email, password: client.password, mcp_flow: mcpFlow });
  if (answer.status !== 200) throw new Error(`password-authorize: ${answer.status} ${answer.text}`);
  const { stoppedAt } = await browser.follow(JSON.parse(answer.text).redirect_url, (l) => l.href.startsWith(client.redirectUri));
  const code = stoppedAt?.searchParams.get('code');
  if (!code) throw new Error('no authorization code');
  return { code, verifier };
}

/** A form-encoded request to /oauth/token. */
export async function tokenRequest(base: string, fields: Record<string, string>): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, body: await res.json() };
}

/** The status of an MCP `tools/list` call at /mcp with an access token (200 while the grant stands, 401 once it ended). */
export async function mcpStatus(base: string, accessToken: string): Promise<number> {
  const res = await call(`${base}/mcp`, 'POST', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { key: accessToken, headers: { accept: 'application/json, text/event-stream' } });
  return res.status;
}

/** The status of a refresh-token exchange (200 while the grant stands, 400 invalid_grant once it ended). */
export async function refreshStatus(base: string, agent: AuthorizedAgent): Promise<number> {
  return (await tokenRequest(base, { grant_type: 'refresh_token', refresh_token: agent.refreshToken, client_id: agent.clientId })).status;
}
