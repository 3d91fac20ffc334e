/**
 * Billing's statements on other modules' tables: the account (`app_user`) whose effective plan
 * and billing window follow its subscription, the team workspace (`workspace`,
 * `workspace_member`) a per-seat subscription pays for, and an administrator's plan override
 * (`plan_override`, read for the status). SQL by table name rather than those modules' entities:
 * teams already depends on billing (seat changes), and these run inside billing's transactions.
 */
import type { EntityManager } from '@mikro-orm/core';
import { sqlRows, toDate } from '../../util/raw-sql.js';

/** True when the account exists. */
export async function accountExists(em: EntityManager, userId: string): Promise<boolean> {
  const rows = await sqlRows<{ id: string }>(em, 'select id from app_user where id = ?', [userId]);
  return rows.length > 0;
}

/** The account's e-mail address, or null. */
export async function findAccountEmail(em: EntityManager, userId: string): Promise<string | null> {
  const [row] = await sqlRows<{ email: string }>(em, 'select email from app_user where id = ?', [userId]);
  return row?.email ?? null;
}

/**
 * Locks the account's row until the transaction ends: every write of an account's subscriptions
 * takes it first, so two reports settling the same account (a duplicate and the one kept) queue
 * instead of locking the subscription rows and the account in opposite orders (a deadlock).
 */
export async function lockAccountRow(em: EntityManager, userId: string): Promise<void> {
  // SQL: a row lock (select ... for update), which the entity manager's reads do not take
  await sqlRows(em, 'select id from app_user where id = ? for update', [userId]);
}

/** Sets the account's effective plan and its billing window (null: a rolling window, as Free). */
export async function setEffectivePlan(em: EntityManager, userId: string, plan: string, period: { start: Date; end: Date } | null): Promise<void> {
  await sqlRows(em, 'update app_user set plan = ?, billing_period_start = ?, billing_period_end = ? where id = ?', [plan, period?.start ?? null, period?.end ?? null, userId]);
}

export interface OwnedWorkspace {
  id: string;
  name: string;
  seat_limit: number;
}

/** The workspace the account owns, or null. */
export async function findOwnedWorkspace(em: EntityManager, userId: string): Promise<OwnedWorkspace | null> {
  const [row] = await sqlRows<OwnedWorkspace>(em, 'select id, name, seat_limit from workspace where owner_user_id = ?', [userId]);
  return row ?? null;
}

/** The team workspace `userId` belongs to as a member (not its owner), with the member's role and the owner's address; null otherwise. */
export async function findMembership(em: EntityManager, userId: string, workspaceId: string): Promise<{ workspace_id: string; workspace_name: string; role: string; owner_email: string } | null> {
  const [row] = await sqlRows<{ workspace_id: string; workspace_name: string; role: string; owner_email: string }>(
    em,
    `select w.id as workspace_id, w.name as workspace_name, m.role, u.email as owner_email
       from workspace_member m join workspace w on w.id = m.workspace_id join app_user u on u.id = w.owner_user_id
      where m.user_id = ? and m.workspace_id = ? and w.owner_user_id <> m.user_id`,
    [userId, workspaceId],
  );
  return row ?? null;
}

/** Makes a workspace a team workspace of `seats` seats. */
export async function setTeamSeats(em: EntityManager, workspaceId: string, seats: number): Promise<void> {
  await sqlRows(em, 'update workspace set seat_limit = ?, kind = ? where id = ?', [seats, 'team', workspaceId]);
}

/** Creates the account's team workspace of `seats` seats. */
export async function createTeamWorkspace(em: EntityManager, workspace: { id: string; ownerUserId: string; name: string; seats: number }): Promise<void> {
  await sqlRows(em, 'insert into workspace (id, owner_user_id, name, kind, seat_limit, created_at) values (?, ?, ?, ?, ?, ?)', [
    workspace.id,
    workspace.ownerUserId,
    workspace.name,
    'team',
    workspace.seats,
    new Date(),
  ]);
}

/** Makes the account the owner member of the workspace (one workspace per account at a time: this moves it). */
export async function makeWorkspaceOwner(em: EntityManager, userId: string, workspaceId: string): Promise<void> {
  // SQL: an upsert that rewrites the membership only when it changes (the joining time stays otherwise)
  await sqlRows(
    em,
    `insert into workspace_member (user_id, workspace_id, role, joined_at) values (?, ?, 'owner', ?)
     on conflict (user_id) do update set workspace_id = excluded.workspace_id, role = 'owner', joined_at = excluded.joined_at where workspace_member.workspace_id <> excluded.workspace_id or workspace_member.role <> 'owner'`,
    [userId, workspaceId, new Date()],
  );
}

export interface PlanOverrideRow {
  plan: string;
  reason: string | null;
  set_at: Date;
}

/** An administrator's plan override of the account, or null. */
export async function findPlanOverride(em: EntityManager, userId: string): Promise<PlanOverrideRow | null> {
  const [row] = await sqlRows<{ plan: string; reason: string | null; set_at: Date | string }>(em, 'select plan, reason, set_at from plan_override where user_id = ?', [userId]);
  return row ? { plan: row.plan, reason: row.reason ?? null, set_at: toDate(row.set_at) } : null;
}
