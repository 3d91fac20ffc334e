/** Money and plan words for the billing pages. */
export function usd(amount: number): string {
  return amount.toLocaleString(undefined, { style: 'currency', currency: 'USD', minimumFractionDigits: Number.isInteger(amount) ? 0 : 2, maximumFractionDigits: 2 });
}

/** "professional_plus" → "Professional Plus" when the catalogue does not name it. */
export function planLabel(slug: string, names: Record<string, string> = {}): string {
  return names[slug] ?? slug.split('_').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');
}

export const AUDIENCES = [
  { value: 'legal_professional', label: 'Legal professionals' },
  { value: 'developer', label: 'Developers' },
] as const;

/** Subscription states Stripe reports, in words. */
export const SUBSCRIPTION_STATUS: Record<string, string> = {
  active: 'Active',
  trialing: 'Trial',
  past_due: 'Payment overdue: update your payment method in the customer portal',
  canceled: 'Cancelled',
  unpaid: 'Unpaid',
  incomplete: 'Incomplete',
  incomplete_expired: 'Expired before payment',
  paused: 'Paused',
};

/** How many requests a plan allows, in the one wording every card uses (the plan table is the source). */
export function allowanceWords(plan: { slug: string; per_seat: boolean; limits: { per_period: number | null; per_day: number | null; per_minute: number } }): string[] {
  const period = plan.slug === 'free' ? 'per 30 days' : 'per billing period';
  const lines = [plan.limits.per_period !== null ? `${plan.limits.per_period.toLocaleString('en-US')} requests ${period}${plan.per_seat ? ' per seat' : ''}` : 'No period limit'];
  if (plan.limits.per_day !== null) lines.push(`${plan.limits.per_day.toLocaleString('en-US')} requests per day`);
  lines.push(`${plan.limits.per_minute.toLocaleString('en-US')} requests per minute`);
  return lines;
}

/** What paying yearly saves against twelve monthly payments (null when it saves nothing). */
export function yearlySaving(prices: { monthly: number; yearly: number }): { amount: number; percent: number } | null {
  const twelve = prices.monthly * 12;
  if (prices.yearly <= 0 || prices.yearly >= twelve) return null;
  return { amount: Math.round((twelve - prices.yearly) * 100) / 100, percent: Math.round(((twelve - prices.yearly) / twelve) * 100) };
}

/** A promotion code's discount as Stripe applies it: once, forever, or for a number of months. */
export interface DiscountTerms {
  duration?: string | null;
  duration_in_months?: number | null;
}

/**
 * The payments after today, in words: a discount that repeats covers the payments that fall in
 * its months (monthly: one per month; yearly: one per started year), so "$69.60 per month for
 * 3 months, then $87 per month" rather than "then $87" right after the first payment.
 */
export function paymentsAfterToday(terms: DiscountTerms | null, interval: 'monthly' | 'yearly', discounted: number, full: number): string {
  const per = interval === 'monthly' ? 'month' : 'year';
  const until = `${usd(full)} per ${per} until you cancel`;
  if (!terms || discounted === full) return `then ${until}`;
  if (terms.duration === 'forever') return `then ${usd(discounted)} per ${per} until you cancel`;
  if (terms.duration === 'repeating' && terms.duration_in_months) {
    const payments = interval === 'monthly' ? terms.duration_in_months : Math.ceil(terms.duration_in_months / 12);
    if (payments > 1) return `${usd(discounted)} per ${per} for ${payments} ${per}s, then ${until}`;
  }
  return `then ${until}`;
}

/** The discount's length in words, from the code's own terms. */
export function discountDurationWords(terms: DiscountTerms): string {
  if (terms.duration === 'forever') return 'on every payment';
  if (terms.duration === 'repeating' && terms.duration_in_months) return `for ${terms.duration_in_months} month${terms.duration_in_months === 1 ? '' : 's'}`;
  return 'on the first payment';
}
