/**
 * Workspaces. Billing creates the team workspace a per-seat subscription pays for and keeps its
 * `seat_limit` equal to the subscription's quantity; the teams module adds members, invites,
 * the shareable join link and allowed domains. An account without a membership row is alone in
 * its personal workspace (not stored).
 */
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const WorkspaceEntity = defineEntity({
  name: 'Workspace',
  tableName: 'workspace',
  properties: {
    id: p.uuid().primary(),
    owner_user_id: p.uuid().unique('workspace_owner_user_id_unique'),
    name: p.text(),
    kind: p.text().default('team'),
    seat_limit: p.integer(),
    /** The shareable join link's token (shown again to owner and admins, so kept as is); null = no link; rotating replaces it. */
    join_token: p.text().nullable().unique('workspace_join_token_unique'),
    join_token_created_at: p.datetime().nullable(),
    created_at: p.datetime().onCreate(() => new Date()),
  },
});
export type Workspace = InferEntity<typeof WorkspaceEntity>;

/** One row per account in a team workspace (an account is in one workspace at a time: the key). */
export const WorkspaceMemberEntity = defineEntity({
  name: 'WorkspaceMember',
  tableName: 'workspace_member',
  properties: {
    user_id: p.uuid().primary(),
    workspace_id: p.uuid().index('workspace_member_workspace_id_index'),
    /** owner (one, the subscriber), admin, member. */
    role: p.text(),
    joined_at: p.datetime(),
  },
});
export type WorkspaceMember = InferEntity<typeof WorkspaceMemberEntity>;

/** An e-mail invite: pending until accepted (or expired); its one-time token is stored hashed. */
export const WorkspaceInviteEntity = defineEntity({
  name: 'WorkspaceInvite',
  tableName: 'workspace_invite',
  properties: {
    id: p.uuid().primary(),
    workspace_id: p.uuid().index('workspace_invite_workspace_id_index'),
    email: p.text(),
    email_lower: p.text(),
    token_hash: p.text().unique('workspace_invite_token_hash_unique'),
    invited_by: p.uuid(),
    created_at: p.datetime(),
    expires_at: p.datetime(),
    accepted_at: p.datetime().nullable(),
    accepted_by: p.uuid().nullable(),
  },
});
export type WorkspaceInvite = InferEntity<typeof WorkspaceInviteEntity>;

/** A domain whose addresses join the workspace at sign-in while a seat is free. */
export const WorkspaceDomainEntity = defineEntity({
  name: 'WorkspaceDomain',
  tableName: 'workspace_domain',
  properties: {
    workspace_id: p.uuid().primary(),
    domain: p.text().primary().index('workspace_domain_domain_index'),
  },
});
export type WorkspaceDomain = InferEntity<typeof WorkspaceDomainEntity>;
