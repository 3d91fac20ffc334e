/**
 * One subscription per account, enforced when the money arrives. The checkout refuses an account
 * that already pays (409), but two Checkout Sessions started before either was paid (a double
 * click, two tabs) can both be paid: Stripe then holds two subscriptions for one customer. Every
 * report of a subscription (its webhooks, the buyer's verification) passes through
 * `settleSubscription`, which keeps the customer's OLDEST entitled subscription and, for any
 * other, refunds its payment in full (reason `duplicate`) and then cancels it at once.
 *
 * Why this rule holds under every order and repetition:
 * - Which one is kept is read from Stripe (the customer's subscriptions, oldest `created` first,
 *   then the smaller id), not from our rows, so two reports handled at once, in two processes,
 *   agree without a lock.
 * - The refund comes first, with an idempotency key per subscription and payment, then the
 *   cancellation, which carries the marker `duplicate of <kept id>` in its
 *   `cancellation_details.comment`. A failure between the two leaves the subscription active and
 *   the event unrecorded (500, Stripe redelivers): the next pass replays the same refund (no
 *   second one) and cancels. A cancelled subscription with the marker is recognised as settled:
 *   its refund is read back for the record, nothing is charged or refunded again. Past the
 *   idempotency key's life (24 hours at Stripe) Stripe refuses a second refund of a refunded
 *   payment (`charge_already_refunded`), and the refunds are then listed instead.
 */
import Stripe from 'stripe';
import type { Catalogue } from './catalogue.js';
import { type DuplicateSettlement, ENTITLED_STATUSES, type SubscriptionFacts, subscriptionFacts } from './subscription-sync.js';

const MARKER = 'duplicate of ';

export interface SettledSubscription {
  /** The subscription as it stands now (cancelled when it was a duplicate). */
  facts: SubscriptionFacts;
  /** Set when it was a duplicate. */
  duplicate: DuplicateSettlement | null;
  /** The subscription kept, when this one was a duplicate found just now (stored alongside it). */
  keeper: SubscriptionFacts | null;
}

/**
 * `sub` as Stripe has it now, settled against the customer's other subscriptions: refunded and
 * cancelled when an older entitled one exists. Stripe errors propagate (the caller answers 500 or 502).
 */
export async function settleSubscription(stripe: Stripe, catalogue: Catalogue, sub: Stripe.Subscription): Promise<SettledSubscription> {
  const marked = keptInsteadOf(sub);
  if (sub.status === 'canceled' && marked) {
    return { facts: subscriptionFacts(sub), duplicate: await refundDuplicate(stripe, sub, marked), keeper: null };
  }
  const plain = { facts: subscriptionFacts(sub), duplicate: null, keeper: null };
  if (!isEntitled(sub) || !isSold(catalogue, sub)) return plain;
  const keeper = await oldestEntitled(stripe, catalogue, sub);
  if (keeper.id === sub.id) return plain;
  const duplicate = await refundDuplicate(stripe, sub, keeper.id);
  const cancelled = await cancelDuplicate(stripe, sub.id, keeper.id);
  return { facts: subscriptionFacts(cancelled), duplicate, keeper: subscriptionFacts(keeper) };
}

/** The subscription this one was cancelled in favour of (the guard's marker), or null. */
function keptInsteadOf(sub: Stripe.Subscription): string | null {
  const comment = sub.cancellation_details?.comment ?? '';
  return comment.startsWith(MARKER) ? comment.slice(MARKER.length) : null;
}

function isEntitled(sub: Stripe.Subscription): boolean {
  return (ENTITLED_STATUSES as readonly string[]).includes(sub.status);
}

/** Only subscriptions of the catalogue's prices count (anything else at the customer is not ours to judge). */
function isSold(catalogue: Catalogue, sub: Stripe.Subscription): boolean {
  const price = sub.items?.data?.[0]?.price?.id;
  return Boolean(price && catalogue.planOfPrice(price));
}

/** The customer's oldest entitled subscription of the catalogue (`sub` itself when it is). */
async function oldestEntitled(stripe: Stripe, catalogue: Catalogue, sub: Stripe.Subscription): Promise<Stripe.Subscription> {
  const customer = typeof sub.customer === 'string' ? sub.customer : sub.customer.id;
  const listed = await stripe.subscriptions.list({ customer, limit: 100 });
  const candidates = listed.data.filter((s) => isEntitled(s) && isSold(catalogue, s) && !keptInsteadOf(s));
  if (!candidates.some((s) => s.id === sub.id)) candidates.push(sub);
  candidates.sort((a, b) => a.created - b.created || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return candidates[0]!;
}

/** Refunds in full every payment of the duplicate's first invoice (none when nothing was paid, as with a 100% code). */
async function refundDuplicate(stripe: Stripe, sub: Stripe.Subscription, keptId: string): Promise<DuplicateSettlement> {
  const invoice = typeof sub.latest_invoice === 'string' ? sub.latest_invoice : (sub.latest_invoice?.id ?? null);
  const payments = invoice ? (await stripe.invoicePayments.list({ invoice, status: 'paid', limit: 100 })).data : [];
  const metadata = { ...(sub.metadata?.account_id ? { account_id: sub.metadata.account_id } : {}), subscription: sub.id, duplicate_of: keptId };
  const refunds: Stripe.Refund[] = [];
  for (const payment of payments) {
    const ref = payment.payment.payment_intent;
    const intent = typeof ref === 'string' ? ref : ref?.id;
    if (intent) refunds.push(...(await refundPaymentOnce(stripe, intent, sub.id, metadata)));
  }
  return { duplicateOf: keptId, refundIds: refunds.map((r) => r.id), refundedCents: refunds.reduce((sum, r) => sum + r.amount, 0) };
}

/** The refund of one payment, made once: the idempotency key replays it; a refunded payment's refunds are read back. */
async function refundPaymentOnce(stripe: Stripe, paymentIntent: string, subscriptionId: string, metadata: Record<string, string>): Promise<Stripe.Refund[]> {
  try {
    return [await stripe.refunds.create({ payment_intent: paymentIntent, reason: 'duplicate', metadata }, { idempotencyKey: `duplicate-refund-${subscriptionId}-${paymentIntent}` })];
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeError) || error.code !== 'charge_already_refunded') throw error;
    return (await stripe.refunds.list({ payment_intent: paymentIntent, limit: 100 })).data;
  }
}

/** Cancels the duplicate now, marked; when another report cancelled it meanwhile, that cancellation stands. */
async function cancelDuplicate(stripe: Stripe, id: string, keptId: string): Promise<Stripe.Subscription> {
  try {
    return await stripe.subscriptions.cancel(id, { cancellation_details: { comment: `${MARKER}${keptId}` } });
  } catch (error) {
    const now = await stripe.subscriptions.retrieve(id);
    if (now.status === 'canceled') return now;
    throw error;
  }
}
