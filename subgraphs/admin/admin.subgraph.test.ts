/**
 * The admin subgraph's own rules, through the gateway of a real platform (PGlite; the services'
 * rules on both databases are in src/modules/admin/admin-services.test.ts): only administrators
 * reach it, absent and null arguments take the REST defaults, malformed arguments are
 * BAD_USER_INPUT, and `requests_total` costs one query per page, not one per user (DataLoader).
 */
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startPlatform, type Platform } from '../../src/platform.js';
import { call, cookieFrom } from '../../test/helpers/http.js';
import { makeTestDataDir } from '../../test/helpers/pglite-template.js';
import { countStatements } from '../../test/helpers/test-databases.js';

const ADMIN = 'gql-boss@example.org';

describe('admin subgraph through the gateway (pglite)', () => {
  let platform: Platform;
  let url: string;
  let adminCookie: string;
  let plainCookie: string;
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
    plainCookie = (await signIn('gql-plain@example.org')).cookie;
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
});
