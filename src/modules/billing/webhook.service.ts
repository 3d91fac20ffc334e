/**
 * Stripe's webhooks: the signature checked on the raw body, each event applied once, and what an
 * event changes (subscriptions and the effective plan, credit purchases and refunds, auto top-up
 * failures) written in one transaction after every Stripe read it needs.
 */
import { backgroundEm } from '../../context.js';
import type { EntityManager } from '@mikro-orm/core';
import type Stripe from 'stripe';
import { DomainError } from '../../errors.js';
import type { AutoTopupService } from './auto-topup.service.js';
import { type BillingDeps, requireStripe } from './billing-deps.js';
import { applyCreditChanges, type CreditChanges, grantCredits, grantReference, paidTopupOf, takeBackRefund } from './credit-grants.js';
import { findEntryByReference } from './credit-ledger.queries.js';
import type { CreditMeter } from './credit-meter.js';
import { isEventProcessed, markEventProcessed } from './processed-event.queries.js';
import { isMissing } from './stripe-errors.js';
import { settleSubscription, type SettledSubscription } from './duplicate-subscriptions.js';
import { applySettledSubscription, subscriptionFacts } from './subscription-sync.js';

/** The writes of one event, run in the webhook's transaction. */
type EventWrites = (tx: EntityManager) => Promise<unknown>;

const NOTHING: EventWrites = async () => undefined;

export class WebhookService {
  constructor(
    private readonly deps: BillingDeps & {
      /** STRIPE_WEBHOOK_SECRET: without it webhooks answer 503. */
      webhookSecret: string | undefined;
      meter: CreditMeter;
      autoTopup: AutoTopupService;
    },
  ) {}

  /**
   * POST /v1/billing/webhooks: verifies the signature on the raw body (400, nothing changed),
   * applies each event id once (a replay answers 200 and does nothing), in one transaction;
   * anything failing throws (500) so Stripe retries, with nothing half-written.
   */
  async handleWebhook(rawBody: Buffer | string, signature: string | undefined): Promise<{ received: true; duplicate: boolean }> {
    const stripe = requireStripe(this.deps);
    const event = this.verifiedEvent(stripe, rawBody, signature);
    if (await isEventProcessed(backgroundEm(this.deps.orm), event.id)) return { received: true, duplicate: true };
    // Read what the event needs from Stripe first (the current objects), then write in one transaction.
    const touched = new Set<string>();
    const changes: CreditChanges = new Map();
    const writes = await this.prepareEvent(stripe, event, touched, changes);
    await this.deps.meter.flush(); // the ledger holds every draw before a refund reads the balance
    const applied = await backgroundEm(this.deps.orm).transactional(async (tx) => {
      if (!(await markEventProcessed(tx, event.id, event.type))) return false; // another delivery of the same event got there first
      await writes(tx);
      return true;
    });
    // grants and refunds the event committed reach the spendable balances; caches of changed settings dropped
    for (const userId of touched) this.deps.autoTopup.forget(userId);
    await applyCreditChanges(this.deps.meter, changes);
    return { received: true, duplicate: !applied };
  }

  /** The event Stripe signed: 503 without a webhook secret, 400 for a missing or wrong signature. */
  private verifiedEvent(stripe: Stripe, rawBody: Buffer | string, signature: string | undefined): Stripe.Event {
    if (!this.deps.webhookSecret) throw new DomainError('unavailable', 'Stripe webhooks are not configured on this server (STRIPE_WEBHOOK_SECRET)');
    if (!signature) throw new DomainError('bad_request', 'Missing Stripe-Signature header');
    try {
      return stripe.webhooks.constructEvent(rawBody, signature, this.deps.webhookSecret);
    } catch {
      throw new DomainError('bad_request', 'Invalid Stripe signature');
    }
  }

