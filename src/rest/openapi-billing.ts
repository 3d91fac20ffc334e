/**
 * The billing part of /openapi.json: named zod schemas of the billing requests (the ones the
 * service validates with) and responses, and the /v1/billing/* operations. Self-contained so it
 * can move into the rewritten generator as it is.
 */
import { z } from 'zod';
import { audienceBodySchema, autoTopupBodySchema, checkoutBodySchema, checkoutVerifyBodySchema, creditTopupBodySchema, plansQuerySchema, promoQuerySchema } from '../modules/billing/billing.schema.js';
import { AUDIENCES, PURCHASABLE_PLANS } from '../modules/billing/catalogue.js';
import { AUTHENTICATED, type AccountsOperation, UNAUTHORIZED } from './openapi-accounts.js';

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

export const billingPlansSchema = z.object({ plans: z.array(planSchema) });
export const audiencePlansSchema = z.object({ audience: z.enum(AUDIENCES), title: z.string(), plans: z.array(audiencePlanSchema) });

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
});

export const checkoutUrlSchema = z.object({ checkout_url: z.url().describe('The hosted Stripe Checkout page.') });

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
});

export const autoTopupSettingSchema = z.object({
  enabled: z.boolean(),
  threshold_usd: z.number().int(),
  amount_usd: z.number().int(),
  last_failure: z.object({ reason: z.string(), at: z.string() }).nullable().describe('Why auto top-up was last turned off (card_declined, authentication_required…).'),
});

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
  admin_override: z.null(),
});

export const BILLING_REQUEST_SCHEMAS: Record<string, z.ZodType> = {
  AudienceRequest: audienceBodySchema,
  CheckoutRequest: checkoutBodySchema,
  CheckoutVerificationRequest: checkoutVerifyBodySchema,
  CreditTopupRequest: creditTopupBodySchema,
  AutoTopupRequest: autoTopupBodySchema,
};

export const BILLING_RESPONSE_SCHEMAS: Record<string, z.ZodType> = {
  BillingPlans: billingPlansSchema,
  AudiencePlans: audiencePlansSchema,
  PromoCode: promoAnswerSchema,
  CheckoutUrl: checkoutUrlSchema,
  CheckoutVerification: checkoutVerificationSchema,
  AutoTopupSetting: autoTopupSettingSchema,
  BillingStatus: billingStatusSchema,
  PortalSession: z.object({ url: z.url() }),
  WebhookReceived: z.object({ received: z.literal(true), duplicate: z.boolean().describe('The event id was applied before: nothing done.') }),
};

/** The query schemas of the billing GET operations (the generator turns them into parameters). */
export const BILLING_QUERY_SCHEMAS = { plans: plansQuerySchema, promo: promoQuerySchema };

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const ok = (schema: unknown, description = 'Successful Response') => ({ description, content: { 'application/json': { schema } } });
const error = (description: string) => ok(ref('HTTPError'), description);
const body = (name: string) => ({ content: { 'application/json': { schema: ref(name) } }, required: true });
const OFF = error('Billing is not configured on this server');
const UPSTREAM = error('Stripe failed or did not answer; nothing was changed');

export type BillingOperation = Omit<AccountsOperation, 'method'> & { method: AccountsOperation['method'] | 'put'; query?: z.ZodObject };

/** Every billing operation, in the order of the specification. */
export function billingOperations(): BillingOperation[] {
  const authed = { security: AUTHENTICATED };
  return [
    { method: 'get', path: '/v1/billing/plans', name: 'billing_plans', summary: 'Billing Plans', description: 'Open. The legacy schema by default; `audience` selects an audience catalogue (additive fields).', query: plansQuerySchema, responses: { '200': ok({ anyOf: [ref('BillingPlans'), ref('AudiencePlans')] }) } },
    { method: 'post', path: '/v1/billing/audience', name: 'billing_audience', summary: 'Billing Audience', description: "Stores a Free account's audience choice.", ...authed, requestBody: body('AudienceRequest'), responses: { '200': ok({ type: 'object', properties: { audience: { type: 'string' } } }), '401': UNAUTHORIZED, '409': error('Paid account') } },
    { method: 'get', path: '/v1/billing/promo', name: 'billing_promo', summary: 'Billing Promo', query: promoQuerySchema, responses: { '200': ok(ref('PromoCode')), '502': UPSTREAM, '503': OFF } },
    { method: 'post', path: '/v1/billing/checkout', name: 'billing_checkout', summary: 'Billing Checkout', description: 'Records the legal assent, then creates a Stripe Checkout Session (subscription).', ...authed, requestBody: body('CheckoutRequest'), responses: { '200': ok(ref('CheckoutUrl')), '401': UNAUTHORIZED, '409': error('Already subscribed: use the portal'), '502': UPSTREAM, '503': OFF } },
    { method: 'post', path: '/v1/billing/checkout/verify', name: 'billing_checkout_verify', summary: 'Billing Checkout Verify', ...authed, requestBody: body('CheckoutVerificationRequest'), responses: { '200': ok(ref('CheckoutVerification')), '401': UNAUTHORIZED, '404': error('Not a session of this account'), '502': UPSTREAM, '503': OFF } },
    { method: 'post', path: '/v1/billing/credit-topups/checkout', name: 'billing_credit_topup_checkout', summary: 'Billing Credit Topup Checkout', ...authed, requestBody: body('CreditTopupRequest'), responses: { '200': ok(ref('CheckoutUrl')), '401': UNAUTHORIZED, '409': error('Not a paid account'), '502': UPSTREAM, '503': OFF } },
    { method: 'get', path: '/v1/billing/credit-topups/auto', name: 'billing_auto_topup', summary: 'Billing Auto Topup', ...authed, responses: { '200': ok(ref('AutoTopupSetting')), '401': UNAUTHORIZED } },
    { method: 'put', path: '/v1/billing/credit-topups/auto', name: 'billing_set_auto_topup', summary: 'Billing Set Auto Topup', ...authed, requestBody: body('AutoTopupRequest'), responses: { '200': ok(ref('AutoTopupSetting')), '401': UNAUTHORIZED, '409': error('No active paid subscription or no saved payment method'), '502': UPSTREAM, '503': OFF } },
    { method: 'get', path: '/v1/billing/portal', name: 'billing_portal', summary: 'Billing Portal', ...authed, responses: { '200': ok(ref('PortalSession')), '401': UNAUTHORIZED, '409': error('No Stripe customer yet'), '502': UPSTREAM, '503': OFF } },
    { method: 'post', path: '/v1/billing/portal', name: 'billing_portal', summary: 'Billing Portal', ...authed, responses: { '200': ok(ref('PortalSession')), '401': UNAUTHORIZED, '409': error('No Stripe customer yet'), '502': UPSTREAM, '503': OFF } },
    { method: 'get', path: '/v1/billing/status', name: 'billing_status', summary: 'Billing Status', ...authed, responses: { '200': ok(ref('BillingStatus')), '401': UNAUTHORIZED } },
    { method: 'post', path: '/v1/billing/webhooks', name: 'billing_webhooks', summary: 'Billing Webhooks', description: 'Stripe events, verified with the `Stripe-Signature` header; each event id applies once.', responses: { '200': ok(ref('WebhookReceived')), '400': error('Missing or invalid signature'), '500': error('Not applied; Stripe retries'), '503': OFF } },
  ];
}
