/**
 * Membership of team workspaces: the authenticator's lookup of a member's team terms, roles,
 * removing and leaving, and the seat quantity. Rules: team-rules.ts.
 *
 * Every write is one transaction that first locks the workspace row (`for update`): writes of
 * one workspace are serialised. Another workspace's members are 404; a role that may not act is 403.
 */
import type { MikroORM } from '@mikro-orm/core';
import { backgroundEm, type PlanId, type RequestContext, requireAccount } from '../../context.js';
import { DomainError, NotFoundError } from '../../errors.js';
import { parseInput } from '../../validation.js';
import type { TeamMembership, WorkspaceProvider } from '../accounts/authenticator.js';
import { assertMayChangeSeats, assertMayRemove, assertRole, assertRoleChangeable, assertSeatQuantity, type Role } from './team-rules.js';
import { assertUuid, roleRequestSchema, seatsRequestSchema } from './teams.schema.js';
import { deleteMember, findMemberRole, setMemberRole } from './workspace-member.queries.js';
import { countSeatsUsed, findMembership, findSeatLimit, findTeamTerms } from './workspace.queries.js';
import type { OperationLimiter } from '../usage/operation-limits.js';

/** What teams needs of billing: changing the subscription's quantity (seat_limit follows from the webhook). */
export interface SeatBilling {
  changeSeatQuantity(ctx: RequestContext, ownerUserId: string, quantity: number): Promise<void>;
}

export interface MembershipDeps {
  /** Per-caller limits of the operations a caller may only repeat so often (usage/operation-limits.ts). */
  limits: OperationLimiter;
  orm: MikroORM;
  billing: SeatBilling | null;
  now?: () => number;
}

export class MembershipService implements WorkspaceProvider {
  constructor(private readonly deps: MembershipDeps) {}

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  /** The caller's team workspace terms (one indexed join per authenticated request). */
  async membershipOf(userId: string): Promise<TeamMembership | null> {
    // authentication asks this to build the caller: it runs before the request's context exists
    const terms = await findTeamTerms(backgroundEm(this.deps.orm), userId);
    if (!terms) return null;
    const { billing_period_start: start, billing_period_end: end } = terms;
    return {
      workspaceId: terms.workspace_id,
      plan: terms.owner_plan as PlanId,
      seats: Math.max(1, terms.seat_limit),
      billingPeriod: start && end ? { start: start.getTime(), end: end.getTime() } : null,
    };
  }

  /** PATCH /v1/team/members/{id}: the owner sets another member's role (admin or member). */
  async changeRole(ctx: RequestContext, memberUserId: string, input: unknown): Promise<{ user_id: string; role: Role }> {
    await this.deps.limits.check(ctx, 'team_member_role');
    const caller = requireAccount(ctx);
    assertUuid(memberUserId, 'member_user_id');
    const { role } = parseInput(roleRequestSchema, input);
    return ctx.em.transactional(async (tx) => {
      const { workspace } = assertRole(await findMembership(tx, caller.userId, { lock: true }), ['owner'], 'change roles');
      const targetRole = await findMemberRole(tx, workspace.id, memberUserId);
      if (!targetRole) throw new NotFoundError('Member not found in your workspace');
      assertRoleChangeable(targetRole);
      await setMemberRole(tx, memberUserId, role);
      return { user_id: memberUserId, role };
    });
  }

  /**
   * DELETE /v1/team/members/{id}: leave (any member but the owner) or remove (owner: anyone else;
   * admins: members only). The removed account is back in its personal workspace on its own plan
   * (Free without a subscription); its usage rows keep the workspace id (the team's history).
   */
  async removeMember(ctx: RequestContext, memberUserId: string): Promise<{ status: 'removed'; user_id: string }> {
    await this.deps.limits.check(ctx, 'team_member_remove');
    const caller = requireAccount(ctx);
    assertUuid(memberUserId, 'member_user_id');
    return ctx.em.transactional(async (tx) => {
      const membership = await findMembership(tx, caller.userId, { lock: true });
      if (!membership) throw new NotFoundError('Member not found in your workspace');
      const targetRole = await findMemberRole(tx, membership.workspace.id, memberUserId);
      if (!targetRole) throw new NotFoundError('Member not found in your workspace');
      assertMayRemove({ userId: caller.userId, role: membership.role }, { userId: memberUserId, role: targetRole });
      await deleteMember(tx, memberUserId);
      return { status: 'removed' as const, user_id: memberUserId };
    });
  }

  /** POST /v1/team/seats: the owner asks billing for a new quantity; seat_limit follows with the webhook. */
  async setSeats(ctx: RequestContext, input: unknown): Promise<{ quantity: number; seat_limit: number }> {
    await this.deps.limits.check(ctx, 'team_seats');
    const caller = requireAccount(ctx);
    const { quantity } = parseInput(seatsRequestSchema, input);
    const em = ctx.em;
    const { workspace } = assertMayChangeSeats(await findMembership(em, caller.userId, { lock: false }));
    assertSeatQuantity(quantity, await countSeatsUsed(em, workspace.id, new Date(this.now())));
    if (!this.deps.billing) throw new DomainError('conflict', 'No subscription to change: billing is not configured');
    await this.deps.billing.changeSeatQuantity(ctx, caller.userId, quantity);
    // a fresh read: the provider's webhook may have changed the limit meanwhile
    const seatLimit = await findSeatLimit(ctx.em, workspace.id);
    return { quantity, seat_limit: seatLimit ?? workspace.seat_limit };
  }
}
