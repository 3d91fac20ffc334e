/**
 * Billing's tables. Stripe is the source of truth for money; these rows are what the service
 * needs to answer without calling Stripe (the caller's plan on every request, status) and what
 * must be provable later (legal assent), plus the webhook events already applied.
 */
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** One row per account that touched billing: its Stripe customer, audience choice and auto top-up setting. */
export const BillingAccountEntity = defineEntity({
  name: 'BillingAccount',
  tableName: 'billing_account',
  properties: {
    user_id: p.uuid().primary(),
    stripe_customer_id: p.text().nullable().unique('billing_account_stripe_customer_id_unique'),
    /** The explicit audience choice of a Free account (legal_professional, developer). */
    audience: p.text().nullable(),
    auto_topup_enabled: p.boolean().default(false),
    auto_topup_threshold_usd: p.integer().default(10),
    auto_topup_amount_usd: p.integer().default(10),
    /** Why auto top-up was turned off (a declined or authentication-requiring charge), and when. */
    auto_topup_failure: p.text().nullable(),
    auto_topup_failed_at: p.datetime().nullable(),
    /** An auto top-up charge claimed at this time and not yet finished: no second one starts (any process) for two minutes. */
    auto_topup_started_at: p.datetime().nullable(),
    created_at: p.datetime().onCreate(() => new Date()),
    updated_at: p.datetime().onCreate(() => new Date()),
  },
});
export type BillingAccount = InferEntity<typeof BillingAccountEntity>;

/** A Stripe subscription as last read from Stripe (the webhook or the checkout verification fetch it). */
export const SubscriptionEntity = defineEntity({
  name: 'Subscription',
  tableName: 'billing_subscription',
  properties: {
    id: p.text().primary(),
    user_id: p.uuid().index('billing_subscription_user_id_index'),
    stripe_customer_id: p.text(),
    plan: p.text(),
    interval: p.text(),
    status: p.text(),
    quantity: p.integer(),
    current_period_start: p.datetime(),
    current_period_end: p.datetime(),
    cancel_at_period_end: p.boolean().default(false),
    /** The team workspace a per-seat subscription pays for. */
    workspace_id: p.uuid().nullable(),
    /**
     * A second subscription bought while this account already had one (two checkouts paid before
     * either was reported): the subscription kept, and the refund of this one's payment (Stripe's
     * refund ids, comma-separated, and the amount in cents). Null for every other subscription.
     */
    duplicate_of: p.text().nullable(),
    duplicate_refund_ids: p.text().nullable(),
    duplicate_refunded_cents: p.integer().nullable(),
    updated_at: p.datetime(),
  },
});
export type Subscription = InferEntity<typeof SubscriptionEntity>;

/**
 * Legal assent given at checkout: the documents and versions, the exact order summary shown,
 * time, IP and user agent. Written before Stripe is called; never updated except to link the
 * checkout session it led to.
 */
export const LegalAssentEntity = defineEntity({
  name: 'LegalAssent',
  tableName: 'legal_assent',
  properties: {
    id: p.uuid().primary(),
    user_id: p.uuid().index('legal_assent_user_id_index'),
    documents: p.json<Record<string, string>>(),
    order_summary: p.json<Record<string, unknown>>(),
    ip: p.text().nullable(),
    user_agent: p.text().nullable(),
    accepted_at: p.datetime(),
    checkout_session_id: p.text().nullable(),
  },
});
export type LegalAssent = InferEntity<typeof LegalAssentEntity>;

/** Checkout sessions this server created, so only their creator may verify them. */
export const CheckoutSessionEntity = defineEntity({
  name: 'CheckoutSession',
  tableName: 'billing_checkout_session',
  properties: {
    id: p.text().primary(),
    user_id: p.uuid().index('billing_checkout_session_user_id_index'),
    mode: p.text(),
    plan: p.text().nullable(),
    interval: p.text().nullable(),
    quantity: p.integer().nullable(),
    workspace_name: p.text().nullable(),
    assent_id: p.uuid().nullable(),
    created_at: p.datetime().onCreate(() => new Date()),
  },
});
export type CheckoutSession = InferEntity<typeof CheckoutSessionEntity>;

/** Stripe event ids already applied: each event takes effect once. */
export const ProcessedEventEntity = defineEntity({
  name: 'ProcessedEvent',
  tableName: 'billing_processed_event',
  properties: {
    id: p.text().primary(),
    type: p.text(),
    processed_at: p.datetime(),
  },
});
export type ProcessedEvent = InferEntity<typeof ProcessedEventEntity>;

/**
 * Extra credits, append-only: grants (+), consumption (−), refunds (−). The balance is the sum.
 * Amounts in micro-dollars (one request's price is a fraction of a cent). `reference` makes a
 * grant or refund from one Stripe object take effect once.
 */
export const CreditEntryEntity = defineEntity({
  name: 'CreditEntry',
  tableName: 'credit_ledger',
  properties: {
    id: p.uuid().primary(),
    user_id: p.uuid().index('credit_ledger_user_id_index'),
    kind: p.text(),
    amount_micro_usd: p.bigint('number'),
    reference: p.text().nullable().unique('credit_ledger_reference_unique'),
    note: p.text().nullable(),
    created_at: p.datetime(),
  },
});
export type CreditEntry = InferEntity<typeof CreditEntryEntity>;
