/**
 * The ledger rules of granting and taking back credits, run inside the caller's transaction:
 * a purchase is granted once whoever reports it first (the checkout verification, the webhook, the
 * auto top-up itself), a refund takes back only its own part, never below a zero balance. What a
 * transaction granted or took back is collected in `CreditChanges` and applied to the spendable
 * balances only after the commit (`applyCreditChanges`).
 */
import type { EntityManager } from '@mikro-orm/core';
import type Stripe from 'stripe';
import { appendEntry, appendEntryOnce, findReferencesStartingWith, lockAccountLedger, sumLedger } from './credit-ledger.queries.js';
import { type CreditMeter, MICRO_USD as MICRO } from './credit-meter.js';

/** What a transaction granted (+) or took back (−) per account, applied to the spendable balances after the commit. */
export type CreditChanges = Map<string, number>;

function recordChange(changes: CreditChanges, userId: string, deltaMicro: number): void {
  changes.set(userId, (changes.get(userId) ?? 0) + deltaMicro);
}

/** After the commit: the grants and refunds a transaction recorded reach the spendable balances. */
export async function applyCreditChanges(meter: CreditMeter, changes: CreditChanges): Promise<void> {
  for (const [userId, delta] of changes) await meter.adjust(userId, delta);
}

/** The ledger reference of the credits bought by one payment intent: granted once, whoever reports it first. */
export function grantReference(paymentIntentId: string): string {
  return `grant:${paymentIntentId}`;
}

/** Grants `amountUsd` of credits bought by a payment intent, once (a second report changes nothing). */
export async function grantCredits(tx: EntityManager, changes: CreditChanges, userId: string, paymentIntentId: string, amountUsd: number, note: string): Promise<void> {
  const inserted = await appendEntryOnce(tx, { userId, kind: 'grant', amountMicroUsd: amountUsd * MICRO, reference: grantReference(paymentIntentId), note });
  if (inserted) recordChange(changes, userId, amountUsd * MICRO);
}

/** A credit purchase to grant: who, from which payment intent, how much, and the ledger note. */
export interface CreditPurchase {
  userId: string;
  paymentIntentId: string;
  amountUsd: number;
  note: string;
}

/** The credits a completed checkout session bought: a paid top-up's; null for any other session. */
export function paidTopupOf(session: Stripe.Checkout.Session): CreditPurchase | null {
  if (session.mode !== 'payment' || session.payment_status !== 'paid' || session.metadata?.kind !== 'credit_topup') return null;
  const userId = session.metadata.account_id;
  const amountUsd = Number(session.metadata.amount_usd);
  const intent = typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id;
  if (!userId || !intent || !Number.isInteger(amountUsd)) return null;
  return { userId, paymentIntentId: intent, amountUsd, note: `checkout ${session.id}` };
}

/**
 * A refund of a credit purchase takes the refunded credits back, but never below a zero
 * balance: what was already used is recorded as the shortfall. `amountRefundedCents` is Stripe's
 * cumulative figure, so each new refund of the same charge takes back only its own part, once.
 */
export async function takeBackRefund(tx: EntityManager, changes: CreditChanges, userId: string, chargeId: string, paymentIntentId: string, amountRefundedCents: number): Promise<void> {
  const previous = await findReferencesStartingWith(tx, `refund:${chargeId}:`);
  const before = Math.max(0, ...previous.map((reference) => Number(reference.split(':')[2]) || 0));
  const refundMicro = (amountRefundedCents - before) * (MICRO / 100);
  if (refundMicro <= 0) return;
  // lock the account's ledger rows so a concurrent refund reads the same balance after us
  await lockAccountLedger(tx, userId);
  const balance = Math.max(0, await sumLedger(tx, userId));
  const taken = Math.min(balance, refundMicro);
  const shortfall = refundMicro - taken;
  await appendEntry(tx, {
    userId,
    kind: 'refund',
    amountMicroUsd: -taken,
    reference: `refund:${chargeId}:${amountRefundedCents}`,
    note: shortfall > 0 ? `refund of ${paymentIntentId}; shortfall ${shortfall / MICRO} USD already used` : `refund of ${paymentIntentId}`,
  });
  // the spendable balance loses the whole refund, floored at zero (it may hold draws the ledger has not yet)
  recordChange(changes, userId, -refundMicro);
  if (shortfall > 0) {
    await appendEntry(tx, { userId, kind: 'refund_shortfall', amountMicroUsd: 0, reference: null, note: JSON.stringify({ charge: chargeId, shortfall_usd: shortfall / MICRO }) });
  }
}
