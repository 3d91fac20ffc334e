/**
 * The plan catalogue: what each purchasable plan costs, its Stripe price ids, features and the
 * audience catalogues' texts come from ONE file (`billing-catalogue.json` at the repository root,
 * or BILLING_CATALOGUE); the limits come from the one limits table (src/modules/usage/plans.ts).
 * Nothing else in the code knows a price.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { PlanId } from '../../context.js';
import { PLANS } from '../usage/plans.js';

export const BUNDLED_CATALOGUE_FILE = fileURLToPath(new URL('../../../billing-catalogue.json', import.meta.url));

/** Plans sold (or given, for Free) through the catalogue, in the legacy order. */
export const PURCHASABLE_PLANS = ['free', 'professional', 'professional_plus', 'developer_pro', 'developer_scale'] as const satisfies readonly PlanId[];
export type PurchasablePlan = (typeof PURCHASABLE_PLANS)[number];
export const AUDIENCES = ['legal_professional', 'developer'] as const;
export type Audience = (typeof AUDIENCES)[number];
export const INTERVALS = ['monthly', 'yearly'] as const;
export type BillingInterval = (typeof INTERVALS)[number];

const priceSchema = z.object({ amount_usd: z.number().min(0), price_id: z.string().min(1).nullable() });
const planSchema = z.object({
  /** The Stripe product the plan's prices belong to (promotion codes restricted to products name it). */
  product_id: z.string().min(1).nullable().optional(),
  prices: z.object({ monthly: priceSchema, yearly: priceSchema }),
  features: z.array(z.string()),
});
const audienceSchema = z.object({
  title: z.string(),
  order: z.array(z.enum(PURCHASABLE_PLANS)),
  recommended: z.enum(PURCHASABLE_PLANS),
  taglines: z.partialRecord(z.enum(PURCHASABLE_PLANS), z.string()),
});
export const catalogueFileSchema = z.object({
  currency: z.literal('usd'),
  extra_request_price_usd: z.number().positive(),
  plans: z.object(Object.fromEntries(PURCHASABLE_PLANS.map((p) => [p, planSchema])) as Record<PurchasablePlan, typeof planSchema>),
  audiences: z.object(Object.fromEntries(AUDIENCES.map((a) => [a, audienceSchema])) as Record<Audience, typeof audienceSchema>),
  /** Versions of the legal documents a checkout's assent names. */
  documents: z.object({
    general_service_agreement: z.string(),
    api_mcp_service_terms: z.string(),
    data_processing_agreement: z.string(),
    privacy_notice: z.string(),
  }),
});
export type CatalogueFile = z.infer<typeof catalogueFileSchema>;

/** Reads and validates a catalogue file; a bad file stops the boot with every problem listed. */
export function loadCatalogueFile(file: string = BUNDLED_CATALOGUE_FILE): CatalogueFile {
  const parsed = catalogueFileSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) {
    throw new Error(`Invalid billing catalogue ${file}:\n${parsed.error.issues.map((i) => `  - ${i.path.join('.')}: ${i.message}`).join('\n')}`);
  }
  return parsed.data;
}

/** One plan as GET /v1/billing/plans shows it (legacy schema). */
export interface PlanView {
  slug: PurchasablePlan;
  name: string;
  per_seat: boolean;
  prices: { monthly: number; yearly: number; currency: 'usd' };
  limits: { per_minute: number; per_day: number | null; per_period: number | null };
  features: string[];
  /** Only when billing is on: the Stripe price ids of the two intervals. */
  price_ids?: { monthly: string | null; yearly: string | null };
}

/** The same plan in an audience catalogue: additive fields only. */
export interface AudiencePlanView extends PlanView {
  order: number;
  recommended: boolean;
  tagline: string | null;
}

export class Catalogue {
  constructor(
    readonly file: CatalogueFile,
    /** Billing on: price ids are shown. */
    private readonly showPriceIds: boolean,
    private readonly extraRequestPriceOverride?: number,
  ) {}

  /** USD drawn from extra credits per billable request past the period allowance. */
  get extraRequestPriceUsd(): number {
    return this.extraRequestPriceOverride ?? this.file.extra_request_price_usd;
  }

  plans(): PlanView[] {
    return PURCHASABLE_PLANS.map((slug) => this.plan(slug));
  }

  plan(slug: PurchasablePlan): PlanView {
    const limits = PLANS[slug];
    const { prices, features } = this.file.plans[slug];
    return {
      slug,
      name: limits.name,
      per_seat: limits.perSeat,
      prices: { monthly: prices.monthly.amount_usd, yearly: prices.yearly.amount_usd, currency: 'usd' },
      limits: { per_minute: limits.perMinute, per_day: limits.perDay, per_period: limits.perPeriod },
      features,
      ...(this.showPriceIds ? { price_ids: { monthly: prices.monthly.price_id, yearly: prices.yearly.price_id } } : {}),
    };
  }

  audiencePlans(audience: Audience): AudiencePlanView[] {
    const texts = this.file.audiences[audience];
    const order = [...texts.order, ...PURCHASABLE_PLANS.filter((p) => !texts.order.includes(p))];
    return order.map((slug, index) => ({
      ...this.plan(slug),
      order: index + 1,
      recommended: slug === texts.recommended,
      tagline: texts.taglines[slug] ?? null,
    }));
  }

  audienceTitle(audience: Audience): string {
    return this.file.audiences[audience].title;
  }

  /** The Stripe price id of a paid plan and interval (null: not sold on this server). */
  priceId(slug: PurchasablePlan, interval: BillingInterval): string | null {
    return this.file.plans[slug].prices[interval].price_id;
  }

  /** The Stripe product ids of a plan (empty when the catalogue names none). */
  productIds(slug: PurchasablePlan): string[] {
    const id = this.file.plans[slug].product_id;
    return id ? [id] : [];
  }

  amountUsd(slug: PurchasablePlan, interval: BillingInterval): number {
    return this.file.plans[slug].prices[interval].amount_usd;
  }

  /** The plan and interval a Stripe price id sells, or null for a price this catalogue does not know. */
  planOfPrice(priceId: string): { plan: PurchasablePlan; interval: BillingInterval } | null {
    for (const plan of PURCHASABLE_PLANS) {
      for (const interval of INTERVALS) {
        if (this.file.plans[plan].prices[interval].price_id === priceId) return { plan, interval };
      }
    }
    return null;
  }
}

export function isPurchasablePlan(value: string): value is PurchasablePlan {
  return (PURCHASABLE_PLANS as readonly string[]).includes(value);
}
