/**
 * A client generated from /openapi.json works (issue #34 item 8): `openapi-fetch`'s
 * `createClient<paths>` over the committed openapi-typescript types (test/generated/openapi.ts,
 * kept current by test/openapi-types.test.ts) calls every operation of the document, so each call
 * here type-checks against the document under `npm run typecheck`. Every answer must have a
 * status the operation documents, a body valid against that status's schema (ajv, JSON Schema
 * 2020-12, the document's own components), `Retry-After` with a 429 and `WWW-Authenticate` with
 * a 401; the last
 * test fails when an operation of the document was never called. One platform on a slice of the
 * real corpus (embedded PGlite, billing off, development sign-in on).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import createClient, { type Middleware } from 'openapi-fetch';
import type { Platform } from '../src/platform.js';
import { startTestPlatform } from './helpers/platform.js';
import { cookieFrom } from './helpers/http.js';
import type { paths } from './generated/openapi.js';

const PASSWORD = 'a sturdy passphrase 42';
const ADMIN = 'admin-typed-client@example.org';
const SLICE = [{ file: 'legislation/EU-EUR-Lex.jsonl.gz', lines: 5 }];
/** Starting a platform (ingest, GraphQL composition) on a busy 2-core machine can pass jest's default. */
const STARTUP_MS = 600_000;

type Json = Record<string, any>;
interface Answer {
  operation: string;
  status: number;
  /** What was wrong with it against the document (empty: nothing). */
  problems: string[];
}

/**
 * Checks every answer against the document: a documented status, a body valid against its
 * schema, and records the operation (openapi-fetch names the path template: `schemaPath`).
 */
function checkAgainst(doc: Json, answers: Answer[]): Middleware {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ ...doc, $id: 'openapi.json' });
  const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
  return {
    async onResponse({ request, response, schemaPath }) {
      const method = request.method.toLowerCase();
      const operation = `${request.method} ${schemaPath}`;
      const documented = doc.paths[schemaPath]?.[method]?.responses ?? {};
      const problems: string[] = [];
      const declared = documented[String(response.status)];
      if (!declared) problems.push(`status ${response.status} is not documented (${Object.keys(documented).join(', ')})`);
      const schema = declared?.content?.['application/json']?.schema;
      const text = await response.clone().text();
      if (schema && text !== '') {
        const validate = ajv.getSchema(`openapi.json#/${pointer('paths', schemaPath, method, 'responses', String(response.status), 'content', 'application/json', 'schema')}`)!;
        if (!validate(JSON.parse(text))) problems.push(`body: ${ajv.errorsText(validate.errors)} in ${text.slice(0, 300)}`);
      } else if (!schema && text !== '' && response.status !== 302) {
        problems.push(`an undocumented body: ${text.slice(0, 200)}`);
      }
      if (response.status === 429 && !response.headers.has('retry-after')) problems.push('a 429 without Retry-After');
      if (response.status === 401 && !response.headers.has('www-authenticate')) problems.push('a 401 without WWW-Authenticate');
      answers.push({ operation, status: response.status, problems });
      return undefined;
    },
  };
}

