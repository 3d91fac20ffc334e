/**
 * Data access of the admin area's read side (admin-users.service.ts): statistics and the user
 * listing, read from the running usage totals the database keeps (usage-rollups.entities.ts).
 * Raw SQL: the reads are aggregates (`count(*) filter`, `sum … group by`) and one listing joined
 * over five tables of four modules, which the entity API does not express as one statement.
 * Counts come back as numbers (PostgreSQL's bigint arrives as a string) and times as `Date`s.
 */
import type { EntityManager } from '@mikro-orm/core';
import { placeholders, sqlRows } from '../../util/raw-sql.js';
import type { UsersQuery } from './admin.schema.js';

type Count = string | number;
type Time = string | Date;

const toDate = (value: Time | null | undefined): Date | null => (value ? new Date(value) : null);

/** A LIKE pattern that matches `text` anywhere, with `%`, `_` and the escape character taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Requests per day (`YYYY-MM-DD`) on every endpoint, from `firstDay` on. */
export async function requestsPerDay(em: EntityManager, firstDay: string): Promise<Map<string, number>> {
  const rows = await sqlRows<{ day: string; requests: Count }>(
    em,
    `select to_char(day, 'YYYY-MM-DD') as day, sum(requests) as requests from usage_daily_endpoint where day >= ? group by day`,
    [firstDay],
  );
  return new Map(rows.map((d) => [d.day, Number(d.requests)]));
}

/** Accounts in all, and those created since each of two times. */
export async function userCounts(em: EntityManager, since7: Date, since30: Date): Promise<{ total: number; new7: number; new30: number }> {
  const [row] = await sqlRows<{ total: Count; new7: Count; new30: Count }>(
    em,
    'select count(*) as total, count(*) filter (where created_at >= ?) as new7, count(*) filter (where created_at >= ?) as new30 from app_user',
    [since7, since30],
  );
  return { total: Number(row!.total), new7: Number(row!.new7), new30: Number(row!.new30) };
}

/** Accounts with a request since each of two times (`since30` the earlier). */
export async function activeUserCounts(em: EntityManager, since7: Date, since30: Date): Promise<{ a7: number; a30: number }> {
  const [row] = await sqlRows<{ a7: Count; a30: Count }>(em, 'select count(*) filter (where last_at >= ?) as a7, count(*) as a30 from usage_user_summary where last_at >= ?', [
    since7,
    since30,
  ]);
  return { a7: Number(row!.a7), a30: Number(row!.a30) };
}

/** An endpoint and its number of requests. */
export interface EndpointRequests {
  endpoint: string;
  requests: number;
}

/** The ten endpoints with the most requests from `firstDay` on. */
export async function topEndpointsSince(em: EntityManager, firstDay: string): Promise<EndpointRequests[]> {
  const rows = await sqlRows<{ endpoint: string; requests: Count }>(
    em,
    'select endpoint, sum(requests) as requests from usage_daily_endpoint where day >= ? group by endpoint order by sum(requests) desc, endpoint limit 10',
    [firstDay],
  );
  return rows.map((t) => ({ endpoint: t.endpoint, requests: Number(t.requests) }));
}

/** One account of the admin listing, with its override, team workspace and usage summary. */
export interface AdminUserRow {
  id: string;
  email: string;
  name: string | null;
  email_verified: boolean;
  subscription_plan: string;
  created_at: Date;
  override_plan: string | null;
  override_reason: string | null;
  override_by: string | null;
  override_at: Date | null;
  workspace_id: string | null;
  workspace_name: string | null;
  workspace_role: string | null;
  last_active_at: Date | null;
  requests_total: number;
}

type RawAdminUserRow = Omit<AdminUserRow, 'email_verified' | 'created_at' | 'override_at' | 'last_active_at' | 'requests_total'> & {
  email_verified: boolean | number | null;
  created_at: Time;
  override_at: Time | null;
  last_active_at: Time | null;
  requests_total: Count;
};

const ORDER_BY: Record<UsersQuery['sort'], string> = {
  requests: 'requests_total desc, u.created_at desc, u.id',
  created_at: 'u.created_at desc, u.id',
  email: 'u.email_lower asc, u.id',
};

function searchFilter(search: string): { where: string; params: string[] } {
  if (!search) return { where: '', params: [] };
  return { where: "where (u.email ilike ? escape '\\' or u.name ilike ? escape '\\')", params: [containsPattern(search), containsPattern(search)] };
}

/** One page of the account listing (search on e-mail or name, taken literally), in the query's order. */
export async function adminUsersPage(em: EntityManager, query: Pick<UsersQuery, 'search' | 'sort' | 'limit' | 'offset'>): Promise<AdminUserRow[]> {
  const { where, params } = searchFilter(query.search);
  const rows = await sqlRows<RawAdminUserRow>(
    em,
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
    [...params, query.limit, query.offset],
  );
  return rows.map((r) => ({
    ...r,
    name: r.name ?? null,
    email_verified: Boolean(r.email_verified),
    created_at: new Date(r.created_at),
    override_at: toDate(r.override_at),
    last_active_at: toDate(r.last_active_at),
    requests_total: Number(r.requests_total),
  }));
}

/** How many accounts the listing's search matches. */
export async function adminUsersCount(em: EntityManager, search: string): Promise<number> {
  const { where, params } = searchFilter(search);
  const [row] = await sqlRows<{ total: Count }>(em, `select count(*) as total from app_user u ${where}`, params);
  return Number(row!.total);
}

/** Requests per account from `firstDay` on, for the given accounts (absent: none). */
export async function requestsSinceByUser(em: EntityManager, userIds: readonly string[], firstDay: string): Promise<Map<string, number>> {
  const sums = new Map<string, number>();
  if (!userIds.length) return sums;
  const rows = await sqlRows<{ user_id: string; requests: Count }>(
    em,
    `select user_id, sum(requests) as requests from usage_user_day where user_id in (${placeholders(userIds)}) and day >= ? group by user_id`,
    [...userIds, firstDay],
  );
  for (const s of rows) sums.set(s.user_id, Number(s.requests));
  return sums;
}

/** Whether the account exists. */
export async function userExists(em: EntityManager, userId: string): Promise<boolean> {
  const [user] = await sqlRows<{ id: string }>(em, 'select id from app_user where id = ?', [userId]);
  return Boolean(user);
}

/** The account's twenty most requested endpoints, all time. */
export async function topEndpointsOfUser(em: EntityManager, userId: string): Promise<EndpointRequests[]> {
  const rows = await sqlRows<{ endpoint: string; requests: Count }>(
    em,
    'select endpoint, requests from usage_user_endpoint where user_id = ? order by requests desc, endpoint limit 20',
    [userId],
  );
  return rows.map((r) => ({ endpoint: r.endpoint, requests: Number(r.requests) }));
}

/** All-time requests per account, for the given accounts (absent: none). */
export async function requestTotalsByUser(em: EntityManager, userIds: readonly string[]): Promise<Map<string, number>> {
  const totals = new Map<string, number>();
  if (!userIds.length) return totals;
  const rows = await sqlRows<{ user_id: string; requests: Count }>(em, `select user_id, requests from usage_user_summary where user_id in (${placeholders(userIds)})`, [...userIds]);
  for (const r of rows) totals.set(r.user_id, Number(r.requests));
  return totals;
}
