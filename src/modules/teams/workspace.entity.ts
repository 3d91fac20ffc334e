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

/**
 * A workspace's claim of a domain. Only a `verified` claim (its DNS proof seen: domain-proof.ts)
 * auto-joins accounts at sign-in; several workspaces may claim a domain, at most one holds it.
 */
export const WorkspaceDomainEntity = defineEntity({
  name: 'WorkspaceDomain',
  tableName: 'workspace_domain',
  properties: {
    workspace_id: p.uuid().primary(),
    domain: p.text().primary().index('workspace_domain_domain_index'),
    /** pending | verified. */
    status: p.text().default('pending'),
    /** The value the TXT record must carry (not a secret: it ends up public in the DNS). */
    token: p.text(),
    created_at: p.datetime(),
    /** When the claim last became verified; null while pending. */
    verified_at: p.datetime().nullable(),
    /** The last time the record was seen: a verified claim rests on it (proofValidAfter). */
    last_seen_at: p.datetime().nullable(),
    checked_at: p.datetime().nullable(),
    /** record_missing | dns_error | verified_elsewhere; null after a check that verified. */
    check_error: p.text().nullable(),
    /** When the background re-check looks at it next (also its lease while a sweep checks it). */
    next_check_at: p.datetime().index('workspace_domain_next_check_at_index'),
  },
  uniques: [{ name: 'workspace_domain_verified_unique', properties: ['domain'], where: "status = 'verified'" }],
});
export type WorkspaceDomain = InferEntity<typeof WorkspaceDomainEntity>;
