/**
 * The statements of an account's erasure (account-deletion.service.ts), all run in the erasure's
 * transaction. Raw SQL: they are bulk statements over tables of several modules (billing, teams,
 * admin, usage, the authorization server) keyed by the user id, and the match on `oauth_model`'s
 * jsonb payload has no entity query form.
 */
import type { EntityManager } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { sqlRows, sqlRun } from '../../util/raw-sql.js';

/** One row of `user_deletion_log`, written before the user row goes. */
export interface DeletionLogEntry {
  userId: string;
  emailHash: string;
  actorUserId: string | null;
  actorEmail: string | null;
  reason: string | null;
}

/** Writes the deletion log's row for the erasure. */
export function insertDeletionLog(em: EntityManager, entry: DeletionLogEntry): Promise<void> {
  return sqlRun(
    em,
    'insert into user_deletion_log (id, user_id, email_hash, actor_user_id, actor_email, reason, created_at) values (?, ?, ?, ?, ?, ?, ?)',
    [randomUUID(), entry.userId, entry.emailHash, entry.actorUserId, entry.actorEmail, entry.reason, new Date()],
  );
}

/** Stripe subscription states that still bill or may bill again. */
const LIVE_SUBSCRIPTION = "status not in ('canceled', 'incomplete_expired')";

/** The account's Stripe subscriptions that still bill or may bill again (their ids). */
export async function liveSubscriptionIds(em: EntityManager, userId: string): Promise<string[]> {
  const rows = await sqlRows<{ id: string }>(em, `select id from billing_subscription where user_id = ? and ${LIVE_SUBSCRIPTION}`, [userId]);
  return rows.map((r) => r.id);
}

/** Usage rows and feedback reports stay, without the account's user and key ids (the usage totals' trigger takes them off the user's figures). */
export async function anonymiseKeptRows(em: EntityManager, userId: string, erasedKey = `erased:${randomUUID()}`): Promise<void> {
  await sqlRun(em, 'update usage_event set user_id = null, api_key_id = null where user_id = ?', [userId]);
  await sqlRun(em, 'update feedback_report set user_id = null, api_key_id = null where user_id = ?', [userId]);
  // analytics keep the erased account's days under one new random key (the one its still queued
  // calls get too: UsageService.forgetAccount): counts and distinct accounts stay exact, and
  // nothing links them to the account any more
  await sqlRun(em, 'update analytics_account_day set account = ? where account = ?', [erasedKey, userId]);
}

/**
 * The account's rows that go with it (the user row itself last, see deleteUserRow), in this
 * order: keys, links, one-time tokens, ended sessions, its seat in a team workspace (teams; an
 * owner's members fall back to Free with it), the authorization server's grants, codes, refresh
 * tokens and sign-in sessions, billing, and the administrator's plan override.
 */
const ACCOUNT_ROW_DELETES = [
  'delete from api_key where user_id = ?',
  'delete from identity_link where user_id = ?',
  'delete from password_reset where user_id = ?',
  'delete from ended_session where user_id = ?',
  'delete from workspace_member where user_id = ?',
  "delete from oauth_model where payload->>'accountId' = ?",
  'delete from billing_subscription where user_id = ?',
  'delete from billing_checkout_session where user_id = ?',
  'delete from credit_ledger where user_id = ?',
  'delete from legal_assent where user_id = ?',
  'delete from billing_account where user_id = ?',
  'delete from plan_override where user_id = ?',
  'delete from analytics_partner where user_id = ?',
] as const;

/** Deletes the account's rows of every table that goes with it (ACCOUNT_ROW_DELETES). */
export async function deleteAccountRows(em: EntityManager, userId: string): Promise<void> {
  for (const statement of ACCOUNT_ROW_DELETES) await sqlRun(em, statement, [userId]);
}

/** Deletes the team workspace the account owns, with its members, invites and allowed domains. */
export async function deleteOwnedWorkspaces(em: EntityManager, userId: string): Promise<void> {
  for (const table of ['workspace_member', 'workspace_invite', 'workspace_domain']) {
    await sqlRun(em, `delete from ${table} where workspace_id in (select id from workspace where owner_user_id = ?)`, [userId]);
  }
  await sqlRun(em, 'delete from workspace where owner_user_id = ?', [userId]);
}

/** Deletes the user row (last: the deletion log and every dependent row are handled before). */
export function deleteUserRow(em: EntityManager, userId: string): Promise<void> {
  return sqlRun(em, 'delete from app_user where id = ?', [userId]);
}