describe('a client generated from /openapi.json (openapi-typescript + openapi-fetch)', () => {
  let platform: Platform;
  let doc: Json;
  const answers: Answer[] = [];
  let client: ReturnType<typeof createClient<paths>>;
  let seq = 0;

  beforeAll(async () => {
    platform = await startTestPlatform(SLICE, { ADMIN_EMAILS: ADMIN, DEV_LOGIN: 'true' });
    doc = (await (await fetch(`${platform.url}/openapi.json`)).json()) as Json;
    client = createClient<paths>({ baseUrl: platform.url!, redirect: 'manual' });
    client.use(checkAgainst(doc, answers));
  }, STARTUP_MS);

  afterAll(async () => {
    await platform?.stop();
  });

  /** The answers since `from`, as `[operation, status, problems]` rows (problems empty when it matched the document). */
  const since = (from: number) => answers.slice(from).map((a) => [a.operation, a.status, a.problems]);
  const allMatch = (from: number, statuses: Record<string, number>) =>
    expect(since(from)).toEqual(Object.entries(statuses).map(([operation, status]) => [operation, status, []]));

  /** A new account by the password flow, signed in, with one API key. */
  async function newAccount(): Promise<{ email: string; id: string; cookie: string; key: string; keyId: string }> {
    const email = `typed${++seq}-${Date.now()}@example.org`;
    const registered = await client.POST('/auth/register', { body: { email, password: PASSWORD, accept_terms: true, acknowledge_privacy: true } });
    const login = await client.POST('/auth/login', { body: { email, password: PASSWORD } });
    const cookie = cookieFrom(login.response.headers, 'session')!;
    const created = await client.POST('/v1/keys', { body: { name: 'typed' }, headers: { cookie } });
    return { email, id: registered.data!.id, cookie, key: created.data!.key, keyId: created.data!.id };
  }
  const session = (cookie: string) => ({ headers: { cookie } });
  const bearer = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });

  it('probes, sign-up, sign-in and the account', async () => {
    const from = answers.length;
    expect((await client.GET('/health')).data).toEqual({ status: 'ok' });
    expect((await client.GET('/ready')).data?.status).toBe('ready');
    const account = await newAccount();
    const me = await client.GET('/auth/me', session(account.cookie));
    expect(me.data?.user.email).toBe(account.email);
    // the admin signs in by the development flow
    expect((await client.POST('/auth/dev-login', { body: { email: ADMIN } })).response.status).toBe(200);
    await client.POST('/auth/password-reset/request', { body: { email: account.email } });
    await client.POST('/auth/password-reset/confirm', { body: { token: 'not-a-token', password: PASSWORD } });
    await client.POST('/auth/verify-email/request', session(account.cookie));
    await client.POST('/auth/verify-email/confirm', { body: { token: 'not-a-token' } });
    await client.POST('/auth/verify-email/invite', { ...session(account.cookie), body: { token: 'not-a-token' } });
    await client.POST('/auth/legal-acceptance', { body: { legal_acceptance_token: 'not-a-token', accept_terms: true, acknowledge_privacy: true } });
    await client.POST('/auth/password-authorize', { body: { email: account.email, password: PASSWORD, mcp_flow: 'not-a-flow' } });
    allMatch(from, {
      'GET /health': 200,
      'GET /ready': 200,
      'POST /auth/register': 200,
      'POST /auth/login': 200,
      'POST /v1/keys': 200,
      'GET /auth/me': 200,
      'POST /auth/dev-login': 200,
      'POST /auth/password-reset/request': 200,
      'POST /auth/password-reset/confirm': 400,
      'POST /auth/verify-email/request': 200,
      'POST /auth/verify-email/confirm': 400,
      'POST /auth/verify-email/invite': 404,
      'POST /auth/legal-acceptance': 401,
      'POST /auth/password-authorize': 400,
    });
  });

  it('keys, OAuth grants and usage', async () => {
    const account = await newAccount();
    const from = answers.length;
    const keys = await client.GET('/v1/keys', session(account.cookie));
    expect(keys.data?.map((k) => k.id)).toEqual([account.keyId]);
    const second = await client.POST('/v1/keys', { ...session(account.cookie), body: { name: 'second' } });
    const renamed = await client.PATCH('/v1/keys/{key_id}', { ...session(account.cookie), params: { path: { key_id: second.data!.id } }, body: { name: 'renamed' } });
    expect(renamed.data?.name).toBe('renamed');
    await client.DELETE('/v1/keys/{key_id}', { ...session(account.cookie), params: { path: { key_id: second.data!.id } } });
    await client.GET('/v1/oauth/grants', session(account.cookie));
    await client.DELETE('/v1/oauth/grants/{id}', { ...session(account.cookie), params: { path: { id: 'no-such-client' } } });
    const usage = await client.GET('/v1/usage/me', bearer(account.key));
    expect(usage.data?.plan).toBe('free');
    const breakdown = await client.GET('/v1/usage/breakdown', { ...session(account.cookie), params: { query: { from: '2026-01-01', to: '2026-01-31' } } });
    expect(breakdown.data).toEqual({ from: '2026-01-01', to: '2026-01-31', total: 0, rows: [] });
    allMatch(from, {
      'GET /v1/keys': 200,
      'POST /v1/keys': 200,
      'PATCH /v1/keys/{key_id}': 200,
      'DELETE /v1/keys/{key_id}': 200,
      'GET /v1/oauth/grants': 200,
      'DELETE /v1/oauth/grants/{id}': 404,
      'GET /v1/usage/me': 200,
      'GET /v1/usage/breakdown': 200,
    });
  });

  it('search, documents, resolve, discovery, statistics and the manifest', async () => {
    const { key } = await newAccount();
    const from = answers.length;
    const search = await client.POST('/v1/search', { ...bearer(key), body: { q: 'directive', namespace: 'legislation', top_k: 3 } });
    expect(search.data!.hits.length).toBeGreaterThan(0);
    expect(search.response.headers.get('ratelimit')).toMatch(/^"minute";r=\d+;t=\d+$/);
    const hit = search.data!.hits[0]!;
    const [country, sourceName] = hit.source.split('/') as [string, string];
    const document = await client.GET('/v1/documents/{country}/{source_name}/{source_id}', { ...bearer(key), params: { path: { country, source_name: sourceName, source_id: hit.source_id } } });
    expect(document.data?.source_id).toBe(hit.source_id);
    const etag = document.response.headers.get('etag')!;
    const byQuery = await client.GET('/v1/documents/{country}/{source_name}', {
      headers: { authorization: `Bearer ${key}`, 'if-none-match': etag, 'accept-encoding': 'identity' },
      params: { path: { country, source_name: sourceName }, query: { source_id: hit.source_id } },
    });
    expect(byQuery.response.status).toBe(304);
    const path = { country, source_name: sourceName, source_id: hit.source_id };
    const citedBy = await client.GET('/v1/documents/{country}/{source_name}/{source_id}/cited-by', { ...bearer(key), params: { path, query: { sort: 'court_tier', limit: 5 } } });
    expect(citedBy.data?.cited_by_count).toBe(document.data?.cited_by_count);
    await client.GET('/v1/documents/{country}/{source_name}/{source_id}/cites', { ...bearer(key), params: { path } });
    await client.POST('/v1/resolve', { ...bearer(key), body: { reference: 'Directive 85/374/EEC' } });
    await client.GET('/v1/resolve/coverage', bearer(key));
    await client.GET('/v1/discover/countries');
    await client.GET('/v1/discover/countries/{country_code}/sources', { params: { path: { country_code: country }, query: { include_empty: true } } });
    await client.GET('/v1/discover/sources/{source}/filters', { params: { path: { source: hit.source }, query: { namespace: 'legislation' } } });
    await client.GET('/v1/discover/courts', { params: { query: { country } } });
    await client.GET('/v1/stats');
    await client.GET('/v1/manifest');
    allMatch(from, {
      'POST /v1/search': 200,
      'GET /v1/documents/{country}/{source_name}/{source_id}': 200,
      'GET /v1/documents/{country}/{source_name}': 304,
      'GET /v1/documents/{country}/{source_name}/{source_id}/cited-by': 200,
      'GET /v1/documents/{country}/{source_name}/{source_id}/cites': 200,
      'POST /v1/resolve': 200,
      'GET /v1/resolve/coverage': 200,
      'GET /v1/discover/countries': 200,
      'GET /v1/discover/countries/{country_code}/sources': 200,
      'GET /v1/discover/sources/{source}/filters': 200,
      'GET /v1/discover/courts': 200,
      'GET /v1/stats': 200,
      'GET /v1/manifest': 200,
    });
    // contributor credits come from the corpus, which this slice does not carry: 200 or 503, both documented
    const contributors = await client.GET('/v1/contributors');
    expect([200, 503]).toContain(contributors.response.status);
    expect(answers.at(-1)!.problems).toEqual([]);
  });

  it('sign-in with an identity provider this server does not configure', async () => {
    const from = answers.length;
    for (const provider of ['github', 'google', 'microsoft'] as const) {
      await client.GET(`/auth/${provider}`);
      await client.GET(`/auth/${provider}/callback`, { params: { query: { code: 'c', state: 's' } } });
    }
    expect(since(from).filter(([, , problems]) => (problems as string[]).length > 0)).toEqual([]);
    expect(since(from).length).toBe(6);
  });

  it('billing, with billing off: what needs Stripe answers 503, the rest answers', async () => {
    const { cookie } = await newAccount();
    const as = session(cookie);
    const from = answers.length;
    const plans = await client.GET('/v1/billing/plans', { params: { query: { audience: 'developer' } } });
    expect(plans.data).toBeDefined();
    await client.POST('/v1/billing/audience', { ...as, body: { audience: 'developer' } });
    await client.GET('/v1/billing/promo', { ...as, params: { query: { code: 'WELCOME' } } });
    await client.POST('/v1/billing/checkout', { ...as, body: { plan: 'developer_pro', interval: 'monthly', legal_accepted: true } });
    await client.POST('/v1/billing/checkout/verify', { ...as, body: { session_id: 'cs_test_none' } });
    await client.POST('/v1/billing/credit-topups/checkout', { ...as, body: { amount_usd: 20 } });
    await client.GET('/v1/billing/credit-topups/auto', as);
    await client.PUT('/v1/billing/credit-topups/auto', { ...as, body: { enabled: false } });
    await client.GET('/v1/billing/portal', as);
    await client.POST('/v1/billing/portal', as);
    await client.GET('/v1/billing/status', as);
    // billing off: no customer can exist, so no invoices (and no call to Stripe)
    expect((await client.GET('/v1/billing/invoices', as)).data).toEqual({ invoices: [], has_more: false });
    await client.POST('/v1/billing/webhooks', { body: {} as never, headers: { 'stripe-signature': 't=1,v1=none' } });
    allMatch(from, {
      'GET /v1/billing/plans': 200,
      'POST /v1/billing/audience': 200,
      'GET /v1/billing/promo': 503,
      'POST /v1/billing/checkout': 503,
      'POST /v1/billing/checkout/verify': 503,
      'POST /v1/billing/credit-topups/checkout': 503,
      'GET /v1/billing/credit-topups/auto': 200,
      'PUT /v1/billing/credit-topups/auto': 503,
      'GET /v1/billing/portal': 503,
      'POST /v1/billing/portal': 503,
      'GET /v1/billing/status': 200,
      'GET /v1/billing/invoices': 200,
      'POST /v1/billing/webhooks': 503,
    });
  });

  it('teams, as an account without a team', async () => {
    const { cookie } = await newAccount();
    const as = session(cookie);
    const from = answers.length;
    await client.GET('/v1/team', as);
    await client.POST('/v1/team/invites', { ...as, body: { emails: ['colleague@example.org'] } });
    await client.DELETE('/v1/team/invites/{invite_id}', { ...as, params: { path: { invite_id: 'none' } } });
    await client.POST('/v1/team/join-link', as);
    await client.DELETE('/v1/team/join-link', as);
    await client.POST('/v1/team/join', { ...as, body: { token: 'not-a-token' } });
    await client.PUT('/v1/team/domains', { ...as, body: { domains: ['example.org'] } });
    await client.POST('/v1/team/domains/{domain}/check', { ...as, params: { path: { domain: 'example.org' } } });
    await client.PATCH('/v1/team/members/{member_user_id}', { ...as, params: { path: { member_user_id: 'none' } }, body: { role: 'member' } });
    await client.DELETE('/v1/team/members/{member_user_id}', { ...as, params: { path: { member_user_id: 'none' } } });
    await client.POST('/v1/team/seats', { ...as, body: { quantity: 5 } });
    expect(since(from).filter(([, , problems]) => (problems as string[]).length > 0)).toEqual([]);
    expect(since(from).length).toBe(11);
  });

  it('administration, as the administrator', async () => {
    const login = await client.POST('/auth/dev-login', { body: { email: ADMIN } });
    const as = session(cookieFrom(login.response.headers, 'session')!);
    const target = await newAccount();
    const from = answers.length;
    await client.GET('/v1/admin/stats', as);
    const users = await client.GET('/v1/admin/users', { ...as, params: { query: { limit: 5, search: target.email } } });
    expect(users.data?.users.map((u) => u.email)).toEqual([target.email]);
    await client.GET('/v1/admin/users/{user_id}/endpoints', { ...as, params: { path: { user_id: target.id } } });
    await client.PATCH('/v1/admin/users/{user_id}', { ...as, params: { path: { user_id: target.id } }, body: { plan: 'professional', reason: 'typed client test' } });
    await client.GET('/v1/admin/feedback', { ...as, params: { query: { limit: 5 } } });
    const report = '00000000-0000-4000-8000-000000000000';
    await client.PATCH('/v1/admin/feedback/{report_id}', { ...as, params: { path: { report_id: report } }, body: { status: 'dismissed' } });
    await client.POST('/v1/admin/feedback/{report_id}/mark-forwarded', { ...as, params: { path: { report_id: report } }, body: { url: 'https://example.org/issue/1' } });
    await client.GET('/v1/admin/audit', { ...as, params: { query: { limit: 5 } } });
    const partner = await client.PUT('/v1/admin/users/{user_id}/partner', { ...as, params: { path: { user_id: target.id } }, body: { sources: ['DE/BGH'], countries: ['DE'], reason: 'typed client test' } });
    expect(partner.data?.sources).toEqual(['DE/BGH']);
    const read = await client.GET('/v1/admin/users/{user_id}/partner', { ...as, params: { path: { user_id: target.id } } });
    expect(read.data).toEqual(partner.data);
    await client.DELETE('/v1/admin/users/{user_id}/partner', { ...as, params: { path: { user_id: target.id } }, body: { reason: 'typed client test' } });
    await client.DELETE('/v1/admin/users/{user_id}', { ...as, params: { path: { user_id: target.id } }, body: { reason: 'typed client test' } });
    allMatch(from, {
      'GET /v1/admin/stats': 200,
      'GET /v1/admin/users': 200,
      'GET /v1/admin/users/{user_id}/endpoints': 200,
      'PATCH /v1/admin/users/{user_id}': 200,
      'GET /v1/admin/feedback': 200,
      'PATCH /v1/admin/feedback/{report_id}': 404,
      'POST /v1/admin/feedback/{report_id}/mark-forwarded': 404,
      'GET /v1/admin/audit': 200,
      'PUT /v1/admin/users/{user_id}/partner': 200,
      'GET /v1/admin/users/{user_id}/partner': 200,
      'DELETE /v1/admin/users/{user_id}/partner': 200,
      'DELETE /v1/admin/users/{user_id}': 200,
    });
  });

  it('answers 429 with Retry-After to GET /v1/usage/me and POST /v1/keys past their per-account budgets, as documented', async () => {
    const { cookie, key } = await newAccount();
    const from = answers.length;
    // 30 usage reads and 20 key creations a minute (src/modules/usage/throttle.ts; newAccount created one key)
    let usage;
    for (let i = 0; i < 31 && usage?.response.status !== 429; i++) usage = await client.GET('/v1/usage/me', bearer(key));
    expect(usage!.response.status).toBe(429);
    expect(Number(usage!.response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    let created;
    for (let i = 0; i < 20 && created?.response.status !== 429; i++) created = await client.POST('/v1/keys', { ...session(cookie), body: { name: `k${i}` } });
    expect(created!.response.status).toBe(429);
    expect(created!.error?.detail).toMatch(/create_key/);
    expect(Number(created!.response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(since(from).filter(([, , problems]) => (problems as string[]).length > 0)).toEqual([]);
  });

  it('signs out and deletes the account', async () => {
    const { cookie } = await newAccount();
    const other = await newAccount();
    const from = answers.length;
    await client.DELETE('/auth/me', { ...session(other.cookie), body: { confirmation: 'DELETE' } });
    await client.POST('/auth/logout', session(cookie));
    allMatch(from, { 'DELETE /auth/me': 200, 'POST /auth/logout': 200 });
  });

  it('called every operation of the document, each answer as documented', () => {
    const documented = Object.entries<Json>(doc.paths).flatMap(([p, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${p}`));
    const called = new Set(answers.map((a) => a.operation));
    expect(documented.filter((operation) => !called.has(operation))).toEqual([]);
    expect(answers.filter((a) => a.problems.length > 0)).toEqual([]);
  });
});
