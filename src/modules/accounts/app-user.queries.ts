/**
 * Data access keyed by the account (`app_user`) that the accounts services share: the per-request
 * caller row, the row lock writers of an account take, and the account's team role.
 */
import type { EntityManager } from '@mikro-orm/core';
import { sqlRows } from '../../util/raw-sql.js';
import { effectivePlanSql } from './effective-plan.js';

/** The user columns an authenticated caller is built from. */
export interface CallerRow {
  id: string;
  email: string;
  /** PGlite and PostgreSQL both give a boolean; tolerate other drivers' 0/1. */
  email_verified: boolean | number | null;
  plan: string;
  sessions_valid_after?: string | Date | null;
  billing_period_start: string | Date | null;
  billing_period_end: string | Date | null;
}

/** A caller row with the answers to the credential checks that were asked for. */
export interface CheckedCallerRow extends CallerRow {
  /** Asked with `sessionHash`: the session was ended at logout. */
  session_ended?: boolean;
  /** Asked with `grantId`: the OAuth grant still stands (not revoked, not expired). */
  grant_live?: boolean;
}

/** The credential checks answered in the same statement as the caller row. */
export interface CallerRowChecks {
  sessionHash?: string;
  grantId?: string;
}

/**
 * The caller row of `userId` (effective plan included) and, in the same statement, whether the
 * session was ended and whether the OAuth grant stands; null when there is no such user. Raw SQL
 * on purpose: it runs on every authenticated request (`npm run bench:auth`), and the `exists`
 * sub-selects save a second round trip per check.
 */
export async function findCallerRow(em: EntityManager, userId: string, checks: CallerRowChecks, now: Date = new Date()): Promise<CheckedCallerRow | null> {
  const columns = ['id', 'email', 'email_verified', effectivePlanSql('app_user'), 'sessions_valid_after', 'billing_period_start', 'billing_period_end'];
  const params: unknown[] = [];
  if (checks.sessionHash !== undefined) {
    columns.push('exists(select 1 from ended_session where token_hash = ?) as session_ended');
    params.push(checks.sessionHash);
  }
  if (checks.grantId !== undefined) {
    columns.push("exists(select 1 from oauth_model where model = 'Grant' and id = ? and (expires_at is null or expires_at > ?)) as grant_live");
    params.push(checks.grantId, now);
  }
  params.push(userId);
  const [row] = await sqlRows<CheckedCallerRow>(em, `select ${columns.join(', ')} from app_user where id = ?`, params);
  return row ?? null;
}

/** The account row, locked for the rest of `em`'s transaction. */
export interface LockedUser {
  id: string;
  email: string;
  /** The plan the subscription gives (without an administrator's override). */
  plan: string;
}

/**
 * Locks the account's row until `em`'s transaction ends (raw SQL: `for update`), so an erasure and
 * an administrator's change of the same account run one after the other; null when it is gone.
 */
export async function lockUser(em: EntityManager, userId: string): Promise<LockedUser | null> {
  const [user] = await sqlRows<LockedUser>(em, 'select id, email, plan from app_user where id = ? for update', [userId]);
  return user ?? null;
}

/** The account's role in the team workspace it belongs to (teams' table), or null in its personal one. */
export async function workspaceRoleOf(em: EntityManager, userId: string): Promise<string | null> {
  // raw SQL: the membership entity belongs to the teams module, which accounts does not import
  const [membership] = await sqlRows<{ role: string }>(em, 'select role from workspace_member where user_id = ?', [userId]);
  return membership?.role ?? null;
}
