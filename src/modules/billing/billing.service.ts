/**
 * Billing: the plan catalogue, checkout with recorded legal assent, subscriptions and the
 * effective plan, promotion codes, the customer portal and Stripe's webhooks. One service used
 * by REST, the billing subgraph and the usage guard.
 */
import type Stripe from 'stripe';
import type { RequestContext } from '../../context.js';
import { DomainError } from '../../errors.js';
import { parseInput } from '../../validation.js';
import { plansQuerySchema } from './billing.schema.js';
import type { Audience, AudiencePlanView, Catalogue, PlanView } from './catalogue.js';

export const BILLING_OFF_DETAIL = 'Billing is not configured on this server';

export type PlansAnswer = { plans: PlanView[] } | { audience: Audience; title: string; plans: AudiencePlanView[] };

export interface BillingDeps {
  catalogue: Catalogue;
  /** null = billing off (no STRIPE_SECRET_KEY). */
  stripe: Stripe | null;
}

export class BillingService {
  constructor(private readonly deps: BillingDeps) {}

  get enabled(): boolean {
    return this.deps.stripe !== null;
  }

  /** The Stripe client, or 503 when billing is off. */
  protected requireStripe(): Stripe {
    if (!this.deps.stripe) throw new DomainError('unavailable', BILLING_OFF_DETAIL);
    return this.deps.stripe;
  }

  /** GET /v1/billing/plans: the legacy schema, or an audience catalogue (additive fields). */
  plans(_ctx: RequestContext, query: unknown): PlansAnswer {
    const { audience } = parseInput(plansQuerySchema, query);
    const { catalogue } = this.deps;
    if (!audience) return { plans: catalogue.plans() };
    return { audience, title: catalogue.audienceTitle(audience), plans: catalogue.audiencePlans(audience) };
  }
}
