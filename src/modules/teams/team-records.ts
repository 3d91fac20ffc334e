/** The answers of the team endpoints built from stored rows (pure: the same for REST and GraphQL). */
import type { AccountCaller } from '../../context.js';
import { challengeName, challengeValue } from './domain-proof.js';
import type { DomainRecord, InviteRecord, JoinLinkRecord, TeamRecord } from './teams.schema.js';
import type { DomainClaimRow } from './workspace-domain.queries.js';
import type { InviteRow } from './workspace-invite.queries.js';

/** The dashboard page that takes a join link's or an invite's token. */
export function joinUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/dashboard/team/join?token=${encodeURIComponent(token)}`;
}

/** The workspace's join link, or null when it has none. */
export function joinLinkRecord(baseUrl: string, workspace: { join_token: string | null; join_token_created_at: Date | null }): JoinLinkRecord | null {
  if (!workspace.join_token) return null;
  return { token: workspace.join_token, url: joinUrl(baseUrl, workspace.join_token), created_at: (workspace.join_token_created_at ?? new Date(0)).toISOString() };
}

/** A pending invite as the API shows it. */
export function inviteRecord(row: Pick<InviteRow, 'id' | 'email' | 'invited_by' | 'created_at' | 'expires_at'>): InviteRecord {
  return { id: row.id, email: row.email, invited_by: row.invited_by, created_at: row.created_at.toISOString(), expires_at: row.expires_at.toISOString() };
}

/**
 * A claim with the record to publish. A verified claim whose proof was last seen before
 * `validAfter` shows (and acts) as pending, with `dns_error` when no check said why.
 */
export function domainRecord(row: DomainClaimRow, validAfter: Date): DomainRecord {
  const proven = row.status === 'verified' && row.last_seen_at !== null && row.last_seen_at.getTime() > validAfter.getTime();
  return {
    domain: row.domain,
    status: proven ? 'verified' : 'pending',
    verification: { type: 'TXT', name: challengeName(row.domain), value: challengeValue(row.token) },
    verified_at: proven && row.verified_at ? row.verified_at.toISOString() : null,
    checked_at: row.checked_at ? row.checked_at.toISOString() : null,
    check_error: row.check_error ?? (row.status === 'verified' && !proven ? 'dns_error' : null),
  };
}

/** GET /v1/team outside a team: the personal workspace with the caller as its one member. */
export function personalTeamRecord(caller: AccountCaller, profile: { email: string; name: string | null; created_at: Date } | null, now: number): TeamRecord {
  return {
    workspace: { id: null, kind: 'personal', name: 'Personal workspace', plan: caller.plan, seat_limit: 1, seats_used: 1, allowed_domains: [], domains: [] },
    role: 'owner',
    members: [{ user_id: caller.userId, email: profile?.email ?? caller.email, name: profile?.name ?? null, role: 'owner', joined_at: (profile?.created_at ?? new Date(now)).toISOString(), requests_in_period: 0 }],
    invites: [],
    join_link: null,
  };
}

/** The invite mail: who invites, to which workspace, and the one-time link. */
export function inviteMail(invite: { to: string; token: string; inviterEmail: string; workspaceName: string; baseUrl: string }): { to: string; subject: string; text: string } {
  return {
    to: invite.to,
    subject: `You are invited to join ${invite.workspaceName}`,
    text: `${invite.inviterEmail} invites you to the workspace "${invite.workspaceName}".\n\nJoin it here (valid 14 days, once, for this address):\n${joinUrl(invite.baseUrl, invite.token)}\n`,
  };
}
