/**
 * Billing: the plan catalogue, checkout with recorded legal assent, subscriptions and the
 * effective plan, promotion codes, extra credits, the customer portal and Stripe's webhooks. One
 * service used by REST, the billing subgraph and the usage guard.
 *
 * Writes are transactional and happen after Stripe answered: a failed Stripe call (502) leaves
 * nothing behind but the assent record, which is written first on purpose (it records what the
 * account accepted, whether or not the payment went ahead).
 */
import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import Stripe from 'stripe';
import { type AccountCaller, type RequestContext, requireAccount } from '../../context.js';
import { DomainError, NotFoundError, ValidationError, type ValidationIssue } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { parseInput } from '../../validation.js';
import { PLANS } from '../usage/plans.js';
import type { CreditDrawer } from '../usage/usage.service.js';
import { audienceBodySchema, autoTopupBodySchema, checkoutBodySchema, checkoutDocumentsQuerySchema, type CheckoutDocument, checkoutVerifyBodySchema, creditTopupBodySchema, plansQuerySchema, promoQuerySchema } from './billing.schema.js';
import type { CreditBalances } from './credit-balances.js';
import { CreditMeter, MICRO_USD } from './credit-meter.js';
import { type Audience, type AudiencePlanView, type Catalogue, type PlanView, type PurchasablePlan, PURCHASABLE_PLANS } from './catalogue.js';
import { callStripe, isMissing } from './stripe-errors.js';
import { applySubscription, ENTITLED_STATUSES, type Sql, subscriptionFacts } from './subscription-sync.js';

export const BILLING_OFF_DETAIL = 'Billing is not configured on this server';
const MICRO = MICRO_USD;
/** How long an auto top-up claim blocks another attempt (a crashed process's claim expires). */
const AUTO_TOPUP_CLAIM_MS = 2 * 60_000;

export interface AutoTopupSetting {
  enabled: boolean;
  threshold_usd: number;
  amount_usd: number;
  last_failure: { reason: string; at: string } | null;
}

export type PlansAnswer = { plans: PlanView[] } | { audience: Audience; title: string; plans: AudiencePlanView[] };

export interface PromoAnswer {
  code: string;
  valid: boolean;
  reason?: 'unknown' | 'expired' | 'used_up' | 'inactive';
  percent_off?: number | null;
  amount_off?: number | null;
  currency?: string | null;
  duration?: string;
  duration_in_months?: number | null;
  plans?: PurchasablePlan[];
  expires_at?: string | null;
  seats_remaining?: number | null;
}

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

export interface BillingDeps {
  orm: MikroORM;
  catalogue: Catalogue;
  /** null = billing off (no STRIPE_SECRET_KEY). */
  stripe: Stripe | null;
  webhookSecret: string | undefined;
  baseUrl: string;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** Where spendable credit balances live (in process by default; Redis shared by every process with REDIS_URL). */
  balances?: CreditBalances;
}

/** What a door knows about the client beyond the caller (the assent record keeps it). */
export interface ClientInfo {
  userAgent: string | null;
}

export class BillingService {
  /** Extra credits on the request path (see credit-meter.ts). */
  readonly credits: CreditMeter;
  /** Auto top-up settings by account, cached for the request path (dropped on every change). */
  private readonly autoTopupCache = new Map<string, AutoTopupSetting>();
  /** Accounts with an auto top-up charge under way in this process: never two at once. */
  private readonly autoTopupInFlight = new Map<string, Promise<void>>();
  /** Accounts whose balance fell while their run was under way: looked at again when it ends. */
  private readonly autoTopupRecheck = new Set<string>();

  constructor(private readonly deps: BillingDeps) {
    this.credits = new CreditMeter(deps.orm, deps.logger, (userId, balance) => this.watchBalance(userId, balance), undefined, deps.balances);
  }

  /** The price of one request past the period allowance, in USD (the catalogue's, or BILLING_EXTRA_REQUEST_PRICE_USD). */
  get extraRequestPriceUsd(): number {
    return this.deps.catalogue.extraRequestPriceUsd;
  }

  /** What the usage guard calls past the period allowance: one request's price from the credits. */
  get creditDrawer(): CreditDrawer {
    const price = () => Math.round(this.deps.catalogue.extraRequestPriceUsd * MICRO);
    return {
      draw: async (caller) => {
        const drawn = await this.credits.draw(caller.userId, price());
        // at zero, an enabled auto top-up is the way back (this request still gets its 429)
        if (!drawn) this.watchBalance(caller.userId, await this.credits.balance(caller.userId));
        return drawn;
      },
      giveBack: (caller) => this.credits.giveBack(caller.userId, price()),
    };
  }

  /** Grants and refunds a committed transaction recorded, applied to the spendable balances. */
  private async applyCreditChanges(changes: CreditChanges): Promise<void> {
    for (const [userId, delta] of changes) await this.credits.adjust(userId, delta);
  }

  /** Writes pending credit consumption (shutdown). */
  close(): Promise<void> {
    return this.credits.close();
  }

  get enabled(): boolean {
    return this.deps.stripe !== null;
  }

  get catalogue(): Catalogue {
    return this.deps.catalogue;
  }

