/**
 * Auto top-up: when an account's credit balance falls below its threshold, one off-session charge
 * of the configured amount, granted once. Never two charges at once for one account: in this
 * process (`inFlight`), and across processes (a claim in `billing_account` that expires). A
 * declined or authentication-requiring charge turns auto top-up off and records why.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import Stripe from 'stripe';
import { backgroundEm, type RequestContext, requireAccount } from '../../context.js';
import { DomainError } from '../../errors.js';
import { parseInput } from '../../validation.js';
import { claimAutoTopup, findBillingAccount, findStripeCustomerId, recordAutoTopupFailure, releaseAutoTopupClaim, saveAutoTopupSetting } from './billing-account.queries.js';
import { type BillingDeps, requireStripe } from './billing-deps.js';
import { findLatestSubscription } from './billing-subscription.queries.js';
import { autoTopupBodySchema } from './billing.schema.js';
import { applyCreditChanges, type CreditChanges, grantCredits } from './credit-grants.js';
import { type CreditMeter, MICRO_USD as MICRO } from './credit-meter.js';
import { callStripe } from './stripe-errors.js';

/** How long an auto top-up claim blocks another attempt (a crashed process's claim expires). */
const AUTO_TOPUP_CLAIM_MS = 2 * 60_000;

export interface AutoTopupSetting {
  enabled: boolean;
  threshold_usd: number;
  amount_usd: number;
  last_failure: { reason: string; at: string } | null;
}

export class AutoTopupService {
  /** Settings by account, cached for the request path (dropped on every change). */
  private readonly cache = new Map<string, AutoTopupSetting>();
  /** Accounts with an auto top-up charge under way in this process: never two at once. */
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Accounts whose balance fell while their run was under way: looked at again when it ends. */
  private readonly recheck = new Set<string>();

  constructor(private readonly deps: BillingDeps & { meter: CreditMeter }) {}

  /** GET /v1/billing/credit-topups/auto. */
  async get(ctx: RequestContext): Promise<AutoTopupSetting> {
    const caller = requireAccount(ctx);
    return this.load(caller.userId);
  }

  /**
   * PUT /v1/billing/credit-topups/auto: for accounts with an active paid subscription and a
   * saved payment method (409 otherwise). Enabling clears the last failure.
   */
  async set(ctx: RequestContext, body: unknown): Promise<AutoTopupSetting> {
    await this.deps.limits.check(ctx, 'billing_auto_topup');
    const caller = requireAccount(ctx);
    const setting = parseInput(autoTopupBodySchema, body);
    const stripe = requireStripe(this.deps);
    const em = ctx.em;
    // active or trialing only: past_due, which keeps the plan, does not count here
    const active = await findLatestSubscription(em, caller.userId, { statuses: ['active', 'trialing'] });
    if (!active) throw new DomainError('conflict', 'Auto top-up is for accounts with an active paid subscription');
    const customer = await findStripeCustomerId(em, caller.userId);
    if (setting.enabled) {
      const method = customer ? await savedPaymentMethod(stripe, customer) : null;
      if (!method) throw new DomainError('conflict', 'Auto top-up needs a saved payment method: buy credits once through checkout, or add a card in the customer portal');
    }
    await saveAutoTopupSetting(em, caller.userId, { enabled: setting.enabled, thresholdUsd: setting.threshold_usd, amountUsd: setting.amount_usd });
    this.cache.delete(caller.userId);
    const stored = await this.load(caller.userId);
    // a balance already under the new threshold tops up now
    if (stored.enabled) this.watch(caller.userId, await this.deps.meter.balance(caller.userId));
    return stored;
  }

  /** Drops the cached setting of an account whose row changed elsewhere (a webhook). */
  forget(userId: string): void {
    this.cache.delete(userId);
  }

  private async load(userId: string): Promise<AutoTopupSetting> {
    const cached = this.cache.get(userId);
    if (cached) return cached;
    // fills the process-wide settings cache (shared by requests and top-ups alike): its own fork
    const row = await findBillingAccount(backgroundEm(this.deps.orm), userId);
    const setting: AutoTopupSetting = {
      enabled: Boolean(row?.auto_topup_enabled),
      threshold_usd: row?.auto_topup_threshold_usd ?? 10,
      amount_usd: row?.auto_topup_amount_usd ?? 10,
      last_failure: row?.auto_topup_failure ? { reason: row.auto_topup_failure, at: new Date(row.auto_topup_failed_at!).toISOString() } : null,
    };
    this.cache.set(userId, setting);
    return setting;
  }

