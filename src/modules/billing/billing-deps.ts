/** What billing's services are built from, and the one rule they share about it: no Stripe client, no payment (503). */
import type { MikroORM } from '@mikro-orm/core';
import type Stripe from 'stripe';
import { DomainError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { Catalogue } from './catalogue.js';
import type { OperationLimiter } from '../usage/operation-limits.js';

export const BILLING_OFF_DETAIL = 'Billing is not configured on this server';

export interface BillingDeps {
  /** Per-caller limits of the operations a caller may only repeat so often (usage/operation-limits.ts). */
  limits: OperationLimiter;
  orm: MikroORM;
  catalogue: Catalogue;
  /** null = billing off (no STRIPE_SECRET_KEY). */
  stripe: Stripe | null;
  /** The dashboard's origin: Stripe's pages return there. */
  baseUrl: string;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
}

/** The Stripe client, or 503 when billing is off. */
export function requireStripe(deps: Pick<BillingDeps, 'stripe'>): Stripe {
  if (!deps.stripe) throw new DomainError('unavailable', BILLING_OFF_DETAIL);
  return deps.stripe;
}
