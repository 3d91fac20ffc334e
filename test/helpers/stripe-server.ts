/**
 * A local server that speaks Stripe's REST protocol, for the real `stripe` package to talk to in
 * tests: form-encoded bodies with bracket notation (`line_items[0][price]`, `metadata[k]`),
 * Stripe-shaped objects and list envelopes, Stripe error objects (`{"error": {type, code,
 * message, param}}`) with Stripe's statuses, and `Idempotency-Key` honoured (the first response
 * is stored and replayed with `Idempotent-Replayed: true`; another body under the same key is a
 * 400 `idempotency_error`). It can be told to answer 500 or to never answer, for the next
 * requests, to exercise retries and timeouts.
 *
 * Resources: customers, checkout sessions, subscriptions (retrieve, list, update, cancel),
 * prices, coupons, promotion codes, billing portal sessions, payment methods attached to a
 * customer, payment intents, invoices (retrieve, list by customer) and their invoice payments, refunds. As at Stripe, a
 * coupon's `applies_to` is includable: answered only when asked (`expand[]=applies_to`), and a
 * promotion code is `active` only while it is neither expired nor used up. What Stripe does on
 * its own side (a customer paying a checkout session, a subscription renewing, a refund) the
 * tests trigger with the control methods (`completeSession`, `updateSubscription`, …), which
 * return the object an event would carry; `event()` wraps it as Stripe's event envelope.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Obj = Record<string, any>;

interface Failure {
  mode: 500 | 'hang';
  /** Only requests whose path starts with this (default: every request). */
  pathPrefix?: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  idempotencyKey: string | null;
  body: Obj;
}

const now = () => Math.floor(Date.now() / 1000);
const newId = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;

/** Parses Stripe's form encoding (`a[b][0][c]=v`) into nested objects and arrays. */
export function parseStripeForm(text: string): Obj {
  const root: Obj = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const parts = rawKey.split(/[[\]]+/).filter((p, i) => p !== '' || i === 0);
    let target: any = root;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const key = part === '' ? String(target.length) : part;
      if (last) {
        target[key] = value;
        return;
      }
      const nextIsIndex = /^\d*$/.test(parts[i + 1]!);
      target[key] ??= nextIsIndex ? [] : {};
      target = target[key];
    });
  }
  return root;
}

class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code?: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

