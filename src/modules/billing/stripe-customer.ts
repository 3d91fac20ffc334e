/** The account's Stripe customer, shared by the plan checkout and the credit top-up checkout. */
import type { EntityManager } from '@mikro-orm/core';
import type Stripe from 'stripe';
import type { AccountCaller } from '../../context.js';
import { findStripeCustomerId, saveStripeCustomerIdOnce } from './billing-account.queries.js';
import { callStripe } from './stripe-errors.js';

/**
 * The account's Stripe customer, created once: the idempotency key makes a retried creation return
 * the same customer, and the stored id is read back so two concurrent checkouts agree on one.
 * `em` is the request's (raw statements only: nothing of it is cached in the identity map).
 */
export async function stripeCustomerOf(em: EntityManager, stripe: Stripe, caller: AccountCaller): Promise<string> {
  const known = await findStripeCustomerId(em, caller.userId);
  if (known) return known;
  const customer = await callStripe('creating the customer', () =>
    stripe.customers.create({ email: caller.email, metadata: { account_id: caller.userId } }, { idempotencyKey: `customer-${caller.userId}` }),
  );
  await saveStripeCustomerIdOnce(em, caller.userId, customer.id);
  return (await findStripeCustomerId(em, caller.userId))!;
}
