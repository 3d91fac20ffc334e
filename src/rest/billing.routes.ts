/**
 * The billing REST routes (/v1/billing/*): each handler builds the request context and calls one
 * method of the billing service that owns it, and each route is described in /openapi.json where it is mounted. The
 * webhook route alone reads the raw body (the signature covers the exact bytes Stripe sent).
 */
import express, { type Request } from 'express';
import { z } from 'zod';
import {
  audienceAnswerSchema,
  audienceBodySchema,
  audiencePlansSchema,
  autoTopupBodySchema,
  autoTopupSettingSchema,
  billingPlansSchema,
  billingStatusSchema,
  checkoutBodySchema,
  checkoutUrlSchema,
  checkoutVerificationSchema,
  checkoutVerifyBodySchema,
  creditTopupBodySchema,
  plansQuerySchema,
  invoiceListSchema,
  portalSessionSchema,
  promoAnswerSchema,
  promoQuerySchema,
  webhookReceivedSchema,
} from '../modules/billing/billing.schema.js';
import type { BillingModule } from '../modules/billing/billing.module.js';
import { jsonBody, withLoc } from './errors.js';
import { contextOf } from '../http/request-context.js';
import type { RestApi } from './rest-api.js';

/** The query string with scalar parameters (a repeated parameter gives its last value, as FastAPI). */
function queryParams(req: Request): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(req.query as Record<string, unknown>)) {
    params[name] = Array.isArray(value) ? value.at(-1) : value;
  }
  return params;
}

const OFF = 'Billing is not configured on this server';
const UPSTREAM = 'Stripe failed or did not answer; nothing was changed';

const ctx = (req: Request) => contextOf(req);
const tags = ['billing'];

/** The billing routes, one group per service that owns them. */
export function billingRouter(billing: BillingModule, rest: RestApi): express.Router {
  const router = express.Router();
  // in the order /openapi.json has always listed them
  catalogueRoutes(router, rest, billing.checkout);
  promoRoutes(router, rest, billing.promo);
  checkoutRoutes(router, rest, billing.checkout);
  creditRoutes(router, rest, billing.credits, billing.autoTopup);
  subscriptionRoutes(router, rest, billing.subscriptions);
  webhookRoutes(router, rest, billing.webhooks);
  return router;
}

/** The plans and a Free account's audience choice. */
function catalogueRoutes(router: express.Router, rest: RestApi, checkout: BillingModule['checkout']): void {
  rest.route(router, '/v1/billing/plans', {
    get: [
      {
        name: 'billing_plans',
        summary: 'Billing Plans',
        description: 'Open. The legacy schema by default; `audience` selects an audience catalogue (additive fields).',
        tags,
        access: 'open',
        query: plansQuerySchema,
        responses: { 200: { description: 'Successful Response', schema: z.union([billingPlansSchema, audiencePlansSchema]) } },
      },
      async (req, res) => {
        res.json(await withLoc('query', () => checkout.plans(ctx(req), queryParams(req))));
      },
    ],
  });

  rest.route(router, '/v1/billing/audience', {
    post: [
      {
        name: 'billing_audience', limited: 'billing_audience',
        summary: 'Billing Audience',
        description: "Stores a Free account's audience choice.",
        tags,
        access: 'account',
        body: audienceBodySchema,
        responses: { 200: audienceAnswerSchema, 409: 'Paid account' },
      },
      jsonBody(),
      async (req, res) => {
        res.json(await withLoc('body', () => checkout.setAudience(ctx(req), req.body)));
      },
    ],
  });

}

/** Checkout and its verification. */
function checkoutRoutes(router: express.Router, rest: RestApi, checkout: BillingModule['checkout']): void {
  rest.route(router, '/v1/billing/checkout', {
    post: [
      {
        name: 'billing_checkout', limited: 'billing_checkout',
        summary: 'Billing Checkout',
        description: 'Records the legal assent, then creates a Stripe Checkout Session (subscription).',
        tags,
        access: 'account',
        body: checkoutBodySchema,
        responses: { 200: checkoutUrlSchema, 409: 'Already subscribed: use the portal', 502: UPSTREAM, 503: OFF },
      },
      jsonBody(),
      async (req, res) => {
        res.json(await withLoc('body', () => checkout.checkout(ctx(req), req.body, { userAgent: req.header('user-agent') ?? null })));
      },
    ],
  });

  rest.route(router, '/v1/billing/checkout/verify', {
    post: [
      {
        name: 'billing_checkout_verify', limited: 'billing_checkout_verify',
        summary: 'Billing Checkout Verify',
        tags,
        access: 'account',
        body: checkoutVerifyBodySchema,
        responses: { 200: checkoutVerificationSchema, 404: 'Not a session of this account', 502: UPSTREAM, 503: OFF },
      },
      jsonBody(),
      async (req, res) => {
        res.json(await withLoc('body', () => checkout.verifyCheckout(ctx(req), req.body)));
      },
    ],
  });
}