  /** The Stripe client, or 503 when billing is off. */
  private requireStripe(): Stripe {
    if (!this.deps.stripe) throw new DomainError('unavailable', BILLING_OFF_DETAIL);
    return this.deps.stripe;
  }

  private async transaction<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
    return this.deps.orm.em.fork().transactional(async (tx) => {
      const sql: Sql = (query, params = []) => tx.getConnection().execute(query, params, 'all', tx.getTransactionContext()) as Promise<Record<string, any>[]>;
      return work(sql);
    });
  }

  private query(sql: string, params: unknown[] = []): Promise<Record<string, any>[]> {
    return this.deps.orm.em.fork().getConnection().execute(sql, params) as Promise<Record<string, any>[]>;
  }

  // --- catalogue -----------------------------------------------------------------------------

  /** GET /v1/billing/plans: the legacy schema, or an audience catalogue (additive fields). */
  plans(_ctx: RequestContext, query: unknown): PlansAnswer {
    const { audience } = parseInput(plansQuerySchema, query);
    const { catalogue } = this.deps;
    if (!audience) return { plans: catalogue.plans() };
    return { audience, title: catalogue.audienceTitle(audience), plans: catalogue.audiencePlans(audience) };
  }

  /** POST /v1/billing/audience: a Free account's explicit audience choice; 409 for a paid account. */
  async setAudience(ctx: RequestContext, body: unknown): Promise<{ audience: Audience }> {
    const caller = requireAccount(ctx);
    const { audience } = parseInput(audienceBodySchema, body);
    if (PLANS[caller.plan]?.paid) throw new DomainError('conflict', 'The audience is chosen by Free accounts; this account has a paid plan');
    await this.query(
      `insert into billing_account (user_id, audience, created_at, updated_at) values (?, ?, ?, ?)
       on conflict (user_id) do update set audience = excluded.audience, updated_at = excluded.updated_at`,
      [caller.userId, audience, new Date(), new Date()],
    );
    return { audience };
  }

  // --- promotion codes -----------------------------------------------------------------------

  /** GET /v1/billing/promo: whether a Stripe promotion code can be used now, and what it gives. */
  /** Needs credentials: the spec opens only the plan list of billing (and it saves Stripe calls from strangers). */
  async promo(ctx: RequestContext, query: unknown): Promise<PromoAnswer> {
    requireAccount(ctx);
    const stripe = this.requireStripe();
    const { code } = parseInput(promoQuerySchema, query);
    const { id: _stripeId, ...answer } = await this.lookupPromo(stripe, code);
    return answer;
  }

  private async lookupPromo(stripe: Stripe, code: string): Promise<PromoAnswer & { id?: string }> {
    const list = await callStripe('reading the promotion code', () => stripe.promotionCodes.list({ code, limit: 10 }));
    // codes are case-insensitive at Stripe's checkout; prefer an active one when several share the text
    const promo = list.data.find((p) => p.active) ?? list.data[0];
    if (!promo) return { code, valid: false, reason: 'unknown' };
    const couponRef = promo.promotion?.coupon;
    const coupon = typeof couponRef === 'string' ? await callStripe('reading the coupon', () => stripe.coupons.retrieve(couponRef)) : couponRef;
    const now = Date.now() / 1000;
    const remaining = promo.max_redemptions === null ? null : Math.max(0, promo.max_redemptions - promo.times_redeemed);
    const reason = !promo.active
      ? 'inactive'
      : promo.expires_at !== null && promo.expires_at <= now
        ? 'expired'
        : remaining === 0
          ? 'used_up'
          : !coupon || !coupon.valid
            ? 'expired'
            : undefined;
    if (reason) return { code, valid: false, reason };
    const products = coupon!.applies_to?.products ?? null;
    const paidPlans = PURCHASABLE_PLANS.filter((p) => p !== 'free');
    return {
      id: promo.id,
      code,
      valid: true,
      percent_off: coupon!.percent_off,
      amount_off: coupon!.amount_off === null ? null : coupon!.amount_off / 100,
      currency: coupon!.currency,
      duration: coupon!.duration,
      duration_in_months: coupon!.duration_in_months,
      plans: products ? paidPlans.filter((p) => this.deps.catalogue.productIds(p).some((id) => products.includes(id))) : paidPlans,
      expires_at: promo.expires_at === null ? null : new Date(promo.expires_at * 1000).toISOString(),
      seats_remaining: remaining,
    };
  }

  // --- checkout ------------------------------------------------------------------------------

  /**
   * POST /v1/billing/checkout: validates the order (422, nothing stored), refuses an account
   * that already pays (409), records the legal assent, then creates the Stripe Checkout Session
   * (subscription mode) with an idempotency key derived from the assent.
   */
  async checkout(ctx: RequestContext, body: unknown, client: ClientInfo): Promise<{ checkout_url: string }> {
    const caller = requireAccount(ctx);
    const stripe = this.requireStripe();
    const order = parseInput(checkoutBodySchema, body);
    const plan = order.plan as PurchasablePlan;
    const perSeat = PLANS[plan].perSeat;
    const issues: ValidationIssue[] = [];
    if (order.quantity > 1 && !perSeat) {
      issues.push({ type: 'value_error', loc: ['quantity'], msg: `Value error, the ${PLANS[plan].name} plan is not sold per seat: quantity must be 1`, input: order.quantity, ctx: { error: 'not a per-seat plan' } });
    }
    if (order.workspace_name && !perSeat) {
      issues.push({ type: 'value_error', loc: ['workspace_name'], msg: `Value error, only per-seat plans have a team workspace`, input: order.workspace_name, ctx: { error: 'not a per-seat plan' } });
    }
    const priceId = this.deps.catalogue.priceId(plan, order.interval);
    let promo: (PromoAnswer & { id?: string }) | null = null;
    if (order.promo_code) {
      promo = await this.lookupPromo(stripe, order.promo_code);
      if (!promo.valid) {
        issues.push({ type: 'value_error', loc: ['promo_code'], msg: `Value error, the promotion code is not valid (${promo.reason})`, input: order.promo_code, ctx: { error: promo.reason } });
      } else if (!promo.plans!.includes(plan)) {
        issues.push({ type: 'value_error', loc: ['promo_code'], msg: `Value error, the promotion code does not apply to the ${PLANS[plan].name} plan`, input: order.promo_code, ctx: { error: 'not applicable' } });
      }
    }
    if (issues.length) throw new ValidationError(issues);
    if (!priceId) throw new DomainError('unavailable', `The ${PLANS[plan].name} plan (${order.interval}) has no Stripe price on this server`);
    await this.refuseIfSubscribed(caller);

    const unit = this.deps.catalogue.amountUsd(plan, order.interval);
    const assentId = randomUUID();
    const documents = this.assentDocuments(perSeat);
    const summary = {
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
    await this.query(
      `insert into legal_assent (id, user_id, documents, order_summary, ip, user_agent, accepted_at) values (?, ?, ?, ?, ?, ?, ?)`,
      [assentId, caller.userId, JSON.stringify(documents), JSON.stringify(summary), caller.ip, client.userAgent?.slice(0, 500) ?? null, new Date()],
    );

    const customer = await this.customerOf(stripe, caller);
    const metadata = { account_id: caller.userId, assent_id: assentId, plan, interval: order.interval, quantity: String(order.quantity), ...(summary.workspace_name ? { workspace_name: summary.workspace_name } : {}) };
    const session = await callStripe('creating the checkout session', () =>
      stripe.checkout.sessions.create(
        {
          mode: 'subscription',
          customer,
          client_reference_id: caller.userId,
          line_items: [{ price: priceId, quantity: order.quantity }],
          ...(promo?.id ? { discounts: [{ promotion_code: promo.id }] } : {}),
          metadata,
          subscription_data: { metadata },
          success_url: `${this.deps.baseUrl}/dashboard/billing?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: `${this.deps.baseUrl}/dashboard/billing?checkout=cancelled`,
        },
        { idempotencyKey: `checkout-${assentId}` },
      ),
    );
    await this.transaction(async (sql) => {
      await sql(
        `insert into billing_checkout_session (id, user_id, mode, plan, interval, quantity, workspace_name, assent_id, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [session.id, caller.userId, 'subscription', plan, order.interval, order.quantity, summary.workspace_name, assentId, new Date()],
      );
      await sql('update legal_assent set checkout_session_id = ? where id = ?', [session.id, assentId]);
    });
    if (!session.url) throw new DomainError('bad_gateway', 'The payment provider created a checkout session without a URL');
    return { checkout_url: session.url };
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

  private async refuseIfSubscribed(caller: AccountCaller): Promise<void> {
    const [active] = await this.query(
      `select id from billing_subscription where user_id = ? and status in (${ENTITLED_STATUSES.map(() => '?').join(', ')}) limit 1`,
      [caller.userId, ...ENTITLED_STATUSES],
    );
    if (active) {
      throw new DomainError('conflict', 'This account already has an active subscription; change it in the customer portal (POST /v1/billing/portal)');
    }
  }

  /** The account's Stripe customer, created once (the idempotency key makes a retried creation return the same customer). */
  private async customerOf(stripe: Stripe, caller: AccountCaller): Promise<string> {
    const [row] = await this.query('select stripe_customer_id from billing_account where user_id = ?', [caller.userId]);
    if (row?.stripe_customer_id) return row.stripe_customer_id as string;
    const customer = await callStripe('creating the customer', () =>
      stripe.customers.create({ email: caller.email, metadata: { account_id: caller.userId } }, { idempotencyKey: `customer-${caller.userId}` }),
    );
    await this.query(
      `insert into billing_account (user_id, stripe_customer_id, created_at, updated_at) values (?, ?, ?, ?)
       on conflict (user_id) do update set stripe_customer_id = coalesce(billing_account.stripe_customer_id, excluded.stripe_customer_id), updated_at = excluded.updated_at`,
      [caller.userId, customer.id, new Date(), new Date()],
    );
    const [stored] = await this.query('select stripe_customer_id from billing_account where user_id = ?', [caller.userId]);
    return stored!.stripe_customer_id as string;
  }

  /**
   * POST /v1/billing/checkout/verify: the creator's own session only (404 otherwise); when Stripe
   * says it is complete, applies the same fulfilment as the webhook (whichever comes first wins;
   * the second changes nothing). Answers an allowlisted attribution.
   */
  async verifyCheckout(ctx: RequestContext, body: unknown): Promise<VerifyAnswer> {
    const caller = requireAccount(ctx);
    const stripe = this.requireStripe();
    const { session_id } = parseInput(checkoutVerifyBodySchema, body);
    const [own] = await this.query('select id from billing_checkout_session where id = ? and user_id = ?', [session_id, caller.userId]);
    if (!own) throw new NotFoundError('Checkout session not found');
    const session = await callStripe('reading the checkout session', () => stripe.checkout.sessions.retrieve(session_id));
    if (session.status === 'complete') await this.fulfilCheckout(stripe, session);
    return this.attribution(session);
  }

  private async attribution(session: Stripe.Checkout.Session): Promise<VerifyAnswer> {
    const [row] = await this.query('select mode, plan, interval, quantity from billing_checkout_session where id = ?', [session.id]);
    const subscriptionId = typeof session.subscription === 'string' ? session.subscription : (session.subscription?.id ?? null);
    const [sub] = subscriptionId ? await this.query('select workspace_id from billing_subscription where id = ?', [subscriptionId]) : [];
    const intent = typeof session.payment_intent === 'string' ? session.payment_intent : (session.payment_intent?.id ?? null);
    const [credit] = intent ? await this.query('select amount_micro_usd from credit_ledger where reference = ?', [grantReference(intent)]) : [];
    return {
      session_id: session.id,
      mode: session.mode === 'payment' ? 'payment' : 'subscription',
      status: session.status,
      payment_status: session.payment_status,
      plan: row?.plan ?? null,
      interval: row?.interval ?? null,
      quantity: row?.quantity ?? null,
      workspace_id: sub?.workspace_id ?? null,
      credits_usd: credit ? Number(credit.amount_micro_usd) / MICRO : null,
    };
  }

  /**
   * Fulfilment of a completed checkout session, for the webhook and the verification alike:
   * subscription mode stores the subscription as Stripe has it now; payment mode (credit top-up)
   * grants the credits once (the ledger's unique reference).
   */
  private async fulfilCheckout(stripe: Stripe, session: Stripe.Checkout.Session, inTransaction?: { sql: Sql; changes: CreditChanges }): Promise<void> {
    if (session.mode === 'subscription') {
      const subscriptionId = typeof session.subscription === 'string' ? session.subscription : session.subscription?.id;
      if (!subscriptionId) return;
      const sub = subscriptionFacts(await callStripe('reading the subscription', () => stripe.subscriptions.retrieve(subscriptionId)));
      const apply = (sql: Sql) => applySubscription(sql, this.deps.catalogue, sub);
      await (inTransaction ? apply(inTransaction.sql) : this.transaction(apply));
      return;
    }
    if (session.mode === 'payment' && session.payment_status === 'paid' && session.metadata?.kind === 'credit_topup') {
      const userId = session.metadata.account_id;
      const amountUsd = Number(session.metadata.amount_usd);
      const intent = typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id;
      if (!userId || !intent || !Number.isInteger(amountUsd)) return;
      const grant = (sql: Sql, changes: CreditChanges) => grantCredits(sql, changes, userId, intent, amountUsd, `checkout ${session.id}`);
      if (inTransaction) await grant(inTransaction.sql, inTransaction.changes);
      else {
        const changes: CreditChanges = new Map();
        await this.transaction((sql) => grant(sql, changes));
        await this.applyCreditChanges(changes);
      }
    }
  }

  // --- credits -------------------------------------------------------------------------------

  /** POST /v1/billing/credit-topups/checkout: a one-time Checkout Session buying `amount_usd` of credits (paid accounts only). */
  async creditTopupCheckout(ctx: RequestContext, body: unknown): Promise<{ checkout_url: string }> {
    const caller = requireAccount(ctx);
    const stripe = this.requireStripe();
    const { amount_usd } = parseInput(creditTopupBodySchema, body);
    if (!PLANS[caller.plan]?.paid) throw new DomainError('conflict', 'Extra credits are for paid plans; choose a plan first');
    const customer = await this.customerOf(stripe, caller);
    const attempt = randomUUID();
    const metadata = { account_id: caller.userId, kind: 'credit_topup', amount_usd: String(amount_usd) };
    const session = await callStripe('creating the top-up checkout session', () =>
      stripe.checkout.sessions.create(
        {
          mode: 'payment',
          customer,
          client_reference_id: caller.userId,
          line_items: [{ price_data: { currency: 'usd', unit_amount: amount_usd * 100, product_data: { name: `Extra credits (${amount_usd} USD)` } }, quantity: 1 }],
          // the card is saved for auto top-up
          payment_intent_data: { setup_future_usage: 'off_session', metadata },
          metadata,
          success_url: `${this.deps.baseUrl}/dashboard/billing?topup=success&session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: `${this.deps.baseUrl}/dashboard/billing?topup=cancelled`,
        },
        { idempotencyKey: `topup-${attempt}` },
      ),
    );
    await this.query(`insert into billing_checkout_session (id, user_id, mode, created_at) values (?, ?, 'payment', ?)`, [session.id, caller.userId, new Date()]);
    if (!session.url) throw new DomainError('bad_gateway', 'The payment provider created a checkout session without a URL');
    return { checkout_url: session.url };
  }

  /** The account's credit balance in micro-dollars: the sum of its ledger. */
  creditBalanceMicro(userId: string): Promise<number> {
    return this.credits.balance(userId);
  }

  /** GET /v1/billing/credit-topups/auto. */
  async autoTopup(ctx: RequestContext): Promise<AutoTopupSetting> {
    const caller = requireAccount(ctx);
    return this.loadAutoTopup(caller.userId);
  }

  /**
   * PUT /v1/billing/credit-topups/auto: for accounts with an active paid subscription and a
   * saved payment method (409 otherwise). Enabling clears the last failure.
   */
  async setAutoTopup(ctx: RequestContext, body: unknown): Promise<AutoTopupSetting> {
    const caller = requireAccount(ctx);
    const stripe = this.requireStripe();
    const setting = parseInput(autoTopupBodySchema, body);
    const [active] = await this.query(`select id from billing_subscription where user_id = ? and status in ('active', 'trialing') limit 1`, [caller.userId]);
    if (!active) throw new DomainError('conflict', 'Auto top-up is for accounts with an active paid subscription');
    const [account] = await this.query('select stripe_customer_id from billing_account where user_id = ?', [caller.userId]);
    if (setting.enabled) {
      const method = account?.stripe_customer_id ? await this.savedPaymentMethod(stripe, account.stripe_customer_id as string) : null;
      if (!method) throw new DomainError('conflict', 'Auto top-up needs a saved payment method: buy credits once through checkout, or add a card in the customer portal');
    }
    await this.query(
      `update billing_account set auto_topup_enabled = ?, auto_topup_threshold_usd = ?, auto_topup_amount_usd = ?,
         auto_topup_failure = case when ? then null else auto_topup_failure end,
         auto_topup_failed_at = case when ? then null else auto_topup_failed_at end, updated_at = ?
       where user_id = ?`,
      [setting.enabled, setting.threshold_usd, setting.amount_usd, setting.enabled, setting.enabled, new Date(), caller.userId],
    );
    this.autoTopupCache.delete(caller.userId);
    const stored = await this.loadAutoTopup(caller.userId);
    // a balance already under the new threshold tops up now
    if (stored.enabled) this.watchBalance(caller.userId, await this.credits.balance(caller.userId));
    return stored;
  }

  private async loadAutoTopup(userId: string): Promise<AutoTopupSetting> {
    const cached = this.autoTopupCache.get(userId);
    if (cached) return cached;
    const [row] = await this.query('select * from billing_account where user_id = ?', [userId]);
    const setting: AutoTopupSetting = {
      enabled: Boolean(row?.auto_topup_enabled),
      threshold_usd: row?.auto_topup_threshold_usd ?? 10,
      amount_usd: row?.auto_topup_amount_usd ?? 10,
      last_failure: row?.auto_topup_failure ? { reason: row.auto_topup_failure, at: new Date(row.auto_topup_failed_at).toISOString() } : null,
    };
    this.autoTopupCache.set(userId, setting);
    return setting;
  }

  /** The customer's saved card: its default payment method, else the first one attached. */
  private async savedPaymentMethod(stripe: Stripe, customerId: string): Promise<string | null> {
    const customer = await callStripe('reading the customer', () => stripe.customers.retrieve(customerId));
    if (!customer.deleted) {
      const preferred = customer.invoice_settings?.default_payment_method;
      if (preferred) return typeof preferred === 'string' ? preferred : preferred.id;
    }
    const methods = await callStripe('reading the payment methods', () => stripe.customers.listPaymentMethods(customerId, { limit: 1 }));
    return methods.data[0]?.id ?? null;
  }

  /** Called after each draw (and at zero): starts an auto top-up when the balance fell below the threshold. */
  private watchBalance(userId: string, balanceMicro: number): void {
    if (!this.deps.stripe) return;
    const cached = this.autoTopupCache.get(userId);
    if (cached && (!cached.enabled || balanceMicro >= cached.threshold_usd * MICRO)) return;
    if (this.autoTopupInFlight.has(userId)) {
      // a run (or its settings lookup) is under way with an older balance: look again once it ends
      this.autoTopupRecheck.add(userId);
      return;
    }
    const run = this.runAutoTopup(userId, balanceMicro)
      .catch((error) => this.deps.logger.error('billing: auto top-up failed; it stays on and is tried again at the next draw', error))
      .finally(async () => {
        this.autoTopupInFlight.delete(userId);
        if (this.autoTopupRecheck.delete(userId)) this.watchBalance(userId, await this.credits.balance(userId));
      });
    this.autoTopupInFlight.set(userId, run);
  }

  /** Resolves when no auto top-up is under way for the account (tests and shutdown). */
  async autoTopupSettled(userId: string): Promise<void> {
    for (let run = this.autoTopupInFlight.get(userId); run; run = this.autoTopupInFlight.get(userId)) await run;
  }

  /**
   * One off-session PaymentIntent for the configured amount (its own idempotency key per attempt);
   * granted once on success (here or by the payment_intent.succeeded webhook, whichever first). A
   * declined or authentication-requiring charge turns auto top-up off and records why.
   */
  private async runAutoTopup(userId: string, balanceMicro: number): Promise<void> {
    const stripe = this.deps.stripe!;
    const setting = await this.loadAutoTopup(userId);
    if (!setting.enabled || balanceMicro >= setting.threshold_usd * MICRO) return;
    // claim the account's one attempt in the database, so another process does not charge too
    const claimed = new Date();
    const [claim] = await this.query(
      `update billing_account set auto_topup_started_at = ? where user_id = ? and auto_topup_enabled
         and (auto_topup_started_at is null or auto_topup_started_at < ?) returning user_id`,
      [claimed, userId, new Date(claimed.getTime() - AUTO_TOPUP_CLAIM_MS)],
    );
    if (!claim) return;
    try {
      await this.chargeAutoTopup(stripe, userId, setting);
    } finally {
      await this.query('update billing_account set auto_topup_started_at = null where user_id = ? and auto_topup_started_at = ?', [userId, claimed]);
    }
  }

  private async chargeAutoTopup(stripe: Stripe, userId: string, setting: AutoTopupSetting): Promise<void> {
    const [account] = await this.query('select stripe_customer_id from billing_account where user_id = ?', [userId]);
    const customer = account?.stripe_customer_id as string | undefined;
    const method = customer ? await this.savedPaymentMethod(stripe, customer) : null;
    if (!customer || !method) return this.turnOffAutoTopup(userId, 'no_saved_payment_method');
    let intent: Stripe.PaymentIntent;
    try {
      intent = await stripe.paymentIntents.create(
        {
          amount: setting.amount_usd * 100,
          currency: 'usd',
          customer,
          payment_method: method,
          off_session: true,
          confirm: true,
          metadata: { account_id: userId, kind: 'auto_topup', amount_usd: String(setting.amount_usd) },
        },
        { idempotencyKey: `auto-topup-${userId}-${randomUUID()}` },
      );
    } catch (error) {
      if (error instanceof Stripe.errors.StripeCardError) return this.turnOffAutoTopup(userId, error.code ?? 'card_error');
      throw error;
    }
    if (intent.status === 'succeeded') {
      const changes: CreditChanges = new Map();
      await this.transaction((sql) => grantCredits(sql, changes, userId, intent.id, setting.amount_usd, 'auto top-up'));
      await this.applyCreditChanges(changes);
    } else if (intent.status === 'requires_action' || intent.status === 'requires_payment_method') {
      await this.turnOffAutoTopup(userId, intent.last_payment_error?.code ?? 'authentication_required');
    }
  }

  private async turnOffAutoTopup(userId: string, reason: string, sql?: Sql): Promise<void> {
    const run = sql ?? ((q: string, p: unknown[] = []) => this.query(q, p));
    await run('update billing_account set auto_topup_enabled = false, auto_topup_failure = ?, auto_topup_failed_at = ?, updated_at = ? where user_id = ?', [reason, new Date(), new Date(), userId]);
    this.autoTopupCache.delete(userId);
    this.deps.logger.warn(`billing: auto top-up turned off for an account (${reason})`);
  }

  // --- portal and status ---------------------------------------------------------------------

  /** GET/POST /v1/billing/portal: a customer-portal session returning to the dashboard's billing page; 409 without a Stripe customer. */
  async portal(ctx: RequestContext): Promise<{ url: string }> {
    const caller = requireAccount(ctx);
    const stripe = this.requireStripe();
    const [row] = await this.query('select stripe_customer_id from billing_account where user_id = ?', [caller.userId]);
    if (!row?.stripe_customer_id) throw new DomainError('conflict', 'This account has no billing customer yet; start with a checkout');
    const session = await callStripe('creating the portal session', () =>
      stripe.billingPortal.sessions.create({ customer: row.stripe_customer_id as string, return_url: `${this.deps.baseUrl}/dashboard/billing` }),
    );
    return { url: session.url };
  }

  /** GET /v1/billing/status: plan, audience, subscription, credits, workspace; answers with billing off too. */
  async status(ctx: RequestContext): Promise<BillingStatus> {
    const caller = requireAccount(ctx);
    const [[account], [sub], [workspace], balance, [override]] = await Promise.all([
      this.query('select * from billing_account where user_id = ?', [caller.userId]),
      this.query('select * from billing_subscription where user_id = ? order by updated_at desc limit 1', [caller.userId]),
      this.query('select id, name, seat_limit from workspace where owner_user_id = ?', [caller.userId]),
      this.creditBalanceMicro(caller.userId),
      this.query('select plan, reason, set_at from plan_override where user_id = ?', [caller.userId]),
    ]);
    return {
      billing_enabled: this.enabled,
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
        auto_topup_last_failure: account?.auto_topup_failure ? { reason: account.auto_topup_failure, at: new Date(account.auto_topup_failed_at).toISOString() } : null,
      },
      workspace: workspace ? { id: workspace.id, name: workspace.name, seat_limit: workspace.seat_limit } : null,
      admin_override: override ? { plan: override.plan, reason: override.reason ?? null, set_at: new Date(override.set_at).toISOString() } : null,
    };
  }

  /**
   * Teams' seat change: the quantity of the account's entitled per-seat subscription, changed at
   * Stripe (prorated as Stripe does by default). Nothing is written here: seat_limit follows when
   * Stripe reports the update (customer.subscription.updated). 409 without such a subscription.
   */
  async changeSeatQuantity(userId: string, quantity: number): Promise<void> {
    const [sub] = await this.query(
      `select id from billing_subscription where user_id = ? and workspace_id is not null and status in (${ENTITLED_STATUSES.map(() => '?').join(', ')}) order by updated_at desc limit 1`,
      [userId, ...ENTITLED_STATUSES],
    );
    if (!sub) throw new DomainError('conflict', 'No per-seat subscription to change: subscribe first');
    const stripe = this.requireStripe();
    const current = await callStripe('reading the subscription', () => stripe.subscriptions.retrieve(sub.id));
    const item = current.items.data[0];
    if (!item) throw new DomainError('conflict', 'The subscription has no item to change');
    await callStripe('changing the seat quantity', () => stripe.subscriptions.update(sub.id, { items: [{ id: item.id, quantity }] }));
  }

  // --- webhooks ------------------------------------------------------------------------------

  /**
   * POST /v1/billing/webhooks: verifies the signature on the raw body (400, nothing changed),
   * applies each event id once (a replay answers 200 and does nothing), in one transaction;
   * anything failing throws (500) so Stripe retries, with nothing half-written.
   */
  async handleWebhook(rawBody: Buffer | string, signature: string | undefined): Promise<{ received: true; duplicate: boolean }> {
    const stripe = this.requireStripe();
    if (!this.deps.webhookSecret) throw new DomainError('unavailable', 'Stripe webhooks are not configured on this server (STRIPE_WEBHOOK_SECRET)');
    if (!signature) throw new DomainError('bad_request', 'Missing Stripe-Signature header');
    let event: Stripe.Event;
    try {
      event = stripe.webhooks.constructEvent(rawBody, signature, this.deps.webhookSecret);
    } catch {
      throw new DomainError('bad_request', 'Invalid Stripe signature');
    }
    const [seen] = await this.query('select id from billing_processed_event where id = ?', [event.id]);
    if (seen) return { received: true, duplicate: true };
    // Read what the event needs from Stripe first (the current objects), then write in one transaction.
    const touched = new Set<string>();
    const changes: CreditChanges = new Map();
    const apply = await this.prepareEvent(stripe, event, touched, changes);
    await this.credits.flush(); // the ledger holds every draw before a refund reads the balance
    const applied = await this.transaction(async (sql) => {
      const [inserted] = await sql('insert into billing_processed_event (id, type, processed_at) values (?, ?, ?) on conflict (id) do nothing returning id', [event.id, event.type, new Date()]);
      if (!inserted) return false; // another delivery of the same event got there first
      await apply(sql);
      return true;
    });
    // grants and refunds the event committed reach the spendable balances; caches of changed settings dropped
    for (const userId of touched) this.autoTopupCache.delete(userId);
    await this.applyCreditChanges(changes);
    return { received: true, duplicate: !applied };
  }

  /** The writes an event leads to, with every Stripe read done beforehand. */
  private async prepareEvent(stripe: Stripe, event: Stripe.Event, touched: Set<string>, changes: CreditChanges): Promise<(sql: Sql) => Promise<unknown>> {
    const nothing = async () => undefined;
    switch (event.type) {
      case 'checkout.session.completed': {
        const session = event.data.object;
        if (session.mode === 'subscription') {
          const id = typeof session.subscription === 'string' ? session.subscription : session.subscription?.id;
          if (!id) return nothing;
          const sub = subscriptionFacts(await stripe.subscriptions.retrieve(id));
          return (sql) => applySubscription(sql, this.deps.catalogue, sub);
        }
        if (session.metadata?.account_id) touched.add(session.metadata.account_id);
        return (sql) => this.fulfilCheckout(stripe, session, { sql, changes });
      }
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted':
      case 'customer.subscription.paused':
      case 'customer.subscription.resumed': {
        const sub = await this.currentSubscription(stripe, event.data.object.id, event.data.object);
        return (sql) => applySubscription(sql, this.deps.catalogue, sub);
      }
      case 'invoice.paid':
      case 'invoice.payment_failed': {
        const id = subscriptionOfInvoice(event.data.object);
        if (!id) return nothing;
        const sub = await this.currentSubscription(stripe, id, null);
        return (sql) => applySubscription(sql, this.deps.catalogue, sub);
      }
      case 'payment_intent.succeeded': {
        const intent = event.data.object;
        const userId = intent.metadata?.account_id;
        const amountUsd = Number(intent.metadata?.amount_usd);
        if (intent.metadata?.kind !== 'auto_topup' || !userId || !Number.isInteger(amountUsd)) return nothing;
        touched.add(userId);
        return (sql) => grantCredits(sql, changes, userId, intent.id, amountUsd, 'auto top-up');
      }
      case 'payment_intent.payment_failed': {
        const intent = event.data.object;
        const userId = intent.metadata?.account_id;
        if (intent.metadata?.kind !== 'auto_topup' || !userId) return nothing;
        touched.add(userId);
        return (sql) => this.turnOffAutoTopup(userId, intent.last_payment_error?.code ?? 'payment_failed', sql);
      }
      case 'charge.refunded': {
        const charge = event.data.object;
        const intent = typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id;
        if (!intent) return nothing;
        const [grant] = await this.query('select user_id from credit_ledger where reference = ?', [grantReference(intent)]);
        if (!grant) return nothing; // not a credit purchase (a subscription invoice's charge)
        touched.add(grant.user_id as string);
        return (sql) => takeBackRefund(sql, changes, grant.user_id as string, charge.id, intent, charge.amount_refunded);
      }
      default:
        return nothing;
    }
  }

  /**
   * The subscription as Stripe has it now (Stripe's advice for out-of-order events); the event's
   * own copy only when Stripe no longer knows it.
   */
  private async currentSubscription(stripe: Stripe, id: string, fromEvent: Stripe.Subscription | null) {
    try {
      return subscriptionFacts(await stripe.subscriptions.retrieve(id));
    } catch (error) {
      if (isMissing(error) && fromEvent) return subscriptionFacts(fromEvent);
      throw error;
    }
  }
}

/** The subscription an invoice bills (`parent.subscription_details` in current API versions, `subscription` in older ones). */
function subscriptionOfInvoice(invoice: Stripe.Invoice): string | null {
  const parent = (invoice as unknown as { parent?: { subscription_details?: { subscription?: string | { id: string } } } }).parent;
  const ref = parent?.subscription_details?.subscription ?? (invoice as unknown as { subscription?: string | { id: string } }).subscription;
  return !ref ? null : typeof ref === 'string' ? ref : ref.id;
}

/** The ledger reference of the credits bought by one payment intent: granted once, whoever reports it first. */
function grantReference(paymentIntentId: string): string {
  return `grant:${paymentIntentId}`;
}

/** What a transaction granted (+) or took back (−) per account, applied to the spendable balances after the commit. */
type CreditChanges = Map<string, number>;

function recordChange(changes: CreditChanges, userId: string, deltaMicro: number): void {
  changes.set(userId, (changes.get(userId) ?? 0) + deltaMicro);
}

async function grantCredits(sql: Sql, changes: CreditChanges, userId: string, paymentIntentId: string, amountUsd: number, note: string): Promise<void> {
  const inserted = await sql(
    `insert into credit_ledger (id, user_id, kind, amount_micro_usd, reference, note, created_at) values (?, ?, 'grant', ?, ?, ?, ?) on conflict (reference) do nothing returning id`,
    [randomUUID(), userId, amountUsd * MICRO, grantReference(paymentIntentId), note, new Date()],
  );
  if (inserted.length > 0) recordChange(changes, userId, amountUsd * MICRO);
}

/**
 * A refund of a credit purchase takes the refunded credits back, but never below a zero
 * balance: what was already used is recorded as the shortfall. `amountRefundedCents` is Stripe's
 * cumulative figure, so each new refund of the same charge takes back only its own part, once.
 */
async function takeBackRefund(sql: Sql, changes: CreditChanges, userId: string, chargeId: string, paymentIntentId: string, amountRefundedCents: number): Promise<void> {
  const previous = await sql(`select reference from credit_ledger where reference like ?`, [`refund:${chargeId}:%`]);
  const before = Math.max(0, ...previous.map((r) => Number(String(r.reference).split(':')[2]) || 0));
  const refundMicro = (amountRefundedCents - before) * (MICRO / 100);
  if (refundMicro <= 0) return;
  // lock the account's ledger rows so a concurrent refund reads the same balance after us
  await sql('select pg_advisory_xact_lock(hashtext(?))', [`credit_ledger:${userId}`]);
  const [row] = await sql('select coalesce(sum(amount_micro_usd), 0) as balance from credit_ledger where user_id = ?', [userId]);
  const balance = Math.max(0, Number(row?.balance ?? 0));
  const taken = Math.min(balance, refundMicro);
  const shortfall = refundMicro - taken;
  await sql(`insert into credit_ledger (id, user_id, kind, amount_micro_usd, reference, note, created_at) values (?, ?, 'refund', ?, ?, ?, ?)`, [
    randomUUID(),
    userId,
    -taken,
    `refund:${chargeId}:${amountRefundedCents}`,
    shortfall > 0 ? `refund of ${paymentIntentId}; shortfall ${shortfall / MICRO} USD already used` : `refund of ${paymentIntentId}`,
    new Date(),
  ]);
  // the spendable balance loses the whole refund, floored at zero (it may hold draws the ledger has not yet)
  recordChange(changes, userId, -refundMicro);
  if (shortfall > 0) {
    await sql(`insert into credit_ledger (id, user_id, kind, amount_micro_usd, reference, note, created_at) values (?, ?, 'refund_shortfall', 0, null, ?, ?)`, [
      randomUUID(),
      userId,
      JSON.stringify({ charge: chargeId, shortfall_usd: shortfall / MICRO }),
      new Date(),
    ]);
  }
}