export class LocalStripe {
  readonly customers = new Map<string, Obj>();
  readonly sessions = new Map<string, Obj>();
  /** Line items of each checkout session (Stripe keeps them apart from the session object). */
  readonly sessionItems = new Map<string, Obj[]>();
  readonly subscriptions = new Map<string, Obj>();
  readonly coupons = new Map<string, Obj>();
  readonly promotionCodes = new Map<string, Obj>();
  readonly portalSessions = new Map<string, Obj>();
  readonly paymentIntents = new Map<string, Obj>();
  readonly paymentMethods = new Map<string, Obj>();
  /** Prices the tests declared (`addPrice`): what a completed checkout's invoice charges. */
  readonly prices = new Map<string, Obj>();
  readonly invoices = new Map<string, Obj>();
  readonly invoicePayments = new Map<string, Obj>();
  readonly refunds = new Map<string, Obj>();
  /** Each coupon's `applies_to`, kept apart: Stripe includes it only when asked. */
  private readonly couponAppliesTo = new Map<string, Obj>();
  readonly requests: RecordedRequest[] = [];
  /** Cards that decline (`card_declined`) or need the customer (`authentication_required`) off-session. */
  readonly paymentMethodBehaviour = new Map<string, 'succeed' | 'decline' | 'authentication_required'>();
  private readonly idempotent = new Map<string, { fingerprint: string; status: number; body: string }>();
  private readonly failures: Failure[] = [];
  private readonly hanging = new Set<ServerResponse>();
  private server!: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, 'close');
  }

  /** The next `count` API requests (optionally only under `pathPrefix`) answer 500 or never answer. */
  failNext(count: number, mode: 500 | 'hang', pathPrefix?: string): void {
    for (let i = 0; i < count; i++) this.failures.push({ mode, pathPrefix });
  }

  clearFailures(): void {
    this.failures.length = 0;
  }

  // --- control methods: what Stripe does on its side ----------------------------------------

  /** A coupon and its promotion code, as the Stripe dashboard creates them. */
  addPromotionCode(code: string, coupon: { percent_off?: number; amount_off?: number; duration?: string; duration_in_months?: number; products?: string[] }, options: { expires_at?: number | null; max_redemptions?: number | null; times_redeemed?: number; active?: boolean } = {}): Obj {
    const couponObject: Obj = {
      id: newId('co'),
      object: 'coupon',
      amount_off: coupon.amount_off ?? null,
      percent_off: coupon.percent_off ?? null,
      currency: coupon.amount_off ? 'usd' : null,
      duration: coupon.duration ?? 'once',
      duration_in_months: coupon.duration_in_months ?? null,
      created: now(),
      livemode: false,
      max_redemptions: null,
      metadata: {},
      name: null,
      redeem_by: null,
      times_redeemed: 0,
      valid: true,
    };
    this.coupons.set(couponObject.id, couponObject);
    if (coupon.products) this.couponAppliesTo.set(couponObject.id, { products: coupon.products });
    const promo: Obj = {
      id: newId('promo'),
      object: 'promotion_code',
      active: options.active ?? true,
      code,
      created: now(),
      customer: null,
      customer_account: null,
      expires_at: options.expires_at ?? null,
      livemode: false,
      max_redemptions: options.max_redemptions ?? null,
      metadata: {},
      promotion: { type: 'coupon', coupon: couponObject.id },
      restrictions: { first_time_transaction: false, minimum_amount: null, minimum_amount_currency: null },
      times_redeemed: options.times_redeemed ?? 0,
    };
    this.promotionCodes.set(promo.id, promo);
    return promo;
  }

  /** A recurring price of `product` at `unitAmount` cents (what a checkout of it charges). */
  addPrice(id: string, unitAmount: number, product: string, interval: 'month' | 'year' = 'month'): Obj {
    const price = { id, object: 'price', active: true, currency: 'usd', product, unit_amount: unitAmount, recurring: { interval }, type: 'recurring', livemode: false, created: now() };
    this.prices.set(id, price);
    return price;
  }

  /**
   * The customer paid checkout session `id`: a subscription (mode subscription) or a succeeded
   * payment intent (mode payment) is created, the session is complete. Returns the session.
   */
  completeSession(id: string, options: { paymentMethod?: string } = {}): Obj {
    const session = this.sessions.get(id);
    if (!session) throw new Error(`no session ${id}`);
    const items = this.sessionItems.get(id) ?? [];
    if (session.mode === 'subscription') {
      const start = now();
      const item = items[0]!;
      const interval = String(item.price).includes('yearly') ? 'year' : 'month';
      const end = start + (interval === 'year' ? 365 : 30) * 86400;
      const subscription: Obj = {
        id: newId('sub'),
        object: 'subscription',
        customer: session.customer,
        status: 'active',
        cancel_at_period_end: false,
        created: start,
        start_date: start,
        metadata: session.subscription_data?.metadata ?? {},
        items: {
          object: 'list',
          data: [
            {
              id: newId('si'),
              object: 'subscription_item',
              price: { id: item.price, object: 'price', recurring: { interval } },
              quantity: Number(item.quantity ?? 1),
              current_period_start: start,
              current_period_end: end,
            },
          ],
        },
        latest_invoice: null,
        canceled_at: null,
        ended_at: null,
        cancellation_details: { comment: null, feedback: null, reason: null },
      };
      this.subscriptions.set(subscription.id, subscription);
      const invoice = this.payFirstInvoice(subscription, items, session, options.paymentMethod);
      subscription.latest_invoice = invoice.id;
      session.subscription = subscription.id;
      session.invoice = invoice.id;
      session.amount_total = invoice.amount_paid;
    } else {
      const pm = options.paymentMethod ?? newId('pm');
      const intent = this.createIntent({ amount: session.amount_total, customer: session.customer, payment_method: pm, metadata: session.payment_intent_data?.metadata ?? {} }, 'succeed');
      session.payment_intent = intent.id;
    }
    session.status = 'complete';
    session.payment_status = 'paid';
    return structuredClone(session);
  }

  /**
   * The first invoice of a subscription a checkout created, paid: the declared prices times the
   * quantities, less the session's promotion code (when its coupon applies to the price's
   * product), paid by a succeeded payment intent recorded as the invoice's payment (none when
   * nothing is due). The promotion code counts one more redemption.
   */
  private payFirstInvoice(subscription: Obj, items: Obj[], session: Obj, paymentMethod: string | undefined): Obj {
    const promoId = session.discounts?.[0]?.promotion_code;
    const promo = promoId ? this.promotionCodes.get(promoId) : undefined;
    const coupon = promo ? this.coupons.get(promo.promotion.coupon) : undefined;
    const restrictedTo = coupon ? this.couponAppliesTo.get(coupon.id)?.products : undefined;
    let total = 0;
    for (const item of items) {
      const price = this.prices.get(item.price);
      const line = Number(price?.unit_amount ?? 0) * Number(item.quantity ?? 1);
      const discounted = coupon && (!restrictedTo || restrictedTo.includes(price?.product)) ? Math.max(0, coupon.percent_off ? Math.round(line * (1 - coupon.percent_off / 100)) : line - Number(coupon.amount_off ?? 0)) : line;
      total += discounted;
    }
    if (promo) promo.times_redeemed += 1;
    const invoice = this.addInvoice(subscription.customer, {
      total,
      billing_reason: 'subscription_create',
      parent: { type: 'subscription_details', subscription_details: { subscription: subscription.id, metadata: subscription.metadata } },
    });
    if (total > 0) {
      const intent = this.createIntent({ amount: total, customer: subscription.customer, payment_method: paymentMethod ?? newId('pm'), metadata: {} }, 'succeed');
      const payment = {
        id: newId('inpay'),
        object: 'invoice_payment',
        amount_paid: total,
        amount_requested: total,
        currency: 'usd',
        invoice: invoice.id,
        is_default: true,
        livemode: false,
        payment: { type: 'payment_intent', payment_intent: intent.id },
        status: 'paid',
        status_transitions: { canceled_at: null, paid_at: now() },
        created: now(),
      };
      this.invoicePayments.set(payment.id, payment);
    }
    return invoice;
  }

  /**
   * An invoice of `customer` as Stripe keeps it: numbered per customer, paid unless told otherwise,
   * with its hosted page and PDF on this server (`/i/<id>`); what a renewal or a checkout bills.
   */
  addInvoice(customer: string, fields: { total: number; status?: string; created?: number; billing_reason?: string; parent?: Obj; period_start?: number; period_end?: number }): Obj {
    const created = fields.created ?? now();
    const status = fields.status ?? 'paid';
    const count = [...this.invoices.values()].filter((inv) => inv.customer === customer).length;
    const id = newId('in');
    const invoice: Obj = {
      id,
      object: 'invoice',
      customer,
      number: `${customer.slice(-8).toUpperCase()}-${String(count + 1).padStart(4, '0')}`,
      status,
      total: fields.total,
      subtotal: fields.total,
      amount_due: fields.total,
      amount_paid: status === 'paid' ? fields.total : 0,
      currency: 'usd',
      billing_reason: fields.billing_reason ?? 'subscription_cycle',
      parent: fields.parent ?? null,
      period_start: fields.period_start ?? created,
      period_end: fields.period_end ?? created,
      hosted_invoice_url: `${this.url}/i/${id}`,
      invoice_pdf: `${this.url}/i/${id}/pdf`,
      created,
      livemode: false,
    };
    this.invoices.set(id, invoice);
    return invoice;
  }

  /** Changes a subscription as the portal or a renewal would; returns the new object. */
  updateSubscription(id: string, change: { quantity?: number; status?: string; cancel_at_period_end?: boolean; periodStart?: number; periodEnd?: number; price?: string }): Obj {
    const sub = this.subscriptions.get(id);
    if (!sub) throw new Error(`no subscription ${id}`);
    const item = sub.items.data[0];
    if (change.quantity !== undefined) item.quantity = change.quantity;
    if (change.status !== undefined) sub.status = change.status;
    if (change.cancel_at_period_end !== undefined) sub.cancel_at_period_end = change.cancel_at_period_end;
    if (change.periodStart !== undefined) item.current_period_start = change.periodStart;
    if (change.periodEnd !== undefined) item.current_period_end = change.periodEnd;
    if (change.price !== undefined) item.price = { ...item.price, id: change.price };
    return structuredClone(sub);
  }

  /** Refunds `amount` (cents) of a payment intent's charge; returns the charge object of `charge.refunded`. */
  refund(paymentIntentId: string, amount: number): Obj {
    const intent = this.paymentIntents.get(paymentIntentId);
    if (!intent) throw new Error(`no payment intent ${paymentIntentId}`);
    intent.amount_refunded = (intent.amount_refunded ?? 0) + amount;
    return { id: intent.latest_charge, object: 'charge', amount: intent.amount, amount_refunded: intent.amount_refunded, refunded: intent.amount_refunded >= intent.amount, payment_intent: intent.id, customer: intent.customer, metadata: intent.metadata, currency: 'usd' };
  }

  /** Saves a default payment method on a customer (what a completed checkout does with setup_future_usage). */
  savePaymentMethod(customerId: string, paymentMethod: string, behaviour: 'succeed' | 'decline' | 'authentication_required' = 'succeed'): void {
    const customer = this.customers.get(customerId);
    if (!customer) throw new Error(`no customer ${customerId}`);
    customer.invoice_settings.default_payment_method = paymentMethod;
    this.paymentMethods.set(paymentMethod, { id: paymentMethod, object: 'payment_method', type: 'card', customer: customerId, card: { brand: 'visa', last4: '4242' }, created: now(), livemode: false });
    this.paymentMethodBehaviour.set(paymentMethod, behaviour);
  }

  /** Stripe's event envelope around `object`. */
  event(type: string, object: Obj, created: number = now()): Obj {
    return { id: newId('evt'), object: 'event', api_version: '2026-10-28.endive', created, livemode: false, pending_webhooks: 1, type, data: { object: structuredClone(object) } };
  }

  // --- the HTTP side ----------------------------------------------------------------------

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://localhost');
    const text = Buffer.concat(chunks).toString('utf8');
    const body = req.method === 'GET' || req.method === 'DELETE' ? parseStripeForm(url.search.slice(1)) : parseStripeForm(text);
    const idempotencyKey = (req.headers['idempotency-key'] as string | undefined) ?? null;
    this.requests.push({ method: req.method!, path: url.pathname, idempotencyKey, body });

    const failure = this.failures.findIndex((f) => !f.pathPrefix || url.pathname.startsWith(f.pathPrefix));
    if (failure >= 0) {
      const [f] = this.failures.splice(failure, 1);
      if (f!.mode === 'hang') {
        this.hanging.add(res);
        res.on('close', () => this.hanging.delete(res));
        return;
      }
      return this.send(res, 500, { error: { type: 'api_error', message: 'An unknown error occurred (injected by the local Stripe server)' } });
    }
    if (!/^Bearer sk_test_\S+$/.test(String(req.headers.authorization ?? ''))) {
      return this.send(res, 401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
    }
    const fingerprint = `${req.method} ${url.pathname} ${text}`;
    if (idempotencyKey && req.method === 'POST') {
      const stored = this.idempotent.get(idempotencyKey);
      if (stored) {
        if (stored.fingerprint !== fingerprint) {
          return this.send(res, 400, { error: { type: 'idempotency_error', message: 'Keys for idempotent requests can only be used with the same parameters they were first used with.' } });
        }
        res.writeHead(stored.status, { 'content-type': 'application/json', 'idempotent-replayed': 'true' });
        res.end(stored.body);
        return;
      }
    }
    let status = 200;
    let answer: Obj;
    try {
      answer = this.route(req.method!, url.pathname, body);
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
      status = error.status;
      answer = { error: { type: error.type, message: error.message, ...(error.code ? { code: error.code } : {}), ...(error.param ? { param: error.param } : {}) } };
    }
    const json = JSON.stringify(answer);
    if (idempotencyKey && req.method === 'POST') this.idempotent.set(idempotencyKey, { fingerprint, status, body: json });
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req') });
    res.end(json);
  }

  private send(res: ServerResponse, status: number, body: Obj): void {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  private route(method: string, path: string, body: Obj): Obj {
    const m = (pattern: RegExp) => pattern.exec(path);
    let match: RegExpExecArray | null;
    if (method === 'POST' && path === '/v1/customers') return this.createCustomer(body);
    if (method === 'GET' && (match = m(/^\/v1\/customers\/([^/]+)$/))) return this.get(this.customers, match[1]!, 'customer');
    if (method === 'GET' && (match = m(/^\/v1\/customers\/([^/]+)\/payment_methods$/))) {
      const customer = this.get(this.customers, match[1]!, 'customer');
      const data = [...this.paymentMethods.values()].filter((pm) => pm.customer === customer.id);
      return { object: 'list', url: path, has_more: false, data };
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') return this.createSession(body);
    if (method === 'GET' && (match = m(/^\/v1\/checkout\/sessions\/([^/]+)$/))) return this.get(this.sessions, match[1]!, 'checkout.session');
    if (method === 'GET' && (match = m(/^\/v1\/subscriptions\/([^/]+)$/))) return this.get(this.subscriptions, match[1]!, 'subscription');
    if (method === 'POST' && (match = m(/^\/v1\/subscriptions\/([^/]+)$/))) {
      const sub = this.get(this.subscriptions, match[1]!, 'subscription');
      const quantity = body.items?.[0]?.quantity;
      return this.updateSubscription(sub.id, { quantity: quantity === undefined ? undefined : Number(quantity) });
    }
    if (method === 'GET' && path === '/v1/subscriptions') return this.listSubscriptions(path, body);
    if (method === 'DELETE' && (match = m(/^\/v1\/subscriptions\/([^/]+)$/))) return this.cancelSubscription(match[1]!, body);
    if (method === 'GET' && path === '/v1/promotion_codes') {
      const data = [...this.promotionCodes.values()].map((p) => this.promotionCodeView(p, body.expand ?? [])).filter((p) => (body.code === undefined || p.code === body.code) && (body.active === undefined || String(p.active) === body.active));
      return { object: 'list', url: path, has_more: false, data: data.slice(0, Number(body.limit ?? 10)) };
    }
    if (method === 'GET' && (match = m(/^\/v1\/coupons\/([^/]+)$/))) return this.couponView(this.get(this.coupons, match[1]!, 'coupon'), body.expand ?? []);
    if (method === 'GET' && path === '/v1/invoices') return this.listInvoices(path, body);
    if (method === 'GET' && (match = m(/^\/v1\/invoices\/([^/]+)$/))) return this.get(this.invoices, match[1]!, 'invoice');
    if (method === 'GET' && path === '/v1/invoice_payments') {
      const data = [...this.invoicePayments.values()].filter((p) => (body.invoice === undefined || p.invoice === body.invoice) && (body.status === undefined || p.status === body.status));
      return { object: 'list', url: path, has_more: false, data: structuredClone(data.slice(0, Number(body.limit ?? 10))) };
    }
    if (method === 'POST' && path === '/v1/refunds') return this.createRefund(body);
    if (method === 'GET' && path === '/v1/refunds') {
      const data = [...this.refunds.values()].filter((r) => body.payment_intent === undefined || r.payment_intent === body.payment_intent);
      return { object: 'list', url: path, has_more: false, data: structuredClone(data.slice(0, Number(body.limit ?? 10))) };
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      this.require(body, 'customer');
      this.get(this.customers, body.customer, 'customer');
      const session = { id: newId('bps'), object: 'billing_portal.session', customer: body.customer, return_url: body.return_url ?? null, url: `${this.url}/p/session/${newId('bps')}`, created: now(), livemode: false };
      this.portalSessions.set(session.id, session);
      return session;
    }
    if (method === 'POST' && path === '/v1/payment_intents') {
      this.require(body, 'amount', 'currency');
      return this.createIntent(body, this.paymentMethodBehaviour.get(body.payment_method) ?? 'succeed');
    }
    if (method === 'GET' && (match = m(/^\/v1\/payment_intents\/([^/]+)$/))) return this.get(this.paymentIntents, match[1]!, 'payment_intent');
    throw new StripeApiError(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path}).`);
  }

  private require(body: Obj, ...params: string[]): void {
    for (const param of params) {
      if (body[param] === undefined || body[param] === '') throw new StripeApiError(400, 'invalid_request_error', `Missing required param: ${param}.`, 'parameter_missing', param);
    }
  }

  private get(map: Map<string, Obj>, id: string, kind: string): Obj {
    const found = map.get(id);
    if (!found) throw new StripeApiError(404, 'invalid_request_error', `No such ${kind}: '${id}'`, 'resource_missing', 'id');
    return structuredClone(found);
  }

  /** A promotion code as Stripe answers it: active only while usable; its coupon embedded when expanded. */
  private promotionCodeView(promo: Obj, expand: string[]): Obj {
    const coupon = this.coupons.get(promo.promotion.coupon)!;
    const expired = promo.expires_at !== null && promo.expires_at <= now();
    const usedUp = promo.max_redemptions !== null && promo.times_redeemed >= promo.max_redemptions;
    const view: Obj = { ...structuredClone(promo), active: Boolean(promo.active) && !expired && !usedUp && coupon.valid };
    if (expand.includes('data.promotion.coupon')) {
      const nested = expand.filter((e) => e.startsWith('data.promotion.coupon.')).map((e) => e.slice('data.promotion.coupon.'.length));
      view.promotion = { ...view.promotion, coupon: this.couponView(structuredClone(coupon), nested) };
    }
    return view;
  }

  /** A coupon as Stripe answers it: `applies_to` (includable) only when `expand` asks for it. */
  private couponView(coupon: Obj, expand: string[]): Obj {
    if (expand.includes('applies_to')) coupon.applies_to = this.couponAppliesTo.get(coupon.id) ?? { products: [] };
    return coupon;
  }

  /** GET /v1/invoices: newest first, filtered by customer and status, `limit` (10) and `starting_after` as Stripe pages. */
  private listInvoices(path: string, body: Obj): Obj {
    let data = [...this.invoices.values()].filter((inv) => (body.customer === undefined || inv.customer === body.customer) && (body.status === undefined || inv.status === body.status));
    data.sort((a, b) => b.created - a.created || (a.id < b.id ? 1 : -1));
    if (body.starting_after) data = data.slice(data.findIndex((inv) => inv.id === body.starting_after) + 1);
    const limit = Number(body.limit ?? 10);
    return { object: 'list', url: path, has_more: data.length > limit, data: structuredClone(data.slice(0, limit)) };
  }

  /** Stripe's default list: the customer's subscriptions that are not canceled (`status=all` for every one). */
  private listSubscriptions(path: string, body: Obj): Obj {
    const data = [...this.subscriptions.values()].filter(
      (sub) => (body.customer === undefined || sub.customer === body.customer) && (body.status === 'all' ? true : body.status === undefined ? sub.status !== 'canceled' : sub.status === body.status),
    );
    data.sort((a, b) => b.created - a.created);
    return { object: 'list', url: path, has_more: false, data: structuredClone(data.slice(0, Number(body.limit ?? 10))) };
  }

  /** Cancels a subscription now, with the reason given; a canceled one cannot be canceled again. */
  private cancelSubscription(id: string, body: Obj): Obj {
    const sub = this.subscriptions.get(id);
    if (!sub) throw new StripeApiError(404, 'invalid_request_error', `No such subscription: '${id}'`, 'resource_missing', 'id');
    if (sub.status === 'canceled') throw new StripeApiError(400, 'invalid_request_error', `A canceled subscription can only update its cancellation_details and metadata.`);
    sub.status = 'canceled';
    sub.canceled_at = now();
    sub.ended_at = now();
    sub.cancellation_details = { comment: body.cancellation_details?.comment ?? null, feedback: body.cancellation_details?.feedback ?? null, reason: 'cancellation_requested' };
    return structuredClone(sub);
  }

  /** A refund of a payment intent's charge: the whole remainder unless `amount`; never more than was paid. */
  private createRefund(body: Obj): Obj {
    if (!body.payment_intent && !body.charge) throw new StripeApiError(400, 'invalid_request_error', 'One of the following params should be provided for this request: payment_intent or charge.', 'parameter_missing');
    const intent = body.payment_intent ? this.get(this.paymentIntents, body.payment_intent, 'payment_intent') : [...this.paymentIntents.values()].find((pi) => pi.latest_charge === body.charge);
    if (!intent) throw new StripeApiError(404, 'invalid_request_error', `No such charge: '${body.charge}'`, 'resource_missing', 'charge');
    const stored = this.paymentIntents.get(intent.id)!;
    const remaining = stored.amount_received - (stored.amount_refunded ?? 0);
    if (remaining <= 0) throw new StripeApiError(400, 'invalid_request_error', `Charge ${stored.latest_charge} has already been refunded.`, 'charge_already_refunded');
    const amount = body.amount === undefined ? remaining : Number(body.amount);
    if (amount > remaining) throw new StripeApiError(400, 'invalid_request_error', `Refund amount ($${amount / 100}) is greater than unrefunded amount on charge ($${remaining / 100})`, 'amount_too_large', 'amount');
    stored.amount_refunded = (stored.amount_refunded ?? 0) + amount;
    const refund = { id: newId('re'), object: 'refund', amount, currency: stored.currency, charge: stored.latest_charge, payment_intent: stored.id, reason: body.reason ?? null, metadata: body.metadata ?? {}, status: 'succeeded', created: now() };
    this.refunds.set(refund.id, refund);
    return structuredClone(refund);
  }

  private createCustomer(body: Obj): Obj {
    const customer = {
      id: newId('cus'),
      object: 'customer',
      email: body.email ?? null,
      name: body.name ?? null,
      metadata: body.metadata ?? {},
      created: now(),
      livemode: false,
      invoice_settings: { default_payment_method: null },
    };
    this.customers.set(customer.id, customer);
    return customer;
  }

  private createSession(body: Obj): Obj {
    this.require(body, 'mode', 'success_url');
    if (!['subscription', 'payment'].includes(body.mode)) throw new StripeApiError(400, 'invalid_request_error', `Invalid mode: ${body.mode}`, 'parameter_invalid_string', 'mode');
    const items: Obj[] = body.line_items ?? [];
    if (items.length === 0) throw new StripeApiError(400, 'invalid_request_error', 'Missing required param: line_items.', 'parameter_missing', 'line_items');
    if (body.customer) this.get(this.customers, body.customer, 'customer');
    const promo = body.discounts?.[0]?.promotion_code;
    const promoCode = promo ? this.promotionCodes.get(promo) : undefined;
    if (promo && !(promoCode && this.promotionCodeView(promoCode, []).active)) {
      throw new StripeApiError(400, 'invalid_request_error', `No such promotion code: '${promo}'`, 'resource_missing', 'discounts[0][promotion_code]');
    }
    const amount = items.reduce((sum, item) => sum + Number(item.price_data?.unit_amount ?? this.prices.get(item.price)?.unit_amount ?? 0) * Number(item.quantity ?? 1), 0);
    const id = newId('cs');
    const session: Obj = {
      id,
      object: 'checkout.session',
      mode: body.mode,
      status: 'open',
      payment_status: 'unpaid',
      customer: body.customer ?? null,
      client_reference_id: body.client_reference_id ?? null,
      metadata: body.metadata ?? {},
      subscription_data: body.subscription_data,
      payment_intent_data: body.payment_intent_data,
      success_url: body.success_url,
      cancel_url: body.cancel_url ?? null,
      amount_total: amount,
      currency: 'usd',
      discounts: promo ? [{ promotion_code: promo }] : [],
      subscription: null,
      payment_intent: null,
      url: `${this.url}/c/pay/${id}`,
      created: now(),
      expires_at: now() + 86400,
      livemode: false,
    };
    this.sessions.set(id, session);
    this.sessionItems.set(id, items);
    // the subscription_data/payment_intent_data params are not part of Stripe's session object
    const { subscription_data: _s, payment_intent_data: _p, ...visible } = session;
    return structuredClone(visible);
  }

  private createIntent(body: Obj, behaviour: 'succeed' | 'decline' | 'authentication_required'): Obj {
    const id = newId('pi');
    const intent: Obj = {
      id,
      object: 'payment_intent',
      amount: Number(body.amount),
      amount_received: 0,
      amount_refunded: 0,
      currency: body.currency ?? 'usd',
      customer: body.customer ?? null,
      payment_method: body.payment_method ?? null,
      metadata: body.metadata ?? {},
      status: 'succeeded',
      latest_charge: newId('ch'),
      created: now(),
      livemode: false,
      last_payment_error: null,
    };
    if (behaviour === 'succeed') {
      intent.amount_received = intent.amount;
      this.paymentIntents.set(id, intent);
      return structuredClone(intent);
    }
    const code = behaviour === 'decline' ? 'card_declined' : 'authentication_required';
    intent.status = 'requires_payment_method';
    intent.last_payment_error = { type: 'card_error', code, message: code === 'card_declined' ? 'Your card was declined.' : 'This payment requires authentication.' };
    this.paymentIntents.set(id, intent);
    // off-session confirmation failures are 402 card errors carrying the payment intent
    const error = new StripeApiError(402, 'card_error', intent.last_payment_error.message, code);
    throw Object.assign(error, { paymentIntent: intent });
  }
}

export async function startLocalStripe(): Promise<LocalStripe> {
  return new LocalStripe().start();
}
