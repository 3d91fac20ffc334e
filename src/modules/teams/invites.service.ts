/**
 * Getting into a team workspace: e-mail invites, the shareable join link, and joining with either
 * token. Rules: team-rules.ts.
 *
 * Every write is one transaction that first locks the workspace row (`for update`): seat counting
 * (members + pending invites against `seat_limit`) is serialised per workspace, so two concurrent
 * joins for the last seat cannot both win.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/core';
import { type RequestContext, requireAccount } from '../../context.js';
import { DomainError, NotFoundError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { parseInput } from '../../validation.js';
import { sha256 } from '../accounts/hashing.js';
import type { Mailer } from '../accounts/mailer.js';
import type { MailOutbox } from '../accounts/mail-outbox.js';
import { proofMail } from '../accounts/proof-mail.js';
import type { IssuedSession, SessionService } from '../accounts/sessions.js';
import { previewInvite, proveAddressWithInvite, type InvitePreview } from './invite-proof.js';
import { planOf } from '../usage/plans.js';
import { findAccountAddress, findAccountPlan } from './team-accounts.queries.js';
import { inviteMail, joinLinkRecord } from './team-records.js';
import { assertInvitesFit, assertRole, foldAddress, hasSeatForJoiner, inviteIsFor, inviteStillValid, joinElsewhereRefusal, MANAGER_ROLES, sortInvitees } from './team-rules.js';
import { assertUuid, inviteRequestSchema, joinRequestSchema, type InviteAnswer, type InviteRecord, type JoinAnswer, type JoinLinkRecord } from './teams.schema.js';
import { deleteInvite, findInviteByTokenHash, hasUnacceptedInvite, insertInvite, markInviteAccepted, pendingInviteAddressesAmong } from './workspace-invite.queries.js';
import { countOtherMembers, insertMember, memberAddressesAmong } from './workspace-member.queries.js';
import { countSeatsUsed, findMembership, findWorkspaceIdByJoinToken, lockWorkspace, setJoinToken, type MembershipRow } from './workspace.queries.js';
import type { OperationLimiter } from '../usage/operation-limits.js';

/** How long an e-mail invite may be used. */
export const INVITE_TTL_MS = 14 * 24 * 3600_000;

export interface InvitesDeps {
  /** A fresh session after an invite proved the address (the proof ends the ones made before it). */
  sessions: Pick<SessionService, 'issueSession'>;
  /** The mail saying what a proof ended, sent after the answer. */
  outbox: Pick<MailOutbox, 'enqueue'>;
  /** Per-caller limits of the operations a caller may only repeat so often (usage/operation-limits.ts). */
  limits: OperationLimiter;
  orm: MikroORM;
  mailer: Mailer;
  baseUrl: string;
  logger: Pick<Logger, 'error'>;
  now?: () => number;
}

export class InvitesService {
  constructor(private readonly deps: InvitesDeps) {}

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  /**
   * POST /v1/team/invites: all or nothing. Addresses are folded; members, pending invites and
   * repeats are skipped and reported; when the rest does not fit in the free seats, 409 and
   * nothing is stored or mailed. Mails go out after the commit.
   */
  async invite(ctx: RequestContext, input: unknown): Promise<InviteAnswer> {
    await this.deps.limits.check(ctx, 'team_invite');
    const caller = requireAccount(ctx);
    const { emails } = parseInput(inviteRequestSchema, input);
    const { answer, mails, workspaceName } = await ctx.em.transactional(async (tx) => {
      const { workspace } = assertRole(await findMembership(tx, caller.userId, { lock: true }), MANAGER_ROLES, 'invite');
      const now = new Date(this.now());
      const asked = [...new Set(emails.map(foldAddress))];
      const members = await memberAddressesAmong(tx, workspace.id, asked);
      const invited = await pendingInviteAddressesAmong(tx, workspace.id, asked, now);
      const { fresh, skipped } = sortInvitees(emails, members, invited);
      assertInvitesFit(fresh.length, workspace.seat_limit, await countSeatsUsed(tx, workspace.id, now));
      const expires = new Date(now.getTime() + INVITE_TTL_MS);
      const created: InviteRecord[] = [];
      const mails: { to: string; token: string }[] = [];
      for (const email of fresh) {
        const id = randomUUID();
        const token = newToken();
        await insertInvite(tx, { id, workspaceId: workspace.id, email, tokenHash: sha256(token), invitedBy: caller.userId, createdAt: now, expiresAt: expires });
        created.push({ id, email, invited_by: caller.userId, created_at: now.toISOString(), expires_at: expires.toISOString() });
        mails.push({ to: email, token });
      }
      return { answer: { invites: created, skipped }, mails, workspaceName: workspace.name };
    });
    for (const mail of mails) {
      await this.deps.mailer
        .send(inviteMail({ ...mail, inviterEmail: caller.email, workspaceName, baseUrl: this.deps.baseUrl }))
        .catch((error) => this.deps.logger.error('teams: an invite mail could not be sent', error));
    }
    return answer;
  }

