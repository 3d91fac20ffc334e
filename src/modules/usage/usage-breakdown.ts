/**
 * The caller's usage per API key and endpoint over a date range (issue 36, item 7): what the
 * dashboard's usage table and its CSV show, from the same `usage_event` rows as the plan counts
 * (billed requests only, so the totals agree with GET /v1/usage/me). Requests made without a key
 * (a signed-in session, an OAuth token) are one row per endpoint with `key_id` null.
 */
import { z } from 'zod';
import { ValidationError } from '../../errors.js';
import { parseInput } from '../../validation.js';

const DAY_MS = 24 * 3600_000;
/** A year and a day: a leap year's whole calendar year fits; longer ranges are an export job, not a table. */
export const MAX_RANGE_DAYS = 366;
/** Without a range: the last 30 UTC days, today included. */
export const DEFAULT_RANGE_DAYS = 30;

const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date as YYYY-MM-DD')
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), 'Not a calendar date');

export const usageBreakdownQuerySchema = z
  .object({
    from: isoDay.optional().describe('First UTC day (YYYY-MM-DD), included; default 29 days before `to`.'),
    to: isoDay.optional().describe('Last UTC day (YYYY-MM-DD), included; default today (UTC).'),
  })
  .meta({ id: 'UsageBreakdownQuery' });

export const usageBreakdownRowSchema = z.object({
  key_id: z.string().nullable().describe('The API key; null for requests made without one (a signed-in session or an OAuth token).'),
  key_name: z.string().nullable(),
  key_prefix: z.string().nullable(),
  key_revoked: z.boolean().nullable(),
  endpoint: z.string(),
  requests: z.number().int(),
});

export const usageBreakdownSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    total: z.number().int().describe('The sum of the rows: billed requests in the range.'),
    rows: z.array(usageBreakdownRowSchema).describe('One per key and endpoint with requests in the range; most requests first.'),
  })
  .meta({ id: 'UsageBreakdown' });
export type UsageBreakdown = z.infer<typeof usageBreakdownSchema>;

/** The validated range as UTC day strings and the half-open instant interval [start, end) they cover. */
export function usageRange(input: unknown, now: number): { from: string; to: string; start: Date; end: Date } {
  const query = parseInput(usageBreakdownQuerySchema, input ?? {});
  const to = query.to ?? new Date(now).toISOString().slice(0, 10);
  const toStart = Date.parse(`${to}T00:00:00Z`);
  const from = query.from ?? new Date(toStart - (DEFAULT_RANGE_DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
  const fromStart = Date.parse(`${from}T00:00:00Z`);
  if (fromStart > toStart) {
    throw new ValidationError([{ loc: ['from'], msg: 'Value error, from must be on or before to', type: 'value_error', input: from, ctx: { error: 'from must be on or before to' } }]);
  }
  if ((toStart - fromStart) / DAY_MS + 1 > MAX_RANGE_DAYS) {
    throw new ValidationError([{ loc: ['from'], msg: `Value error, the range can cover at most ${MAX_RANGE_DAYS} days`, type: 'value_error', input: from, ctx: { error: `at most ${MAX_RANGE_DAYS} days` } }]);
  }
  return { from, to, start: new Date(fromStart), end: new Date(toStart + DAY_MS) };
}