  /**
   * The writes an event leads to, with every Stripe read done beforehand (and, for a duplicate
   * subscription, its refund and cancellation: idempotent, see duplicate-subscriptions.ts).
   */
  private async prepareEvent(stripe: Stripe, event: Stripe.Event, touched: Set<string>, changes: CreditChanges): Promise<EventWrites> {
    // every report of a subscription settles it first: a second one for the same customer is refunded and cancelled
    const applyCurrent = (settled: SettledSubscription): EventWrites => (tx) => applySettledSubscription(tx, this.deps.catalogue, settled);
    switch (event.type) {
      case 'checkout.session.completed': {
        const session = event.data.object;
        if (session.mode === 'subscription') {
          const id = typeof session.subscription === 'string' ? session.subscription : session.subscription?.id;
          if (!id) return NOTHING;
          return applyCurrent(await settleSubscription(stripe, this.deps.catalogue, await stripe.subscriptions.retrieve(id)));
        }
        if (session.metadata?.account_id) touched.add(session.metadata.account_id);
        const topup = paidTopupOf(session);
        return topup ? (tx) => grantCredits(tx, changes, topup.userId, topup.paymentIntentId, topup.amountUsd, topup.note) : NOTHING;
      }
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted':
      case 'customer.subscription.paused':
      case 'customer.subscription.resumed':
        return applyCurrent(await this.currentSubscription(stripe, event.data.object.id, event.data.object));
      case 'invoice.paid':
      case 'invoice.payment_failed': {
        const id = subscriptionOfInvoice(event.data.object);
        return id ? applyCurrent(await this.currentSubscription(stripe, id, null)) : NOTHING;
      }
      case 'payment_intent.succeeded': {
        const intent = event.data.object;
        const userId = intent.metadata?.account_id;
        const amountUsd = Number(intent.metadata?.amount_usd);
        if (intent.metadata?.kind !== 'auto_topup' || !userId || !Number.isInteger(amountUsd)) return NOTHING;
        touched.add(userId);
        return (tx) => grantCredits(tx, changes, userId, intent.id, amountUsd, 'auto top-up');
      }
      case 'payment_intent.payment_failed': {
        const intent = event.data.object;
        const userId = intent.metadata?.account_id;
        if (intent.metadata?.kind !== 'auto_topup' || !userId) return NOTHING;
        touched.add(userId);
        return (tx) => this.deps.autoTopup.turnOff(tx, userId, intent.last_payment_error?.code ?? 'payment_failed');
      }
      case 'charge.refunded': {
        const charge = event.data.object;
        const intent = typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id;
        if (!intent) return NOTHING;
        const grant = await findEntryByReference(backgroundEm(this.deps.orm), grantReference(intent));
        if (!grant) return NOTHING; // not a credit purchase (a subscription invoice's charge)
        touched.add(grant.userId);
        return (tx) => takeBackRefund(tx, changes, grant.userId, charge.id, intent, charge.amount_refunded);
      }
      default:
        return NOTHING;
    }
  }

  /**
   * The subscription as Stripe has it now (Stripe's advice for out-of-order events), settled
   * against the customer's others; the event's own copy only when Stripe no longer knows it.
   */
  private async currentSubscription(stripe: Stripe, id: string, fromEvent: Stripe.Subscription | null): Promise<SettledSubscription> {
    let current: Stripe.Subscription;
    try {
      current = await stripe.subscriptions.retrieve(id);
    } catch (error) {
      if (isMissing(error) && fromEvent) return { facts: subscriptionFacts(fromEvent), duplicate: null, keeper: null };
      throw error;
    }
    return settleSubscription(stripe, this.deps.catalogue, current);
  }
}

/** The subscription an invoice bills (`parent.subscription_details` in current API versions, `subscription` in older ones). */
function subscriptionOfInvoice(invoice: Stripe.Invoice): string | null {
  const parent = (invoice as unknown as { parent?: { subscription_details?: { subscription?: string | { id: string } } } }).parent;
  const ref = parent?.subscription_details?.subscription ?? (invoice as unknown as { subscription?: string | { id: string } }).subscription;
  return !ref ? null : typeof ref === 'string' ? ref : ref.id;
}
