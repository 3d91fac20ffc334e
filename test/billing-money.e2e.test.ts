/**
 * Money is never taken twice and promotion codes keep their restrictions (issue #33 item 8), end
 * to end over real HTTP, on embedded PGlite and on real PostgreSQL, against the local server
 * speaking Stripe's protocol (test/helpers/stripe-server.ts: prices, invoices and their
 * payments, refunds, cancellation, `applies_to` only when expanded, promotion codes inactive
 * once expired or used up, as Stripe has them).
 *
 * - Two checkouts started before either is paid (a double click, two tabs) both paid: the
 *   customer's oldest subscription stays, the other is refunded in full (reason `duplicate`)
 *   and cancelled, whichever event or verification reports it, in whatever order, however often.
 * - A promotion code limited to one product is offered and accepted for that plan only.
 * - Expired and used-up codes say so.
 */
import Stripe from 'stripe';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { call, cookieFrom } from './helpers/http.js';
import { startLocalStripe, type LocalStripe } from './helpers/stripe-server.js';
import { openTestDatabase, TEST_BACKENDS, type TestDatabase } from './helpers/test-databases.js';
import { makeTestDataDir } from './helpers/pglite-template.js';

const PASSWORD = 'a sturdy passphrase 42';
const WEBHOOK_SECRET = 'whsec_test_billing_money';
const signer = new Stripe('sk_test_signer');
const DEVELOPER_PRO = { plan: 'developer_pro', interval: 'monthly', quantity: 1, legal_accepted: true };

