/** The local Stripe server against the real `stripe` package: encoding, objects, errors, idempotency, failures. */
import Stripe from 'stripe';
import { parseStripeForm, startLocalStripe, type LocalStripe } from './stripe-server.js';

describe('local Stripe server', () => {
  let server: LocalStripe;
  let stripe: Stripe;
  beforeAll(async () => {
    server = await startLocalStripe();
    const port = Number(new URL(server.url).port);
    stripe = new Stripe('sk_test_local', { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 1, timeout: 1000 });
  });
  afterAll(() => server.stop());

  it('parses bracket notation as Stripe does', () => {
    expect(parseStripeForm('line_items[0][price]=p1&line_items[0][quantity]=2&metadata[a]=b&expand[0]=x')).toEqual({
      line_items: [{ price: 'p1', quantity: '2' }],
      metadata: { a: 'b' },
      expand: ['x'],
    });
  });

  it('creates customers and sessions the library reads back, and answers Stripe error objects', async () => {
    const customer = await stripe.customers.create({ email: 'a@example.org', metadata: { account_id: 'u1' } });
    expect(customer).toMatchObject({ object: 'customer', email: 'a@example.org', metadata: { account_id: 'u1' } });
    const session = await stripe.checkout.sessions.create({ mode: 'subscription', customer: customer.id, success_url: 'http://x/ok', line_items: [{ price: 'price_a', quantity: 3 }] });
    expect(session.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/c\/pay\/cs_test_/);
    expect(server.sessionItems.get(session.id)).toEqual([{ price: 'price_a', quantity: '3' }]);
    await expect(stripe.customers.retrieve('cus_nope')).rejects.toMatchObject({ type: 'StripeInvalidRequestError', code: 'resource_missing', statusCode: 404 });
    await expect(stripe.checkout.sessions.create({ mode: 'subscription', success_url: 'http://x' } as never)).rejects.toMatchObject({ code: 'parameter_missing', param: 'line_items' });
  });

  it('replays an idempotent request and refuses the key with other parameters', async () => {
    const a = await stripe.customers.create({ email: 'b@example.org' }, { idempotencyKey: 'k1' });
    const b = await stripe.customers.create({ email: 'b@example.org' }, { idempotencyKey: 'k1' });
    expect(b.id).toBe(a.id);
    expect(b.lastResponse.headers['idempotent-replayed']).toBe('true');
    await expect(stripe.customers.create({ email: 'c@example.org' }, { idempotencyKey: 'k1' })).rejects.toMatchObject({ type: 'StripeIdempotencyError' });
  });

  it('answers 500 (retried by the library with the same key) and hangs until the client times out', async () => {
    server.failNext(1, 500);
    const before = server.requests.length;
    const customer = await stripe.customers.create({ email: 'd@example.org' });
    const tries = server.requests.slice(before);
    expect(tries).toHaveLength(2);
    expect(tries[0]!.idempotencyKey).toBeTruthy();
    expect(tries[1]!.idempotencyKey).toBe(tries[0]!.idempotencyKey);
    expect(customer.email).toBe('d@example.org');
    server.failNext(2, 'hang');
    await expect(stripe.customers.create({ email: 'e@example.org' })).rejects.toMatchObject({ type: 'StripeConnectionError' });
  });

  it("lists a customer's invoices newest first, paged by limit and starting_after, with their hosted pages", async () => {
    const mine = await stripe.customers.create({ email: 'inv@example.org' });
    const other = await stripe.customers.create({ email: 'other-inv@example.org' });
    const first = server.addInvoice(mine.id, { total: 2900, created: 1_700_000_000 });
    const second = server.addInvoice(mine.id, { total: 6960, created: 1_700_100_000 });
    server.addInvoice(other.id, { total: 100 });
    const page = await stripe.invoices.list({ customer: mine.id, limit: 1 });
    expect(page.data.map((i) => i.id)).toEqual([second.id]);
    expect(page.has_more).toBe(true);
    expect(page.data[0]).toMatchObject({ total: 6960, status: 'paid', hosted_invoice_url: `${server.url}/i/${second.id}` });
    const rest = await stripe.invoices.list({ customer: mine.id, limit: 10, starting_after: second.id });
    expect(rest.data.map((i) => i.id)).toEqual([first.id]);
    expect(rest.has_more).toBe(false);
  });

  it('declines off-session payment intents as card errors', async () => {
    const customer = await stripe.customers.create({});
    server.savePaymentMethod(customer.id, 'pm_bad', 'decline');
    await expect(
      stripe.paymentIntents.create({ amount: 1000, currency: 'usd', customer: customer.id, payment_method: 'pm_bad', off_session: true, confirm: true }),
    ).rejects.toMatchObject({ type: 'StripeCardError', code: 'card_declined', statusCode: 402 });
  });

  it('answers a coupon\'s applies_to only when expanded, and promotion codes inactive once expired or used up', async () => {
    const promo = server.addPromotionCode('ONLYPRO', { percent_off: 10, products: ['prod_pro'] });
    const couponId = promo.promotion.coupon;
    expect((await stripe.coupons.retrieve(couponId)).applies_to).toBeUndefined();
    expect((await stripe.coupons.retrieve(couponId, { expand: ['applies_to'] })).applies_to).toEqual({ products: ['prod_pro'] });
    server.addPromotionCode('PAST', { percent_off: 10 }, { expires_at: Math.floor(Date.now() / 1000) - 1 });
    server.addPromotionCode('SPENT', { percent_off: 10 }, { max_redemptions: 1, times_redeemed: 1 });
    for (const code of ['PAST', 'SPENT']) expect((await stripe.promotionCodes.list({ code })).data[0]!.active).toBe(false);
    expect((await stripe.promotionCodes.list({ code: 'ONLYPRO' })).data[0]!.active).toBe(true);
  });

  it('bills a paid subscription checkout through an invoice and its payment, refunds it once, cancels it once', async () => {
    server.addPrice('price_pro', 4900, 'prod_pro');
    const customer = await stripe.customers.create({});
    const created = await stripe.checkout.sessions.create({ mode: 'subscription', customer: customer.id, success_url: 'http://x/ok', line_items: [{ price: 'price_pro', quantity: 1 }] });
    const session = server.completeSession(created.id);
    const sub = await stripe.subscriptions.retrieve(session.subscription);
    expect((await stripe.subscriptions.list({ customer: customer.id })).data.map((s) => s.id)).toEqual([sub.id]);
    const [payment] = (await stripe.invoicePayments.list({ invoice: sub.latest_invoice as string, status: 'paid' })).data;
    expect(payment).toMatchObject({ amount_paid: 4900, payment: { type: 'payment_intent' } });
    const intent = payment!.payment.payment_intent as string;
    const refund = await stripe.refunds.create({ payment_intent: intent, reason: 'duplicate' });
    expect(refund).toMatchObject({ amount: 4900, status: 'succeeded', reason: 'duplicate' });
    await expect(stripe.refunds.create({ payment_intent: intent })).rejects.toMatchObject({ code: 'charge_already_refunded', statusCode: 400 });
    const canceled = await stripe.subscriptions.cancel(sub.id, { cancellation_details: { comment: 'why' } });
    expect(canceled).toMatchObject({ status: 'canceled', cancellation_details: { comment: 'why' } });
    await expect(stripe.subscriptions.cancel(sub.id)).rejects.toMatchObject({ statusCode: 400 });
    expect((await stripe.subscriptions.list({ customer: customer.id })).data).toEqual([]);
  });
});