/** Promotion codes. */
function promoRoutes(router: express.Router, rest: RestApi, promo: BillingModule['promo']): void {
  rest.route(router, '/v1/billing/promo', {
    get: [
      { name: 'billing_promo', summary: 'Billing Promo', tags, access: 'account', query: promoQuerySchema, responses: { 200: promoAnswerSchema, 502: UPSTREAM, 503: OFF } },
      async (req, res) => {
        res.json(await withLoc('query', () => promo.promo(ctx(req), queryParams(req))));
      },
    ],
  });
}

/** Buying credits, and the auto top-up setting. */
function creditRoutes(router: express.Router, rest: RestApi, credits: BillingModule['credits'], autoTopup: BillingModule['autoTopup']): void {
  rest.route(router, '/v1/billing/credit-topups/checkout', {
    post: [
      {
        name: 'billing_credit_topup_checkout', limited: 'billing_topup_checkout',
        summary: 'Billing Credit Topup Checkout',
        tags,
        access: 'account',
        body: creditTopupBodySchema,
        responses: { 200: checkoutUrlSchema, 409: 'Not a paid account', 502: UPSTREAM, 503: OFF },
      },
      jsonBody(),
      async (req, res) => {
        res.json(await withLoc('body', () => credits.topupCheckout(ctx(req), req.body)));
      },
    ],
  });

  rest.route(router, '/v1/billing/credit-topups/auto', {
    get: [
      { name: 'billing_auto_topup', summary: 'Billing Auto Topup', tags, access: 'account', responses: { 200: autoTopupSettingSchema } },
      async (req, res) => {
        res.json(await autoTopup.get(ctx(req)));
      },
    ],
    put: [
      {
        name: 'billing_set_auto_topup', limited: 'billing_auto_topup',
        summary: 'Billing Set Auto Topup',
        tags,
        access: 'account',
        body: autoTopupBodySchema,
        responses: { 200: autoTopupSettingSchema, 409: 'No active paid subscription or no saved payment method', 502: UPSTREAM, 503: OFF },
      },
      jsonBody(),
      async (req, res) => {
        res.json(await withLoc('body', () => autoTopup.set(ctx(req), req.body)));
      },
    ],
  });
}

/** The customer portal and the billing status. */
function subscriptionRoutes(router: express.Router, rest: RestApi, subscriptions: BillingModule['subscriptions']): void {
  const portal = (name: string) =>
    [
      { name, limited: 'billing_portal', summary: 'Billing Portal', tags, access: 'account', responses: { 200: portalSessionSchema, 409: 'No Stripe customer yet', 502: UPSTREAM, 503: OFF } },
      async (req: Request, res: express.Response) => {
        res.json(await subscriptions.portal(ctx(req)));
      },
    ] as const;
  rest.route(router, '/v1/billing/portal', { get: [...portal('billing_portal')], post: [...portal('billing_portal')] });

  rest.route(router, '/v1/billing/invoices', {
    get: [
      {
        name: 'billing_invoices',
        limited: 'billing_invoices',
        summary: 'Billing Invoices',
        description: "Additive to the spec: the invoices of your Stripe customer, newest first, with each one's hosted page; none before the first checkout.",
        tags,
        access: 'account',
        responses: { 200: invoiceListSchema, 502: UPSTREAM },
      },
      async (req, res) => {
        res.json(await subscriptions.invoices(ctx(req)));
      },
    ],
  });

  rest.route(router, '/v1/billing/status', {
    get: [
      { name: 'billing_status', summary: 'Billing Status', tags, access: 'account', responses: { 200: billingStatusSchema } },
      async (req, res) => {
        res.json(await subscriptions.status(ctx(req)));
      },
    ],
  });
}

/** Stripe's webhooks. */
function webhookRoutes(router: express.Router, rest: RestApi, webhooks: BillingModule['webhooks']): void {
  // The signature covers the exact bytes: read the body raw, whatever its Content-Type.
  rest.route(router, '/v1/billing/webhooks', {
    post: [
      {
        name: 'billing_webhooks',
        summary: 'Billing Webhooks',
        description: 'Stripe events, verified with the `Stripe-Signature` header; each event id applies once.',
        tags,
        access: 'open',
        responses: { 200: webhookReceivedSchema, 400: 'Missing or invalid signature', 500: 'Not applied; Stripe retries', 503: OFF },
      },
      express.raw({ type: () => true, limit: '1mb' }),
      async (req, res) => {
        const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        res.json(await webhooks.handleWebhook(raw, req.header('stripe-signature')));
      },
    ],
  });
}