  /** DELETE /v1/team/invites/{id}: a pending invite of the caller's workspace; its seat is free again. */
  async revokeInvite(ctx: RequestContext, inviteId: string): Promise<{ status: 'revoked'; id: string }> {
    await this.deps.limits.check(ctx, 'team_invite_revoke');
    const caller = requireAccount(ctx);
    assertUuid(inviteId, 'invite_id');
    return ctx.em.transactional(async (tx) => {
      const { workspace } = assertRole(await findMembership(tx, caller.userId, { lock: true }), MANAGER_ROLES, 'revoke invites');
      if (!(await hasUnacceptedInvite(tx, workspace.id, inviteId))) throw new NotFoundError('Pending invite not found in your workspace');
      await deleteInvite(tx, inviteId);
      return { status: 'revoked' as const, id: inviteId };
    });
  }

  /** POST /v1/team/join-link: creates or rotates the link (the old one stops working). */
  async rotateJoinLink(ctx: RequestContext): Promise<{ join_link: JoinLinkRecord | null }> {
    await this.deps.limits.check(ctx, 'team_join_link_rotate');
    const caller = requireAccount(ctx);
    return ctx.em.transactional(async (tx) => {
      const { workspace } = assertRole(await findMembership(tx, caller.userId, { lock: true }), MANAGER_ROLES, 'manage the join link');
      const link = { token: newToken(), createdAt: new Date(this.now()) };
      await setJoinToken(tx, workspace.id, link);
      return { join_link: joinLinkRecord(this.deps.baseUrl, { join_token: link.token, join_token_created_at: link.createdAt }) };
    });
  }

  /** DELETE /v1/team/join-link: disables the link. */
  async disableJoinLink(ctx: RequestContext): Promise<{ join_link: null }> {
    await this.deps.limits.check(ctx, 'team_join_link_disable');
    const caller = requireAccount(ctx);
    return ctx.em.transactional(async (tx) => {
      const { workspace } = assertRole(await findMembership(tx, caller.userId, { lock: true }), MANAGER_ROLES, 'manage the join link');
      await setJoinToken(tx, workspace.id, null);
      return { join_link: null };
    });
  }

  /** The invite page's preview (team name, invited address): invite-proof.ts. */
  async preview(ctx: RequestContext, input: unknown): Promise<InvitePreview> {
    // open to anonymous callers: their budget is their client IP's
    await this.deps.limits.check(ctx, 'team_invite_preview');
    const { token } = parseInput(joinRequestSchema, input);
    return previewInvite(ctx.em, token, this.now());
  }

