/**
 * Buying a plan: the plan catalogue and a Free account's audience choice, the legal documents a
 * checkout asks assent to, the checkout itself (assent recorded first, then the Stripe Checkout
 * Session) and its verification when the buyer returns from Stripe.
 *
 * The assent record is written before Stripe is called, on purpose: it records what the account
 * accepted, whether or not the payment went ahead. Everything else is written after Stripe answered,
 * so a failed Stripe call (502) leaves nothing else behind.
 */
import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import type { z } from 'zod';
import { type AccountCaller, type RequestContext, requireAccount } from '../../context.js';
import { DomainError, NotFoundError, ValidationError, type ValidationIssue } from '../../errors.js';
import { parseInput } from '../../validation.js';
import { PLANS } from '../usage/plans.js';
import { saveAudience } from './billing-account.queries.js';
import { type BillingDeps, requireStripe } from './billing-deps.js';
import { findLatestSubscription, findSubscriptionWorkspaceId } from './billing-subscription.queries.js';
import { audienceBodySchema, type CheckoutDocument, checkoutBodySchema, checkoutDocumentsQuerySchema, checkoutVerifyBodySchema, plansQuerySchema } from './billing.schema.js';
import { type Audience, type AudiencePlanView, type PlanView, type PurchasablePlan } from './catalogue.js';
import { findCheckoutSession, linkAssentToSession, recordCheckoutSession, recordLegalAssent } from './checkout-records.queries.js';
import { applyCreditChanges, type CreditChanges, grantCredits, grantReference, paidTopupOf } from './credit-grants.js';
import { findEntryByReference } from './credit-ledger.queries.js';
import { type CreditMeter, MICRO_USD as MICRO } from './credit-meter.js';
import type { FoundPromo, PromoService } from './promo.service.js';
import { callStripe } from './stripe-errors.js';
import { stripeCustomerOf } from './stripe-customer.js';
import { settleSubscription } from './duplicate-subscriptions.js';
import { applySettledSubscription, ENTITLED_STATUSES } from './subscription-sync.js';

export type PlansAnswer = { plans: PlanView[] } | { audience: Audience; title: string; plans: AudiencePlanView[] };

/** What a door knows about the client beyond the caller (the assent record keeps it). */
export interface ClientInfo {
  userAgent: string | null;
}

export interface VerifyAnswer {
  session_id: string;
  mode: 'subscription' | 'payment';
  status: string | null;
  payment_status: string;
  plan: string | null;
  interval: string | null;
  quantity: number | null;
  workspace_id: string | null;
  credits_usd: number | null;
}

type CheckoutOrder = z.output<typeof checkoutBodySchema>;

export class CheckoutService {
  constructor(private readonly deps: BillingDeps & { promo: PromoService; meter: CreditMeter }) {}

  /** GET /v1/billing/plans: the legacy schema, or an audience catalogue (additive fields). */
  plans(_ctx: RequestContext, query: unknown): PlansAnswer {
    const { audience } = parseInput(plansQuerySchema, query);
    const { catalogue } = this.deps;
    if (!audience) return { plans: catalogue.plans() };
    return { audience, title: catalogue.audienceTitle(audience), plans: catalogue.audiencePlans(audience) };
  }

  /** POST /v1/billing/audience: a Free account's explicit audience choice; 409 for a paid account. */
  async setAudience(ctx: RequestContext, body: unknown): Promise<{ audience: Audience }> {
    await this.deps.limits.check(ctx, 'billing_audience');
    const caller = requireAccount(ctx);
    const { audience } = parseInput(audienceBodySchema, body);
    if (PLANS[caller.plan]?.paid) throw new DomainError('conflict', 'The audience is chosen by Free accounts; this account has a paid plan');
    await saveAudience(ctx.em, caller.userId, audience);
    return { audience };
  }

  /**
   * The legal documents a checkout of `plan` asks assent to, with their versions: what the
   * dashboard presents before the assent box (the same list the assent row records). The data
   * processing agreement only for per-seat plans; the privacy notice is acknowledged.
   */
  checkoutDocuments(_ctx: RequestContext, query: unknown): CheckoutDocument[] {
    const { plan } = parseInput(checkoutDocumentsQuerySchema, query);
    const perSeat = PLANS[plan as PurchasablePlan].perSeat;
    const d = this.deps.catalogue.file.documents;
    return [
      { key: 'general_service_agreement', title: 'General service agreement', version: d.general_service_agreement, assent: 'accept' as const },
      { key: 'api_mcp_service_terms', title: 'API/MCP service terms', version: d.api_mcp_service_terms, assent: 'accept' as const },
      ...(perSeat ? [{ key: 'data_processing_agreement', title: 'Data processing agreement', version: d.data_processing_agreement, assent: 'accept' as const }] : []),
      { key: 'privacy_notice', title: 'Privacy notice', version: d.privacy_notice, assent: 'acknowledge' as const },
    ];
  }

