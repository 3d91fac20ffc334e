/**
 * The account's subscription as it stands: the billing status the dashboard shows, the Stripe
 * customer portal where the subscription is changed, and teams' seat change. Stripe's webhooks
 * (webhook.service.ts) keep the stored copy current.
 */
import { type RequestContext, requireAccount } from '../../context.js';
import { DomainError } from '../../errors.js';
import { findBillingAccount, findStripeCustomerId } from './billing-account.queries.js';
import { type BillingDeps, requireStripe } from './billing-deps.js';
import { findLatestSubscription, findShownSubscription } from './billing-subscription.queries.js';
import { type CreditMeter, MICRO_USD as MICRO } from './credit-meter.js';
import { findMembership, findOwnedWorkspace, findPlanOverride } from './subscriber.queries.js';
import type { InvoiceList } from './billing.schema.js';
import { callStripe } from './stripe-errors.js';
import { ENTITLED_STATUSES } from './subscription-sync.js';

export interface BillingStatus {
  billing_enabled: boolean;
  plan: string;
  audience: string | null;
  subscription: {
    id: string;
    plan: string;
    status: string;
    interval: string;
    quantity: number;
    current_period_start: string;
    current_period_end: string;
    cancel_at_period_end: boolean;
  } | null;
  credits: {
    balance_usd: number;
    auto_topup: { enabled: boolean; threshold_usd: number; amount_usd: number };
    auto_topup_last_failure: { reason: string; at: string } | null;
  };
  workspace: { id: string; name: string; seat_limit: number } | null;
  /** An administrator's plan override: it wins over the subscription while it exists. */
  admin_override: { plan: string; reason: string | null; set_at: string } | null;
  /** The team workspace whose plan a member uses (its owner pays); null for the owner and outside a team. */
  team_plan: { workspace_id: string; workspace_name: string; role: string; owner_email: string } | null;
}

/** Invoices shown on the billing page; older ones are in the customer portal. */
const INVOICES_SHOWN = 24;
const isoOf = (seconds: number | null | undefined) => (seconds === null || seconds === undefined ? null : new Date(seconds * 1000).toISOString());

export class SubscriptionService {
  constructor(private readonly deps: BillingDeps & { meter: CreditMeter }) {}

  /** GET /v1/billing/status: plan, audience, subscription, credits, workspace; answers with billing off too. */
  async status(ctx: RequestContext): Promise<BillingStatus> {
    const caller = requireAccount(ctx);
    const [account, sub, workspace, balance, override, membership] = await Promise.all([
      findBillingAccount(ctx.em, caller.userId),
      // the entitled subscription when there is one (a refunded duplicate, cancelled later, is not what the account pays for)
      findShownSubscription(ctx.em, caller.userId, ENTITLED_STATUSES),
      findOwnedWorkspace(ctx.em, caller.userId),
      this.deps.meter.balance(caller.userId),
      findPlanOverride(ctx.em, caller.userId),
      caller.workspaceId ? findMembership(ctx.em, caller.userId, caller.workspaceId) : null,
    ]);
    return {
      billing_enabled: this.deps.stripe !== null,
      plan: caller.plan,
      audience: account?.audience ?? null,
      subscription: sub
        ? {
            id: sub.id,
            plan: sub.plan,
            status: sub.status,
            interval: sub.interval,
            quantity: sub.quantity,
            current_period_start: new Date(sub.current_period_start).toISOString(),
            current_period_end: new Date(sub.current_period_end).toISOString(),
            cancel_at_period_end: Boolean(sub.cancel_at_period_end),
          }
        : null,
      credits: {
        balance_usd: Math.max(0, balance) / MICRO,
        auto_topup: {
          enabled: Boolean(account?.auto_topup_enabled),
          threshold_usd: account?.auto_topup_threshold_usd ?? 10,
          amount_usd: account?.auto_topup_amount_usd ?? 10,
        },
        auto_topup_last_failure: account?.auto_topup_failure ? { reason: account.auto_topup_failure, at: new Date(account.auto_topup_failed_at!).toISOString() } : null,
      },
      workspace: workspace ? { id: workspace.id, name: workspace.name, seat_limit: workspace.seat_limit } : null,
      admin_override: override ? { plan: override.plan, reason: override.reason, set_at: override.set_at.toISOString() } : null,
      team_plan: membership,
    };
  }

  /**
   * GET /v1/billing/invoices: the invoices of the caller's own Stripe customer, newest first, each
   * with Stripe's hosted page. No customer yet (or billing off): none, without asking Stripe.
   */
  async invoices(ctx: RequestContext): Promise<InvoiceList> {
    await this.deps.limits.check(ctx, 'billing_invoices');
    const caller = requireAccount(ctx);
    const customer = await findStripeCustomerId(ctx.em, caller.userId);
    if (!customer || !this.deps.stripe) return { invoices: [], has_more: false };
    const stripe = this.deps.stripe;
    const page = await callStripe('listing the invoices', () => stripe.invoices.list({ customer, limit: INVOICES_SHOWN }));
    return {
      invoices: page.data.map((invoice) => ({
        id: invoice.id!,
        number: invoice.number ?? null,
        status: invoice.status ?? null,
        created_at: isoOf(invoice.created)!,
        period_start: isoOf(invoice.period_start),
        period_end: isoOf(invoice.period_end),
        total_usd: invoice.total / 100,
        amount_paid_usd: invoice.amount_paid / 100,
        currency: invoice.currency,
        hosted_invoice_url: invoice.hosted_invoice_url ?? null,
        invoice_pdf: invoice.invoice_pdf ?? null,
      })),
      has_more: page.has_more,
    };
  }

  /** GET/POST /v1/billing/portal: a customer-portal session returning to the dashboard's billing page; 409 without a Stripe customer. */
  async portal(ctx: RequestContext): Promise<{ url: string }> {
    await this.deps.limits.check(ctx, 'billing_portal');
    const caller = requireAccount(ctx);
    const stripe = requireStripe(this.deps);
    const customer = await findStripeCustomerId(ctx.em, caller.userId);
    if (!customer) throw new DomainError('conflict', 'This account has no billing customer yet; start with a checkout');
    const session = await callStripe('creating the portal session', () => stripe.billingPortal.sessions.create({ customer, return_url: `${this.deps.baseUrl}/dashboard/billing` }));
    return { url: session.url };
  }

  /**
   * Teams' seat change: the quantity of the account's entitled per-seat subscription, changed at
   * Stripe (prorated as Stripe does by default). Nothing is written here: seat_limit follows when
   * Stripe reports the update (customer.subscription.updated). 409 without such a subscription.
   */
  async changeSeatQuantity(ctx: RequestContext, userId: string, quantity: number): Promise<void> {
    const sub = await findLatestSubscription(ctx.em, userId, { statuses: ENTITLED_STATUSES, withWorkspace: true });
    if (!sub) throw new DomainError('conflict', 'No per-seat subscription to change: subscribe first');
    const stripe = requireStripe(this.deps);
    const current = await callStripe('reading the subscription', () => stripe.subscriptions.retrieve(sub.id));
    const item = current.items.data[0];
    if (!item) throw new DomainError('conflict', 'The subscription has no item to change');
    await callStripe('changing the seat quantity', () => stripe.subscriptions.update(sub.id, { items: [{ id: item.id, quantity }] }));
  }
}
