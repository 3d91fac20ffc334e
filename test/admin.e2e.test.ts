/**
 * The administration area over HTTP on real PostgreSQL: the access matrix of every
 * /v1/admin/* endpoint, the audit log, the user listing (every 422 bound, wildcards taken
 * literally, the sorts), a user's endpoints, and the statistics.
 */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { call, cookieFrom } from './helpers/http.js';
import { openTestDatabase, type TestDatabase } from './helpers/test-databases.js';

const PASSWORD = 'a sturdy passphrase 42';
const ADMIN = 'boss@example.org';

describe('administration (PostgreSQL)', () => {
  let platform: Platform;
  let db: TestDatabase;
  let url: string;
  let seq = 0;
  const api = (method: string, route: string, body?: unknown, auth?: { key?: string; cookie?: string }) => call(`${url}${route}`, method, body, auth);
  const sql = (query: string, params: unknown[] = []) => platform.orm.em.fork().getConnection().execute(query, params) as Promise<any[]>;

  async function newAccount(email = `user${++seq}@example.org`, name?: string): Promise<{ id: string; email: string; cookie: string; key: string }> {
    const reg = await api('POST', '/auth/register', { email, password: PASSWORD, accept_terms: true, acknowledge_privacy: true, ...(name ? { name } : {}) });
    expect(reg.status).toBe(200);
    if (name) await sql('update app_user set name = ? where id = ?', [name, reg.body.id]);
    const login = await api('POST', '/auth/login', { email, password: PASSWORD });
    const cookie = cookieFrom(login.headers, 'session')!;
    const key = await api('POST', '/v1/keys', { name: 'k' }, { cookie });
    return { id: reg.body.id, email, cookie, key: key.body.key };
  }

  let admin: Awaited<ReturnType<typeof newAccount>>;
  let plain: Awaited<ReturnType<typeof newAccount>>;

  beforeAll(async () => {
    db = await openTestDatabase('postgresql');
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'admin-e2e-'));
    platform = await startPlatform(
      loadConfig({ DATA_DIR: dataDir, PORT: '0', EMBEDDER: 'none', INGEST_ON_START: 'false', ADMIN_EMAILS: `${ADMIN},listed@example.org`, DATABASE_URL: String(db.orm.config.get('clientUrl')) }),
      createLogger('silent'),
    );
    url = platform.url!;
    admin = await newAccount(ADMIN);
    // verifying the e-mail over HTTP is proven in accounts.e2e.test.ts; here it is arranged
    await sql('update app_user set email_verified = true where id = ?', [admin.id]);
    plain = await newAccount('plain@example.org');
  }, 300_000);

  afterAll(async () => {
    await platform?.stop();
    await db?.dispose();
  });

  const ADMIN_ROUTES: [string, string, unknown?][] = [
    ['GET', '/v1/admin/stats'],
    ['GET', '/v1/admin/users'],
    ['GET', '/v1/admin/users/00000000-0000-4000-8000-000000000000/endpoints'],
    ['GET', '/v1/admin/audit'],
  ];

  it('answers 401 without credentials and 403 to a non-administrator on every admin endpoint; a listed but unverified e-mail is no administrator', async () => {
    // listed in ADMIN_EMAILS but never verified
    const listedUnverified = await newAccount('listed@example.org');
    for (const [method, route, body] of ADMIN_ROUTES) {
      const anonymous = await api(method, route, body);
      expect([route, anonymous.status]).toEqual([route, 401]);
      expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect([route, (await api(method, route, body, { key: plain.key })).status]).toEqual([route, 403]);
      expect([route, (await api(method, route, body, { cookie: plain.cookie })).status]).toEqual([route, 403]);
      expect([route, (await api(method, route, body, { key: listedUnverified.key })).status]).toEqual([route, 403]);
      const allowed = await api(method, route, body, { key: admin.key });
      expect([route, [200, 404].includes(allowed.status)]).toEqual([route, true]);
    }
  });

  describe('users', () => {
    beforeAll(async () => {
      await newAccount('percent%sign@example.org', 'Ann 100% Sure');
      await newAccount('under_score@example.org', 'Bob_Builder');
      await newAccount('plainpercentxsign@example.org', 'Ann 100x Sure');
      await newAccount('underxscore@example.org', 'BobxBuilder');
    });

    it('refuses every bound with 422 at its query parameter', async () => {
      const cases: [string, string, string][] = [
        ['limit=0', 'limit', 'greater_than_equal'],
        ['limit=5001', 'limit', 'less_than_equal'],
        ['offset=-1', 'offset', 'greater_than_equal'],
        ['sort=name', 'sort', 'enum'],
        [`search=${'a'.repeat(101)}`, 'search', 'string_too_long'],
        ['limit=abc', 'limit', 'int_parsing'],
      ];
      for (const [query, field, type] of cases) {
        const res = await api('GET', `/v1/admin/users?${query}`, undefined, { key: admin.key });
        expect([query, res.status]).toEqual([query, 422]);
        expect(res.body.detail).toEqual([expect.objectContaining({ loc: ['query', field], type })]);
      }
      expect((await api('GET', `/v1/admin/users?limit=5000&offset=0&search=${'a'.repeat(100)}`, undefined, { key: admin.key })).status).toBe(200);
    });

    it('takes % and _ literally and matches e-mail or name case-insensitively', async () => {
      const search = async (text: string) =>
        (await api('GET', `/v1/admin/users?sort=email&search=${encodeURIComponent(text)}`, undefined, { key: admin.key })).body.users.map((u: any) => u.email);
      expect(await search('%')).toEqual(['percent%sign@example.org']);
      expect(await search('_')).toEqual(['under_score@example.org']);
      expect(await search('100%')).toEqual(['percent%sign@example.org']);
      expect(await search('BOB_')).toEqual(['under_score@example.org']);
      expect(await search('bob')).toEqual(['under_score@example.org', 'underxscore@example.org']);
      expect(await search('\\')).toEqual([]);
      const page = await api('GET', '/v1/admin/users?search=ann%20100', undefined, { key: admin.key });
      expect(page.body.total).toBe(2);
    });

    it('lists users with plan, override, workspace, role, dates and request counts, sorted by requests (default), created_at or email, paged', async () => {
      const busy = await newAccount('busy@example.org');
      // real counted requests through the service, plus older rows as the usage writer stores them
      for (let i = 0; i < 3; i++) expect((await api('GET', '/v1/resolve/coverage', undefined, { key: busy.key })).status).toBeLessThan(500);
      await sql(
        `insert into usage_event (user_id, api_key_id, client_ip, endpoint, status, created_at)
         select ?, null, '127.0.0.1', 'POST /v1/search', 200, now() - (g || ' days')::interval from generate_series(1, 40) g where g not in (5, 6)`,
        [busy.id],
      );
      await platform.accounts.usage.flush();
      const res = await api('GET', '/v1/admin/users', undefined, { key: admin.key });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ limit: 50, offset: 0, sort: 'requests' });
      const total = Number((await sql('select count(*) as n from app_user'))[0].n);
      expect(res.body.total).toBe(total);
      const first = res.body.users[0];
      const counted = Number((await sql('select count(*) as n from usage_event where user_id = ?', [busy.id]))[0].n);
      const inPeriod = Number((await sql("select count(*) as n from usage_event where user_id = ? and created_at >= date_trunc('day', now() at time zone 'UTC') at time zone 'UTC' - interval '29 days'", [busy.id]))[0].n);
      expect(first).toEqual({
        id: busy.id,
        email: 'busy@example.org',
        name: null,
        plan: 'free',
        subscription_plan: 'free',
        override: null,
        workspace: null,
        role: null,
        is_admin: false,
        created_at: expect.stringMatching(/^\d{4}-/),
        last_active_at: expect.stringMatching(/^\d{4}-/),
        requests_total: counted,
        requests_period: inPeriod,
      });
      expect(counted).toBeGreaterThanOrEqual(38);
      expect(inPeriod).toBeLessThan(counted);
      const totals = res.body.users.map((u: any) => u.requests_total);
      expect(totals).toEqual([...totals].sort((a, b) => b - a));
      expect(res.body.users.find((u: any) => u.email === ADMIN).is_admin).toBe(true);

      const byEmail = (await api('GET', '/v1/admin/users?sort=email&limit=5000', undefined, { key: admin.key })).body.users.map((u: any) => u.email);
      expect(byEmail).toEqual([...byEmail].sort());
      const byCreated = (await api('GET', '/v1/admin/users?sort=created_at', undefined, { key: admin.key })).body.users;
      expect(byCreated[0].email).toBe('busy@example.org');
      const pageTwo = await api('GET', '/v1/admin/users?sort=email&limit=2&offset=2', undefined, { key: admin.key });
      expect(pageTwo.body.users.map((u: any) => u.email)).toEqual(byEmail.slice(2, 4));
    });

    it("lists a user's top endpoints; an unknown user is 404, a malformed id 422", async () => {
      const [busy] = await sql("select id from app_user where email = 'busy@example.org'");
      const res = await api('GET', `/v1/admin/users/${busy.id}/endpoints`, undefined, { key: admin.key });
      expect(res.status).toBe(200);
      expect(res.body.user_id).toBe(busy.id);
      const expected = await sql('select endpoint, count(*) as n from usage_event where user_id = ? group by endpoint order by count(*) desc, endpoint', [busy.id]);
      expect(res.body.endpoints).toEqual(expected.map((e: any) => ({ endpoint: e.endpoint, requests: Number(e.n) })));
      expect(res.body.endpoints[0]).toEqual({ endpoint: 'POST /v1/search', requests: 38 });
      expect((await api('GET', '/v1/admin/users/00000000-0000-4000-8000-000000000000/endpoints', undefined, { key: admin.key })).status).toBe(404);
      const bad = await api('GET', '/v1/admin/users/not-a-uuid/endpoints', undefined, { key: admin.key });
      expect(bad.status).toBe(422);
      expect(bad.body.detail).toEqual([expect.objectContaining({ loc: ['path', 'user_id'] })]);
    });
  });

  it('computes the statistics: 30 days with zero days, totals, today, new and active users, top endpoints', async () => {
    const res = await api('GET', '/v1/admin/stats', undefined, { key: admin.key });
    expect(res.status).toBe(200);
    const stats = res.body;
    expect(stats.daily_requests).toHaveLength(30);
    const today = new Date().toISOString().slice(0, 10);
    expect(stats.daily_requests.at(-1).date).toBe(today);
    const expected = await sql(
      "select to_char((created_at at time zone 'UTC')::date, 'YYYY-MM-DD') as day, count(*) as n from usage_event where created_at >= (date_trunc('day', now() at time zone 'UTC') - interval '29 days') at time zone 'UTC' group by 1",
    );
    const byDay = new Map(expected.map((r: any) => [r.day, Number(r.n)]));
    for (const day of stats.daily_requests) expect([day.date, day.requests]).toEqual([day.date, byDay.get(day.date) ?? 0]);
    // no request 5 and 6 days ago: those days are listed with 0
    const zeroDays = [5, 6].map((n) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10));
    expect(stats.daily_requests.filter((d: any) => zeroDays.includes(d.date))).toEqual(zeroDays.reverse().map((date) => ({ date, requests: 0 })));
    expect(stats.total_users).toBe(Number((await sql('select count(*) as n from app_user'))[0].n));
    expect(stats.requests_today).toBe(byDay.get(today) ?? 0);
    expect(stats.new_users_7d).toBe(stats.total_users);
    expect(stats.active_users_30d).toBe(Number((await sql("select count(distinct user_id) as n from usage_event where user_id is not null and created_at >= now() - interval '30 days'"))[0].n));
    const top = await sql(
      "select endpoint, count(*) as n from usage_event where created_at >= (date_trunc('day', now() at time zone 'UTC') - interval '29 days') at time zone 'UTC' group by endpoint order by count(*) desc, endpoint limit 10",
    );
    expect(stats.top_endpoints).toEqual(top.map((t: any) => ({ endpoint: t.endpoint, requests: Number(t.n) })));
    expect(stats.top_endpoints[0].endpoint).toBe('POST /v1/search');
  });

  it('lists the audit log paged, with its bounds', async () => {
    const res = await api('GET', '/v1/admin/audit', undefined, { key: admin.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ total: expect.any(Number), items: expect.any(Array) });
    expect((await api('GET', '/v1/admin/audit?limit=0', undefined, { key: admin.key })).status).toBe(422);
    expect((await api('GET', '/v1/admin/audit?limit=201', undefined, { key: admin.key })).status).toBe(422);
    expect((await api('GET', '/v1/admin/audit?offset=-1', undefined, { key: admin.key })).status).toBe(422);
  });
});