  /**
   * POST /auth/verify-email/invite: a pending invite's token proves the caller's address when it
   * is the invited one (invite-proof.ts). The proof ends the credentials made before it, this
   * session too, so the caller gets a fresh one, made in the proof's unit of work: the proof
   * commits only with the session in hand, and a failure before the commit leaves neither (the
   * caller keeps the session it had). The owner is mailed what ended, once the proof committed.
   */
  async proveAddress(ctx: RequestContext, input: unknown): Promise<{ detail: string; session: IssuedSession }> {
    await this.deps.limits.check(ctx, 'verify_email_invite');
    const caller = requireAccount(ctx);
    const { token } = parseInput(joinRequestSchema, input);
    const { outcome, session } = await ctx.em.transactional(async (tx) => {
      const outcome = await proveAddressWithInvite(tx, caller.userId, token, this.now());
      // issued after the proof's sessions_valid_after (now), so the proof does not end it
      return { outcome, session: await this.deps.sessions.issueSession(caller.userId) };
    });
    this.deps.outbox.enqueue('email verified by invite', async () => proofMail(outcome, this.deps.baseUrl));
    return { detail: 'Email address verified.', session };
  }

  /**
   * POST /v1/team/join: an invite token (only for the account whose verified address it was sent
   * to, once) or the join link's token. Joining one's own workspace again is 200 and changes nothing.
   */
  async join(ctx: RequestContext, input: unknown): Promise<JoinAnswer> {
    await this.deps.limits.check(ctx, 'team_join');
    const caller = requireAccount(ctx);
    const { token } = parseInput(joinRequestSchema, input);
    return ctx.em.transactional(async (tx) => {
      const invite = await findInviteByTokenHash(tx, sha256(token));
      const workspaceId = invite ? invite.workspace_id : await findWorkspaceIdByJoinToken(tx, token);
      if (!workspaceId) throw new NotFoundError('This invite or join link is not valid (unknown, used, expired, revoked or rotated)');
      const workspace = await lockWorkspace(tx, workspaceId);
      if (!workspace) throw new NotFoundError('This invite or join link is not valid');
      const current = await findMembership(tx, caller.userId, { lock: false });
      if (current?.workspace.id === workspaceId) return { workspace_id: workspaceId, name: workspace.name, role: current.role, joined: false };
      if (invite) {
        if (!inviteStillValid(invite, this.now())) throw new NotFoundError('This invite is not valid any more (used or expired)');
        const account = await findAccountAddress(tx, caller.userId);
        if (!inviteIsFor(invite, account)) {
          // the invited address, not verified yet: say so (the invite page verifies it with this token)
          if (account?.email_lower === invite.email_lower) throw new DomainError('forbidden', 'Verify your e-mail address first: this invite is for it (the invite link can verify it)');
          throw new DomainError('forbidden', 'This invite was sent to another address: sign in with the verified e-mail address it was sent to');
        }
      }
      await refuseIfElsewhere(tx, caller.userId, current);
      if (!hasSeatForJoiner(await countSeatsUsed(tx, workspaceId, new Date(this.now())), workspace.seat_limit, invite !== null)) {
        throw new DomainError('conflict', 'No seat is free in this workspace: ask its owner to add seats');
      }
      await insertMember(tx, { userId: caller.userId, workspaceId, joinedAt: new Date(this.now()) });
      if (invite) await markInviteAccepted(tx, invite.id, caller.userId, new Date(this.now()));
      return { workspace_id: workspaceId, name: workspace.name, role: 'member' as const, joined: true };
    });
  }
}

/** 409 when the account is in another team workspace or pays for its own plan (reads only the facts the rule needs). */
async function refuseIfElsewhere(tx: EntityManager, userId: string, current: MembershipRow | null): Promise<void> {
  const otherMembers = current?.role === 'owner' ? await countOtherMembers(tx, current.workspace.id, userId) : 0;
  const ownPlan = current ? null : await findAccountPlan(tx, userId);
  const refusal = joinElsewhereRefusal(current?.role ?? null, { otherMembers, ownPlanPaid: ownPlan !== null && planOf(ownPlan).paid });
  if (refusal) throw new DomainError('conflict', refusal);
}

/** A join link's or an invite's token: 256 random bits. */
function newToken(): string {
  return randomBytes(32).toString('base64url');
}
