/**
 * The analytics' requests and answers (issue #35 items 2-5), validated once here: dates are UTC
 * calendar days `YYYY-MM-DD`, a range spans at most MAX_RANGE_DAYS days (both ends included).
 * Answers are GraphQL-only shapes (camelCase, GraphQL's convention); the partner's REST body and
 * answer are snake_case like the rest of /v1.
 */
import { z } from 'zod';

/** Longest range one query may ask for, in days (both ends included). */
export const MAX_RANGE_DAYS = 400;
export const GRANULARITIES = ['DAY', 'WEEK', 'MONTH'] as const;
export type Granularity = (typeof GRANULARITIES)[number];
/** Most sources or countries one query names. */
export const MAX_SCOPE_ITEMS = 100;
export const MAX_TOP_DOCUMENTS = 100;

const DAY_MS = 86_400_000;

const utcDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD (UTC)')
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), 'must be a real calendar date');

/** Days from `from` to `to`, both included. */
export function daysIn(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

const range = { from: utcDay, to: utcDay };
function boundedRange<T extends { from: string; to: string }>(value: T, ctx: z.RefinementCtx): void {
  const days = daysIn(value.from, value.to);
  if (days < 1) ctx.addIssue({ code: 'custom', path: ['to'], message: 'must not be before from', input: value.to });
  else if (days > MAX_RANGE_DAYS) ctx.addIssue({ code: 'custom', path: ['to'], message: `the range spans ${days} days; at most ${MAX_RANGE_DAYS}`, input: value.to });
}

const sourceName = z.string().min(1).max(200);
const countryCode = z.string().regex(/^[A-Za-z]{2,8}$/, 'must be a country code (DE, FR, EU, CoE...)');

export const sourceUsageQuerySchema = z
  .object({ ...range, sources: z.array(sourceName).min(1).max(MAX_SCOPE_ITEMS), granularity: z.enum(GRANULARITIES).default('DAY') })
  .superRefine(boundedRange);
export const countryUsageQuerySchema = z
  .object({ ...range, countries: z.array(countryCode).min(1).max(MAX_SCOPE_ITEMS), granularity: z.enum(GRANULARITIES).default('DAY') })
  .superRefine(boundedRange);
export const topDocumentsQuerySchema = z
  .object({ ...range, source: sourceName, limit: z.number().int().min(1).max(MAX_TOP_DOCUMENTS).default(10) })
  .superRefine(boundedRange);
export const resolverOutcomesQuerySchema = z
  .object({ ...range, countries: z.array(countryCode).min(1).max(MAX_SCOPE_ITEMS).optional() })
  .superRefine(boundedRange);

/** A value that is withheld (null, `suppressed`) when fewer than 5 distinct accounts made it (analytics-privacy.ts). */
export const suppressibleCountSchema = z
  .object({
    value: z.number().int().nullable().describe('Null when every day of it came from fewer than 5 distinct accounts.'),
    suppressed: z.boolean().describe('Some days of this value came from fewer than 5 distinct accounts and are left out of it.'),
  })
  .meta({ id: 'SuppressibleCount' });
export type SuppressibleCount = z.infer<typeof suppressibleCountSchema>;

const period = { periodStart: z.string(), periodEnd: z.string() };
const usageMeasures = {
  searches: suppressibleCountSchema,
  hits: suppressibleCountSchema,
  documentsFetched: suppressibleCountSchema,
  resolutions: suppressibleCountSchema,
  distinctAccounts: suppressibleCountSchema,
};

export const sourceUsageAnswerSchema = z.object({
  from: z.string(),
  to: z.string(),
  granularity: z.enum(GRANULARITIES),
  periods: z.array(z.object({ source: z.string(), ...period, ...usageMeasures })),
});
export type SourceUsageAnswer = z.infer<typeof sourceUsageAnswerSchema>;

export const countryUsageAnswerSchema = z.object({
  from: z.string(),
  to: z.string(),
  granularity: z.enum(GRANULARITIES),
  periods: z.array(z.object({ country: z.string(), ...period, ...usageMeasures })),
});
export type CountryUsageAnswer = z.infer<typeof countryUsageAnswerSchema>;

export const topDocumentsAnswerSchema = z.object({
  source: z.string(),
  from: z.string(),
  to: z.string(),
  suppressed: z.boolean().describe('Documents read by fewer than 5 distinct accounts on every day are left out.'),
  documents: z.array(z.object({ id: z.string(), sourceId: z.string(), namespace: z.string(), country: z.string(), fetches: suppressibleCountSchema })),
});
export type TopDocumentsAnswer = z.infer<typeof topDocumentsAnswerSchema>;

export const resolverOutcomesAnswerSchema = z.object({
  from: z.string(),
  to: z.string(),
  outcomes: z.array(z.object({ country: z.string().nullable(), matchType: z.string(), resolutions: suppressibleCountSchema })),
});
export type ResolverOutcomesAnswer = z.infer<typeof resolverOutcomesAnswerSchema>;

/** PUT /v1/admin/users/{user_id}/partner. */
export const partnerBodySchema = z
  .object({
    sources: z.array(sourceName).max(MAX_SCOPE_ITEMS).default([]).describe('Sources whose analytics the partner reads, as <country>/<source_name>.'),
    countries: z.array(countryCode).max(MAX_SCOPE_ITEMS).default([]).describe('Countries whose analytics the partner reads.'),
    reason: z.string().max(500).nullish(),
  })
  .refine((b) => b.sources.length + b.countries.length > 0, { message: 'a scope needs at least one source or country', path: ['sources'] })
  .meta({ id: 'PartnerScopeRequest' });

export const partnerPathSchema = z.object({ user_id: z.uuid() });
export const partnerRemovalBodySchema = z.object({ reason: z.string().max(500).nullish() }).meta({ id: 'PartnerRemovalRequest' });

export const partnerAnswerSchema = z
  .object({ user_id: z.string(), sources: z.array(z.string()), countries: z.array(z.string()), updated_at: z.string() })
  .meta({ id: 'PartnerScope' });
export type PartnerAnswer = z.infer<typeof partnerAnswerSchema>;

export const partnerRemovalAnswerSchema = z.object({ user_id: z.string(), removed: z.boolean() }).meta({ id: 'PartnerRemoval' });
