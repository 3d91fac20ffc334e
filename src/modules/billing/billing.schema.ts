/** Request bodies and query parameters of the billing operations (zod: validation and /openapi.json). */
import { z } from 'zod';
import { laxBool, laxInt, mustBeTrue } from '../../validation.js';
import { AUDIENCES, INTERVALS, PURCHASABLE_PLANS } from './catalogue.js';

export const plansQuerySchema = z.object({
  audience: z.enum(AUDIENCES).nullable().optional().describe('An audience catalogue (additive fields); absent = the legacy schema.'),
});

export const audienceBodySchema = z.object({ audience: z.enum(AUDIENCES) }).meta({ id: 'AudienceRequest' });

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
    .describe('Must be true, and only after the documents and the exact order summary were shown to the accepting account.'),
})
  .refine(
    ...mustBeTrue(
      'legal_accepted',
      'The service agreement, the API/MCP terms (and the data processing agreement for per-seat plans) must be accepted and the privacy notice acknowledged',
    ),
  )
  .meta({ id: 'CheckoutRequest' });
export type CheckoutRequest = z.output<typeof checkoutBodySchema>;

/** The legal documents a checkout of a plan asks assent to (the dashboard shows them before the assent box). */
export const checkoutDocumentsQuerySchema = z.object({
  plan: z.enum(PURCHASABLE_PLANS.filter((p) => p !== 'free') as [string, ...string[]]).describe('A paid plan slug of GET /v1/billing/plans.'),
});
export interface CheckoutDocument {
  key: string;
  title: string;
  version: string;
  /** accept (agreements) or acknowledge (the privacy notice). */
  assent: 'accept' | 'acknowledge';
}

export const checkoutVerifyBodySchema = z.object({ session_id: z.string().min(1).max(255) }).meta({ id: 'CheckoutVerificationRequest' });

export const creditTopupBodySchema = z.object({ amount_usd: laxInt(z.number().int().min(5).max(1000)) }).meta({ id: 'CreditTopupRequest' });

export const autoTopupBodySchema = z.object({
  enabled: laxBool().prefault(false),
  threshold_usd: laxInt(z.number().int().min(1).max(1000)).prefault(10),
  amount_usd: laxInt(z.number().int().min(5).max(1000)).prefault(10),
}).meta({ id: 'AutoTopupRequest' });

// Responses (described in /openapi.json)

const planSchema = z.object({
  slug: z.enum(PURCHASABLE_PLANS),
  name: z.string(),
  per_seat: z.boolean().describe('The period allowance is per seat (team workspace).'),
  prices: z.object({ monthly: z.number(), yearly: z.number(), currency: z.literal('usd') }).describe('USD; per seat for per-seat plans.'),
  limits: z.object({ per_minute: z.number().int(), per_day: z.number().int().nullable(), per_period: z.number().int().nullable() }),
  features: z.array(z.string()),
  price_ids: z.object({ monthly: z.string().nullable(), yearly: z.string().nullable() }).optional().describe('Stripe price ids; only when billing is enabled.'),
});

const audiencePlanSchema = planSchema.extend({
  order: z.number().int().describe('Position in this audience catalogue (1 = first).'),
  recommended: z.boolean(),
  tagline: z.string().nullable(),
});

export const billingPlansSchema = z.object({ plans: z.array(planSchema) }).meta({ id: 'BillingPlans' });
export const audiencePlansSchema = z.object({ audience: z.enum(AUDIENCES), title: z.string(), plans: z.array(audiencePlanSchema) }).meta({ id: 'AudiencePlans' });

export const promoAnswerSchema = z.object({
  code: z.string(),
  valid: z.boolean(),
  reason: z.enum(['unknown', 'expired', 'used_up', 'inactive']).optional().describe('Why the code cannot be used (valid false).'),
  percent_off: z.number().nullable().optional(),
  amount_off: z.number().nullable().optional().describe('In `currency` units.'),
  currency: z.string().nullable().optional(),
  duration: z.string().optional().describe('once, repeating or forever.'),
  duration_in_months: z.number().int().nullable().optional(),
  plans: z.array(z.enum(PURCHASABLE_PLANS)).optional().describe('Plans the code applies to.'),
  expires_at: z.string().nullable().optional(),
  seats_remaining: z.number().int().nullable().optional().describe('Redemptions left; null when unlimited.'),
}).meta({ id: 'PromoCode' });

