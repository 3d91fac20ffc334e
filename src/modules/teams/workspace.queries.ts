/**
 * Queries of the `workspace` table: a caller's membership with its workspace (locked for a
 * write), the join link's token and the seats in use. Every function runs on the entity manager
 * or transaction it is given and never opens one itself.
 */
import type { EntityManager } from '@mikro-orm/core';
import type { Role } from './team-rules.js';
import { WorkspaceEntity } from './workspace.entity.js';
import { asCount, asDateOrNull, selectRows } from './row-values.js';

/** A team workspace as stored. */
export interface WorkspaceRow {
  id: string;
  owner_user_id: string;
  name: string;
  seat_limit: number;
  join_token: string | null;
  join_token_created_at: Date | null;
}

/** An account's membership: its role and its workspace. */
export interface MembershipRow {
  role: Role;
  workspace: WorkspaceRow;
}

/** The team terms the authenticator puts on a member's requests. */
export interface TeamTermsRow {
  workspace_id: string;
  seat_limit: number;
  /** The owner's plan: members are served on it. */
  owner_plan: string;
  billing_period_start: Date | null;
  billing_period_end: Date | null;
}

interface RawWorkspace {
  id: string;
  owner_user_id: string;
  name: string;
  seat_limit: number | string;
  join_token: string | null;
  join_token_created_at: Date | string | null;
}

function workspaceRow(raw: RawWorkspace): WorkspaceRow {
  return {
    id: raw.id,
    owner_user_id: raw.owner_user_id,
    name: raw.name,
    seat_limit: Number(raw.seat_limit),
    join_token: raw.join_token ?? null,
    join_token_created_at: asDateOrNull(raw.join_token_created_at),
  };
}

/**
 * The account's membership and workspace, or null in its personal workspace; with `lock` the
 * workspace row is locked for the transaction (raw SQL: a join with `for update of w`, which
 * serialises every seat-counting write of one workspace).
 */
export async function findMembership(em: EntityManager, userId: string, options: { lock: boolean }): Promise<MembershipRow | null> {
  const [row] = await selectRows<RawWorkspace & { role: string }>(
    em,
    `select m.role, w.id, w.owner_user_id, w.name, w.seat_limit, w.join_token, w.join_token_created_at
       from workspace_member m join workspace w on w.id = m.workspace_id
      where m.user_id = ?${options.lock ? ' for update of w' : ''}`,
    [userId],
  );
  return row ? { role: row.role as Role, workspace: workspaceRow(row) } : null;
}

/** The workspace locked for the transaction, or null (raw SQL: `for update`). */
export async function lockWorkspace(em: EntityManager, workspaceId: string): Promise<WorkspaceRow | null> {
  const [row] = await selectRows<RawWorkspace>(em, 'select id, owner_user_id, name, seat_limit, join_token, join_token_created_at from workspace where id = ? for update', [workspaceId]);
  return row ? workspaceRow(row) : null;
}

/**
 * The member's team terms: one indexed join per authenticated request (raw SQL: three tables in
 * one statement on the hot path).
 */
export async function findTeamTerms(em: EntityManager, userId: string): Promise<TeamTermsRow | null> {
  const [row] = await selectRows<{ id: string; seat_limit: number | string; plan: string; billing_period_start: Date | string | null; billing_period_end: Date | string | null }>(
    em,
    `select w.id, w.seat_limit, o.plan, o.billing_period_start, o.billing_period_end
       from workspace_member m join workspace w on w.id = m.workspace_id join app_user o on o.id = w.owner_user_id
      where m.user_id = ?`,
    [userId],
  );
  if (!row) return null;
  return {
    workspace_id: row.id,
    seat_limit: Number(row.seat_limit),
    owner_plan: row.plan,
    billing_period_start: asDateOrNull(row.billing_period_start),
    billing_period_end: asDateOrNull(row.billing_period_end),
  };
}

/** The workspace whose join link carries `token`, or null. */
export async function findWorkspaceIdByJoinToken(em: EntityManager, token: string): Promise<string | null> {
  const workspace = await em.findOne(WorkspaceEntity, { join_token: token }, { fields: ['id'] });
  return workspace?.id ?? null;
}

/** Sets (or, with null, removes) the workspace's join link. */
export async function setJoinToken(em: EntityManager, workspaceId: string, link: { token: string; createdAt: Date } | null): Promise<void> {
  await em.nativeUpdate(WorkspaceEntity, { id: workspaceId }, { join_token: link?.token ?? null, join_token_created_at: link?.createdAt ?? null });
}

/** The workspace's current seat limit, or null when it is gone. */
export async function findSeatLimit(em: EntityManager, workspaceId: string): Promise<number | null> {
  // past the identity map: the request's unit of work may hold the workspace from before the
  // payment provider's webhook changed its limit (in its own transaction)
  const workspace = await em.findOne(WorkspaceEntity, { id: workspaceId }, { fields: ['seat_limit'], disableIdentityMap: true });
  return workspace ? Number(workspace.seat_limit) : null;
}

/**
 * Members plus pending (unexpired) invites: the seats in use (raw SQL: two counts summed in one
 * statement, under the caller's workspace lock).
 */
export async function countSeatsUsed(em: EntityManager, workspaceId: string, now: Date): Promise<number> {
  const [row] = await selectRows<{ n: number | string }>(
    em,
    `select (select count(*) from workspace_member where workspace_id = ?)
          + (select count(*) from workspace_invite where workspace_id = ? and accepted_at is null and expires_at > ?) as n`,
    [workspaceId, workspaceId, now],
  );
  return asCount(row?.n);
}

/** The workspace's name, or null when it is gone. */
export async function findWorkspaceName(em: EntityManager, workspaceId: string): Promise<string | null> {
  const workspace = await em.findOne(WorkspaceEntity, { id: workspaceId });
  return workspace?.name ?? null;
}