  /**
   * POST /v1/billing/checkout: validates the order (422, nothing stored), refuses an account
   * that already pays (409), records the legal assent, then creates the Stripe Checkout Session
   * (subscription mode) with an idempotency key derived from the assent.
   */
  async checkout(ctx: RequestContext, body: unknown, client: ClientInfo): Promise<{ checkout_url: string }> {
    await this.deps.limits.check(ctx, 'billing_checkout');
    const caller = requireAccount(ctx);
    const order = parseInput(checkoutBodySchema, body);
    // the body first (422), then whether this server can take payments at all (503)
    const stripe = requireStripe(this.deps);
    const plan = order.plan as PurchasablePlan;
    const promo = await this.validateOrder(stripe, order, plan);
    const priceId = this.deps.catalogue.priceId(plan, order.interval);
    if (!priceId) throw new DomainError('unavailable', `The ${PLANS[plan].name} plan (${order.interval}) has no Stripe price on this server`);
    await this.refuseIfSubscribed(ctx, caller);

    const assentId = randomUUID();
    const summary = this.orderSummary(order, plan, promo);
    await recordLegalAssent(ctx.em, {
      id: assentId,
      userId: caller.userId,
      documents: this.assentDocuments(PLANS[plan].perSeat),
      orderSummary: summary,
      ip: caller.ip,
      userAgent: client.userAgent?.slice(0, 500) ?? null,
    });

    const customer = await stripeCustomerOf(ctx.em, stripe, caller);
    const session = await this.createSubscriptionSession(stripe, { caller, customer, priceId, order, plan, promo, assentId, workspaceName: summary.workspace_name });
    await ctx.em.transactional(async (tx) => {
      await recordCheckoutSession(tx, {
        id: session.id,
        userId: caller.userId,
        mode: 'subscription',
        order: { plan, interval: order.interval, quantity: order.quantity, workspaceName: summary.workspace_name, assentId },
      });
      await linkAssentToSession(tx, assentId, session.id);
    });
    if (!session.url) throw new DomainError('bad_gateway', 'The payment provider created a checkout session without a URL');
    return { checkout_url: session.url };
  }

  /** The order's own rules beyond the schema (422 with every issue at once); the valid promotion code, if any. */
  private async validateOrder(stripe: Stripe, order: CheckoutOrder, plan: PurchasablePlan): Promise<FoundPromo | null> {
    const perSeat = PLANS[plan].perSeat;
    const issues: ValidationIssue[] = [];
    if (order.quantity > 1 && !perSeat) {
      issues.push({ type: 'value_error', loc: ['quantity'], msg: `Value error, the ${PLANS[plan].name} plan is not sold per seat: quantity must be 1`, input: order.quantity, ctx: { error: 'not a per-seat plan' } });
    }
    if (order.workspace_name && !perSeat) {
      issues.push({ type: 'value_error', loc: ['workspace_name'], msg: `Value error, only per-seat plans have a team workspace`, input: order.workspace_name, ctx: { error: 'not a per-seat plan' } });
    }
    let promo: FoundPromo | null = null;
    if (order.promo_code) {
      promo = await this.deps.promo.lookup(stripe, order.promo_code);
      if (!promo.valid) {
        issues.push({ type: 'value_error', loc: ['promo_code'], msg: `Value error, the promotion code is not valid (${promo.reason})`, input: order.promo_code, ctx: { error: promo.reason } });
      } else if (!promo.plans!.includes(plan)) {
        issues.push({ type: 'value_error', loc: ['promo_code'], msg: `Value error, the promotion code does not apply to the ${PLANS[plan].name} plan`, input: order.promo_code, ctx: { error: 'not applicable' } });
      }
    }
    if (issues.length) throw new ValidationError(issues);
    return promo;
  }

  /** The order exactly as shown to the buyer: what the assent record keeps. */
  private orderSummary(order: CheckoutOrder, plan: PurchasablePlan, promo: FoundPromo | null) {
    const perSeat = PLANS[plan].perSeat;
    const unit = this.deps.catalogue.amountUsd(plan, order.interval);
    return {
      plan,
      plan_name: PLANS[plan].name,
      interval: order.interval,
      quantity: order.quantity,
      unit_price_usd: unit,
      subtotal_usd: unit * order.quantity,
      currency: 'usd',
      discount: promo?.valid ? { code: promo.code, percent_off: promo.percent_off, amount_off: promo.amount_off, duration: promo.duration } : null,
      workspace_name: perSeat ? (order.workspace_name ?? null) : null,
      // the catalogue the order was chosen from (attribution only)
      audience: order.audience ?? null,
    };
  }

