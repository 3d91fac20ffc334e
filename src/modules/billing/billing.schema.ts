/** Request bodies and query parameters of the billing operations (zod: validation and /openapi.json). */
import { z } from 'zod';
import { laxBool, laxInt } from '../../validation.js';
import { AUDIENCES, INTERVALS, PURCHASABLE_PLANS } from './catalogue.js';

export const plansQuerySchema = z.object({
  audience: z.enum(AUDIENCES).nullable().optional().describe('An audience catalogue (additive fields); absent = the legacy schema.'),
});

export const audienceBodySchema = z.object({ audience: z.enum(AUDIENCES) });

export const promoQuerySchema = z.object({ code: z.string().min(1).max(200).describe('The promotion code as the customer types it.') });

/** CheckoutRequest. The per-seat and promo rules that need the catalogue or Stripe are checked by the service. */
export const checkoutBodySchema = z.object({
  plan: z.enum(PURCHASABLE_PLANS.filter((p) => p !== 'free') as [string, ...string[]]).describe('A paid plan slug of GET /v1/billing/plans.'),
  interval: z.enum(INTERVALS).prefault('monthly'),
  quantity: laxInt(z.number().int().min(1).max(1000)).prefault(1).describe('Seats; more than 1 only for per-seat plans.'),
  workspace_name: z.string().trim().min(1).max(100).nullable().optional().describe('The team workspace of a per-seat plan.'),
  promo_code: z.string().min(1).max(200).nullable().optional(),
  audience: z.enum(AUDIENCES).nullable().optional(),
  legal_accepted: laxBool()
    .prefault(false)
    .refine((v) => v, { message: 'The service agreement, the API/MCP terms (and the data processing agreement for per-seat plans) must be accepted and the privacy notice acknowledged' })
    .describe('True only after the documents and the exact order summary were shown to the accepting account.'),
});
export type CheckoutRequest = z.output<typeof checkoutBodySchema>;

export const checkoutVerifyBodySchema = z.object({ session_id: z.string().min(1).max(255) });

export const creditTopupBodySchema = z.object({ amount_usd: laxInt(z.number().int().min(5).max(1000)) });

export const autoTopupBodySchema = z.object({
  enabled: laxBool().prefault(false),
  threshold_usd: laxInt(z.number().int().min(1).max(1000)).prefault(10),
  amount_usd: laxInt(z.number().int().min(5).max(1000)).prefault(10),
});
