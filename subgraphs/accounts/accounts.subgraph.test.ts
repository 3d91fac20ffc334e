/**
 * The accounts subgraph through the supergraph gateway of a real platform (PGlite, no corpus):
 * me, keys (create/revoke, scoped to their owner), usage, the limit of an expensive field
 * (one budget with REST), and billable legal-data fields charged through the same usage guard.
 */
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startPlatform, type Platform } from '../../src/platform.js';
import { call, cookieFrom } from '../../test/helpers/http.js';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../../src/app.js';
import { serveSubgraph } from '../../src/graphql/gateway.js';
import { USAGE_RATE_LIMIT } from './accounts.resolver.js';
import { buildAccountsSubgraph } from './index.js';
import { makeTestDataDir } from '../../test/helpers/pglite-template.js';

describe('accounts subgraph through the gateway', () => {
  let platform: Platform;
  let url: string;
  const gql = (query: string, auth?: { key?: string; cookie?: string }, variables?: Record<string, unknown>) =>
    call(`${url}/graphql`, 'POST', { query, variables }, auth);

  async function signedIn(email: string): Promise<string> {
    await call(`${url}/auth/register`, 'POST', { email, password: 'a sturdy passphrase 42', accept_terms: true, acknowledge_privacy: true });
    return cookieFrom((await call(`${url}/auth/login`, 'POST', { email, password: 'a sturdy passphrase 42' })).headers, 'session')!;
  }

  beforeAll(async () => {
    const dataDir = await makeTestDataDir('accounts-subgraph-');
    platform = await startPlatform(loadConfig({ DATA_DIR: dataDir, INGEST_ON_START: 'false', PORT: '0' }), createLogger('silent'));
    url = platform.url!;
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it('answers me, creates, lists and revokes keys, and never touches another account\'s keys', async () => {
    const cookie = await signedIn('gql-owner@example.org');
    const other = await signedIn('gql-other@example.org');
    const me = await gql('{ me { user { email is_admin } plan workspace_role legal_acceptance { accepted } } }', { cookie });
    expect(me.body).toEqual({
      data: { me: { user: { email: 'gql-owner@example.org', is_admin: false }, plan: 'free', workspace_role: 'owner', legal_acceptance: { accepted: true } } },
    });
    const created = await gql('mutation { createKey(name: "dashboard") { id name key key_prefix created_at } }', { cookie });
    const key = created.body.data.createKey;
    expect(key).toMatchObject({ name: 'dashboard', key: expect.stringMatching(/^sk-[0-9A-Za-z]{40}$/) });
    expect((await gql('{ keys { id name last_used_at revoked } }', { cookie })).body.data.keys).toEqual([{ id: key.id, name: 'dashboard', last_used_at: key.created_at, revoked: false }]);
    expect((await gql('{ keys { id } }', { cookie: other })).body.data.keys).toEqual([]);
    const steal = await gql('mutation($id: ID!) { revokeKey(id: $id) { status id } }', { cookie: other }, { id: key.id });
    expect(steal.body.errors[0]).toMatchObject({ message: 'API key not found', extensions: { code: 'NOT_FOUND' } });
    const tooLong = await gql('mutation($n: String) { createKey(name: $n) { id } }', { cookie }, { n: 'x'.repeat(101) });
    expect(tooLong.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', issues: [expect.objectContaining({ loc: ['input', 'name'], type: 'string_too_long' })] });
    expect((await gql('mutation($id: ID!) { revokeKey(id: $id) { status id } }', { cookie }, { id: key.id })).body).toEqual({ data: { revokeKey: { status: 'revoked', id: key.id } } });
    // the same values as GET /v1/keys: the revoked key stays listed
    const rest = await call(`${url}/v1/keys`, 'GET', undefined, { cookie });
    const graph = (await gql('{ keys { id name key_prefix created_at last_used_at revoked } }', { cookie })).body.data.keys;
    expect(graph).toEqual([expect.objectContaining({ id: key.id, revoked: true })]);
    expect(graph).toEqual(rest.body);
  });

  it('tells an unverified account, as REST does, that its new key ends when the address is verified', async () => {
    const cookie = await signedIn('gql-unverified@example.org');
    const rest = await call(`${url}/v1/keys`, 'POST', { name: 'rest' }, { cookie });
    expect(rest.body).toMatchObject({ ends_when_email_verified: true, warning: expect.any(String) });
    const graph = await gql('mutation { createKey(name: "graph") { ends_when_email_verified warning } }', { cookie });
    expect(graph.body).toEqual({ data: { createKey: { ends_when_email_verified: true, warning: rest.body.warning } } });
  });

  it('answers UNAUTHENTICATED without credentials', async () => {
    const res = await gql('{ me { plan } }');
    expect(res.body.errors[0]).toMatchObject({ extensions: { code: 'UNAUTHENTICATED' } });
  });

  it('charges billable legal-data fields to the API key and shows them in usage', async () => {
    const cookie = await signedIn('gql-usage@example.org');
    const key = (await gql('mutation { createKey { key } }', { cookie })).body.data.createKey.key;
    const doc = await gql('{ document(source: "EU/EUR-Lex", sourceId: "none") { id } }', { key });
    expect(doc.body).toEqual({ data: { document: null } });
    const anonymous = await gql('{ document(source: "EU/EUR-Lex", sourceId: "none") { id } }');
    expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const usage = await gql('{ usage { plan requests_today per_minute_limit daily_history { date count } } }', { key });
    expect(usage.body.data.usage).toMatchObject({ plan: 'free', requests_today: 1, per_minute_limit: 10 });
    expect(usage.body.data.usage.daily_history).toHaveLength(31);
  });

  it('limits the expensive usage field per caller, as its @rateLimit documents', async () => {
    const cookie = await signedIn('gql-limit@example.org');
    for (let i = 0; i < USAGE_RATE_LIMIT.limit; i++) {
      const res = await gql('{ usage { plan } }', { cookie });
      expect(res.body.errors).toBeUndefined();
    }
    const limited = await gql('{ usage { plan } }', { cookie });
    expect(limited.body.errors[0]).toMatchObject({
      message: `Too many requests: at most ${USAGE_RATE_LIMIT.limit} usage requests per ${USAGE_RATE_LIMIT.duration} seconds`,
      extensions: { code: 'RATE_LIMITED', retryAfterSeconds: expect.any(Number) },
    });
    // another caller has its own budget
    const other = await signedIn('gql-limit-other@example.org');
    expect((await gql('{ usage { plan } }', { cookie: other })).body.errors).toBeUndefined();
  });

  it('shares the usage budget with REST: the service counts it, whatever the door', async () => {
    const cookie = await signedIn('gql-shared-limit@example.org');
    for (let i = 0; i < USAGE_RATE_LIMIT.limit; i++) expect((await call(`${url}/v1/usage/me`, 'GET', undefined, { cookie })).status).toBe(200);
    const limited = await gql('{ usage { plan } }', { cookie });
    expect(limited.body.errors[0]).toMatchObject({
      message: `Too many requests: at most ${USAGE_RATE_LIMIT.limit} usage requests per ${USAGE_RATE_LIMIT.duration} seconds`,
      extensions: { code: 'RATE_LIMITED', retryAfterSeconds: expect.any(Number) },
    });
  });

  it('forwards the caller\'s credentials to a remote accounts subgraph, which authenticates them again', async () => {
    const cookie = await signedIn('gql-remote@example.org');
    const key = (await gql('mutation { createKey { key } }', { cookie })).body.data.createKey.key;
    const remote = await serveSubgraph(await buildAccountsSubgraph(platform.accounts), { authenticator: platform.accounts.authenticator, contexts: platform.contexts });
    const gateway = await buildApp({
      contexts: platform.contexts,
      services: { legalData: platform.legalData, accounts: platform.accounts },
      logger: createLogger('silent'),
      baseUrl: 'http://127.0.0.1',
      subgraphUrls: { accounts: remote.url },
    });
    const server: Server = gateway.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const gatewayUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
      const query = { query: '{ me { user { email } } }' };
      const viaCookie = await call(gatewayUrl, 'POST', query, { cookie });
      expect(viaCookie.body).toEqual({ data: { me: { user: { email: 'gql-remote@example.org' } } } });
      const viaKey = await call(gatewayUrl, 'POST', query, { key });
      expect(viaKey.body.data.me.user.email).toBe('gql-remote@example.org');
      const anonymous = await call(gatewayUrl, 'POST', query);
      expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await gateway.stop();
      await remote.stop();
    }
  });
});
