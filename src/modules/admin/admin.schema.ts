/** Requests and answers of the administration endpoints (REST and the admin subgraph share them). */
import { z } from 'zod';
import { laxInt } from '../../validation.js';
import { PURCHASABLE_PLANS } from '../billing/catalogue.js';

export const USER_SORTS = ['requests', 'created_at', 'email'] as const;
export type UserSort = (typeof USER_SORTS)[number];

export const usersQuerySchema = z
  .object({
    limit: laxInt(z.number().int().min(1).max(5000)).default(50),
    offset: laxInt(z.number().int().min(0)).default(0),
    sort: z.enum(USER_SORTS).default('requests'),
    search: z.string().max(100).default('').describe('Matches e-mail or name, case-insensitively; % and _ are taken literally'),
  })
  .meta({ id: 'AdminUsersQuery' });
export type UsersQuery = z.output<typeof usersQuerySchema>;

export const userIdParamsSchema = z.object({ user_id: z.uuid() });
export const reportIdParamsSchema = z.object({ report_id: z.uuid() });

export const planOverrideViewSchema = z
  .object({ plan: z.string(), reason: z.string().nullable(), set_by_user_id: z.string().nullable(), set_at: z.string() })
  .meta({ id: 'AdminPlanOverride' });

export const adminUserSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    plan: z.string().describe('The effective plan: the override when there is one, else the subscription plan'),
    subscription_plan: z.string().describe('The plan the subscription (or its absence) gives'),
    override: planOverrideViewSchema.nullable(),
    workspace: z.object({ id: z.string(), name: z.string() }).nullable(),
    role: z.string().nullable().describe('The role in the workspace (owner, admin, member)'),
    is_admin: z.boolean(),
    created_at: z.string(),
    last_active_at: z.string().nullable(),
    requests_total: z.number().int(),
    requests_period: z.number().int().describe('Requests in the last 30 days (UTC days, today included)'),
  })
  .meta({ id: 'AdminUser' });
export type AdminUser = z.infer<typeof adminUserSchema>;

export const adminUsersPageSchema = z
  .object({ total: z.number().int(), limit: z.number().int(), offset: z.number().int(), sort: z.enum(USER_SORTS), users: z.array(adminUserSchema) })
  .meta({ id: 'AdminUsersResponse' });
export type AdminUsersPage = z.infer<typeof adminUsersPageSchema>;

export const endpointCountSchema = z.object({ endpoint: z.string(), requests: z.number().int() }).meta({ id: 'EndpointCount' });

export const userEndpointsSchema = z
  .object({ user_id: z.string(), endpoints: z.array(endpointCountSchema) })
  .meta({ id: 'AdminUserEndpointsResponse' });
export type UserEndpoints = z.infer<typeof userEndpointsSchema>;

export const adminStatsSchema = z
  .object({
    daily_requests: z.array(z.object({ date: z.string(), requests: z.number().int() })).describe('The last 30 UTC days, oldest first, days without requests included'),
    total_users: z.number().int(),
    requests_today: z.number().int(),
    new_users_7d: z.number().int(),
    new_users_30d: z.number().int(),
    active_users_7d: z.number().int(),
    active_users_30d: z.number().int(),
    top_endpoints: z.array(endpointCountSchema).describe('The last 30 days'),
  })
  .meta({ id: 'AdminStatsResponse' });
export type AdminStats = z.infer<typeof adminStatsSchema>;

export const planOverrideBodySchema = z
  .object({
    plan: z.enum(PURCHASABLE_PLANS).nullable().describe('A plan slug of the catalogue; null removes the override'),
    reason: z.string().trim().max(500).nullish(),
  })
  .meta({ id: 'PlanOverrideRequest' });

export const eraseUserBodySchema = z.object({ reason: z.string().trim().max(500).nullish() }).meta({ id: 'EraseUserRequest' });