  /** The Stripe Checkout Session of a subscription order (idempotent per assent). */
  private createSubscriptionSession(
    stripe: Stripe,
    o: { caller: AccountCaller; customer: string; priceId: string; order: CheckoutOrder; plan: PurchasablePlan; promo: FoundPromo | null; assentId: string; workspaceName: string | null },
  ): Promise<Stripe.Checkout.Session> {
    const metadata = {
      account_id: o.caller.userId,
      assent_id: o.assentId,
      plan: o.plan,
      interval: o.order.interval,
      quantity: String(o.order.quantity),
      ...(o.workspaceName ? { workspace_name: o.workspaceName } : {}),
    };
    return callStripe('creating the checkout session', () =>
      stripe.checkout.sessions.create(
        {
          mode: 'subscription',
          customer: o.customer,
          client_reference_id: o.caller.userId,
          line_items: [{ price: o.priceId, quantity: o.order.quantity }],
          ...(o.promo?.id ? { discounts: [{ promotion_code: o.promo.id }] } : {}),
          metadata,
          subscription_data: { metadata },
          success_url: `${this.deps.baseUrl}/dashboard/billing?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: `${this.deps.baseUrl}/dashboard/billing?checkout=cancelled`,
        },
        { idempotencyKey: `checkout-${o.assentId}` },
      ),
    );
  }

  /** The documents and versions a checkout's assent covers (the data processing agreement only for per-seat plans). */
  private assentDocuments(perSeat: boolean): Record<string, string> {
    const d = this.deps.catalogue.file.documents;
    return {
      general_service_agreement: d.general_service_agreement,
      api_mcp_service_terms: d.api_mcp_service_terms,
      ...(perSeat ? { data_processing_agreement: d.data_processing_agreement } : {}),
      privacy_notice_acknowledged: d.privacy_notice,
    };
  }

  /** 409 when the account already has an entitled subscription: plan changes go through the customer portal. */
  private async refuseIfSubscribed(ctx: RequestContext, caller: AccountCaller): Promise<void> {
    const active = await findLatestSubscription(ctx.em, caller.userId, { statuses: ENTITLED_STATUSES });
    if (active) {
      throw new DomainError('conflict', 'This account already has an active subscription; change it in the customer portal (POST /v1/billing/portal)');
    }
  }

  /**
   * POST /v1/billing/checkout/verify: the creator's own session only (404 otherwise); when Stripe
   * says it is complete, applies the same fulfilment as the webhook (whichever comes first wins;
   * the second changes nothing). Answers an allowlisted attribution.
   */
  async verifyCheckout(ctx: RequestContext, body: unknown): Promise<VerifyAnswer> {
    await this.deps.limits.check(ctx, 'billing_checkout_verify');
    const caller = requireAccount(ctx);
    const { session_id } = parseInput(checkoutVerifyBodySchema, body);
    const stripe = requireStripe(this.deps);
    const own = await findCheckoutSession(ctx.em, session_id, caller.userId);
    if (!own) throw new NotFoundError('Checkout session not found');
    const session = await callStripe('reading the checkout session', () => stripe.checkout.sessions.retrieve(session_id));
    if (session.status === 'complete') await this.fulfil(ctx, stripe, session);
    return this.attribution(ctx, session);
  }

  /**
   * Fulfilment of a completed checkout session on the buyer's return (the webhook does the same in
   * its own transaction): subscription mode stores the subscription as Stripe has it now; payment
   * mode (credit top-up) grants the credits once (the ledger's unique reference).
   */
  private async fulfil(ctx: RequestContext, stripe: Stripe, session: Stripe.Checkout.Session): Promise<void> {
    if (session.mode === 'subscription') {
      const subscriptionId = typeof session.subscription === 'string' ? session.subscription : session.subscription?.id;
      if (!subscriptionId) return;
      // settled as the webhook settles it: a second subscription of the account is refunded and cancelled
      const settled = await callStripe('settling the subscription', async () => settleSubscription(stripe, this.deps.catalogue, await stripe.subscriptions.retrieve(subscriptionId)));
      await ctx.em.transactional((tx) => applySettledSubscription(tx, this.deps.catalogue, settled));
      return;
    }
    const topup = paidTopupOf(session);
    if (!topup) return;
    const changes: CreditChanges = new Map();
    await ctx.em.transactional((tx) => grantCredits(tx, changes, topup.userId, topup.paymentIntentId, topup.amountUsd, topup.note));
    await applyCreditChanges(this.deps.meter, changes);
  }

  private async attribution(ctx: RequestContext, session: Stripe.Checkout.Session): Promise<VerifyAnswer> {
    const em = ctx.em;
    const row = await findCheckoutSession(em, session.id);
    const subscriptionId = typeof session.subscription === 'string' ? session.subscription : (session.subscription?.id ?? null);
    const workspaceId = subscriptionId ? await findSubscriptionWorkspaceId(em, subscriptionId) : null;
    const intent = typeof session.payment_intent === 'string' ? session.payment_intent : (session.payment_intent?.id ?? null);
    const credit = intent ? await findEntryByReference(em, grantReference(intent)) : null;
    return {
      session_id: session.id,
      mode: session.mode === 'payment' ? 'payment' : 'subscription',
      status: session.status,
      payment_status: session.payment_status,
      plan: row?.plan ?? null,
      interval: row?.interval ?? null,
      quantity: row?.quantity ?? null,
      workspace_id: workspaceId,
      credits_usd: credit ? credit.amountMicroUsd / MICRO : null,
    };
  }
}
