/**
 * Data access of `usage_event`, one row per counted billable call (and per request recorded
 * unbilled, `billed` false: every count of a plan, limit or pool says `and billed`). Raw SQL throughout: the writes
 * are one multi-row INSERT per batch (no entity tracking on the hot path), the reads are
 * aggregates (`count(*) filter`, `group by` buckets and days) the entity API does not express.
 * Counts come back as numbers here: PostgreSQL's bigint arrives as a string, PGlite's as a number.
 */
import type { EntityManager } from '@mikro-orm/core';
import { placeholders, sqlRows, sqlRun } from '../../util/raw-sql.js';

/** One usage row as the recorder writes it. */
export interface UsageEventRow {
  user_id: string | null;
  api_key_id: string | null;
  client_ip: string | null;
  /** The team workspace whose pool the request counted in. */
  workspace_id?: string | null;
  endpoint: string;
  status: number;
  created_at: Date;
  /** Given when the request is counted (UsageRecorder): the row is inserted once however often its batch is written. */
  event_id?: string;
  /** False for a request recorded for the statistics only (a document's 304 or HEAD); absent = billed. */
  billed?: boolean;
}

/** Whose rows a count covers: a team's pool, an account, or an anonymous client IP. */
export type UsageSubject = { workspaceId: string } | { userId: string } | { clientIp: string | null };

type Count = string | number;

/** Rows per INSERT: a replayed spill file can hold many, and a statement binds at most 65,535 parameters. */
const ROWS_PER_INSERT = 1000;

/** Writes a batch of usage rows, one INSERT per thousand; rows whose `event_id` is already stored are skipped. */
export async function insertUsageEvents(em: EntityManager, rows: readonly UsageEventRow[]): Promise<void> {
  for (let at = 0; at < rows.length; at += ROWS_PER_INSERT) {
    const chunk = rows.slice(at, at + ROWS_PER_INSERT);
    const values = chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ');
    const params = chunk.flatMap((r) => [r.user_id, r.api_key_id, r.client_ip, r.workspace_id ?? null, r.endpoint, r.status, r.created_at, r.event_id ?? null, r.billed ?? true]);
    await sqlRun(
      em,
      `insert into usage_event (user_id, api_key_id, client_ip, workspace_id, endpoint, status, created_at, event_id, billed) values ${values} on conflict (event_id) do nothing`,
      params,
    );
  }
}

/**
 * Which of `userIds` still have an account (app_user is accounts' table: read here so that a
 * batch of usage rows is checked in one statement before it is written).
 */
export async function existingUserIds(em: EntityManager, userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await sqlRows<{ id: string }>(em, `select id from app_user where id in (${placeholders(userIds)})`, [...userIds]);
  return new Set(rows.map((r) => r.id));
}

function subjectFilter(subject: UsageSubject): { where: string; id: string | null } {
  if ('workspaceId' in subject) return { where: 'workspace_id = ?', id: subject.workspaceId };
  if ('userId' in subject) return { where: 'user_id = ?', id: subject.userId };
  return { where: 'user_id is null and client_ip = ?', id: subject.clientIp };
}

/** The subject's calls after `after`, counted per bucket of `bucketMs` (bucket number = epoch ms / bucketMs). */
export async function countUsageBuckets(em: EntityManager, subject: UsageSubject, after: Date, bucketMs: number): Promise<Map<number, number>> {
  const { where, id } = subjectFilter(subject);
  const rows = await sqlRows<{ bucket: Count; n: Count }>(
    em,
    `select floor(extract(epoch from created_at) * 1000 / ?) as bucket, count(*) as n
       from usage_event where ${where} and billed and created_at > ? group by 1`,
    [bucketMs, id, after],
  );
  return new Map(rows.map((r) => [Number(r.bucket), Number(r.n)]));
}

/** An account's calls since `periodStart`, and of those the calls after `dayStart`. */
export async function accountUsageTotals(em: EntityManager, userId: string, dayStart: Date, periodStart: Date): Promise<{ today: number; period: number }> {
  const [totals] = await sqlRows<{ today: Count; period: Count }>(
    em,
    `select count(*) filter (where created_at > ?) as today, count(*) as period
       from usage_event where user_id = ? and billed and created_at >= ?`,
    [dayStart, userId, periodStart],
  );
  return { today: Number(totals?.today ?? 0), period: Number(totals?.period ?? 0) };
}

/** The calls counted in a team workspace's pool since `periodStart`. */
export async function workspaceUsageInPeriod(em: EntityManager, workspaceId: string, periodStart: Date): Promise<number> {
  const [pooled] = await sqlRows<{ period: Count }>(em, 'select count(*) as period from usage_event where workspace_id = ? and billed and created_at >= ?', [workspaceId, periodStart]);
  return Number(pooled?.period ?? 0);
}

/** An account's calls since `periodStart` per UTC day (`YYYY-MM-DD`). */
export async function dailyUsageOf(em: EntityManager, userId: string, periodStart: Date): Promise<Map<string, number>> {
  const days = await sqlRows<{ day: string; count: Count }>(
    em,
    `select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*) as count
       from usage_event where user_id = ? and billed and created_at >= ? group by 1`,
    [userId, periodStart],
  );
  return new Map(days.map((d) => [d.day, Number(d.count)]));
}

/**
 * An account's billed calls in [start, end) per API key and endpoint, most first, with the key's
 * name, prefix and state (the key joined only when it is the account's own: null otherwise, as for
 * calls without a key).
 */
export async function usagePerKeyAndEndpoint(
  em: EntityManager,
  userId: string,
  start: Date,
  end: Date,
): Promise<{ key_id: string | null; key_name: string | null; key_prefix: string | null; key_revoked: boolean | null; endpoint: string; requests: number }[]> {
  const rows = await sqlRows<{ key_id: string | null; key_name: string | null; key_prefix: string | null; revoked_at: unknown; endpoint: string; requests: Count }>(
    em,
    `select u.api_key_id as key_id, k.name as key_name, k.key_prefix, k.revoked_at, u.endpoint, count(*) as requests
       from usage_event u left join api_key k on k.id = u.api_key_id and k.user_id = u.user_id
      where u.user_id = ? and u.billed and u.created_at >= ? and u.created_at < ?
      group by u.api_key_id, k.name, k.key_prefix, k.revoked_at, u.endpoint
      order by count(*) desc, k.name nulls last, u.endpoint`,
    [userId, start, end],
  );
  return rows.map((r) => ({
    key_id: r.key_id,
    key_name: r.key_name,
    key_prefix: r.key_prefix,
    key_revoked: r.key_id === null ? null : r.revoked_at !== null,
    endpoint: r.endpoint,
    requests: Number(r.requests),
  }));
}

/** When the account's first billed call was recorded, or null (the getting-started checklist). */
export async function firstBilledCallAt(em: EntityManager, userId: string): Promise<Date | null> {
  const [row] = await sqlRows<{ first: Date | string | null }>(em, 'select min(created_at) as first from usage_event where user_id = ? and billed', [userId]);
  return row?.first ? new Date(row.first) : null;
}
