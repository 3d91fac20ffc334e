/**
 * The admin subgraph's own rules, through the gateway of a real platform (PGlite; the services'
 * rules on both databases are in src/modules/admin/admin-services.test.ts): only administrators
 * reach it, absent and null arguments take the REST defaults, malformed arguments are
 * BAD_USER_INPUT, `requests_total` costs one query per page, not one per user (DataLoader), and
 * partners (issue #35): the REST partner endpoints (422, 403, 404, the audit row) and the analytics
 * fields a partner may and may not read; reading a scope back (`partnerScope`, `adminPartner`,
 * `GET /v1/admin/users/{user_id}/partner`).
 */
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startPlatform, type Platform } from '../../src/platform.js';
import { call, cookieFrom } from '../../test/helpers/http.js';
import { makeTestDataDir } from '../../test/helpers/pglite-template.js';
import { countStatements } from '../../test/helpers/test-databases.js';
import { ANALYTICS_QUERY_LIMIT } from '../../src/modules/usage/operation-limits.js';

const ADMIN = 'gql-boss@example.org';

describe('admin subgraph through the gateway (pglite)', () => {
  let platform: Platform;
  let url: string;
  let adminCookie: string;
  let plainCookie: string;
  let plainId: string;
  const gql = (query: string, cookie?: string) => call(`${url}/graphql`, 'POST', { query }, cookie ? { cookie } : undefined);

  async function signIn(email: string): Promise<{ id: string; cookie: string }> {
    const res = await call(`${url}/auth/dev-login`, 'POST', { email });
    return { id: res.body.id, cookie: cookieFrom(res.headers, 'session')! };
  }

  /** The SQL statements the platform's connection executed while `work` ran. */
  const statementsOf = (work: () => Promise<unknown>) => countStatements(platform.orm, work);

  beforeAll(async () => {
    const dataDir = await makeTestDataDir('admin-subgraph-');
    platform = await startPlatform(
      loadConfig({ DATA_DIR: dataDir, INGEST_ON_START: 'false', PORT: '0', EMBEDDER: 'none', DEV_LOGIN: 'true', ADMIN_EMAILS: ADMIN }),
      createLogger('silent'),
    );
    url = platform.url!;
    const admin = await signIn(ADMIN);
    // verifying the address over HTTP is proven in test/accounts.e2e.test.ts; here it is arranged
    await platform.orm.em.fork().getConnection().execute('update app_user set email_verified = true where id = ?', [admin.id]);
    adminCookie = (await signIn(ADMIN)).cookie;
    ({ cookie: plainCookie, id: plainId } = await signIn('gql-plain@example.org'));
    for (let i = 0; i < 4; i++) await signIn(`gql-user${i}@example.org`);
  }, 300_000);
  afterAll(async () => {
    await platform?.stop();
  });

  it('answers UNAUTHENTICATED without credentials and FORBIDDEN to an account that is not an administrator', async () => {
    expect((await gql('{ adminStats { total_users } }')).body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect((await gql('{ adminStats { total_users } }', plainCookie)).body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await gql('mutation { adminSetPlanOverride(userId: "00000000-0000-4000-8000-000000000000", plan: free) { plan } }', plainCookie)).body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await gql('{ adminStats { total_users } }', adminCookie)).body.data.adminStats.total_users).toBeGreaterThanOrEqual(6);
  });

  it('gives absent and null arguments the REST defaults, and malformed ones BAD_USER_INPUT', async () => {
    const rest = await call(`${url}/v1/admin/users`, 'GET', undefined, { cookie: adminCookie });
    expect(rest.status).toBe(200);
    const absent = (await gql('{ adminUsers { total limit offset sort } }', adminCookie)).body.data.adminUsers;
    const nulls = (await gql('{ adminUsers(limit: null, offset: null, sort: null, search: null) { total limit offset sort } }', adminCookie)).body.data.adminUsers;
    const expected = { total: rest.body.total, limit: rest.body.limit, offset: rest.body.offset, sort: rest.body.sort };
    expect(absent).toEqual(expected);
    expect(nulls).toEqual(expected);
    expect((await gql('{ adminUsers(limit: 0) { total } }', adminCookie)).body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect((await gql('{ adminUserEndpoints(userId: "not-a-uuid") { user_id } }', adminCookie)).body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it("resolves a page's request totals in one query, whatever the page size", async () => {
    const page = (limit: number) => gql(`{ adminUsers(limit: ${limit}, sort: email) { users { id requests_total } } }`, adminCookie);
    const one = await statementsOf(() => page(1));
    const five = await statementsOf(async () => {
      const res = await page(5);
      expect(res.body.data.adminUsers.users).toHaveLength(5);
      expect(res.body.data.adminUsers.users.every((u: { requests_total: number }) => Number.isInteger(u.requests_total))).toBe(true);
    });
    expect(five).toBe(one);
  });

  it('makes an account a partner over REST (validated, audited) and lets it read its scope only, through GraphQL', async () => {
    const partner = await signIn('gql-partner@example.org');
    const put = (id: string, body: unknown, cookie = adminCookie) => call(`${url}/v1/admin/users/${id}/partner`, 'PUT', body, { cookie });
    const scoped = `{ sourceUsage(sources: ["DE/BGH"], from: "2026-01-01", to: "2026-01-07", granularity: WEEK) { periods { source periodStart searches { value suppressed } } } }`;
    expect((await gql(scoped, partner.cookie)).body.errors[0].extensions.code).toBe('FORBIDDEN'); // not a partner yet

    const empty = await put(partner.id, { sources: [], countries: [] });
    expect(empty.status).toBe(422);
    expect(empty.body.detail[0]).toMatchObject({ loc: ['body', 'sources'], msg: expect.stringMatching(/at least one source or country/) });
    expect((await put('not-a-uuid', { sources: ['DE/BGH'] })).body.detail[0].loc).toEqual(['path', 'user_id']);
    expect((await put(partner.id, { sources: ['DE/BGH'] }, plainCookie)).status).toBe(403);
    expect((await put('00000000-0000-4000-8000-000000000000', { sources: ['DE/BGH'] })).status).toBe(404);
    const made = await put(partner.id, { sources: ['DE/BGH', 'DE/BGH'], countries: ['DE'], reason: 'court partnership' });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ user_id: partner.id, sources: ['DE/BGH'], countries: ['DE'] });
    const audit = await call(`${url}/v1/admin/audit?action=user.partner_scope&target_id=${partner.id}`, 'GET', undefined, { cookie: adminCookie });
    expect(audit.body.items).toEqual([expect.objectContaining({ action: 'user.partner_scope', before: null, after: { sources: ['DE/BGH'], countries: ['DE'] }, reason: 'court partnership' })]);

    const weeks = (await gql(scoped, partner.cookie)).body.data.sourceUsage.periods;
    expect(weeks).toEqual([
      { source: 'DE/BGH', periodStart: '2026-01-01', searches: { value: 0, suppressed: false } },
      { source: 'DE/BGH', periodStart: '2026-01-05', searches: { value: 0, suppressed: false } },
    ]);
    const outside = await gql(`{ sourceUsage(sources: ["FR/CASS"], from: "2026-01-01", to: "2026-01-07") { periods { source } } }`, partner.cookie);
    expect(outside.body.errors[0]).toMatchObject({ extensions: { code: 'FORBIDDEN' }, message: expect.stringMatching(/source FR\/CASS/) });
    expect((await gql(`{ countryUsage(countries: ["DE"], from: "2025-01-01", to: "2026-02-05") { from } }`, partner.cookie)).body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect((await gql(`{ sourceUsage(sources: ["DE/BGH"], from: "2026-01-01", to: "2026-01-07", granularity: YEAR) { from } }`, partner.cookie)).body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect((await gql(scoped, plainCookie)).body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await gql(scoped)).body.errors[0].extensions.code).toBe('UNAUTHENTICATED');

    // the admin mutations do the same; removing ends the partner's access
    const changed = await gql(`mutation { adminSetPartner(userId: "${plainId}", countries: ["FR"]) { user_id sources countries } }`, adminCookie);
    expect(changed.body.data.adminSetPartner).toEqual({ user_id: plainId, sources: [], countries: ['FR'] });
    expect((await gql(`mutation { adminRemovePartner(userId: "${plainId}") { removed } }`, adminCookie)).body.data.adminRemovePartner).toEqual({ removed: true });
    const removed = await call(`${url}/v1/admin/users/${partner.id}/partner`, 'DELETE', undefined, { cookie: adminCookie });
    expect(removed.body).toEqual({ user_id: partner.id, removed: true });
    expect((await call(`${url}/v1/admin/users/${partner.id}/partner`, 'DELETE', undefined, { cookie: adminCookie })).status).toBe(404);
    expect((await gql(scoped, partner.cookie)).body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it("reads a scope back: the caller's own (uncounted, null for a non-partner) and, for administrators, anyone's", async () => {
    const partner = await signIn('gql-scope-reader@example.org');
    const own = '{ partnerScope { user_id sources countries updated_at } }';
    const byAdmin = (id: string, cookie = adminCookie) => gql(`{ adminPartner(userId: "${id}") { user_id sources countries updated_at } }`, cookie);
    const getRest = (id: string, cookie = adminCookie) => call(`${url}/v1/admin/users/${id}/partner`, 'GET', undefined, { cookie });

    // not a partner yet: null through GraphQL, 404 over REST
    expect((await gql(own, partner.cookie)).body).toEqual({ data: { partnerScope: null } });
    expect((await byAdmin(partner.id)).body).toEqual({ data: { adminPartner: null } });
    expect((await getRest(partner.id)).status).toBe(404);
    expect((await getRest('00000000-0000-4000-8000-000000000000')).status).toBe(404); // unknown user

    const made = await call(`${url}/v1/admin/users/${partner.id}/partner`, 'PUT', { sources: ['DE/BGH'], countries: ['DE'] }, { cookie: adminCookie });
    expect(made.status).toBe(200);
    const rest = await getRest(partner.id);
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual(made.body); // the same body as PUT's answer
    expect((await byAdmin(partner.id)).body.data.adminPartner).toEqual(made.body);
    expect((await gql(own, partner.cookie)).body.data.partnerScope).toEqual(made.body);
    // an administrator who is no partner reads null for itself
    expect((await gql(own, adminCookie)).body.data.partnerScope).toBeNull();

    // who may ask
    expect((await gql(own)).body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect((await byAdmin(partner.id, partner.cookie)).body.errors[0].extensions.code).toBe('FORBIDDEN'); // a partner is no administrator
    expect((await byAdmin(partner.id, plainCookie)).body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await getRest(partner.id, plainCookie)).status).toBe(403);
    expect((await call(`${url}/v1/admin/users/${partner.id}/partner`, 'GET')).status).toBe(401);
    const malformed = await byAdmin('not-a-uuid');
    expect(malformed.body.errors[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
    expect((await getRest('not-a-uuid')).body.detail[0].loc).toEqual(['path', 'user_id']);

    // the own scope is not counted: more reads than an analytics query's budget, all answered
    for (let i = 0; i <= ANALYTICS_QUERY_LIMIT.limit; i++) {
      expect((await gql(own, partner.cookie)).body.data.partnerScope.user_id).toBe(partner.id);
    }

    const removed = await call(`${url}/v1/admin/users/${partner.id}/partner`, 'DELETE', undefined, { cookie: adminCookie });
    expect(removed.status).toBe(200);
    expect((await gql(own, partner.cookie)).body.data.partnerScope).toBeNull();
    expect((await getRest(partner.id)).status).toBe(404);
  });
});
