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
