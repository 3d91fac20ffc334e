/**
 * The Stripe client: the official `stripe` package, pointed at api.stripe.com or, with
 * STRIPE_API_BASE, at any server speaking Stripe's protocol (the tests' local server). Network
 * retries are on (the library adds an idempotency key to every POST it retries; the billing
 * service passes its own keys where a repeat must not create a second object).
 */
import Stripe from 'stripe';
import type { BillingSettings } from '../../config.js';

export type StripeSettings = NonNullable<BillingSettings['stripe']>;

export function createStripeClient(settings: StripeSettings): Stripe {
  const base = settings.apiBase ? new URL(settings.apiBase) : null;
  return new Stripe(settings.secretKey, {
    maxNetworkRetries: settings.maxNetworkRetries,
    timeout: settings.timeoutMs,
    telemetry: false,
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === 'https:' ? 443 : 80),
          protocol: base.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
}
