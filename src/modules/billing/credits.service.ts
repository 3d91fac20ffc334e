/**
 * Extra credits: what the usage guard draws past the period allowance (one request's price each),
 * and buying credits through a one-time Stripe Checkout Session. The balances themselves are the
 * credit meter's (credit-meter.ts); automatic top-ups are auto-topup.service.ts's.
 */
import { randomUUID } from 'node:crypto';
import { type RequestContext, requireAccount } from '../../context.js';
import { DomainError } from '../../errors.js';
import { parseInput } from '../../validation.js';
import { PLANS } from '../usage/plans.js';
import type { CreditDrawer } from '../usage/usage.service.js';
import { type BillingDeps, requireStripe } from './billing-deps.js';
import { creditTopupBodySchema } from './billing.schema.js';
import { recordCheckoutSession } from './checkout-records.queries.js';
import { type CreditMeter, MICRO_USD as MICRO } from './credit-meter.js';
import { callStripe } from './stripe-errors.js';
import { stripeCustomerOf } from './stripe-customer.js';

export class CreditsService {
  constructor(
    private readonly deps: BillingDeps & {
      /** Extra credits on the request path. */
      meter: CreditMeter;
      /** Told of a balance that may call for an auto top-up. */
      watchBalance: (userId: string, balanceMicro: number) => void;
    },
  ) {}

  /** The credit meter (balances, draws, the ledger's batched consumption). */
  get meter(): CreditMeter {
    return this.deps.meter;
  }

  /** The price of one request past the period allowance, in USD (the catalogue's, or BILLING_EXTRA_REQUEST_PRICE_USD). */
  get extraRequestPriceUsd(): number {
    return this.deps.catalogue.extraRequestPriceUsd;
  }

  /** What the usage guard calls past the period allowance: one request's price from the credits. */
  get drawer(): CreditDrawer {
    const price = () => Math.round(this.deps.catalogue.extraRequestPriceUsd * MICRO);
    const meter = this.deps.meter;
    return {
      draw: async (caller) => {
        const drawn = await meter.draw(caller.userId, price());
        // at zero, an enabled auto top-up is the way back (this request still gets its 429)
        if (!drawn) this.deps.watchBalance(caller.userId, await meter.balance(caller.userId));
        return drawn;
      },
      giveBack: (caller) => meter.giveBack(caller.userId, price()),
    };
  }

  /** The account's spendable credit balance in micro-dollars (the ledger's sum, as the meter keeps it). */
  balanceMicro(userId: string): Promise<number> {
    return this.deps.meter.balance(userId);
  }

  /** POST /v1/billing/credit-topups/checkout: a one-time Checkout Session buying `amount_usd` of credits (paid accounts only). */
  async topupCheckout(ctx: RequestContext, body: unknown): Promise<{ checkout_url: string }> {
    await this.deps.limits.check(ctx, 'billing_topup_checkout');
    const caller = requireAccount(ctx);
    const { amount_usd } = parseInput(creditTopupBodySchema, body);
    const stripe = requireStripe(this.deps);
    if (!PLANS[caller.plan]?.paid) throw new DomainError('conflict', 'Extra credits are for paid plans; choose a plan first');
    const customer = await stripeCustomerOf(ctx.em, stripe, caller);
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
    await recordCheckoutSession(ctx.em, { id: session.id, userId: caller.userId, mode: 'payment' });
    if (!session.url) throw new DomainError('bad_gateway', 'The payment provider created a checkout session without a URL');
    return { checkout_url: session.url };
  }

  /** Writes pending credit consumption (shutdown). */
  close(): Promise<void> {
    return this.deps.meter.close();
  }
}
