/**
 * Queries of the `workspace_invite` table (e-mail invites, their one-time token stored hashed).
 * Every function runs on the entity manager or transaction it is given and never opens one itself.
 */
import type { EntityManager } from '@mikro-orm/core';
import { WorkspaceInviteEntity } from './workspace.entity.js';
import { asDate, asDateOrNull } from './row-values.js';

/** An invite as stored (without its token hash). */
export interface InviteRow {
  id: string;
  workspace_id: string;
  email: string;
  email_lower: string;
  invited_by: string;
  created_at: Date;
  expires_at: Date;
  accepted_at: Date | null;
}

/** A new invite to store. */
export interface NewInvite {
  id: string;
  workspaceId: string;
  email: string;
  tokenHash: string;
  invitedBy: string;
  createdAt: Date;
  expiresAt: Date;
}

function inviteRow(invite: { id: string; workspace_id: string; email: string; email_lower: string; invited_by: string; created_at: Date | string; expires_at: Date | string; accepted_at?: Date | string | null }): InviteRow {
  return {
    id: invite.id,
    workspace_id: invite.workspace_id,
    email: invite.email,
    email_lower: invite.email_lower,
    invited_by: invite.invited_by,
    created_at: asDate(invite.created_at),
    expires_at: asDate(invite.expires_at),
    accepted_at: asDateOrNull(invite.accepted_at),
  };
}

/** The workspace's pending invites (not accepted, not expired at `now`), oldest first. */
export async function listPendingInvites(em: EntityManager, workspaceId: string, now: Date): Promise<InviteRow[]> {
  const invites = await em.find(
    WorkspaceInviteEntity,
    { workspace_id: workspaceId, accepted_at: null, expires_at: { $gt: now } },
    { orderBy: { created_at: 'asc', email_lower: 'asc' } },
  );
  return invites.map(inviteRow);
}

/** Which of the lower-cased addresses have a pending invite to the workspace. */
export async function pendingInviteAddressesAmong(em: EntityManager, workspaceId: string, emailsLower: readonly string[], now: Date): Promise<Set<string>> {
  if (emailsLower.length === 0) return new Set();
  const invites = await em.find(
    WorkspaceInviteEntity,
    { workspace_id: workspaceId, accepted_at: null, expires_at: { $gt: now }, email_lower: { $in: [...emailsLower] } },
    { fields: ['email_lower'] },
  );
  return new Set(invites.map((i) => i.email_lower));
}

/** The invite whose token hashes to `tokenHash` (accepted or expired ones too), or null. */
export async function findInviteByTokenHash(em: EntityManager, tokenHash: string): Promise<InviteRow | null> {
  const invite = await em.findOne(WorkspaceInviteEntity, { token_hash: tokenHash });
  return invite ? inviteRow(invite) : null;
}

/** Whether the workspace has this invite pending (not accepted; an expired one still counts). */
export async function hasUnacceptedInvite(em: EntityManager, workspaceId: string, inviteId: string): Promise<boolean> {
  return (await em.count(WorkspaceInviteEntity, { id: inviteId, workspace_id: workspaceId, accepted_at: null })) > 0;
}

/** Stores a new invite (the address stored as given, already folded by the caller). */
export async function insertInvite(em: EntityManager, invite: NewInvite): Promise<void> {
  await em.insert(WorkspaceInviteEntity, {
    id: invite.id,
    workspace_id: invite.workspaceId,
    email: invite.email,
    email_lower: invite.email.toLowerCase(),
    token_hash: invite.tokenHash,
    invited_by: invite.invitedBy,
    created_at: invite.createdAt,
    expires_at: invite.expiresAt,
  });
}

/** Marks the invite used by `userId`. */
export async function markInviteAccepted(em: EntityManager, inviteId: string, acceptedBy: string, at: Date): Promise<void> {
  await em.nativeUpdate(WorkspaceInviteEntity, { id: inviteId }, { accepted_at: at, accepted_by: acceptedBy });
}

/** Deletes the invite. */
export async function deleteInvite(em: EntityManager, inviteId: string): Promise<void> {
  await em.nativeDelete(WorkspaceInviteEntity, { id: inviteId });
}