describe.each(TEST_BACKENDS)('money: nothing charged twice, restrictions honoured (%s)', (backend) => {
  let stripe: LocalStripe;
  let platform: Platform;
  let db: TestDatabase | null = null;
  let url: string;
  let seq = 0;
  const api = (method: string, route: string, body?: unknown, cookie?: string) => call(`${url}${route}`, method, body, cookie ? { cookie } : undefined);
  const sql = (query: string, params: unknown[] = []) => platform.orm.em.fork().getConnection().execute(query, params) as Promise<any[]>;

  async function newAccount(prefix: string): Promise<{ id: string; cookie: string }> {
    const email = `${prefix}${++seq}-${backend}@example.org`;
    const reg = await api('POST', '/auth/register', { email, password: PASSWORD, accept_terms: true, acknowledge_privacy: true });
    expect(reg.status).toBe(200);
    const login = await api('POST', '/auth/login', { email, password: PASSWORD });
    return { id: reg.body.id, cookie: cookieFrom(login.headers, 'session')! };
  }

  async function deliver(event: object): Promise<{ status: number; body: any }> {
    const payload = JSON.stringify(event);
    const header = signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const res = await fetch(`${url}/v1/billing/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': header }, body: payload });
    return { status: res.status, body: await res.json() };
  }

  /** Two checkouts of one account at once (a double click): both answered, two open sessions. */
  async function doubleCheckout(cookie: string, order: object = DEVELOPER_PRO): Promise<[string, string]> {
    const [a, b] = await Promise.all([api('POST', '/v1/billing/checkout', order, cookie), api('POST', '/v1/billing/checkout', order, cookie)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const id = (res: typeof a) => /\/c\/pay\/(cs_test_\w+)$/.exec(res.body.checkout_url)![1]!;
    expect(id(a)).not.toBe(id(b));
    return [id(a), id(b)];
  }

  /** The customer pays both sessions, `first` a second earlier (the older subscription). */
  function payBoth(first: string, second: string): [any, any] {
    const a = stripe.completeSession(first);
    const b = stripe.completeSession(second);
    const older = stripe.subscriptions.get(a.subscription)!;
    older.created -= 1;
    older.start_date -= 1;
    return [a, b];
  }

  const refundsOf = (subscriptionId: string) => {
    const invoice = stripe.subscriptions.get(subscriptionId)!.latest_invoice;
    const intents = [...stripe.invoicePayments.values()].filter((p) => p.invoice === invoice).map((p) => p.payment.payment_intent);
    return [...stripe.refunds.values()].filter((r) => intents.includes(r.payment_intent));
  };

  beforeAll(async () => {
    stripe = await startLocalStripe();
    stripe.addPrice('price_developer_pro_monthly', 4900, 'prod_developer_pro');
    stripe.addPrice('price_professional_monthly', 2900, 'prod_professional');
    stripe.addPrice('price_professional_plus_monthly', 5900, 'prod_professional_plus');
    const dataDir = await makeTestDataDir('billing-money-', backend);
    if (backend === 'postgresql') db = await openTestDatabase('postgresql');
    const config = loadConfig({
      DATA_DIR: dataDir,
      PORT: '0',
      EMBEDDER: 'none',
      INGEST_ON_START: 'false',
      STRIPE_SECRET_KEY: 'sk_test_platform',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: stripe.url,
      STRIPE_TIMEOUT_MS: '2000',
      STRIPE_MAX_NETWORK_RETRIES: '1',
      ...(db ? { DATABASE_URL: String(db.orm.config.get('clientUrl')) } : {}),
    });
    // errors logged: a 500 under the suite's load (once, in CI) then shows its cause in the output
    platform = await startPlatform(config, createLogger('error'));
    url = platform.url!;
  }, 300_000);

  afterAll(async () => {
    await platform?.stop();
    await db?.dispose();
    await stripe?.stop();
  });

  afterEach(() => stripe.clearFailures());

  describe('two checkouts paid before either was reported', () => {
    it('keeps one subscription at $49/month, refunds and cancels the other, once, however often and in whatever order it is reported', async () => {
      const buyer = await newAccount('double');
      const [first, second] = await doubleCheckout(buyer.cookie);
      const [a, b] = payBoth(first, second);
      const before = stripe.requests.length;

      // the second one reported first, then the first, then the second again under other events
      expect((await deliver(stripe.event('checkout.session.completed', b))).body).toEqual({ received: true, duplicate: false });
      expect((await deliver(stripe.event('checkout.session.completed', a))).body).toEqual({ received: true, duplicate: false });
      expect((await deliver(stripe.event('customer.subscription.created', stripe.subscriptions.get(b.subscription)!))).status).toBe(200);
      const invoice = stripe.invoices.get(b.invoice)!;
      expect((await deliver(stripe.event('invoice.paid', invoice))).status).toBe(200);
      expect((await api('POST', '/v1/billing/checkout/verify', { session_id: second }, buyer.cookie)).status).toBe(200);

      expect(stripe.subscriptions.get(a.subscription)!.status).toBe('active');
      expect(stripe.subscriptions.get(b.subscription)!).toMatchObject({ status: 'canceled', cancellation_details: { comment: `duplicate of ${a.subscription}` } });
      const refunds = refundsOf(b.subscription);
      expect(refunds).toEqual([expect.objectContaining({ amount: 4900, reason: 'duplicate', status: 'succeeded', metadata: { account_id: buyer.id, subscription: b.subscription, duplicate_of: a.subscription } })]);
      expect(refundsOf(a.subscription)).toEqual([]);
      // every refund request carried one idempotency key per duplicate payment; the cancellation came after the refund
      const calls = stripe.requests.slice(before);
      const refundCalls = calls.filter((r) => r.method === 'POST' && r.path === '/v1/refunds');
      expect(new Set(refundCalls.map((r) => r.idempotencyKey))).toEqual(new Set([`duplicate-refund-${b.subscription}-${refunds[0]!.payment_intent}`]));
      const cancels = calls.filter((r) => r.method === 'DELETE');
      expect(cancels.map((r) => r.path)).toEqual([`/v1/subscriptions/${b.subscription}`]);
      expect(calls.indexOf(refundCalls[0]!)).toBeLessThan(calls.indexOf(cancels[0]!));

      const status = (await api('GET', '/v1/billing/status', undefined, buyer.cookie)).body;
      expect(status.plan).toBe('developer_pro');
      expect(status.subscription).toMatchObject({ id: a.subscription, plan: 'developer_pro', status: 'active' });
      const rows = await sql('select id, status, duplicate_of, duplicate_refunded_cents, duplicate_refund_ids from billing_subscription where user_id = ? order by status', [buyer.id]);
      expect(rows).toEqual([
        { id: a.subscription, status: 'active', duplicate_of: null, duplicate_refunded_cents: null, duplicate_refund_ids: null },
        { id: b.subscription, status: 'canceled', duplicate_of: a.subscription, duplicate_refunded_cents: 4900, duplicate_refund_ids: refunds[0]!.id },
      ]);
    });

    it('settles every report arriving at once (webhooks and the buyer\'s verifications together): exactly one kept, one refunded', async () => {
      const buyer = await newAccount('race');
      const [first, second] = await doubleCheckout(buyer.cookie);
      const [a, b] = payBoth(first, second);
      const results = await Promise.all([
        deliver(stripe.event('checkout.session.completed', b)),
        deliver(stripe.event('checkout.session.completed', a)),
        api('POST', '/v1/billing/checkout/verify', { session_id: second }, buyer.cookie),
        api('POST', '/v1/billing/checkout/verify', { session_id: first }, buyer.cookie),
        deliver(stripe.event('customer.subscription.created', stripe.subscriptions.get(b.subscription)!)),
        deliver(stripe.event('invoice.paid', stripe.invoices.get(b.invoice)!)),
      ]);
      // (on PostgreSQL this once deadlocked: the account row and the subscription rows locked in opposite orders)
      expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
      expect([stripe.subscriptions.get(a.subscription)!.status, stripe.subscriptions.get(b.subscription)!.status]).toEqual(['active', 'canceled']);
      expect(refundsOf(b.subscription).map((r) => r.amount)).toEqual([4900]);
      const entitled = await sql(`select id from billing_subscription where user_id = ? and status = 'active'`, [buyer.id]);
      expect(entitled).toEqual([{ id: a.subscription }]);
      expect((await api('GET', '/v1/billing/status', undefined, buyer.cookie)).body).toMatchObject({ plan: 'developer_pro', subscription: { id: a.subscription } });
    });

    it('answers 500 when the refund fails, cancels nothing and records nothing; the redelivery refunds once and cancels', async () => {
      const buyer = await newAccount('refund-fails');
      const [first, second] = await doubleCheckout(buyer.cookie);
      const [a, b] = payBoth(first, second);
      expect((await deliver(stripe.event('checkout.session.completed', a))).status).toBe(200);
      const event = stripe.event('checkout.session.completed', b);
      stripe.failNext(2, 500, '/v1/refunds');
      expect((await deliver(event)).status).toBe(500);
      expect(stripe.subscriptions.get(b.subscription)!.status).toBe('active'); // refunded first, cancelled after: nothing lost
      expect(refundsOf(b.subscription)).toEqual([]);
      expect(await sql('select id from billing_processed_event where id = ?', [event.id])).toEqual([]);
      expect((await deliver(event)).body).toEqual({ received: true, duplicate: false });
      expect(stripe.subscriptions.get(b.subscription)!.status).toBe('canceled');
      expect(refundsOf(b.subscription).map((r) => r.amount)).toEqual([4900]);
      expect((await api('GET', '/v1/billing/status', undefined, buyer.cookie)).body).toMatchObject({ plan: 'developer_pro', subscription: { id: a.subscription, status: 'active' } });
    });

    it('keeps the older subscription when the two tabs bought different plans, and refunds the newer one at its own price', async () => {
      const buyer = await newAccount('two-plans');
      const tab1 = await api('POST', '/v1/billing/checkout', DEVELOPER_PRO, buyer.cookie);
      const tab2 = await api('POST', '/v1/billing/checkout', { plan: 'professional_plus', interval: 'monthly', quantity: 2, workspace_name: 'Two tabs', legal_accepted: true }, buyer.cookie);
      const id = (res: typeof tab1) => /\/c\/pay\/(cs_test_\w+)$/.exec(res.body.checkout_url)![1]!;
      const [a, b] = payBoth(id(tab1), id(tab2));
      expect((await deliver(stripe.event('checkout.session.completed', b))).status).toBe(200);
      expect((await deliver(stripe.event('checkout.session.completed', a))).status).toBe(200);
      expect(refundsOf(b.subscription).map((r) => r.amount)).toEqual([2 * 5900]);
      // the refunded per-seat duplicate made no team workspace
      expect((await api('GET', '/v1/billing/status', undefined, buyer.cookie)).body).toMatchObject({ plan: 'developer_pro', subscription: { id: a.subscription }, workspace: null });
      expect(await sql('select workspace_id from billing_subscription where id = ?', [b.subscription])).toEqual([{ workspace_id: null }]);
    });
  });

  describe('promotion codes', () => {
    let buyer: { id: string; cookie: string };
    beforeAll(async () => {
      buyer = await newAccount('promo');
      stripe.addPromotionCode('PROONLY25', { percent_off: 25, products: ['prod_professional'] });
      stripe.addPromotionCode('EVERYONE10', { percent_off: 10 });
      stripe.addPromotionCode('LASTYEAR', { percent_off: 30 }, { expires_at: Math.floor(Date.now() / 1000) - 3600 });
      stripe.addPromotionCode('ALLGONE', { amount_off: 500 }, { max_redemptions: 3, times_redeemed: 3 });
      stripe.addPromotionCode('SWITCHEDOFF', { percent_off: 15 }, { active: false });
    });

    it('offers a code limited to one product for that plan only (GET /v1/billing/promo)', async () => {
      const limited = await api('GET', '/v1/billing/promo?code=PROONLY25', undefined, buyer.cookie);
      expect(limited.body).toMatchObject({ code: 'PROONLY25', valid: true, percent_off: 25, plans: ['professional'] });
      const open = await api('GET', '/v1/billing/promo?code=EVERYONE10', undefined, buyer.cookie);
      expect(open.body.plans).toEqual(['professional', 'professional_plus', 'developer_pro', 'developer_scale']);
    });

    it('refuses the limited code at checkout for another plan (422 on promo_code, nothing stored) and accepts it for its own', async () => {
      const refused = await api('POST', '/v1/billing/checkout', { ...DEVELOPER_PRO, promo_code: 'PROONLY25' }, buyer.cookie);
      expect(refused.status).toBe(422);
      expect(refused.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'promo_code'], ctx: { error: 'not applicable' } })]);
      expect(await sql('select id from legal_assent where user_id = ?', [buyer.id])).toEqual([]);
      const accepted = await api('POST', '/v1/billing/checkout', { plan: 'professional', interval: 'monthly', quantity: 1, legal_accepted: true, promo_code: 'PROONLY25' }, buyer.cookie);
      expect(accepted.status).toBe(200);
      expect(stripe.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!.body.discounts).toEqual([{ promotion_code: expect.stringMatching(/^promo_/) }]);
    });

    it('says expired and used up where Stripe only says inactive, and inactive for a code switched off', async () => {
      const reason = async (code: string) => (await api('GET', `/v1/billing/promo?code=${code}`, undefined, buyer.cookie)).body;
      expect(await reason('LASTYEAR')).toEqual({ code: 'LASTYEAR', valid: false, reason: 'expired' });
      expect(await reason('ALLGONE')).toEqual({ code: 'ALLGONE', valid: false, reason: 'used_up' });
      expect(await reason('SWITCHEDOFF')).toEqual({ code: 'SWITCHEDOFF', valid: false, reason: 'inactive' });
      const atCheckout = await api('POST', '/v1/billing/checkout', { ...DEVELOPER_PRO, promo_code: 'ALLGONE' }, buyer.cookie);
      expect([atCheckout.status, atCheckout.body.detail[0].ctx]).toEqual([422, { error: 'used_up' }]);
    });
  });
});
