/**
 * The operation limits of renaming a key (REST and GraphQL, one budget), of proving an address
 * with an invite (POST /auth/verify-email/invite) and of the invite page's anonymous preview
 * (Query.teamInvite, counted per client IP), over real HTTP against a running platform: past the
 * limit REST answers 429 with Retry-After and GraphQL RATE_LIMITED with retryAfterSeconds, as the
 * other limited operations do. Refused calls count too (the check comes first), so bogus tokens
 * spend the budget as well as good ones. The counters do not depend on the database: embedded
 * PGlite only.
 */
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { OPERATION_LIMITS } from '../src/modules/usage/operation-limits.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { call, cookieFrom } from './helpers/http.js';
import { makeTestDataDir } from './helpers/pglite-template.js';

describe('limits of key renaming, invite proof and invite preview (real HTTP)', () => {
  let platform: Platform;
  let url: string;
  let seq = 0;
  const api = (method: string, route: string, body?: unknown, auth?: { cookie?: string }) => call(`${url}${route}`, method, body, auth);
  const graphql = (query: string, variables: Record<string, unknown>, auth?: { cookie?: string }) => api('POST', '/graphql', { query, variables }, auth);

  async function signedIn(prefix: string): Promise<string> {
    const res = await api('POST', '/auth/dev-login', { email: `${prefix}${++seq}@example.org` });
    expect(res.status).toBe(200);
    return cookieFrom(res.headers, 'session')!;
  }

  function expectRetryAfter(seconds: number, window: number): void {
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(window + 1);
  }

  beforeAll(async () => {
    const dataDir = await makeTestDataDir('key-invite-limits-');
    platform = await startPlatform(loadConfig({ DATA_DIR: dataDir, PORT: '0', EMBEDDER: 'none', INGEST_ON_START: 'false', DEV_LOGIN: 'true' }), createLogger('silent'));
    url = platform.url!;
  }, 120_000);

  afterAll(async () => {
    await platform?.stop();
  });

  it('limits renaming keys per account, REST and GraphQL sharing one budget', async () => {
    const cookie = await signedIn('rename');
    const key = (await api('POST', '/v1/keys', { name: 'first' }, { cookie })).body;
    const { limit, durationSeconds } = OPERATION_LIMITS.rename_key;
    const rename = 'mutation Rename($id: ID!, $name: String!) { renameKey(id: $id, name: $name) { id name } }';
    for (let i = 0; i < limit; i++) {
      if (i % 2) expect((await api('PATCH', `/v1/keys/${key.id}`, { name: `rest ${i}` }, { cookie })).status).toBe(200);
      else expect((await graphql(rename, { id: key.id, name: `graphql ${i}` }, { cookie })).body.data.renameKey.name).toBe(`graphql ${i}`);
    }
    const refused = await api('PATCH', `/v1/keys/${key.id}`, { name: 'one too many' }, { cookie });
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toBe(`Too many requests: at most ${limit} rename_key requests per ${durationSeconds} seconds`);
    expectRetryAfter(Number(refused.headers.get('retry-after')), durationSeconds);
    const refusedGraphql = await graphql(rename, { id: key.id, name: 'one too many' }, { cookie });
    expect(refusedGraphql.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    expectRetryAfter(refusedGraphql.body.errors[0].extensions.retryAfterSeconds, durationSeconds);
    // nothing was renamed by the refused calls, and another account has a budget of its own
    expect((await api('GET', '/v1/keys', undefined, { cookie })).body[0].name).toBe(`rest ${limit - 1}`);
    const other = await signedIn('rename-other');
    const otherKey = (await api('POST', '/v1/keys', {}, { cookie: other })).body;
    expect((await api('PATCH', `/v1/keys/${otherKey.id}`, { name: 'mine' }, { cookie: other })).status).toBe(200);
  });

  it('limits proving an address with an invite per account, bad tokens included', async () => {
    const cookie = await signedIn('prove');
    const { limit, durationSeconds } = OPERATION_LIMITS.verify_email_invite;
    for (let i = 0; i < limit; i++) expect((await api('POST', '/auth/verify-email/invite', { token: `no-such-invite-${i}` }, { cookie })).status).toBe(404);
    const refused = await api('POST', '/auth/verify-email/invite', { token: 'no-such-invite' }, { cookie });
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toBe(`Too many requests: at most ${limit} verify_email_invite requests per ${durationSeconds} seconds`);
    expectRetryAfter(Number(refused.headers.get('retry-after')), durationSeconds);
    const other = await signedIn('prove-other');
    expect((await api('POST', '/auth/verify-email/invite', { token: 'no-such-invite' }, { cookie: other })).status).toBe(404);
  });

  it("limits the anonymous invite preview per client IP; a signed-in caller's budget is its account's", async () => {
    const { limit, durationSeconds } = OPERATION_LIMITS.team_invite_preview;
    const preview = 'query Preview($token: String!) { teamInvite(token: $token) { kind team_name } }';
    for (let i = 0; i < limit; i++) expect((await graphql(preview, { token: `unknown-${i}` })).body.errors[0].extensions.code).toBe('NOT_FOUND');
    const refused = await graphql(preview, { token: 'unknown' });
    expect(refused.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    expectRetryAfter(refused.body.errors[0].extensions.retryAfterSeconds, durationSeconds);
    const cookie = await signedIn('preview');
    expect((await graphql(preview, { token: 'unknown' }, { cookie })).body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});