export const audienceAnswerSchema = z.object({ audience: z.string() });

export const checkoutUrlSchema = z.object({ checkout_url: z.url().describe('The hosted Stripe Checkout page.') }).meta({ id: 'CheckoutUrl' });

export const checkoutVerificationSchema = z.object({
  session_id: z.string(),
  mode: z.enum(['subscription', 'payment']),
  status: z.string().nullable().describe('open, complete or expired.'),
  payment_status: z.string(),
  plan: z.string().nullable(),
  interval: z.string().nullable(),
  quantity: z.number().int().nullable(),
  workspace_id: z.string().nullable(),
  credits_usd: z.number().nullable().describe('Credits granted by a top-up session.'),
}).meta({ id: 'CheckoutVerification' });

export const autoTopupSettingSchema = z.object({
  enabled: z.boolean(),
  threshold_usd: z.number().int(),
  amount_usd: z.number().int(),
  last_failure: z.object({ reason: z.string(), at: z.string() }).nullable().describe('Why auto top-up was last turned off (card_declined, authentication_required…).'),
}).meta({ id: 'AutoTopupSetting' });

export const billingStatusSchema = z.object({
  billing_enabled: z.boolean(),
  plan: z.string(),
  audience: z.string().nullable(),
  subscription: z
    .object({
      id: z.string(),
      plan: z.string(),
      status: z.string().describe('Stripe subscription status: active, trialing, past_due, canceled…'),
      interval: z.string(),
      quantity: z.number().int(),
      current_period_start: z.string(),
      current_period_end: z.string(),
      cancel_at_period_end: z.boolean(),
    })
    .nullable(),
  credits: z.object({
    balance_usd: z.number(),
    auto_topup: z.object({ enabled: z.boolean(), threshold_usd: z.number().int(), amount_usd: z.number().int() }),
    auto_topup_last_failure: z.object({ reason: z.string(), at: z.string() }).nullable(),
  }),
  workspace: z.object({ id: z.string(), name: z.string(), seat_limit: z.number().int() }).nullable(),
  admin_override: z
    .object({ plan: z.string(), reason: z.string().nullable(), set_at: z.string() })
    .nullable()
    .describe("An administrator's plan override; it wins over the subscription while set"),
  team_plan: z
    .object({ workspace_id: z.string(), workspace_name: z.string(), role: z.string(), owner_email: z.string() })
    .nullable()
    .describe("Additive: the team workspace whose plan this account uses as a member (paid by its owner); null for the owner and outside a team"),
}).meta({ id: 'BillingStatus' });

/** One invoice of the caller's Stripe customer (GET /v1/billing/invoices, additive to the spec). */
export const invoiceRecordSchema = z.object({
  id: z.string(),
  number: z.string().nullable().describe("Stripe's invoice number (null while a draft)."),
  status: z.string().nullable().describe('draft, open, paid, uncollectible or void.'),
  created_at: z.string(),
  period_start: z.string().nullable(),
  period_end: z.string().nullable(),
  total_usd: z.number().describe('The invoice total, discounts and taxes included.'),
  amount_paid_usd: z.number(),
  currency: z.string(),
  hosted_invoice_url: z.string().nullable().describe("Stripe's page of the invoice (view, pay, download)."),
  invoice_pdf: z.string().nullable(),
});

export const invoiceListSchema = z
  .object({
    invoices: z.array(invoiceRecordSchema).describe('Newest first, at most 24.'),
    has_more: z.boolean().describe('More, older invoices exist: the customer portal lists them all.'),
  })
  .meta({ id: 'InvoiceList' });
export type InvoiceList = z.infer<typeof invoiceListSchema>;

export const portalSessionSchema = z.object({ url: z.url() }).meta({ id: 'PortalSession' });
export const webhookReceivedSchema = z
  .object({ received: z.literal(true), duplicate: z.boolean().describe('The event id was applied before: nothing done.') })
  .meta({ id: 'WebhookReceived' });
