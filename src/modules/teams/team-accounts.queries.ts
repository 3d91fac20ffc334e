/**
 * The reads the teams module makes of the accounts' and usage tables (`app_user`,
 * `usage_event`). Raw SQL by column on purpose: another module's tables, read for a few columns,
 * not through its entities (which would load and manage whole rows). Every function runs on the
 * entity manager or transaction it is given and never opens one itself.
 */
import type { EntityManager } from '@mikro-orm/core';
import { asCount, asDate, selectRows } from './row-values.js';

/** An account as a team's member list shows it. */
export interface AccountSummaryRow {
  id: string;
  email: string;
  name: string | null;
}

/** Whether an account's address is the one an invite was sent to. */
export interface AccountAddressRow {
  email_lower: string;
  email_verified: boolean;
}

/** The account's own plan (not a workspace's), or null when there is no such account. */
export async function findAccountPlan(em: EntityManager, userId: string): Promise<string | null> {
  const [row] = await selectRows<{ plan: string }>(em, 'select plan from app_user where id = ?', [userId]);
  return row?.plan ?? null;
}

/** The account's folded address and whether it is verified, or null. */
export async function findAccountAddress(em: EntityManager, userId: string): Promise<AccountAddressRow | null> {
  // PGlite and PostgreSQL both give a boolean; tolerate other drivers' 0/1
  const [row] = await selectRows<{ email_lower: string; email_verified: boolean | number | null }>(em, 'select email_lower, email_verified from app_user where id = ?', [userId]);
  return row ? { email_lower: row.email_lower, email_verified: Boolean(row.email_verified) } : null;
}

/** The account's address, name and creation time (its personal workspace's one member), or null. */
export async function findAccountProfile(em: EntityManager, userId: string): Promise<{ email: string; name: string | null; created_at: Date } | null> {
  const [row] = await selectRows<{ email: string; name: string | null; created_at: Date | string }>(em, 'select email, name, created_at from app_user where id = ?', [userId]);
  return row ? { email: row.email, name: row.name ?? null, created_at: asDate(row.created_at) } : null;
}

/** The accounts with these ids (one statement for any number of ids), in no particular order. */
export async function findAccountsByIds(em: EntityManager, ids: readonly string[]): Promise<AccountSummaryRow[]> {
  if (ids.length === 0) return [];
  const rows = await selectRows<AccountSummaryRow>(em, `select id, email, name from app_user where id in (${ids.map(() => '?').join(', ')})`, [...ids]);
  return rows.map((r) => ({ id: r.id, email: r.email, name: r.name ?? null }));
}

/**
 * Each of `userIds`' requests counted in the workspace's pool since `since`, by user id; users
 * without any are absent (raw SQL: one grouped count).
 */
export async function countRequestsSince(em: EntityManager, workspaceId: string, since: Date, userIds: readonly string[]): Promise<Map<string, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await selectRows<{ user_id: string; n: number | string }>(
    em,
    `select user_id, count(*) as n from usage_event
      where workspace_id = ? and billed and created_at >= ? and user_id in (${userIds.map(() => '?').join(', ')})
      group by user_id`,
    [workspaceId, since, ...userIds],
  );
  return new Map(rows.map((r) => [r.user_id, asCount(r.n)]));
}
