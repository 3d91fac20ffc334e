/**
 * The billing REST routes (/v1/billing/*): each handler builds the request context and calls one
 * BillingService method. The webhook route alone reads the raw body (the signature covers the
 * exact bytes Stripe sent).
 */
import express, { type Request } from 'express';
import type { BillingService } from '../modules/billing/billing.service.js';
import { jsonBody, methodNotAllowed, withLoc } from './errors.js';
import { contextOf } from './request-context.js';

/** The query string with scalar parameters (a repeated parameter gives its last value, as FastAPI). */
function queryParams(req: Request): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(req.query as Record<string, unknown>)) {
    params[name] = Array.isArray(value) ? value.at(-1) : value;
  }
  return params;
}

export function billingRouter(billing: BillingService): express.Router {
  const router = express.Router();
  const ctx = (req: Request) => contextOf(req);
  const route = (path: string) => router.route(path);

  route('/v1/billing/plans')
    .get(async (req, res) => {
      res.json(await withLoc('query', () => billing.plans(ctx(req), queryParams(req))));
    })
    .all(methodNotAllowed(['GET']));

  route('/v1/billing/audience')
    .post(jsonBody(), async (req, res) => {
      res.json(await withLoc('body', () => billing.setAudience(ctx(req), req.body)));
    })
    .all(methodNotAllowed(['POST']));

  route('/v1/billing/promo')
    .get(async (req, res) => {
      res.json(await withLoc('query', () => billing.promo(ctx(req), queryParams(req))));
    })
    .all(methodNotAllowed(['GET']));

  route('/v1/billing/checkout')
    .post(jsonBody(), async (req, res) => {
      res.json(await withLoc('body', () => billing.checkout(ctx(req), req.body, { userAgent: req.header('user-agent') ?? null })));
    })
    .all(methodNotAllowed(['POST']));

  route('/v1/billing/checkout/verify')
    .post(jsonBody(), async (req, res) => {
      res.json(await withLoc('body', () => billing.verifyCheckout(ctx(req), req.body)));
    })
    .all(methodNotAllowed(['POST']));

  route('/v1/billing/credit-topups/checkout')
    .post(jsonBody(), async (req, res) => {
      res.json(await withLoc('body', () => billing.creditTopupCheckout(ctx(req), req.body)));
    })
    .all(methodNotAllowed(['POST']));

  route('/v1/billing/credit-topups/auto')
    .get(async (req, res) => {
      res.json(await billing.autoTopup(ctx(req)));
    })
    .put(jsonBody(), async (req, res) => {
      res.json(await withLoc('body', () => billing.setAutoTopup(ctx(req), req.body)));
    })
    .all(methodNotAllowed(['GET', 'PUT']));

  route('/v1/billing/portal')
    .get(async (req, res) => {
      res.json(await billing.portal(ctx(req)));
    })
    .post(async (req, res) => {
      res.json(await billing.portal(ctx(req)));
    })
    .all(methodNotAllowed(['GET', 'POST']));

  route('/v1/billing/status')
    .get(async (req, res) => {
      res.json(await billing.status(ctx(req)));
    })
    .all(methodNotAllowed(['GET']));

  // The signature covers the exact bytes: read the body raw, whatever its Content-Type.
  route('/v1/billing/webhooks')
    .post(express.raw({ type: () => true, limit: '1mb' }), async (req, res) => {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      res.json(await billing.handleWebhook(raw, req.header('stripe-signature')));
    })
    .all(methodNotAllowed(['POST']));

  return router;
}
