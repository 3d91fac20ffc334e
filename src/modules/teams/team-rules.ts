/**
 * The rules of team workspaces as pure functions: who may do what, how seats are counted, which
 * invites and join tokens let an account in, and when a domain auto-joins one at sign-in. The
 * services read the facts from the database and ask these; the unit tests check them directly.
 */
import { DomainError } from '../../errors.js';
import type { InviteAnswer } from './teams.schema.js';

/** A member's role: owner (the subscriber, one per workspace), admin, member. */
export type Role = 'owner' | 'admin' | 'member';

/** The roles that manage the workspace: invites, join link, allowed domains. */
export const MANAGER_ROLES: readonly Role[] = ['owner', 'admin'];

/** Whether the role manages the workspace (and so sees its join link). */
export function isManager(role: Role): boolean {
  return MANAGER_ROLES.includes(role);
}

/** The membership when its role is one of `roles`; otherwise 403 (a personal workspace has no team to manage). */
export function assertRole<M extends { role: Role }>(membership: M | null, roles: readonly Role[], action: string): M {
  if (!membership) throw new DomainError('forbidden', `Only a team workspace's ${roles.join(' or ')} may ${action}; you are in your personal workspace`);
  if (!roles.includes(membership.role)) throw new DomainError('forbidden', `Only the workspace's ${roles.join(' or ')} may ${action}`);
  return membership;
}

/** The membership when it is the owner's: only the owner changes the seats (a personal workspace has none to change). */
export function assertMayChangeSeats<M extends { role: Role }>(membership: M | null): M {
  if (membership?.role !== 'owner') throw new DomainError('forbidden', "Only the workspace's owner may change the seats");
  return membership;
}

/** The owner's role is the subscription's: it cannot be changed (409). */
export function assertRoleChangeable(targetRole: Role): void {
  if (targetRole === 'owner') throw new DomainError('conflict', "The owner's role cannot change");
}

/**
 * Leaving and removing: anyone but the owner may leave (the owner would leave a paid workspace
 * without its payer: 409); the owner removes anyone else, an admin members only, a member nobody.
 */
export function assertMayRemove(actor: { userId: string; role: Role }, target: { userId: string; role: Role }): void {
  if (target.userId === actor.userId) {
    if (actor.role === 'owner') throw new DomainError('conflict', 'The owner cannot leave the workspace: cancel the subscription or hand the workspace over first');
  } else if (actor.role === 'member') {
    throw new DomainError('forbidden', 'Only the owner or an admin may remove members');
  } else if (actor.role === 'admin' && target.role !== 'member') {
    throw new DomainError('forbidden', 'Admins may remove members only, not the owner or other admins');
  }
}

/** Addresses as invites store and compare them: trimmed, lower-cased. */
export function foldAddress(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Which of the asked addresses get a new invite: members, addresses with a pending invite and
 * repeats within the request are skipped and reported (with the folded address), in the order asked.
 */
export function sortInvitees(emails: readonly string[], members: ReadonlySet<string>, invited: ReadonlySet<string>): { fresh: string[]; skipped: InviteAnswer['skipped'] } {
  const skipped: InviteAnswer['skipped'] = [];
  const fresh: string[] = [];
  const seen = new Set<string>();
  for (const email of emails.map(foldAddress)) {
    if (members.has(email)) skipped.push({ email, reason: 'already_member' });
    else if (invited.has(email)) skipped.push({ email, reason: 'already_invited' });
    else if (seen.has(email)) skipped.push({ email, reason: 'duplicate' });
    else fresh.push(email);
    seen.add(email);
  }
  return { fresh, skipped };
}

/**
 * Seats are members plus pending invites: an invite reserves its seat until it is used or
 * expires, so invites never promise more seats than the subscription pays for. All or nothing:
 * 409 when the new invites do not all fit.
 */
export function assertInvitesFit(newInvites: number, seatLimit: number, seatsUsed: number): void {
  const free = seatLimit - seatsUsed;
  if (newInvites > free) {
    throw new DomainError('conflict', `Not enough seats: ${Math.max(0, free)} seat(s) free for ${newInvites} new invite(s); nothing was sent. Add seats (POST /v1/team/seats) or remove invites first`);
  }
}

/** The owner may not pay for fewer seats than are in use (members and pending invites): 409. */
export function assertSeatQuantity(quantity: number, seatsUsed: number): void {
  if (quantity < seatsUsed) throw new DomainError('conflict', `${seatsUsed} seat(s) are in use (members and pending invites): remove some before going down to ${quantity}`);
}

/** Whether one more account fits; an invite's own reserved seat is the one it takes. */
export function hasSeatForJoiner(seatsUsed: number, seatLimit: number, viaInvite: boolean): boolean {
  return seatsUsed - (viaInvite ? 1 : 0) < seatLimit;
}

/** An invite lets one in once, before it expires. */
export function inviteStillValid(invite: { accepted_at: Date | null; expires_at: Date }, now: number): boolean {
  return !invite.accepted_at && invite.expires_at.getTime() > now;
}

/** An invite is for the account whose verified address it was sent to, and no other. */
export function inviteIsFor(invite: { email_lower: string }, account: { email_lower: string; email_verified: boolean } | null): boolean {
  return account !== null && account.email_lower === invite.email_lower && account.email_verified;
}

/**
 * Why an account may not join a team workspace (409), or null when it may: it is in another team
 * workspace (an owner's with others in it, or its own paid one), or pays for its own plan.
 * `otherMembers` matters only for an owner, `ownPlanPaid` only outside any workspace.
 */
export function joinElsewhereRefusal(current: Role | null, facts: { otherMembers: number; ownPlanPaid: boolean }): string | null {
  if (current === 'owner') {
    return facts.otherMembers > 0 ? 'You own a team workspace with other members: remove them or hand it over first' : 'You own a paid team workspace: cancel its subscription first';
  }
  if (current) return 'You belong to another team workspace: leave it first';
  if (facts.ownPlanPaid) return 'You have your own paid subscription: cancel it before joining a team workspace';
  return null;
}

/**
 * One candidate workspace of a domain auto-join: `stop` when the account is already in a
 * workspace or pays for its own plan (it joins nothing), `full` when no seat is free (try the
 * next workspace holding the domain), else `join`.
 */
export function autoJoinStep(facts: { inWorkspace: boolean; ownPlanPaid: boolean; seatsUsed: number; seatLimit: number }): 'stop' | 'full' | 'join' {
  if (facts.inWorkspace || facts.ownPlanPaid) return 'stop';
  if (facts.seatsUsed >= facts.seatLimit) return 'full';
  return 'join';
}

/** Start of the period members' requests are counted from: the owner's billing period, else the rolling window. */
export function periodStartOf(billingPeriod: { start: number } | null, now: number, rollingPeriodMs: number): number {
  return billingPeriod ? billingPeriod.start : now - rollingPeriodMs;
}