  /** Called after each draw (and at zero): starts an auto top-up when the balance fell below the threshold. */
  watch(userId: string, balanceMicro: number): void {
    if (!this.deps.stripe) return;
    const cached = this.cache.get(userId);
    if (cached && (!cached.enabled || balanceMicro >= cached.threshold_usd * MICRO)) return;
    if (this.inFlight.has(userId)) {
      // a run (or its settings lookup) is under way with an older balance: look again once it ends
      this.recheck.add(userId);
      return;
    }
    const run = this.run(userId, balanceMicro)
      .catch((error) => this.deps.logger.error('billing: auto top-up failed; it stays on and is tried again at the next draw', error))
      .finally(async () => {
        this.inFlight.delete(userId);
        if (this.recheck.delete(userId)) this.watch(userId, await this.deps.meter.balance(userId));
      });
    this.inFlight.set(userId, run);
  }

  /** Resolves when no auto top-up is under way for the account (tests and shutdown). */
  async settled(userId: string): Promise<void> {
    for (let run = this.inFlight.get(userId); run; run = this.inFlight.get(userId)) await run;
  }

  /**
   * One off-session PaymentIntent for the configured amount (its own idempotency key per attempt);
   * granted once on success (here or by the payment_intent.succeeded webhook, whichever first).
   */
  private async run(userId: string, balanceMicro: number): Promise<void> {
    const stripe = this.deps.stripe!;
    const setting = await this.load(userId);
    if (!setting.enabled || balanceMicro >= setting.threshold_usd * MICRO) return;
    // claim the account's one attempt in the database, so another process does not charge too;
    // a top-up runs after the draw that triggered it, outside any request: its own unit of work
    const em = backgroundEm(this.deps.orm);
    const claimed = new Date();
    if (!(await claimAutoTopup(em, userId, claimed, new Date(claimed.getTime() - AUTO_TOPUP_CLAIM_MS)))) return;
    try {
      await this.charge(stripe, userId, setting);
    } finally {
      await releaseAutoTopupClaim(em, userId, claimed);
    }
  }

  private async charge(stripe: Stripe, userId: string, setting: AutoTopupSetting): Promise<void> {
    const customer = await findStripeCustomerId(backgroundEm(this.deps.orm), userId);
    const method = customer ? await savedPaymentMethod(stripe, customer) : null;
    if (!customer || !method) return this.turnOff(backgroundEm(this.deps.orm), userId, 'no_saved_payment_method');
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
      if (error instanceof Stripe.errors.StripeCardError) return this.turnOff(backgroundEm(this.deps.orm), userId, error.code ?? 'card_error');
      throw error;
    }
    if (intent.status === 'succeeded') {
      const changes: CreditChanges = new Map();
      await backgroundEm(this.deps.orm).transactional((tx) => grantCredits(tx, changes, userId, intent.id, setting.amount_usd, 'auto top-up'));
      await applyCreditChanges(this.deps.meter, changes);
    } else if (intent.status === 'requires_action' || intent.status === 'requires_payment_method') {
      await this.turnOff(backgroundEm(this.deps.orm), userId, intent.last_payment_error?.code ?? 'authentication_required');
    }
  }

  /** Turns auto top-up off for the account on `em` (a webhook's transaction, or alone) and records why. */
  async turnOff(em: EntityManager, userId: string, reason: string): Promise<void> {
    await recordAutoTopupFailure(em, userId, reason);
    this.cache.delete(userId);
    this.deps.logger.warn(`billing: auto top-up turned off for an account (${reason})`);
  }
}

/** The customer's saved card: its default payment method, else the first one attached. */
async function savedPaymentMethod(stripe: Stripe, customerId: string): Promise<string | null> {
  const customer = await callStripe('reading the customer', () => stripe.customers.retrieve(customerId));
  if (!customer.deleted) {
    const preferred = customer.invoice_settings?.default_payment_method;
    if (preferred) return typeof preferred === 'string' ? preferred : preferred.id;
  }
  const methods = await callStripe('reading the payment methods', () => stripe.customers.listPaymentMethods(customerId, { limit: 1 }));
  return methods.data[0]?.id ?? null;
}
