/**
 * Running totals of `usage_event` for the admin area, kept by PostgreSQL triggers on that table
 * (migration `Migration…_admin`): every insert adds its rows in the same statement, and
 * anonymising rows (`user_id` set to null at erasure) takes them off the per-user totals. The
 * admin statistics and user listing read these few rows instead of scanning a million events.
 * Days are UTC calendar days.
 */
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const UsageDailyEndpointEntity = defineEntity({
  name: 'UsageDailyEndpoint',
  tableName: 'usage_daily_endpoint',
  properties: {
    day: p.date().primary(),
    endpoint: p.text().primary(),
    requests: p.bigint('number'),
  },
});
export type UsageDailyEndpoint = InferEntity<typeof UsageDailyEndpointEntity>;

export const UsageUserSummaryEntity = defineEntity({
  name: 'UsageUserSummary',
  tableName: 'usage_user_summary',
  properties: {
    user_id: p.uuid().primary(),
    requests: p.bigint('number'),
    first_at: p.datetime(),
    last_at: p.datetime().index('usage_user_summary_last_at_index'),
  },
});
export type UsageUserSummary = InferEntity<typeof UsageUserSummaryEntity>;

export const UsageUserDayEntity = defineEntity({
  name: 'UsageUserDay',
  tableName: 'usage_user_day',
  properties: {
    user_id: p.uuid().primary(),
    day: p.date().primary(),
    requests: p.bigint('number'),
  },
});
export type UsageUserDay = InferEntity<typeof UsageUserDayEntity>;

export const UsageUserEndpointEntity = defineEntity({
  name: 'UsageUserEndpoint',
  tableName: 'usage_user_endpoint',
  properties: {
    user_id: p.uuid().primary(),
    endpoint: p.text().primary(),
    requests: p.bigint('number'),
  },
});
export type UsageUserEndpoint = InferEntity<typeof UsageUserEndpointEntity>;
