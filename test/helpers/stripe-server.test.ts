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

  it('declines off-session payment intents as card errors', async () => {
    const customer = await stripe.customers.create({});
    server.savePaymentMethod(customer.id, 'pm_bad', 'decline');
    await expect(
      stripe.paymentIntents.create({ amount: 1000, currency: 'usd', customer: customer.id, payment_method: 'pm_bad', off_session: true, confirm: true }),
    ).rejects.toMatchObject({ type: 'StripeCardError', code: 'card_declined', statusCode: 402 });
  });
});
