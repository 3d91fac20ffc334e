/**
 * Billing end to end over real HTTP, on embedded PGlite and on real PostgreSQL: the platform's
 * real `stripe` client talks to a local server speaking Stripe's protocol
 * (test/helpers/stripe-server.ts), and Stripe's side of the story (a customer paying, a seat
 * change in the portal, a failed renewal, a cancellation) is played by that server and delivered
 * as webhook events signed with the library's own test-header helper.
 */
import Stripe from 'stripe';
import { loadConfig } from '../src/config.js';
import { openTestDatabase, TEST_BACKENDS, type TestDatabase } from './helpers/test-databases.js';
import { createLogger } from '../src/logger.js';
import { PLANS } from '../src/modules/usage/plans.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { call, cookieFrom } from './helpers/http.js';
import { startLocalStripe, type LocalStripe } from './helpers/stripe-server.js';
import { makeTestDataDir } from './helpers/pglite-template.js';

const PASSWORD = 'a sturdy passphrase 42';
const WEBHOOK_SECRET = 'whsec_test_billing_e2e';
const signer = new Stripe('sk_test_signer');

describe.each(TEST_BACKENDS)('billing through Stripe (%s)', (backend) => {
  let stripeServer: LocalStripe;
  let platform: Platform;
  let db: TestDatabase | null = null;
  let url: string;
  let seq = 0;
  const api = (method: string, route: string, body?: unknown, auth?: { key?: string; cookie?: string; headers?: Record<string, string> }) => call(`${url}${route}`, method, body, auth);
  const sql = (query: string, params: unknown[] = []) => platform.orm.em.fork().getConnection().execute(query, params) as Promise<any[]>;

  async function newAccount(prefix = 'buyer'): Promise<{ id: string; cookie: string }> {
    const email = `${prefix}${++seq}-${backend}@example.org`;
    const reg = await api('POST', '/auth/register', { email, password: PASSWORD, accept_terms: true, acknowledge_privacy: true });
    expect(reg.status).toBe(200);
    const login = await api('POST', '/auth/login', { email, password: PASSWORD });
    return { id: reg.body.id, cookie: cookieFrom(login.headers, 'session')! };
  }

  /** Delivers `event` to the webhook endpoint, signed as Stripe signs it (or with `signature`). */
  async function deliver(event: object, signature?: string) {
    const payload = JSON.stringify(event);
    const header = signature ?? signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const res = await fetch(`${url}/v1/billing/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': header }, body: payload });
    return { status: res.status, body: await res.json() };
  }

  const validCheckout = { plan: 'professional', interval: 'monthly', quantity: 3, workspace_name: 'Acme Legal', legal_accepted: true };

  beforeAll(async () => {
    stripeServer = await startLocalStripe();
    const dataDir = await makeTestDataDir('billing-e2e-', backend);
    if (backend === 'postgresql') db = await openTestDatabase('postgresql');
    const config = loadConfig({
      DATA_DIR: dataDir,
      PORT: '0',
      EMBEDDER: 'none',
      INGEST_ON_START: 'false',
      STRIPE_SECRET_KEY: 'sk_test_platform',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: stripeServer.url,
      STRIPE_TIMEOUT_MS: '1000',
      STRIPE_MAX_NETWORK_RETRIES: '1',
      // one request past the allowance costs a dollar: a $5 top-up is 5 requests
      BILLING_EXTRA_REQUEST_PRICE_USD: '1',
      ...(db ? { DATABASE_URL: String(db.orm.config.get('clientUrl')) } : {}),
    });
    platform = await startPlatform(config, createLogger('silent'));
    url = platform.url!;
  }, 300_000);

  afterAll(async () => {
    await platform?.stop();
    await db?.dispose();
    await stripeServer?.stop();
  });

  afterEach(() => stripeServer.clearFailures());

  it('shows the Stripe price ids in the plans with billing on', async () => {
    const res = await api('GET', '/v1/billing/plans');
    expect(res.body.plans.find((p: any) => p.slug === 'developer_pro').price_ids).toEqual({ monthly: 'price_developer_pro_monthly', yearly: 'price_developer_pro_yearly' });
    expect(res.body.plans.find((p: any) => p.slug === 'free').price_ids).toEqual({ monthly: null, yearly: null });
  });

  describe('promotion codes', () => {
    it('answers valid codes with their discount, and invalid ones with a reason; the code is required; credentials too', async () => {
      const { cookie } = await newAccount('promo');
      expect((await api('GET', '/v1/billing/promo?code=NOPE')).status).toBe(401);
      stripeServer.addPromotionCode('LAUNCH20', { percent_off: 20, duration: 'repeating', duration_in_months: 3, products: ['prod_professional'] }, { max_redemptions: 10, times_redeemed: 4, expires_at: Math.floor(Date.now() / 1000) + 86400 });
      stripeServer.addPromotionCode('OLD10', { amount_off: 1000 }, { expires_at: Math.floor(Date.now() / 1000) - 60 });
      stripeServer.addPromotionCode('GONE', { percent_off: 50 }, { max_redemptions: 5, times_redeemed: 5 });
      const valid = await api('GET', '/v1/billing/promo?code=LAUNCH20', undefined, { cookie });
      expect(valid.status).toBe(200);
      expect(valid.body).toEqual({
        code: 'LAUNCH20',
        valid: true,
        percent_off: 20,
        amount_off: null,
        currency: null,
        duration: 'repeating',
        duration_in_months: 3,
        plans: ['professional'],
        expires_at: expect.stringMatching(/^\d{4}-/),
        seats_remaining: 6,
      });
      expect((await api('GET', '/v1/billing/promo?code=OLD10', undefined, { cookie })).body).toEqual({ code: 'OLD10', valid: false, reason: 'expired' });
      expect((await api('GET', '/v1/billing/promo?code=GONE', undefined, { cookie })).body).toEqual({ code: 'GONE', valid: false, reason: 'used_up' });
      expect((await api('GET', '/v1/billing/promo?code=NOPE', undefined, { cookie })).body).toEqual({ code: 'NOPE', valid: false, reason: 'unknown' });
      const missing = await api('GET', '/v1/billing/promo', undefined, { cookie });
      expect(missing.status).toBe(422);
      expect(missing.body.detail).toEqual([expect.objectContaining({ type: 'missing', loc: ['query', 'code'] })]);
    });
  });

  describe('checkout, subscription, webhooks', () => {
    let buyer: { id: string; cookie: string };
    let sessionId: string;
    let subscriptionId: string;

    beforeAll(async () => {
      buyer = await newAccount();
    });

    it('refuses every invalid order with a 422 and stores nothing', async () => {
      const cases: [object, string][] = [
        [{ ...validCheckout, legal_accepted: false }, 'body.legal_accepted'],
        [{ plan: 'professional' }, 'body.legal_accepted'],
        [{ ...validCheckout, plan: 'enterprise' }, 'body.plan'],
        [{ ...validCheckout, plan: 'free' }, 'body.plan'],
        [{ ...validCheckout, interval: 'weekly' }, 'body.interval'],
        [{ ...validCheckout, quantity: 0 }, 'body.quantity'],
        [{ ...validCheckout, plan: 'developer_pro', quantity: 2, workspace_name: null }, 'body.quantity'],
        [{ ...validCheckout, plan: 'developer_pro', quantity: 1 }, 'body.workspace_name'],
        [{ ...validCheckout, promo_code: 'GONE' }, 'body.promo_code'],
        [{ ...validCheckout, plan: 'developer_pro', quantity: 1, workspace_name: null, promo_code: 'LAUNCH20' }, 'body.promo_code'],
      ];
      // an account of its own: refused checkouts count in the caller's checkout budget (10 a minute)
      const refused = await newAccount();
      for (const [body, loc] of cases) {
        const res = await api('POST', '/v1/billing/checkout', body, { cookie: refused.cookie });
        expect([res.status, res.body.detail.map((d: any) => d.loc.join('.'))]).toEqual([422, [loc]]);
      }
      expect(await sql('select * from legal_assent where user_id = ?', [refused.id])).toEqual([]);
      expect(await sql('select * from billing_checkout_session where user_id = ?', [refused.id])).toEqual([]);
      expect((await api('POST', '/v1/billing/checkout', validCheckout)).status).toBe(401);
    });

    it('records the assent, then creates a subscription checkout session for the account\'s one Stripe customer', async () => {
      const before = stripeServer.requests.length;
      const res = await api('POST', '/v1/billing/checkout', { ...validCheckout, promo_code: 'LAUNCH20' }, { cookie: buyer.cookie, headers: { 'user-agent': 'billing-test/1.0' } });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['checkout_url']);
      sessionId = /\/c\/pay\/(cs_test_\w+)$/.exec(res.body.checkout_url)![1]!;
      const [assent] = await sql('select * from legal_assent where user_id = ?', [buyer.id]);
      expect(assent.documents).toEqual({ general_service_agreement: '2025-01', api_mcp_service_terms: '2025-01', data_processing_agreement: '2025-01', privacy_notice_acknowledged: '2025-01' });
      expect(assent.order_summary).toMatchObject({ plan: 'professional', interval: 'monthly', quantity: 3, unit_price_usd: 29, subtotal_usd: 87, discount: { code: 'LAUNCH20', percent_off: 20 }, workspace_name: 'Acme Legal' });
      expect(assent.user_agent).toBe('billing-test/1.0');
      expect(assent.ip).toBeTruthy();
      expect(assent.checkout_session_id).toBe(sessionId);
      const created = stripeServer.requests.slice(before).find((r) => r.path === '/v1/checkout/sessions')!;
      expect(created.idempotencyKey).toBe(`checkout-${assent.id}`);
      expect(created.body).toMatchObject({
        mode: 'subscription',
        client_reference_id: buyer.id,
        line_items: [{ price: 'price_professional_monthly', quantity: '3' }],
        discounts: [{ promotion_code: expect.stringMatching(/^promo_/) }],
        metadata: { account_id: buyer.id, assent_id: assent.id, plan: 'professional', workspace_name: 'Acme Legal' },
        success_url: expect.stringContaining('/dashboard/billing?checkout=success&session_id={CHECKOUT_SESSION_ID}'),
      });
      const [account] = await sql('select stripe_customer_id from billing_account where user_id = ?', [buyer.id]);
      expect(created.body.customer).toBe(account.stripe_customer_id);
      // a second checkout (the first was abandoned) reuses the customer
      const again = await api('POST', '/v1/billing/checkout', validCheckout, { cookie: buyer.cookie });
      expect(again.status).toBe(200);
      expect(stripeServer.requests.filter((r) => r.path === '/v1/customers' && r.body.metadata?.account_id === buyer.id)).toHaveLength(1);
    });

    it('lets only the creator verify a session (404 for others); open sessions change nothing', async () => {
      const other = await newAccount('other');
      expect((await api('POST', '/v1/billing/checkout/verify', { session_id: sessionId }, { cookie: other.cookie })).status).toBe(404);
      const open = await api('POST', '/v1/billing/checkout/verify', { session_id: sessionId }, { cookie: buyer.cookie });
      expect(open.body).toMatchObject({ session_id: sessionId, status: 'open', plan: 'professional', quantity: 3, workspace_id: null });
      expect((await api('GET', '/auth/me', undefined, { cookie: buyer.cookie })).body.plan).toBe('free');
    });

    it('activates the plan on checkout.session.completed: billing window, seats and limits follow the subscription', async () => {
      const session = stripeServer.completeSession(sessionId);
      subscriptionId = session.subscription;
      const res = await deliver(stripeServer.event('checkout.session.completed', session));
      expect(res).toEqual({ status: 200, body: { received: true, duplicate: false } });
      const status = await api('GET', '/v1/billing/status', undefined, { cookie: buyer.cookie });
      expect(status.body).toMatchObject({
        billing_enabled: true,
        plan: 'professional',
        subscription: { id: subscriptionId, plan: 'professional', status: 'active', interval: 'monthly', quantity: 3, cancel_at_period_end: false },
        workspace: { name: 'Acme Legal', seat_limit: 3 },
        admin_override: null,
      });
      const sub = stripeServer.subscriptions.get(subscriptionId)!;
      const usage = await api('GET', '/v1/usage/me', undefined, { cookie: buyer.cookie });
      expect(usage.body).toMatchObject({
        plan: 'professional',
        period_type: 'billing_period',
        period_start: new Date(sub.items.data[0].current_period_start * 1000).toISOString(),
        period_end: new Date(sub.items.data[0].current_period_end * 1000).toISOString(),
        per_minute_limit: PLANS.professional.perMinute,
        per_period_limit: PLANS.professional.perPeriod * 3,
      });
      // verification after the webhook: same attribution, nothing written twice
      const verified = await api('POST', '/v1/billing/checkout/verify', { session_id: sessionId }, { cookie: buyer.cookie });
      expect(verified.body).toEqual({ session_id: sessionId, mode: 'subscription', status: 'complete', payment_status: 'paid', plan: 'professional', interval: 'monthly', quantity: 3, workspace_id: status.body.workspace.id, credits_usd: null });
      expect(await sql('select count(*)::int as n from billing_subscription where user_id = ?', [buyer.id])).toEqual([{ n: 1 }]);
      expect(await sql('select count(*)::int as n from workspace where owner_user_id = ?', [buyer.id])).toEqual([{ n: 1 }]);
    });

    it('answers a replayed event 200 without applying it again, and refuses a second subscription with 409', async () => {
      const event = stripeServer.event('customer.subscription.updated', stripeServer.subscriptions.get(subscriptionId)!);
      expect((await deliver(event)).body).toEqual({ received: true, duplicate: false });
      expect((await deliver(event)).body).toEqual({ received: true, duplicate: true });
      const again = await api('POST', '/v1/billing/checkout', validCheckout, { cookie: buyer.cookie });
      expect(again.status).toBe(409);
      expect(again.body.detail).toMatch(/portal/);
    });

    it('syncs seat_limit with the quantity, and an older event delivered late never overwrites the newer state', async () => {
      const older = stripeServer.event('customer.subscription.updated', stripeServer.subscriptions.get(subscriptionId)!, Math.floor(Date.now() / 1000) - 60);
      const newer = stripeServer.updateSubscription(subscriptionId, { quantity: 5 });
      expect((await deliver(stripeServer.event('customer.subscription.updated', newer))).status).toBe(200);
      expect((await deliver(older)).status).toBe(200); // carries quantity 3
      const status = (await api('GET', '/v1/billing/status', undefined, { cookie: buyer.cookie })).body;
      expect(status.subscription.quantity).toBe(5);
      expect(status.workspace.seat_limit).toBe(5);
      expect((await api('GET', '/v1/usage/me', undefined, { cookie: buyer.cookie })).body.per_period_limit).toBe(PLANS.professional.perPeriod * 5);
    });

    it('shows a failed renewal as past_due and keeps the plan meanwhile', async () => {
      stripeServer.updateSubscription(subscriptionId, { status: 'past_due' });
      const invoice = { id: 'in_test_1', object: 'invoice', customer: stripeServer.subscriptions.get(subscriptionId)!.customer, parent: { type: 'subscription_details', subscription_details: { subscription: subscriptionId } } };
      expect((await deliver(stripeServer.event('invoice.payment_failed', invoice))).status).toBe(200);
      const status = (await api('GET', '/v1/billing/status', undefined, { cookie: buyer.cookie })).body;
      expect([status.plan, status.subscription.status]).toEqual(['professional', 'past_due']);
      stripeServer.updateSubscription(subscriptionId, { status: 'active' });
      expect((await deliver(stripeServer.event('invoice.paid', invoice))).status).toBe(200);
      expect((await api('GET', '/v1/billing/status', undefined, { cookie: buyer.cookie })).body.subscription.status).toBe('active');
    });

    it('refuses a missing or bad signature with 400 and changes nothing', async () => {
      const changed = stripeServer.updateSubscription(subscriptionId, { quantity: 9 });
      const event = stripeServer.event('customer.subscription.updated', changed);
      const bad = await deliver(event, signer.webhooks.generateTestHeaderString({ payload: JSON.stringify(event), secret: 'whsec_wrong' }));
      expect(bad.status).toBe(400);
      const none = await fetch(`${url}/v1/billing/webhooks`, { method: 'POST', body: JSON.stringify(event) });
      expect(none.status).toBe(400);
      expect(await sql('select * from billing_processed_event where id = ?', [event.id])).toEqual([]);
      expect((await api('GET', '/v1/billing/status', undefined, { cookie: buyer.cookie })).body.workspace.seat_limit).toBe(5);
      stripeServer.updateSubscription(subscriptionId, { quantity: 5 });
    });

    it('answers 500 when an event cannot be applied (Stripe failing), records nothing, and applies it on redelivery', async () => {
      const changed = stripeServer.updateSubscription(subscriptionId, { quantity: 6 });
      const event = stripeServer.event('customer.subscription.updated', changed);
      stripeServer.failNext(2, 500, '/v1/subscriptions');
      expect((await deliver(event)).status).toBe(500);
      expect(await sql('select * from billing_processed_event where id = ?', [event.id])).toEqual([]);
      expect((await api('GET', '/v1/billing/status', undefined, { cookie: buyer.cookie })).body.workspace.seat_limit).toBe(5);
      expect((await deliver(event)).body).toEqual({ received: true, duplicate: false });
      expect((await api('GET', '/v1/billing/status', undefined, { cookie: buyer.cookie })).body.workspace.seat_limit).toBe(6);
    });

    it('opens the customer portal for an account with a customer; 409 without', async () => {
      for (const method of ['GET', 'POST']) {
        const res = await api(method, '/v1/billing/portal', undefined, { cookie: buyer.cookie });
        expect(res.status).toBe(200);
        expect(res.body.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/p\/session\//);
      }
      const created = stripeServer.requests.filter((r) => r.path === '/v1/billing_portal/sessions').at(-1)!;
      expect(created.body.return_url).toMatch(/\/dashboard\/billing$/);
      const fresh = await newAccount('portal');
      expect((await api('GET', '/v1/billing/portal', undefined, { cookie: fresh.cookie })).status).toBe(409);
    });

    it('grants a credit top-up exactly once when Stripe reports the payment', async () => {
      const res = await api('POST', '/v1/billing/credit-topups/checkout', { amount_usd: 25 }, { cookie: buyer.cookie });
      expect(res.status).toBe(200);
      const topupSession = /\/c\/pay\/(cs_test_\w+)$/.exec(res.body.checkout_url)![1]!;
      const created = stripeServer.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!;
      expect(created.body).toMatchObject({ mode: 'payment', line_items: [{ price_data: { currency: 'usd', unit_amount: '2500' }, quantity: '1' }], payment_intent_data: { setup_future_usage: 'off_session' } });
      const paid = stripeServer.completeSession(topupSession);
      expect((await deliver(stripeServer.event('checkout.session.completed', paid))).status).toBe(200);
      // another event about the same payment, and the verification, grant nothing more
      expect((await deliver(stripeServer.event('checkout.session.completed', paid))).status).toBe(200);
      const verified = await api('POST', '/v1/billing/checkout/verify', { session_id: topupSession }, { cookie: buyer.cookie });
      expect(verified.body).toMatchObject({ mode: 'payment', status: 'complete', credits_usd: 25 });
      expect((await api('GET', '/v1/billing/status', undefined, { cookie: buyer.cookie })).body.credits.balance_usd).toBe(25);
      for (const amount_usd of [4, 1001, 'ten']) {
        expect((await api('POST', '/v1/billing/credit-topups/checkout', { amount_usd }, { cookie: buyer.cookie })).status).toBe(422);
      }
      const free = await newAccount('free');
      expect((await api('POST', '/v1/billing/credit-topups/checkout', { amount_usd: 10 }, { cookie: free.cookie })).status).toBe(409);
    });

    it('returns the account to Free when the subscription is deleted', async () => {
      const canceled = stripeServer.updateSubscription(subscriptionId, { status: 'canceled' });
      expect((await deliver(stripeServer.event('customer.subscription.deleted', canceled))).status).toBe(200);
      const status = (await api('GET', '/v1/billing/status', undefined, { cookie: buyer.cookie })).body;
      expect([status.plan, status.subscription.status]).toEqual(['free', 'canceled']);
      const usage = (await api('GET', '/v1/usage/me', undefined, { cookie: buyer.cookie })).body;
      expect(usage).toMatchObject({ plan: 'free', period_type: 'rolling_30d', period_end: null, per_period_limit: PLANS.free.perPeriod });
    });
  });

  describe('extra credits past the allowance', () => {
    let account: { id: string; cookie: string };
    let key: string;
    let customerId: string;
    let topupIntent: string;
    const billable = () => api('GET', '/v1/documents/DE/NoSuchSource/nothing', undefined, { key });
    const balance = async () => (await api('GET', '/v1/billing/status', undefined, { cookie: account.cookie })).body.credits;

    async function buyCredits(amount_usd: number): Promise<string> {
      const res = await api('POST', '/v1/billing/credit-topups/checkout', { amount_usd }, { cookie: account.cookie });
      const session = stripeServer.completeSession(/\/c\/pay\/(cs_test_\w+)$/.exec(res.body.checkout_url)![1]!);
      expect((await deliver(stripeServer.event('checkout.session.completed', session))).status).toBe(200);
      return session.payment_intent;
    }

    beforeAll(async () => {
      account = await newAccount('credits');
      key = (await api('POST', '/v1/keys', { name: 'credits' }, { cookie: account.cookie })).body.key;
      const checkout = await api('POST', '/v1/billing/checkout', { plan: 'professional', quantity: 1, legal_accepted: true }, { cookie: account.cookie });
      const session = stripeServer.completeSession(/\/c\/pay\/(cs_test_\w+)$/.exec(checkout.body.checkout_url)![1]!);
      customerId = session.customer;
      // the billing window began yesterday, and the whole allowance was used an hour ago
      const sub = stripeServer.updateSubscription(session.subscription, { periodStart: Math.floor(Date.now() / 1000) - 86400 });
      expect((await deliver(stripeServer.event('customer.subscription.updated', sub))).status).toBe(200);
      // (a per-seat plan's period is its team workspace's pool: the rows carry the workspace, as the recorder writes them)
      await sql(
        `insert into usage_event (user_id, api_key_id, client_ip, workspace_id, endpoint, status, created_at)
         select ?::uuid, null, null, (select id from workspace where owner_user_id = ?::uuid), 'documents', 200, ?::timestamptz from generate_series(1, ?::int)`,
        [account.id, account.id, new Date(Date.now() - 3600_000), PLANS.professional.perPeriod],
      );
    });

    it('answers 429 at zero, draws credits past the allowance, and 20 parallel requests at 5 requests\' worth overspend nothing', async () => {
      const empty = await billable();
      expect(empty.status).toBe(429);
      topupIntent = await buyCredits(5);
      expect((await balance()).balance_usd).toBe(5);
      const statuses = (await Promise.all(Array.from({ length: 20 }, () => billable()))).map((r) => r.status);
      expect(statuses.filter((s) => s === 404)).toHaveLength(5); // served (the document does not exist)
      expect(statuses.filter((s) => s === 429)).toHaveLength(15);
      expect((await balance()).balance_usd).toBe(0);
      expect((await billable()).status).toBe(429);
      await platform.billing.credits.meter.flush();
      const ledger = await sql(`select kind, sum(amount_micro_usd)::bigint as total from credit_ledger where user_id = ? group by kind order by kind`, [account.id]);
      expect(ledger.map((r) => [r.kind, Number(r.total)])).toEqual([
        ['consumption', -5_000_000],
        ['grant', 5_000_000],
      ]);
    });

    it('tops up automatically off-session with the saved card, once; a declined card turns it off and says why', async () => {
      expect((await api('GET', '/v1/billing/credit-topups/auto', undefined, { cookie: account.cookie })).body).toEqual({ enabled: false, threshold_usd: 10, amount_usd: 10, last_failure: null });
      expect((await api('PUT', '/v1/billing/credit-topups/auto', { enabled: true, threshold_usd: 2, amount_usd: 5 }, { cookie: account.cookie })).status).toBe(409);
      const bad = await api('PUT', '/v1/billing/credit-topups/auto', { enabled: true, threshold_usd: 0, amount_usd: 2000 }, { cookie: account.cookie });
      expect([bad.status, bad.body.detail.map((d: any) => d.loc.join('.'))]).toEqual([422, ['body.threshold_usd', 'body.amount_usd']]);

      stripeServer.savePaymentMethod(customerId, 'pm_test_good', 'succeed');
      const before = stripeServer.requests.length;
      // another process holds the account's auto top-up claim: this one charges nothing
      await sql('update billing_account set auto_topup_started_at = ? where user_id = ?', [new Date(), account.id]);
      const on = await api('PUT', '/v1/billing/credit-topups/auto', { enabled: true, threshold_usd: 2, amount_usd: 5 }, { cookie: account.cookie });
      expect(on.body).toEqual({ enabled: true, threshold_usd: 2, amount_usd: 5, last_failure: null });
      await platform.billing.autoTopup.settled(account.id); // the balance (0) was already under the threshold
      expect(stripeServer.requests.slice(before).filter((r) => r.path === '/v1/payment_intents')).toEqual([]);
      await sql('update billing_account set auto_topup_started_at = null where user_id = ?', [account.id]);
      expect((await billable()).status).toBe(429); // at zero: 429, and the auto top-up starts
      await platform.billing.autoTopup.settled(account.id);
      const charges = stripeServer.requests.slice(before).filter((r) => r.path === '/v1/payment_intents');
      expect(charges).toHaveLength(1);
      expect(charges[0]!.body).toMatchObject({ amount: '500', currency: 'usd', customer: customerId, payment_method: 'pm_test_good', off_session: 'true', confirm: 'true' });
      expect(charges[0]!.idempotencyKey).toMatch(/^auto-topup-/);
      expect((await balance()).balance_usd).toBe(5);
      // Stripe's own report of the same payment grants nothing more
      const intent = stripeServer.paymentIntents.get([...stripeServer.paymentIntents.keys()].at(-1)!)!;
      expect((await deliver(stripeServer.event('payment_intent.succeeded', intent))).status).toBe(200);
      expect((await balance()).balance_usd).toBe(5);

      stripeServer.savePaymentMethod(customerId, 'pm_test_declined', 'decline');
      for (let i = 0; i < 4; i++) expect((await billable()).status).toBe(404); // 5 → 1, under the threshold of 2
      await platform.billing.autoTopup.settled(account.id);
      const credits = await balance();
      expect(credits.balance_usd).toBe(1);
      expect(credits.auto_topup.enabled).toBe(false);
      expect(credits.auto_topup_last_failure).toEqual({ reason: 'card_declined', at: expect.any(String) });
      expect(await sql('select auto_topup_started_at from billing_account where user_id = ?', [account.id])).toEqual([{ auto_topup_started_at: null }]);
      expect((await api('GET', '/v1/billing/credit-topups/auto', undefined, { cookie: account.cookie })).body).toMatchObject({ enabled: false, last_failure: { reason: 'card_declined' } });

      // a card that needs the customer present: turned off again, with that reason
      stripeServer.savePaymentMethod(customerId, 'pm_test_3ds', 'authentication_required');
      const again = await api('PUT', '/v1/billing/credit-topups/auto', { enabled: true, threshold_usd: 2, amount_usd: 5 }, { cookie: account.cookie });
      expect(again.body).toMatchObject({ enabled: true, last_failure: null });
      await platform.billing.autoTopup.settled(account.id); // balance 1, under the threshold
      expect((await balance()).auto_topup_last_failure).toEqual({ reason: 'authentication_required', at: expect.any(String) });
      expect((await balance()).auto_topup.enabled).toBe(false);
    });

    it('takes refunded credits back, the balance floored at zero and the shortfall recorded', async () => {
      const charge = stripeServer.refund(topupIntent, 500);
      const event = stripeServer.event('charge.refunded', charge);
      expect((await deliver(event)).status).toBe(200);
      expect((await deliver({ ...event, id: `${event.id}_again` })).status).toBe(200); // same refund reported twice
      expect((await balance()).balance_usd).toBe(0);
      const rows = await sql(`select kind, amount_micro_usd, note from credit_ledger where user_id = ? and kind like 'refund%' order by kind`, [account.id]);
      expect(rows.map((r) => [r.kind, Number(r.amount_micro_usd)])).toEqual([
        ['refund', -1_000_000],
        ['refund_shortfall', 0],
      ]);
      expect(JSON.parse(rows[1].note)).toEqual({ charge: charge.id, shortfall_usd: 4 });
    });
  });

  describe('Stripe failing', () => {
    it('answers 502 when Stripe answers 500 (after the library retried with the same key) or times out, and leaves no session behind', async () => {
      const account = await newAccount('fail');
      stripeServer.failNext(2, 500, '/v1/checkout/sessions');
      const before = stripeServer.requests.length;
      const res = await api('POST', '/v1/billing/checkout', validCheckout, { cookie: account.cookie });
      expect(res.status).toBe(502);
      expect(res.body.detail).toMatch(/payment provider answered 500 while creating the checkout session/);
      const tries = stripeServer.requests.slice(before).filter((r) => r.path === '/v1/checkout/sessions');
      expect(tries).toHaveLength(2);
      expect(new Set(tries.map((t) => t.idempotencyKey)).size).toBe(1);
      expect(await sql('select * from billing_checkout_session where user_id = ?', [account.id])).toEqual([]);
      // the assent stays as the record of what was accepted, linked to no session
      expect((await sql('select checkout_session_id from legal_assent where user_id = ?', [account.id])).map((r) => r.checkout_session_id)).toEqual([null]);

      stripeServer.failNext(2, 'hang', '/v1/billing_portal');
      const portal = await api('POST', '/v1/billing/portal', undefined, { cookie: account.cookie });
      expect(portal.status).toBe(502);
      expect(portal.body.detail).toMatch(/could not be reached or did not answer in time/);
    });
  });

  describe('audience', () => {
    it('stores a Free account\'s choice, refuses unknown values (422) and paid accounts (409)', async () => {
      const account = await newAccount('audience');
      expect((await api('POST', '/v1/billing/audience', { audience: 'developer' }, { cookie: account.cookie })).body).toEqual({ audience: 'developer' });
      expect((await api('GET', '/v1/billing/status', undefined, { cookie: account.cookie })).body.audience).toBe('developer');
      const bad = await api('POST', '/v1/billing/audience', { audience: 'students' }, { cookie: account.cookie });
      expect([bad.status, bad.body.detail[0].loc]).toEqual([422, ['body', 'audience']]);
      await sql(`update app_user set plan = 'developer_pro' where id = ?`, [account.id]);
      expect((await api('POST', '/v1/billing/audience', { audience: 'legal_professional' }, { cookie: account.cookie })).status).toBe(409);
    });
  });
});
