/**
 * Queries of the `workspace_member` table (one row per account in a team workspace). Every
 * function runs on the entity manager or transaction it is given and never opens one itself.
 */
import type { EntityManager } from '@mikro-orm/core';
import type { Role } from './team-rules.js';
import { WorkspaceMemberEntity } from './workspace.entity.js';
import { asCount, asDate, selectRows } from './row-values.js';

/** A member as the GraphQL view lists it (its account and usage come through loaders). */
export interface MemberRow {
  user_id: string;
  role: Role;
  joined_at: Date;
}

/** A member with its account's address and name and its requests since a date (the REST view). */
export interface MemberWithUsageRow extends MemberRow {
  email: string;
  name: string | null;
  requests: number;
}

/** The workspace's members in joining order. */
export async function listMembers(em: EntityManager, workspaceId: string): Promise<MemberRow[]> {
  const members = await em.find(WorkspaceMemberEntity, { workspace_id: workspaceId }, { orderBy: { joined_at: 'asc', user_id: 'asc' } });
  return members.map((m) => ({ user_id: m.user_id, role: m.role as Role, joined_at: asDate(m.joined_at) }));
}

/**
 * The workspace's members with their account and their requests in the pool since `since`
 * (raw SQL: a join and a correlated count in one statement, whatever the member count).
 */
export async function listMembersWithUsage(em: EntityManager, workspaceId: string, since: Date): Promise<MemberWithUsageRow[]> {
  const rows = await selectRows<{ user_id: string; email: string; name: string | null; role: string; joined_at: Date | string; requests: number | string }>(
    em,
    `select m.user_id, u.email, u.name, m.role, m.joined_at,
            (select count(*) from usage_event e where e.workspace_id = m.workspace_id and e.user_id = m.user_id and e.billed and e.created_at >= ?) as requests
       from workspace_member m join app_user u on u.id = m.user_id
      where m.workspace_id = ?
      order by m.joined_at, u.email_lower`,
    [since, workspaceId],
  );
  return rows.map((r) => ({ user_id: r.user_id, email: r.email, name: r.name ?? null, role: r.role as Role, joined_at: asDate(r.joined_at), requests: asCount(r.requests) }));
}

/** The role of `userId` in the workspace, or null when it is no member of it. */
export async function findMemberRole(em: EntityManager, workspaceId: string, userId: string): Promise<Role | null> {
  const member = await em.findOne(WorkspaceMemberEntity, { user_id: userId, workspace_id: workspaceId });
  return member ? (member.role as Role) : null;
}

/** Whether the account is in any team workspace. */
export async function isMemberAnywhere(em: EntityManager, userId: string): Promise<boolean> {
  return (await em.count(WorkspaceMemberEntity, { user_id: userId })) > 0;
}

/** The number of the workspace's members other than `userId`. */
export function countOtherMembers(em: EntityManager, workspaceId: string, userId: string): Promise<number> {
  return em.count(WorkspaceMemberEntity, { workspace_id: workspaceId, user_id: { $ne: userId } });
}

/**
 * Which of the lower-cased addresses belong to members of the workspace (raw SQL: the address
 * lives on the account, a join the member entity does not map).
 */
export async function memberAddressesAmong(em: EntityManager, workspaceId: string, emailsLower: readonly string[]): Promise<Set<string>> {
  if (emailsLower.length === 0) return new Set();
  const rows = await selectRows<{ email_lower: string }>(
    em,
    `select u.email_lower from workspace_member m join app_user u on u.id = m.user_id
      where m.workspace_id = ? and u.email_lower in (${emailsLower.map(() => '?').join(', ')})`,
    [workspaceId, ...emailsLower],
  );
  return new Set(rows.map((r) => r.email_lower));
}

/** Adds the account to the workspace as a member. */
export async function insertMember(em: EntityManager, member: { userId: string; workspaceId: string; joinedAt: Date }): Promise<void> {
  await em.insert(WorkspaceMemberEntity, { user_id: member.userId, workspace_id: member.workspaceId, role: 'member', joined_at: member.joinedAt });
}

/** Sets the member's role. */
export async function setMemberRole(em: EntityManager, userId: string, role: Role): Promise<void> {
  await em.nativeUpdate(WorkspaceMemberEntity, { user_id: userId }, { role });
}

/** Removes the account from its workspace (back in its personal workspace). */
export async function deleteMember(em: EntityManager, userId: string): Promise<void> {
  await em.nativeDelete(WorkspaceMemberEntity, { user_id: userId });
}
