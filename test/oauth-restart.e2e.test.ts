/**
 * The authorization server's state lives in the database: a service restarted on the same
 * PostgreSQL database (another process, a fresh DATA_DIR, the same BASE_URL and SESSION_SECRET,
 * as behind a load balancer) keeps the registered clients, the signing key, the grants and even
 * an authorization a user is in the middle of. Real PostgreSQL, real HTTP, the official SDK.
 */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { loadConfig } from '../src/config.js';
import { openTestDatabase, type TestDatabase } from './helpers/test-databases.js';
import { createLogger } from '../src/logger.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { Browser, inputValue } from './helpers/browser.js';
import { call, freePort } from './helpers/http.js';
import { jwtClaims, MemoryOAuthClient } from './helpers/oauth-client.js';

const PASSWORD = 'correct horse battery staple 42';
const EMAIL = 'restart-user@example.org';
const REDIRECT_URI = 'http://127.0.0.1:9/oauth/callback';
const SESSION_SECRET = 'restart-test-secret-0123456789-abcdefghij';

describe('authorization server across a restart on the same PostgreSQL database', () => {
  let db: TestDatabase;
  let port: number;
  let base: string;
  let platform: Platform | null = null;

  const start = async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'oauth-restart-'));
    const config = loadConfig({
      DATA_DIR: dataDir,
      DATABASE_URL: String(db.orm.config.get('clientUrl')),
      INGEST_ON_START: 'false',
      EMBEDDER: 'none',
      PORT: String(port),
      BASE_URL: base,
      SESSION_SECRET,
    });
    platform = await startPlatform(config, createLogger('silent'));
  };
  const stop = async () => {
    await platform?.stop();
    platform = null;
  };
  const toolsList = (token: string) =>
    call(`${base}/mcp`, 'POST', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { key: token, headers: { accept: 'application/json, text/event-stream' } });
  /** Opens the consent page of an authorization URL in `browser`; answers its mcp_flow. */
  const openConsent = async (browser: Browser, url: string) => {
    const { page } = await browser.follow(url, () => false);
    expect(page.status).toBe(200);
    return inputValue(page.text, 'mcp_flow')!;
  };
  /** Signs in on an open consent page and follows the redirects back to the client; answers the code. */
  const approve = async (browser: Browser, mcpFlow: string) => {
    const answer = await browser.postJson(`${base}/auth/password-authorize`, { email: EMAIL, password: PASSWORD, mcp_flow: mcpFlow });
    expect(answer.status).toBe(200);
    const { stoppedAt } = await browser.follow(JSON.parse(answer.text).redirect_url, (l) => l.href.startsWith(REDIRECT_URI));
    return stoppedAt!.searchParams.get('code')!;
  };

  beforeAll(async () => {
    db = await openTestDatabase('postgresql');
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    await stop();
    await db?.dispose();
  });

  it('keeps clients, signing key, grants and pending authorizations', async () => {
    // First process: an agent registers, the user authorizes it, it gets tokens.
    await start();
    expect((await call(`${base}/auth/register`, 'POST', { email: EMAIL, password: PASSWORD, accept_terms: true, acknowledge_privacy: true })).status).toBe(200);
    const agent = new MemoryOAuthClient({ redirectUrl: REDIRECT_URI, clientName: 'Restart agent' });
    const endpoint = new URL(`${base}/mcp`);
    const first = new StreamableHTTPClientTransport(endpoint, { authProvider: agent });
    await expect(new Client({ name: 'agent', version: '1' }).connect(first)).rejects.toThrow(/Unauthorized/i);
    const browser = new Browser();
    await first.finishAuth(await approve(browser, await openConsent(browser, agent.authorizationUrl!.href)));
    const issuedBefore = agent.tokens()!;
    const clientId = agent.clientInformation()!.client_id;
    expect((await toolsList(issuedBefore.access_token)).status).toBe(200);
    const jwksBefore = (await call(`${base}/oauth/jwks`, 'GET')).body;
    // ...and a user starts another authorization of the same client, not finished before the restart.
    const pendingBrowser = new Browser();
    agent.authorizationUrl = null;
    agent.saveTokens({ access_token: 'expired', token_type: 'Bearer' }); // no refresh token: the SDK authorizes anew
    const again = new StreamableHTTPClientTransport(endpoint, { authProvider: agent });
    await expect(new Client({ name: 'agent', version: '1' }).connect(again)).rejects.toThrow(/Unauthorized/i);
    const pendingFlow = await openConsent(pendingBrowser, agent.authorizationUrl!.href);

    // Restart: another process on the same database.
    await stop();
    await start();

    expect((await call(`${base}/oauth/jwks`, 'GET')).body).toEqual(jwksBefore);
    // a token issued before the restart still verifies
    const before = await toolsList(issuedBefore.access_token);
    expect(before.status).toBe(200);
    expect(before.body.result.tools.length).toBeGreaterThan(0);
    // the pending authorization finishes on the new process, for the client registered on the old one
    await again.finishAuth(await approve(pendingBrowser, pendingFlow));
    expect(jwtClaims(agent.tokens()!.access_token)).toMatchObject({ client_id: clientId, aud: `${base}/mcp` });
    const client = new Client({ name: 'agent', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(endpoint, { authProvider: agent }));
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
    // the refresh token of the first grant still works, and rotates
    const refreshed = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: issuedBefore.refresh_token!, client_id: clientId }).toString(),
    });
    expect(refreshed.status).toBe(200);
    const rotated = (await refreshed.json()) as { access_token: string; refresh_token: string };
    expect(rotated.refresh_token).not.toBe(issuedBefore.refresh_token);
    expect((await toolsList(rotated.access_token)).status).toBe(200);
  });
});
