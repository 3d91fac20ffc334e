/**
 * Issue 36 (items 6 and 7) over real HTTP and the supergraph, on real PostgreSQL and embedded
 * PGlite, with the local Stripe server: the caller's invoices (Stripe's list through the API, each with its hosted page),
 * a team member's billing status naming the team, usage per API key and endpoint over a date
 * range, and renaming a key. Every read and write is the caller's own: another account's
 * invoices, keys and usage are never visible, and its key cannot be renamed (404).
 */
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { call, cookieFrom } from './helpers/http.js';
import { makeTestDataDir } from './helpers/pglite-template.js';
import { startLocalStripe, type LocalStripe } from './helpers/stripe-server.js';
import { openTestDatabase, TEST_BACKENDS, type TestDatabase } from './helpers/test-databases.js';

const PASSWORD = 'a sturdy passphrase 42';

describe.each(TEST_BACKENDS)('invoices, team plan, usage per key and key rename (%s)', (backend) => {
  let stripe: LocalStripe;
  let platform: Platform;
  let db: TestDatabase | null = null;
  let url: string;
  let seq = 0;
  const api = (method: string, route: string, body?: unknown, auth?: { key?: string; cookie?: string }) => call(`${url}${route}`, method, body, auth);
  const gql = (cookie: string, query: string, variables?: Record<string, unknown>) => api('POST', '/graphql', { query, variables }, { cookie });
  const sql = (query: string, params: unknown[] = []) => platform.orm.em.fork().getConnection().execute(query, params) as Promise<any[]>;

  async function newAccount(prefix: string): Promise<{ id: string; email: string; cookie: string }> {
    const email = `${prefix}${++seq}-${backend}@example.org`;
    const reg = await api('POST', '/auth/register', { email, password: PASSWORD, accept_terms: true, acknowledge_privacy: true });
    expect(reg.status).toBe(200);
    await sql('update app_user set email_verified = true where id = ?', [reg.body.id]);
    const login = await api('POST', '/auth/login', { email, password: PASSWORD });
    return { id: reg.body.id, email, cookie: cookieFrom(login.headers, 'session')! };
  }

  /** Starts a checkout (which creates the account's Stripe customer) and returns the customer id. */
  async function customerOf(account: { id: string; cookie: string }): Promise<string> {
    const res = await api('POST', '/v1/billing/checkout', { plan: 'developer_pro', interval: 'monthly', legal_accepted: true }, { cookie: account.cookie });
    expect(res.status).toBe(200);
    const [row] = await sql('select stripe_customer_id from billing_account where user_id = ?', [account.id]);
    return row.stripe_customer_id;
  }

  beforeAll(async () => {
    stripe = await startLocalStripe();
    if (backend === 'postgresql') db = await openTestDatabase('postgresql');
    const config = loadConfig({
      ...(db ? { DATABASE_URL: String(db.orm.config.get('clientUrl')) } : {}),
      DATA_DIR: await makeTestDataDir('billing-usage-keys-', backend),
      PORT: '0',
      EMBEDDER: 'none',
      INGEST_ON_START: 'false',
      STRIPE_SECRET_KEY: 'sk_test_platform',
      STRIPE_WEBHOOK_SECRET: 'whsec_usage_keys',
      STRIPE_API_BASE: stripe.url,
      STRIPE_TIMEOUT_MS: '2000',
      STRIPE_MAX_NETWORK_RETRIES: '0',
    });
    platform = await startPlatform(config, createLogger('silent'));
    url = platform.url!;
  }, 300_000);

  afterAll(async () => {
    await platform?.stop();
    await db?.dispose();
    await stripe?.stop();
  });

  it("lists the caller's own invoices with their hosted pages, newest first; none before a customer exists, without asking Stripe", async () => {
    const [alice, bob, carol] = await Promise.all([newAccount('alice'), newAccount('bob'), newAccount('carol')]);
    const [aliceCustomer, bobCustomer] = [await customerOf(alice), await customerOf(bob)];
    const older = stripe.addInvoice(aliceCustomer, { total: 6960, created: 1_790_000_000 });
    const newer = stripe.addInvoice(aliceCustomer, { total: 8700, created: 1_792_000_000, status: 'open' });
    const bobs = stripe.addInvoice(bobCustomer, { total: 100 });

    const rest = await api('GET', '/v1/billing/invoices', undefined, { cookie: alice.cookie });
    expect(rest.status).toBe(200);
    expect(rest.body.has_more).toBe(false);
    expect(rest.body.invoices.map((i: any) => i.id)).toEqual([newer.id, older.id]);
    expect(rest.body.invoices[0]).toMatchObject({ number: newer.number, status: 'open', total_usd: 87, amount_paid_usd: 0, currency: 'usd', hosted_invoice_url: `${stripe.url}/i/${newer.id}`, invoice_pdf: `${stripe.url}/i/${newer.id}/pdf` });
    expect(rest.body.invoices[1]).toMatchObject({ total_usd: 69.6, amount_paid_usd: 69.6, created_at: new Date(1_790_000_000_000).toISOString() });
    // Stripe was asked for Alice's customer only
    const asked = stripe.requests.filter((r) => r.method === 'GET' && r.path === '/v1/invoices');
    expect(asked.at(-1)!.body.customer).toBe(aliceCustomer);

    const graph = await gql(bob.cookie, '{ invoices { has_more invoices { id total_usd hosted_invoice_url } } }');
    expect(graph.body.errors).toBeUndefined();
    expect(graph.body.data.invoices.invoices).toEqual([{ id: bobs.id, total_usd: 1, hosted_invoice_url: `${stripe.url}/i/${bobs.id}` }]);

    const before = stripe.requests.length;
    const none = await api('GET', '/v1/billing/invoices', undefined, { cookie: carol.cookie });
    expect(none.body).toEqual({ invoices: [], has_more: false });
    expect(stripe.requests.length).toBe(before);
    expect((await api('GET', '/v1/billing/invoices')).status).toBe(401);
  });

  it("says a team member's plan comes from the team (the owner's status does not)", async () => {
    const [owner, member] = await Promise.all([newAccount('owner'), newAccount('member')]);
    const workspaceId = '5f0c9a52-5d2e-4c8e-9a55-0f4f0a7e1e11';
    await sql("update app_user set plan = 'professional' where id = ?", [owner.id]);
    await sql("insert into workspace (id, owner_user_id, name, kind, seat_limit, created_at) values (?, ?, 'Firm LLP', 'team', 3, now())", [workspaceId, owner.id]);
    await sql("insert into workspace_member (user_id, workspace_id, role, joined_at) values (?, ?, 'owner', now()), (?, ?, 'member', now())", [owner.id, workspaceId, member.id, workspaceId]);

    const status = await api('GET', '/v1/billing/status', undefined, { cookie: member.cookie });
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ plan: 'professional', subscription: null, team_plan: { workspace_id: workspaceId, workspace_name: 'Firm LLP', role: 'member', owner_email: owner.email } });
    const graph = await gql(member.cookie, '{ billingStatus { plan team_plan { workspace_name role owner_email } } }');
    expect(graph.body.data.billingStatus).toEqual({ plan: 'professional', team_plan: { workspace_name: 'Firm LLP', role: 'member', owner_email: owner.email } });
    const own = await api('GET', '/v1/billing/status', undefined, { cookie: owner.cookie });
    expect(own.body.team_plan).toBeNull();
  });

  it('renames only the caller\'s own keys: 404 for another account\'s, 422 for a bad name, at both doors', async () => {
    const [alice, bob] = await Promise.all([newAccount('renamer'), newAccount('stranger')]);
    const key = (await api('POST', '/v1/keys', { name: 'laptop' }, { cookie: alice.cookie })).body;
    const renamed = await api('PATCH', `/v1/keys/${key.id}`, { name: '  CI pipeline  ' }, { cookie: alice.cookie });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: key.id, name: 'CI pipeline', key_prefix: key.key_prefix, revoked: false });
    expect((await api('GET', '/v1/keys', undefined, { cookie: alice.cookie })).body.map((k: any) => k.name)).toEqual(['CI pipeline']);

    expect((await api('PATCH', `/v1/keys/${key.id}`, { name: 'stolen' }, { cookie: bob.cookie })).status).toBe(404);
    const bad = await api('PATCH', `/v1/keys/${key.id}`, { name: 'x'.repeat(101) }, { cookie: alice.cookie });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'name']);
    expect((await api('PATCH', `/v1/keys/${key.id}`, { name: '   ' }, { cookie: alice.cookie })).status).toBe(422);
    expect((await api('PATCH', '/v1/keys/not-a-uuid', { name: 'x' }, { cookie: alice.cookie })).status).toBe(404);

    const graph = await gql(alice.cookie, 'mutation($id: ID!, $name: String!) { renameKey(id: $id, name: $name) { id name } }', { id: key.id, name: 'Server' });
    expect(graph.body.data.renameKey).toEqual({ id: key.id, name: 'Server' });
    const foreign = await gql(bob.cookie, 'mutation($id: ID!) { renameKey(id: $id, name: "mine") { id } }', { id: key.id });
    expect(foreign.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const empty = await gql(alice.cookie, 'mutation($id: ID!) { renameKey(id: $id, name: "") { id } }', { id: key.id });
    expect(empty.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect((await api('GET', '/v1/keys', undefined, { cookie: alice.cookie })).body[0].name).toBe('Server');
  });

  it("counts the caller's billed requests per key and endpoint over the range, never another account's", async () => {
    const [alice, bob] = await Promise.all([newAccount('counter'), newAccount('neighbour')]);
    const laptop = (await api('POST', '/v1/keys', { name: 'laptop' }, { cookie: alice.cookie })).body;
    const server = (await api('POST', '/v1/keys', { name: 'server' }, { cookie: alice.cookie })).body;
    const bobs = (await api('POST', '/v1/keys', { name: 'bob key' }, { cookie: bob.cookie })).body;
    // real billed calls: resolve answers 200, an unknown document 404 (client errors are counted)
    for (let i = 0; i < 3; i++) expect((await api('POST', '/v1/resolve', { reference: 'BGH, 1 ZR 1/20' }, { key: laptop.key })).status).toBe(200);
    expect((await api('GET', '/v1/documents/DE/none/missing-1', undefined, { key: laptop.key })).status).toBe(404);
    expect((await api('POST', '/v1/resolve', { reference: 'x' }, { key: server.key })).status).toBe(200);
    expect((await api('POST', '/v1/resolve', { reference: 'y' }, { cookie: alice.cookie })).status).toBe(200);
    for (let i = 0; i < 4; i++) await api('POST', '/v1/resolve', { reference: 'z' }, { key: bobs.key });
    // an old row, outside the default range but inside an explicit one
    await sql("insert into usage_event (user_id, api_key_id, endpoint, status, created_at, billed) values (?, ?, 'search', 200, '2026-01-15T10:00:00Z', true)", [alice.id, server.id]);

    const res = await api('GET', '/v1/usage/breakdown', undefined, { cookie: alice.cookie });
    expect(res.status).toBe(200);
    const rows = res.body.rows.map((r: any) => [r.key_name, r.endpoint, r.requests]);
    expect(rows).toEqual([
      ['laptop', 'resolve', 3],
      ['laptop', 'documents', 1],
      ['server', 'resolve', 1],
      [null, 'resolve', 1],
    ]);
    expect(res.body.total).toBe(6);
    expect(res.body.rows[0]).toMatchObject({ key_id: laptop.id, key_prefix: laptop.key_prefix, key_revoked: false });
    expect(res.body.to).toBe(new Date().toISOString().slice(0, 10));

    const january = await api('GET', '/v1/usage/breakdown?from=2026-01-01&to=2026-01-31', undefined, { cookie: alice.cookie });
    expect(january.body).toEqual({ from: '2026-01-01', to: '2026-01-31', total: 1, rows: [{ key_id: server.id, key_name: 'server', key_prefix: server.key_prefix, key_revoked: false, endpoint: 'search', requests: 1 }] });

    const graph = await gql(bob.cookie, '{ usageBreakdown { total rows { key_name endpoint requests } } }');
    expect(graph.body.data.usageBreakdown).toEqual({ total: 4, rows: [{ key_name: 'bob key', endpoint: 'resolve', requests: 4 }] });

    for (const query of ['from=2026-02-30', 'from=2026-03-01&to=2026-02-01', 'from=2024-01-01&to=2026-01-01', 'to=yesterday']) {
      const refused = await api('GET', `/v1/usage/breakdown?${query}`, undefined, { cookie: alice.cookie });
      expect(refused.status).toBe(422);
      expect(refused.body.detail[0].loc[0]).toBe('query');
    }
    const badGraph = await gql(alice.cookie, '{ usageBreakdown(from: "2026-13-01") { total } }');
    expect(badGraph.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect((await api('GET', '/v1/usage/breakdown')).status).toBe(401);
  });
});
