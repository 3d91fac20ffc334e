/**
 * The closed sets of the billing arguments as GraphQL enums (issue #35, item 7), from the same
 * constants the REST schemas validate against.
 */
import { closedSetEnum } from '../../src/graphql/closed-set-enum.js';
import { AUDIENCES, INTERVALS, PURCHASABLE_PLANS } from '../../src/modules/billing/catalogue.js';

/** The plans a checkout can buy: every purchasable plan but free (as REST's CheckoutRequest). */
export const PAID_PLANS = PURCHASABLE_PLANS.filter((plan) => plan !== 'free');

export const PaidPlan = closedSetEnum('PaidPlan', PAID_PLANS, 'A paid plan slug of the catalogue.');
export const Audience = closedSetEnum('Audience', AUDIENCES, 'Who a plan catalogue is written for.');
export const BillingInterval = closedSetEnum('BillingInterval', INTERVALS, 'How often a subscription is billed.');
