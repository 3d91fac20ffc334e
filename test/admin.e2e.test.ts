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
import { startLocalStripe, type LocalStripe } from './helpers/stripe-server.js';

const PASSWORD = 'a sturdy passphrase 42';
const ADMIN = 'boss@example.org';

describe('administration (PostgreSQL)', () => {
  let platform: Platform;
  let db: TestDatabase;
  let stripe: LocalStripe;
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
    stripe = await startLocalStripe();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'admin-e2e-'));
    platform = await startPlatform(
      loadConfig({ DATA_DIR: dataDir, PORT: '0', EMBEDDER: 'none', INGEST_ON_START: 'false', ADMIN_EMAILS: `${ADMIN},listed@example.org`,
        STRIPE_SECRET_KEY: 'sk_test_admin',
        STRIPE_API_BASE: stripe.url,
        STRIPE_TIMEOUT_MS: '2000',
        STRIPE_MAX_NETWORK_RETRIES: '0',
        DATABASE_URL: String(db.orm.config.get('clientUrl')) }),
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
    await stripe?.stop();
  });

  const ADMIN_ROUTES: [string, string, unknown?][] = [
    ['GET', '/v1/admin/stats'],
    ['GET', '/v1/admin/users'],
    ['GET', '/v1/admin/users/00000000-0000-4000-8000-000000000000/endpoints'],
    ['GET', '/v1/admin/audit'],
    ['PATCH', '/v1/admin/users/00000000-0000-4000-8000-000000000000', { plan: 'free' }],
    ['DELETE', '/v1/admin/users/00000000-0000-4000-8000-000000000000'],
    ['GET', '/v1/admin/feedback'],
    ['PATCH', '/v1/admin/feedback/00000000-0000-4000-8000-000000000000', { status: 'resolved' }],
    ['POST', '/v1/admin/feedback/00000000-0000-4000-8000-000000000000/mark-forwarded', { url: 'https://github.com/o/r/issues/1' }],
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

  describe('plan override', () => {
    const resolve = (key: string) => api('POST', '/v1/resolve', { reference: 'Art. 1 BGB' }, { key });

    it('takes effect on the next request, limits included, wins over the subscription, shows in billing status, is audited, and can be removed', async () => {
      const user = await newAccount('override@example.org');
      // Free: 10 a minute
      for (let i = 0; i < 10; i++) expect((await resolve(user.key)).status).toBe(200);
      expect((await resolve(user.key)).status).toBe(429);

      const set = await api('PATCH', `/v1/admin/users/${user.id}`, { plan: 'developer_pro', reason: 'support ticket 42' }, { key: admin.key });
      expect(set.status).toBe(200);
      expect(set.body).toMatchObject({ user_id: user.id, plan: 'developer_pro', subscription_plan: 'free', override: { plan: 'developer_pro', reason: 'support ticket 42', set_by_user_id: admin.id } });
      // the very next request runs under the override: 600 a minute
      expect((await resolve(user.key)).status).toBe(200);
      const usage = await api('GET', '/v1/usage/me', undefined, { key: user.key });
      expect(usage.body).toMatchObject({ plan: 'developer_pro', per_minute_limit: 600 });
      const status = await api('GET', '/v1/billing/status', undefined, { cookie: user.cookie });
      expect(status.body).toMatchObject({ plan: 'developer_pro', admin_override: { plan: 'developer_pro', reason: 'support ticket 42', set_at: expect.any(String) } });
      const listed = (await api('GET', '/v1/admin/users?search=override%40', undefined, { key: admin.key })).body.users[0];
      expect(listed).toMatchObject({ plan: 'developer_pro', subscription_plan: 'free', override: { plan: 'developer_pro' } });

      // a subscription's plan (billing writes app_user.plan) does not beat the override
      await sql("update app_user set plan = 'professional' where id = ?", [user.id]);
      expect((await api('GET', '/v1/usage/me', undefined, { key: user.key })).body.plan).toBe('developer_pro');

      const removed = await api('PATCH', `/v1/admin/users/${user.id}`, { plan: null, reason: 'ticket closed' }, { key: admin.key });
      expect(removed.body).toMatchObject({ plan: 'professional', override: null });
      expect((await api('GET', '/v1/usage/me', undefined, { key: user.key })).body.plan).toBe('professional');
      expect((await api('GET', '/v1/billing/status', undefined, { cookie: user.cookie })).body.admin_override).toBeNull();

      const audit = await api('GET', `/v1/admin/audit?target_id=${user.id}`, undefined, { key: admin.key });
      expect(audit.body.total).toBe(2);
      expect(audit.body.items[0]).toMatchObject({ action: 'user.plan_override', actor_email: ADMIN, actor_user_id: admin.id, target_type: 'user', reason: 'ticket closed', after: { override: null } });
      expect(audit.body.items[1]).toMatchObject({ before: { override: null, subscription_plan: 'free' }, after: { override: { plan: 'developer_pro', reason: 'support ticket 42' } } });
    });

    it('refuses an unknown plan, a malformed id (422) and an unknown user (404)', async () => {
      const user = await newAccount();
      const bad = await api('PATCH', `/v1/admin/users/${user.id}`, { plan: 'platinum' }, { key: admin.key });
      expect(bad.status).toBe(422);
      expect(bad.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'plan'], type: 'enum' })]);
      expect((await api('PATCH', `/v1/admin/users/${user.id}`, { plan: 'anonymous' }, { key: admin.key })).status).toBe(422);
      expect((await api('PATCH', `/v1/admin/users/${user.id}`, {}, { key: admin.key })).status).toBe(422);
      const malformed = await api('PATCH', '/v1/admin/users/42', { plan: 'free' }, { key: admin.key });
      expect(malformed.status).toBe(422);
      expect(malformed.body.detail).toEqual([expect.objectContaining({ loc: ['path', 'user_id'] })]);
      expect((await api('PATCH', '/v1/admin/users/00000000-0000-4000-8000-000000000000', { plan: 'free' }, { key: admin.key })).status).toBe(404);
    });
  });

  describe('erasure', () => {
    it('erases by the rules: deletion log in the same transaction, keys and grants gone, usage and feedback kept with a null user, the key refused at once; Stripe fails, a later retry cancels', async () => {
      const victim = await newAccount('victim@example.org');
      const secondKey = (await api('POST', '/v1/keys', { name: 'second' }, { cookie: victim.cookie })).body.key;
      expect((await api('POST', '/v1/resolve', { reference: 'Art. 1 BGB' }, { key: victim.key })).status).toBe(200);
      await platform.accounts.usage.flush();
      await sql(
        "insert into feedback_report (id, user_id, api_key_id, source, issue_type, description, status, channel, created_at) values (gen_random_uuid(), ?, null, 'DE/BGH', 'other', 'A report that stays after erasure', 'resolved', 'mcp', now())",
        [victim.id],
      );
      await sql("insert into oauth_model (id, model, payload, expires_at) values ('grant-victim', 'Grant', ?::jsonb, null)", [JSON.stringify({ accountId: victim.id })]).catch(async () => {
        // the table's columns as the authorization server stores them
        const columns = await sql("select column_name from information_schema.columns where table_name = 'oauth_model'");
        throw new Error(`oauth_model columns: ${columns.map((c: any) => c.column_name).join(', ')}`);
      });
      // a live subscription at Stripe and in the local copy
      const subscriptionId = 'sub_victim_1';
      stripe.subscriptions.set(subscriptionId, { id: subscriptionId, object: 'subscription', status: 'active', customer: 'cus_victim', items: { object: 'list', data: [{ id: 'si_1', price: { id: 'price_professional_monthly' }, quantity: 1 }] } });
      await sql(
        "insert into billing_subscription (id, user_id, stripe_customer_id, plan, interval, status, quantity, current_period_start, current_period_end, updated_at) values (?, ?, 'cus_victim', 'professional', 'monthly', 'active', 1, now(), now() + interval '30 days', now())",
        [subscriptionId, victim.id],
      );
      await sql("insert into plan_override (user_id, plan, reason, set_at) values (?, 'developer_pro', 'x', now())", [victim.id]);
      const usageIds = (await sql('select id from usage_event where user_id = ?', [victim.id])).map((r: any) => String(r.id));
      expect(usageIds.length).toBeGreaterThan(0);

      // Stripe fails the cancellation: the erasure stands
      stripe.failNext(1, 500, '/v1/subscriptions');
      const res = await api('DELETE', `/v1/admin/users/${victim.id}`, { reason: 'GDPR request #7' }, { key: admin.key });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'erased', user_id: victim.id });

      const [log] = await sql('select * from user_deletion_log where user_id = ?', [victim.id]);
      expect(log).toMatchObject({ actor_user_id: admin.id, actor_email: ADMIN, reason: 'GDPR request #7' });
      expect(log.email_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(log)).not.toContain('victim@');
      expect(await sql('select id from app_user where id = ?', [victim.id])).toEqual([]);
      expect(await sql('select id from api_key where user_id = ?', [victim.id])).toEqual([]);
      expect(await sql('select id from billing_subscription where user_id = ?', [victim.id])).toEqual([]);
      expect(await sql('select user_id from plan_override where user_id = ?', [victim.id])).toEqual([]);
      expect(await sql("select id from oauth_model where payload->>'accountId' = ?", [victim.id])).toEqual([]);
      expect(await sql('select id from usage_event where user_id = ?', [victim.id])).toEqual([]);
      // the same rows, kept without their user and key
      const kept = await sql(`select id, user_id, api_key_id from usage_event where id in (${usageIds.join(', ')})`);
      expect(kept.map((r: any) => [String(r.id), r.user_id, r.api_key_id])).toEqual(usageIds.map((id: string) => [id, null, null]));
      const [report] = await sql("select user_id, description from feedback_report where description = 'A report that stays after erasure'");
      expect(report).toEqual({ user_id: null, description: 'A report that stays after erasure' });
      // the per-user totals forget the account; the daily totals keep the requests
      expect(await sql('select user_id from usage_user_summary where user_id = ?', [victim.id])).toEqual([]);
      // its keys and sessions stop at once
      expect((await api('POST', '/v1/resolve', { reference: 'Art. 1 BGB' }, { key: victim.key })).status).toBe(401);
      expect((await api('POST', '/v1/resolve', { reference: 'Art. 1 BGB' }, { key: secondKey })).status).toBe(401);
      expect((await api('GET', '/auth/me', undefined, { cookie: victim.cookie })).status).toBe(401);
      // the audit entry
      const audit = await api('GET', `/v1/admin/audit?action=user.erase&target_id=${victim.id}`, undefined, { key: admin.key });
      expect(audit.body.items).toEqual([expect.objectContaining({ actor_user_id: admin.id, reason: 'GDPR request #7' })]);

      // the cancellation failed and is owed; Stripe still bills
      const [owed] = await sql('select * from pending_stripe_cancellation where subscription_id = ?', [subscriptionId]);
      expect(owed).toMatchObject({ user_id: victim.id, attempts: 1, completed_at: null });
      expect(owed.last_error).toBeTruthy();
      expect(stripe.subscriptions.get(subscriptionId)!.status).toBe('active');
      // not due yet: nothing is tried
      expect(await platform.admin.cancellations.retryDue()).toBe(1);
      expect(stripe.subscriptions.get(subscriptionId)!.status).toBe('active');
      // later (its retry time has come): the retry cancels it
      await sql("update pending_stripe_cancellation set next_attempt_at = now() - interval '1 second' where subscription_id = ?", [subscriptionId]);
      expect(await platform.admin.cancellations.retryDue()).toBe(0);
      expect(stripe.subscriptions.get(subscriptionId)!.status).toBe('canceled');
      const [done] = await sql('select attempts, completed_at, last_error from pending_stripe_cancellation where subscription_id = ?', [subscriptionId]);
      expect(done).toMatchObject({ attempts: 2, last_error: null });
      expect(done.completed_at).not.toBeNull();

      // erased already: 404
      expect((await api('DELETE', `/v1/admin/users/${victim.id}`, undefined, { key: admin.key })).status).toBe(404);
    });

    it('refuses self-erasure (409) and a malformed id (422)', async () => {
      const self = await api('DELETE', `/v1/admin/users/${admin.id}`, undefined, { key: admin.key });
      expect(self.status).toBe(409);
      expect((await sql('select id from app_user where id = ?', [admin.id])).length).toBe(1);
      const malformed = await api('DELETE', '/v1/admin/users/nope', undefined, { key: admin.key });
      expect(malformed.status).toBe(422);
      expect(malformed.body.detail).toEqual([expect.objectContaining({ loc: ['path', 'user_id'] })]);
    });
  });

  describe('feedback reports', () => {
    const ids: string[] = [];
    beforeAll(async () => {
      // reports as the MCP tool report_source_issue stores them (that path: mcp.e2e.test.ts), oldest first
      for (let i = 0; i < 5; i++) {
        const [row] = await sql(
          "insert into feedback_report (id, user_id, api_key_id, source, issue_type, description, status, channel, created_at) values (gen_random_uuid(), ?, null, 'FR/CASS', 'broken_text', ?, 'open', 'mcp', now() - (? || ' minutes')::interval) returning id",
          [plain.id, `Report number ${i} about broken text`, String(10 - i)],
        );
        ids.push(row.id);
      }
    });
    const list = (query = '') => api('GET', `/v1/admin/feedback${query}`, undefined, { key: admin.key });

    it('lists open reports newest first by default, filters by status, and refuses bad bounds (422)', async () => {
      const open = await list();
      expect(open.status).toBe(200);
      expect(open.body.status).toBe('open');
      expect(open.body.reports.map((r: any) => r.id)).toEqual([...ids].reverse());
      expect(open.body.reports[0]).toMatchObject({ source: 'FR/CASS', issue_type: 'broken_text', status: 'open', channel: 'mcp', user_id: plain.id, forwarded_url: null });
      expect((await list('?limit=2')).body.reports.map((r: any) => r.id)).toEqual([ids[4], ids[3]]);
      for (const [query, field] of [['?status=closed', 'status'], ['?limit=0', 'limit'], ['?limit=201', 'limit'], ['?status=in_progress', 'status']]) {
        const res = await list(query);
        expect([query, res.status]).toEqual([query, 422]);
        expect(res.body.detail).toEqual([expect.objectContaining({ loc: ['query', field] })]);
      }
      expect((await list('?limit=200&status=all')).status).toBe(200);
    });

    it('moves reports through their transitions and refuses the others', async () => {
      const patch = (id: string, body: unknown) => api('PATCH', `/v1/admin/feedback/${id}`, body, { key: admin.key });
      const forward = (id: string, body: unknown) => api('POST', `/v1/admin/feedback/${id}/mark-forwarded`, body, { key: admin.key });
      // open -> forwarded with the external issue's URL
      const fwd = await forward(ids[0]!, { url: 'https://github.com/worldwidelaw/legal-sources/issues/300' });
      expect(fwd.status).toBe(200);
      expect(fwd.body).toMatchObject({ id: ids[0], status: 'forwarded', forwarded_url: 'https://github.com/worldwidelaw/legal-sources/issues/300', updated_at: expect.any(String) });
      // forwarded -> resolved with a note
      expect((await patch(ids[0]!, { status: 'resolved', note: 'fixed upstream' })).body).toMatchObject({ status: 'resolved', status_note: 'fixed upstream', forwarded_url: 'https://github.com/worldwidelaw/legal-sources/issues/300' });
      // closed: no further move (409), not even forwarding
      expect((await patch(ids[0]!, { status: 'dismissed' })).status).toBe(409);
      expect((await forward(ids[0]!, { url: 'https://example.org/x' })).status).toBe(409);
      // open -> dismissed; open -> forwarded by PATCH
      expect((await patch(ids[1]!, { status: 'dismissed', note: 'not a problem' })).body.status).toBe('dismissed');
      expect((await patch(ids[2]!, { status: 'forwarded' })).body).toMatchObject({ status: 'forwarded', forwarded_url: null });
      // values other than the three are 422, and so are bad URLs
      for (const body of [{ status: 'open' }, { status: 'all' }, { status: 'in_progress' }, {}]) {
        const res = await patch(ids[3]!, body);
        expect([body, res.status]).toEqual([body, 422]);
        expect(res.body.detail[0].loc).toEqual(['body', 'status']);
      }
      for (const url of ['ftp://example.org/x', 'javascript:alert(1)', 'not a url', `https://example.org/${'a'.repeat(2049)}`]) {
        const res = await forward(ids[3]!, { url });
        expect([url.slice(0, 30), res.status]).toEqual([url.slice(0, 30), 422]);
        expect(res.body.detail[0].loc).toEqual(['body', 'url']);
      }
      expect((await forward(ids[3]!, { url: `https://example.org/${'a'.repeat(2048 - 20)}` })).status).toBe(200);
      // unknown report 404, malformed id 422
      expect((await patch('00000000-0000-4000-8000-000000000000', { status: 'resolved' })).status).toBe(404);
      expect((await forward('00000000-0000-4000-8000-000000000000', { url: 'https://example.org' })).status).toBe(404);
      const malformed = await patch('nope', { status: 'resolved' });
      expect(malformed.status).toBe(422);
      expect(malformed.body.detail).toEqual([expect.objectContaining({ loc: ['path', 'report_id'] })]);

      expect((await list()).body.reports.map((r: any) => r.id)).toEqual([ids[4]]);
      expect((await list('?status=forwarded')).body.reports.map((r: any) => r.id)).toEqual([ids[3], ids[2]]);
      expect((await list('?status=all')).body.total).toBeGreaterThanOrEqual(5);
      const audit = await api('GET', `/v1/admin/audit?target_id=${ids[0]}`, undefined, { key: admin.key });
      expect(audit.body.items.map((e: any) => [e.action, e.after.status])).toEqual([
        ['feedback.status', 'resolved'],
        ['feedback.mark_forwarded', 'forwarded'],
      ]);
    });
  });

  describe('admin subgraph (through the gateway)', () => {
    const gql = (query: string, key?: string, variables?: Record<string, unknown>) => api('POST', '/graphql', { query, variables }, key ? { key } : undefined);

    it('answers administrators only, with the same services: stats, users with batched totals, endpoints, feedback, audit', async () => {
      const query = '{ adminUsers(sort: requests, limit: 5) { total users { id email plan requests_total requests_period } } }';
      const anonymous = await gql(query);
      expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
      const denied = await gql(query, plain.key);
      expect(denied.body.errors[0].extensions.code).toBe('FORBIDDEN');
      expect(denied.body.data).toEqual({ adminUsers: null }); // nullable: a refused field, not a wiped answer

      const res = await gql(query, admin.key);
      expect(res.body.errors).toBeUndefined();
      const rest = await api('GET', '/v1/admin/users?sort=requests&limit=5', undefined, { key: admin.key });
      expect(res.body.data.adminUsers.total).toBe(rest.body.total);
      expect(res.body.data.adminUsers.users).toEqual(rest.body.users.map((u: any) => ({ id: u.id, email: u.email, plan: u.plan, requests_total: u.requests_total, requests_period: u.requests_period })));

      const stats = await gql('{ adminStats { total_users requests_today daily_requests { date requests } top_endpoints { endpoint requests } } }', admin.key);
      expect(stats.body.data.adminStats.daily_requests).toHaveLength(30);
      const bad = await gql('{ adminUsers(limit: 0) { total } }', admin.key);
      expect(bad.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      const feedback = await gql('{ adminFeedback(status: all, limit: 3) { total reports { id status } } }', admin.key);
      expect(feedback.body.data.adminFeedback.reports.length).toBeLessThanOrEqual(3);
      const audit = await gql('{ adminAudit(limit: 2) { total items { action actor_email after_json } } }', admin.key);
      expect(audit.body.data.adminAudit.items).toHaveLength(2);
      expect(JSON.parse(audit.body.data.adminAudit.items[0].after_json ?? 'null')).not.toBeUndefined();
    });

    it('runs the override mutation through the same rules (422 for an unknown plan, audited)', async () => {
      const user = await newAccount();
      const set = await gql('mutation($id: String!) { adminSetPlanOverride(userId: $id, plan: professional, reason: "gql") { plan subscription_plan override { plan reason } } }', admin.key, { id: user.id });
      expect(set.body.data.adminSetPlanOverride).toEqual({ plan: 'professional', subscription_plan: 'free', override: { plan: 'professional', reason: 'gql' } });
      expect((await api('GET', '/v1/usage/me', undefined, { key: user.key })).body.plan).toBe('professional');
      const bad = await gql('mutation($id: String!) { adminSetPlanOverride(userId: $id, plan: gold) { plan } }', admin.key, { id: user.id });
      expect(bad.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED'); // OverridePlan is an enum
      const self = await gql('mutation($id: String!) { adminEraseUser(userId: $id) { status } }', admin.key, { id: admin.id });
      expect(self.body.errors[0].extensions.code).toBe('CONFLICT');
    });
  });
});
