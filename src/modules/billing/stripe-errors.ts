/**
 * Calls to Stripe made on behalf of a request: when Stripe cannot be reached, times out or
 * answers an error, the request ends in 502 with a detail naming what failed (never Stripe's raw
 * message, which can echo parameters). The library has already retried network failures and
 * 5xx answers with the same idempotency key by then.
 */
import Stripe from 'stripe';
import { DomainError } from '../../errors.js';

export async function callStripe<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw stripeFailure(what, error);
  }
}

export function stripeFailure(what: string, error: unknown): Error {
  if (!(error instanceof Stripe.errors.StripeError)) return error as Error;
  const reason =
    error instanceof Stripe.errors.StripeConnectionError
      ? 'could not be reached or did not answer in time'
      : `answered ${error.statusCode ?? 'an error'}${error.code ? ` (${error.code})` : ''}`;
  return new DomainError('bad_gateway', `The payment provider ${reason} while ${what}; nothing was changed, try again`);
}

/** True for Stripe's 404 `resource_missing`. */
export function isMissing(error: unknown): boolean {
  return error instanceof Stripe.errors.StripeError && error.statusCode === 404;
}
