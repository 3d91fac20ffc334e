/** The usage record of GET /v1/usage/me (the spec's field names; zod: /openapi.json). */
import { z } from 'zod';

export const usageRecordSchema = z
  .object({
    plan: z.string(),
    period_start: z.string(),
    period_end: z.string().nullable(),
    period_type: z.enum(['rolling_30d', 'billing_period']),
    requests_today: z.number().int().describe('Counted requests in the last 24 hours.'),
    requests_in_period: z.number().int().describe("A team member's: the workspace's pooled count."),
    my_requests_in_period: z.number().int().optional().describe("Team members only: the caller's own requests in the period."),
    per_minute_limit: z.number().int(),
    per_day_limit: z.number().int().describe('The daily cap; plans without one report their period allowance (has_daily_limit false).'),
    per_period_limit: z.number().int().describe('Requests in the period (per seat x seats for per-seat plans).'),
    has_daily_limit: z.boolean(),
    limits_enforced: z.boolean().describe('False for administrators and with RATE_LIMITS=off: counted, never refused.'),
    daily_history: z.array(z.object({ date: z.string(), count: z.number().int() })),
  })
  .meta({ id: 'UsageRecord' });
export type UsageRecord = z.infer<typeof usageRecordSchema>;
