/** Stripe promotion codes: whether one can be used now and what it gives (asked by the dashboard, checked again at checkout). */
import type Stripe from 'stripe';
import { type RequestContext, requireAccount } from '../../context.js';
import { parseInput } from '../../validation.js';
import { type BillingDeps, requireStripe } from './billing-deps.js';
import { promoQuerySchema } from './billing.schema.js';
import { type PurchasablePlan, PURCHASABLE_PLANS } from './catalogue.js';
import { callStripe } from './stripe-errors.js';

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

/** A promotion code as found at Stripe: the answer, with Stripe's id when valid (the checkout applies it). */
export type FoundPromo = PromoAnswer & { id?: string };

export class PromoService {
  constructor(private readonly deps: Pick<BillingDeps, 'stripe' | 'catalogue'>) {}

  /**
   * GET /v1/billing/promo: whether a Stripe promotion code can be used now, and what it gives.
   * Needs credentials: the spec opens only the plan list of billing (and it saves Stripe calls from strangers).
   */
  async promo(ctx: RequestContext, query: unknown): Promise<PromoAnswer> {
    requireAccount(ctx);
    const stripe = requireStripe(this.deps);
    const { code } = parseInput(promoQuerySchema, query);
    const { id: _stripeId, ...answer } = await this.lookup(stripe, code);
    return answer;
  }

  /** Reads the code and its coupon at Stripe and says whether it can be used now, and on which plans. */
  async lookup(stripe: Stripe, code: string): Promise<FoundPromo> {
    const list = await callStripe('reading the promotion code', () => stripe.promotionCodes.list({ code, limit: 10 }));
    // codes are case-insensitive at Stripe's checkout; prefer an active one when several share the text
    const promo = list.data.find((p) => p.active) ?? list.data[0];
    if (!promo) return { code, valid: false, reason: 'unknown' };
    const couponRef = promo.promotion?.coupon;
    const couponId = typeof couponRef === 'string' ? couponRef : couponRef?.id;
    // applies_to is includable: Stripe answers it only when asked, and without it a code limited to
    // one product would look valid for every plan (an embedded coupon lacks it too, so always read)
    const coupon = couponId ? await callStripe('reading the coupon', () => stripe.coupons.retrieve(couponId, { expand: ['applies_to'] })) : null;
    const remaining = promo.max_redemptions === null ? null : Math.max(0, promo.max_redemptions - promo.times_redeemed);
    const reason = unusableReason(promo, coupon, remaining);
    if (reason) return { code, valid: false, reason };
    // no restriction (absent, or an empty list) = every paid plan
    const products = coupon!.applies_to?.products?.length ? coupon!.applies_to.products : null;
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
}

/**
 * Why a promotion code cannot be used now, or undefined when it can. The specific reasons come
 * first: Stripe turns `active` off by itself once a code (or its coupon) has expired or been used
 * up, so `active` alone would answer `inactive` for both; it means "switched off" only when no
 * date or count explains it.
 */
function unusableReason(promo: Stripe.PromotionCode, coupon: Stripe.Coupon | null, remaining: number | null): PromoAnswer['reason'] {
  const now = Date.now() / 1000;
  if (promo.expires_at !== null && promo.expires_at <= now) return 'expired';
  if (remaining === 0) return 'used_up';
  if (coupon?.redeem_by != null && coupon.redeem_by <= now) return 'expired';
  if (coupon?.max_redemptions != null && coupon.times_redeemed >= coupon.max_redemptions) return 'used_up';
  if (!coupon || !coupon.valid || !promo.active) return 'inactive';
  return undefined;
}
