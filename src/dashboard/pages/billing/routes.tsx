import type { PageArea } from '../../app/types';

export const area: PageArea = {
  // Stripe returns to /billing?checkout=success&session_id=… (and ?topup=…): the billing page verifies it
  routes: [{ path: 'billing', title: 'Billing', load: () => import('./BillingPage') }],
  // shown when billing is off too: the page then says so
  nav: [{ to: '/billing', label: 'Billing', order: 40 }],
};
