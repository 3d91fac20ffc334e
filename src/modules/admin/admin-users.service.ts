/**
 * The admin area's read side: statistics, the user listing and a user's top endpoints. Usage
 * figures come from the running totals the database keeps (usage-rollups.entities.ts), so a
 * request costs a few small reads whatever the size of `usage_event`.
 */
import type { MikroORM } from '@mikro-orm/core';
import type { RequestContext } from '../../context.js';
import { NotFoundError } from '../../errors.js';
import { parseInput } from '../../validation.js';
import { requireAdmin } from './admin-access.js';
import {
  type AdminStats,
  type AdminUser,
  type AdminUsersPage,
  type UserEndpoints,
  userIdParamsSchema,
  usersQuerySchema,
} from './admin.schema.js';
import {
  activeUserCounts,
  type AdminUserRow,
  adminUsersCount,
  adminUsersPage,
  requestsPerDay,
  requestsSinceByUser,
  requestTotalsByUser,
  topEndpointsOfUser,
  topEndpointsSince,
  userCounts,
  userExists,
} from './admin-users.queries.js';

const DAY_MS = 86_400_000;
const PERIOD_DAYS = 30;

/** The UTC day `days` before today, as `YYYY-MM-DD`. */
function utcDay(now: number, daysBack: number): string {
  return new Date(now - daysBack * DAY_MS).toISOString().slice(0, 10);
}

/**
 * One account of the admin listing: its effective plan is the override's while one exists, its
 * workspace and role are those of the team it belongs to (null in a personal workspace), and it
 * is an administrator when its verified e-mail is listed (`isAdmin`).
 */
export function adminUserView(row: AdminUserRow, requestsPeriod: number, isAdmin: (email: string, verified: boolean) => boolean): AdminUser {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    plan: row.override_plan ?? row.subscription_plan,
    subscription_plan: row.subscription_plan,
    override: row.override_plan
      ? { plan: row.override_plan, reason: row.override_reason ?? null, set_by_user_id: row.override_by ?? null, set_at: row.override_at!.toISOString() }
      : null,
    workspace: row.workspace_id ? { id: row.workspace_id, name: row.workspace_name! } : null,
    role: row.workspace_id ? row.workspace_role : null,
    is_admin: isAdmin(row.email, row.email_verified),
    created_at: row.created_at.toISOString(),
    last_active_at: row.last_active_at ? row.last_active_at.toISOString() : null,
    requests_total: row.requests_total,
    requests_period: requestsPeriod,
  };
}

export class AdminUsersService {
  constructor(private readonly deps: { orm: MikroORM; isAdmin: (email: string, verified: boolean) => boolean; now?: () => number }) {}

  async stats(ctx: RequestContext): Promise<AdminStats> {
    requireAdmin(ctx);
    const now = (this.deps.now ?? Date.now)();
    const first = utcDay(now, PERIOD_DAYS - 1);
    const today = utcDay(now, 0);
    const em = ctx.em;
    const since7 = new Date(now - 7 * DAY_MS);
    const since30 = new Date(now - 30 * DAY_MS);
    const [byDay, users, active, top] = await Promise.all([
      requestsPerDay(em, first),
      userCounts(em, since7, since30),
      activeUserCounts(em, since7, since30),
      topEndpointsSince(em, first),
    ]);
    const days = Array.from({ length: PERIOD_DAYS }, (_, i) => utcDay(now, PERIOD_DAYS - 1 - i));
    return {
      daily_requests: days.map((date) => ({ date, requests: byDay.get(date) ?? 0 })),
      total_users: users.total,
      requests_today: byDay.get(today) ?? 0,
      new_users_7d: users.new7,
      new_users_30d: users.new30,
      active_users_7d: active.a7,
      active_users_30d: active.a30,
      top_endpoints: top,
    };
  }

  async users(ctx: RequestContext, input: unknown): Promise<AdminUsersPage> {
    requireAdmin(ctx);
    const query = parseInput(usersQuerySchema, input);
    const now = (this.deps.now ?? Date.now)();
    const em = ctx.em;
    const [rows, total] = await Promise.all([adminUsersPage(em, query), adminUsersCount(em, query.search)]);
    const period = await requestsSinceByUser(
      em,
      rows.map((r) => r.id),
      utcDay(now, PERIOD_DAYS - 1),
    );
    return {
      total,
      limit: query.limit,
      offset: query.offset,
      sort: query.sort,
      users: rows.map((r) => adminUserView(r, period.get(r.id) ?? 0, this.deps.isAdmin)),
    };
  }

  /** The user's top endpoints by call count (404 for an unknown user, 422 for a malformed id). */
  async userEndpoints(ctx: RequestContext, params: unknown): Promise<UserEndpoints> {
    requireAdmin(ctx);
    const { user_id } = parseInput(userIdParamsSchema, params);
    const em = ctx.em;
    if (!(await userExists(em, user_id))) throw new NotFoundError('User not found');
    return { user_id, endpoints: await topEndpointsOfUser(em, user_id) };
  }

  /** Per-user request totals for many users at once (the subgraph's DataLoader batches through this). */
  async requestTotals(ctx: RequestContext, userIds: readonly string[]): Promise<Map<string, number>> {
    requireAdmin(ctx);
    return requestTotalsByUser(ctx.em, userIds);
  }
}
