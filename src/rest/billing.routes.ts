/**
 * The billing REST routes (/v1/billing/*): each handler builds the request context and calls one
 * BillingService method. The webhook route alone reads the raw body (the signature covers the
 * exact bytes Stripe sent).
 */
import express, { type Request } from 'express';
import type { BillingService } from '../modules/billing/billing.service.js';
import { methodNotAllowed, withLoc } from './errors.js';
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

  return router;
}
