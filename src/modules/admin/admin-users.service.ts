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
  type UsersQuery,
} from './admin.schema.js';

const DAY_MS = 86_400_000;
const PERIOD_DAYS = 30;

/** A LIKE pattern that matches `text` anywhere, with `%`, `_` and the escape character taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const ORDER_BY: Record<UsersQuery['sort'], string> = {
  requests: 'requests_total desc, u.created_at desc, u.id',
  created_at: 'u.created_at desc, u.id',
  email: 'u.email_lower asc, u.id',
};

/** The UTC day `days` before today, as `YYYY-MM-DD`. */
function utcDay(now: number, daysBack: number): string {
  return new Date(now - daysBack * DAY_MS).toISOString().slice(0, 10);
}

const iso = (value: Date | string | null | undefined) => (value ? new Date(value).toISOString() : null);

export class AdminUsersService {
  constructor(private readonly deps: { orm: MikroORM; isAdmin: (email: string, verified: boolean) => boolean; now?: () => number }) {}

  private sql<T>(query: string, params: unknown[] = []): Promise<T[]> {
    return this.deps.orm.em.fork().getConnection().execute(query, params) as Promise<T[]>;
  }

  async stats(ctx: RequestContext): Promise<AdminStats> {
    requireAdmin(ctx);
    const now = (this.deps.now ?? Date.now)();
    const first = utcDay(now, PERIOD_DAYS - 1);
    const today = utcDay(now, 0);
    const [daily, users, active, top] = await Promise.all([
      this.sql<{ day: string; requests: string }>(`select to_char(day, 'YYYY-MM-DD') as day, sum(requests) as requests from usage_daily_endpoint where day >= ? group by day`, [first]),
      this.sql<{ total: string; new7: string; new30: string }>(
        'select count(*) as total, count(*) filter (where created_at >= ?) as new7, count(*) filter (where created_at >= ?) as new30 from app_user',
        [new Date(now - 7 * DAY_MS), new Date(now - 30 * DAY_MS)],
      ),
      this.sql<{ a7: string; a30: string }>('select count(*) filter (where last_at >= ?) as a7, count(*) as a30 from usage_user_summary where last_at >= ?', [
        new Date(now - 7 * DAY_MS),
        new Date(now - 30 * DAY_MS),
      ]),
      this.sql<{ endpoint: string; requests: string }>(
        'select endpoint, sum(requests) as requests from usage_daily_endpoint where day >= ? group by endpoint order by sum(requests) desc, endpoint limit 10',
        [first],
      ),
    ]);
    const byDay = new Map(daily.map((d) => [d.day, Number(d.requests)]));
    const days = Array.from({ length: PERIOD_DAYS }, (_, i) => utcDay(now, PERIOD_DAYS - 1 - i));
    return {
      daily_requests: days.map((date) => ({ date, requests: byDay.get(date) ?? 0 })),
      total_users: Number(users[0]!.total),
      requests_today: byDay.get(today) ?? 0,
      new_users_7d: Number(users[0]!.new7),
      new_users_30d: Number(users[0]!.new30),
      active_users_7d: Number(active[0]!.a7),
      active_users_30d: Number(active[0]!.a30),
      top_endpoints: top.map((t) => ({ endpoint: t.endpoint, requests: Number(t.requests) })),
    };
  }

  async users(ctx: RequestContext, input: unknown): Promise<AdminUsersPage> {
    requireAdmin(ctx);
    const query = parseInput(usersQuerySchema, input);
    const now = (this.deps.now ?? Date.now)();
    const where = query.search ? "where (u.email ilike ? escape '\\' or u.name ilike ? escape '\\')" : '';
    const searchParams = query.search ? [containsPattern(query.search), containsPattern(query.search)] : [];
    const [rows, count] = await Promise.all([
      this.sql<Record<string, any>>(
        `select u.id, u.email, u.name, u.email_verified, u.plan as subscription_plan, u.created_at,
                o.plan as override_plan, o.reason as override_reason, o.set_by_user_id as override_by, o.set_at as override_at,
                w.id as workspace_id, w.name as workspace_name, m.role as workspace_role,
                s.last_at as last_active_at, coalesce(s.requests, 0) as requests_total
           from app_user u
           left join usage_user_summary s on s.user_id = u.id
           left join plan_override o on o.user_id = u.id
           left join workspace_member m on m.user_id = u.id
           left join workspace w on w.id = m.workspace_id
           ${where}
           order by ${ORDER_BY[query.sort]}
           limit ? offset ?`,
        [...searchParams, query.limit, query.offset],
      ),
      this.sql<{ total: string }>(`select count(*) as total from app_user u ${where}`, searchParams),
    ]);
    const period = new Map<string, number>();
    if (rows.length) {
      const ids = rows.map((r) => r.id as string);
      const sums = await this.sql<{ user_id: string; requests: string }>(
        `select user_id, sum(requests) as requests from usage_user_day where user_id in (${ids.map(() => '?').join(', ')}) and day >= ? group by user_id`,
        [...ids, utcDay(now, PERIOD_DAYS - 1)],
      );
      for (const s of sums) period.set(s.user_id, Number(s.requests));
    }
    return {
      total: Number(count[0]!.total),
      limit: query.limit,
      offset: query.offset,
      sort: query.sort,
      users: rows.map((r): AdminUser => ({
        id: r.id,
        email: r.email,
        name: r.name ?? null,
        plan: r.override_plan ?? r.subscription_plan,
        subscription_plan: r.subscription_plan,
        override: r.override_plan ? { plan: r.override_plan, reason: r.override_reason ?? null, set_by_user_id: r.override_by ?? null, set_at: iso(r.override_at)! } : null,
        // the team workspace the user is a member of (owner, admin or member); null in a personal one
        workspace: r.workspace_id ? { id: r.workspace_id, name: r.workspace_name } : null,
        role: r.workspace_id ? (r.workspace_role as string) : null,
        is_admin: this.deps.isAdmin(r.email, Boolean(r.email_verified)),
        created_at: iso(r.created_at)!,
        last_active_at: iso(r.last_active_at),
        requests_total: Number(r.requests_total),
        requests_period: period.get(r.id) ?? 0,
      })),
    };
  }

  /** The user's top endpoints by call count (404 for an unknown user, 422 for a malformed id). */
  async userEndpoints(ctx: RequestContext, params: unknown): Promise<UserEndpoints> {
    requireAdmin(ctx);
    const { user_id } = parseInput(userIdParamsSchema, params);
    const [user] = await this.sql<{ id: string }>('select id from app_user where id = ?', [user_id]);
    if (!user) throw new NotFoundError('User not found');
    const rows = await this.sql<{ endpoint: string; requests: string }>(
      'select endpoint, requests from usage_user_endpoint where user_id = ? order by requests desc, endpoint limit 20',
      [user_id],
    );
    return { user_id, endpoints: rows.map((r) => ({ endpoint: r.endpoint, requests: Number(r.requests) })) };
  }

  /** Per-user request totals for many users at once (the subgraph's DataLoader batches through this). */
  async requestTotals(ctx: RequestContext, userIds: readonly string[]): Promise<Map<string, number>> {
    requireAdmin(ctx);
    const totals = new Map<string, number>();
    if (!userIds.length) return totals;
    const rows = await this.sql<{ user_id: string; requests: string }>(
      `select user_id, requests from usage_user_summary where user_id in (${userIds.map(() => '?').join(', ')})`,
      [...userIds],
    );
    for (const r of rows) totals.set(r.user_id, Number(r.requests));
    return totals;
  }
}
