/**
 * Reading a team workspace: GET /v1/team (members with their accounts and usage) and the GraphQL
 * workspace (members bare; their accounts and usage through the batch reads below, which the
 * subgraph's per-request loaders call). Both answers are assembled by one function, `describe`.
 */
import type { EntityManager, MikroORM } from '@mikro-orm/core';
import { type RequestContext, requireAccount } from '../../context.js';
import { ROLLING_PERIOD_MS } from '../usage/plans.js';
import type { DomainVerifier } from './domain-verifier.js';
import { countRequestsSince, findAccountPlan, findAccountProfile, findAccountsByIds } from './team-accounts.queries.js';
import { domainRecord, inviteRecord, joinLinkRecord, personalTeamRecord } from './team-records.js';
import { isManager, periodStartOf, type Role } from './team-rules.js';
import type { DomainRecord, InviteRecord, JoinLinkRecord, TeamRecord } from './teams.schema.js';
import { listDomainClaims } from './workspace-domain.queries.js';
import { listPendingInvites } from './workspace-invite.queries.js';
import { listMembers, listMembersWithUsage } from './workspace-member.queries.js';
import { findMembership, type MembershipRow } from './workspace.queries.js';

/** A team workspace as GraphQL serves it (members without their user details and usage). */
export interface WorkspaceOverview {
  id: string;
  name: string;
  plan: string;
  seat_limit: number;
  seats_used: number;
  allowed_domains: string[];
  domains: DomainRecord[];
  role: Role;
  members: { workspace_id: string; user_id: string; role: Role; joined_at: string }[];
  invites: InviteRecord[];
  join_link: JoinLinkRecord | null;
  /** Start of the period members' requests are counted from. */
  period_start: string;
}

/** What both views say of a workspace; `M` is how each lists its members. */
interface WorkspaceDescription<M> {
  id: string;
  name: string;
  plan: string;
  seat_limit: number;
  /** Members plus pending invites. */
  seats_used: number;
  domains: DomainRecord[];
  role: Role;
  members: M[];
  invites: InviteRecord[];
  /** Owner and admins only; null for members and when there is no link. */
  join_link: JoinLinkRecord | null;
}

export interface TeamViewsDeps {
  orm: MikroORM;
  baseUrl: string;
  /** Says how old a domain proof may be (a verified claim older than that shows as pending). */
  verifier: Pick<DomainVerifier, 'validAfter'>;
  now?: () => number;
}

export class TeamViewsService {
  constructor(private readonly deps: TeamViewsDeps) {}

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  /** GET /v1/team: the caller's workspace, members (with their requests in the period) and pending invites. */
  async team(ctx: RequestContext): Promise<TeamRecord> {
    const caller = requireAccount(ctx);
    const em = ctx.em;
    const membership = await findMembership(em, caller.userId, { lock: false });
    if (!membership) return personalTeamRecord(caller, await findAccountProfile(em, caller.userId), this.now());
    const since = new Date(periodStartOf(caller.billingPeriod, this.now(), ROLLING_PERIOD_MS));
    const view = await this.describe(em, membership, (workspaceId) => listMembersWithUsage(em, workspaceId, since));
    return {
      workspace: {
        id: view.id,
        kind: 'team',
        name: view.name,
        plan: view.plan,
        seat_limit: view.seat_limit,
        seats_used: view.seats_used,
        allowed_domains: view.domains.map((d) => d.domain),
        domains: view.domains,
      },
      role: view.role,
      members: view.members.map((m) => ({ user_id: m.user_id, email: m.email, name: m.name, role: m.role, joined_at: m.joined_at.toISOString(), requests_in_period: m.requests })),
      invites: view.invites,
      // members do not see the link (omitted, not null)
      ...(isManager(view.role) ? { join_link: view.join_link } : {}),
    };
  }

  /**
   * The caller's team workspace without its members' details (GraphQL resolves users and usage
   * through batch loaders: `usersByIds`, `requestsInPeriod`); null in the personal workspace or
   * when `workspaceId` is given and is another workspace.
   */
  async overview(ctx: RequestContext, workspaceId?: string): Promise<WorkspaceOverview | null> {
    const caller = requireAccount(ctx);
    const em = ctx.em;
    const membership = await findMembership(em, caller.userId, { lock: false });
    if (!membership || (workspaceId !== undefined && membership.workspace.id !== workspaceId)) return null;
    const view = await this.describe(em, membership, (id) => listMembers(em, id));
    return {
      id: view.id,
      name: view.name,
      plan: view.plan,
      seat_limit: view.seat_limit,
      seats_used: view.seats_used,
      allowed_domains: view.domains.map((d) => d.domain),
      domains: view.domains,
      role: view.role,
      members: view.members.map((m) => ({ workspace_id: view.id, user_id: m.user_id, role: m.role, joined_at: m.joined_at.toISOString() })),
      invites: view.invites,
      join_link: view.join_link,
      period_start: new Date(periodStartOf(caller.billingPeriod, this.now(), ROLLING_PERIOD_MS)).toISOString(),
    };
  }

  /** Batch: accounts by id, in the order asked, null for an unknown id (one statement for any number of ids). */
  async usersByIds(ctx: RequestContext, ids: readonly string[]): Promise<({ id: string; email: string; name: string | null } | null)[]> {
    if (ids.length === 0) return [];
    const rows = await findAccountsByIds(ctx.em, ids);
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  /** Batch: each member's requests counted in the workspace's pool since `since` (one grouped statement). */
  async requestsInPeriod(ctx: RequestContext, workspaceId: string, since: string, userIds: readonly string[]): Promise<number[]> {
    if (userIds.length === 0) return [];
    const counts = await countRequestsSince(ctx.em, workspaceId, new Date(since), userIds);
    return userIds.map((id) => counts.get(id) ?? 0);
  }

  /** The one assembly of a workspace's answer: its members (listed by `loadMembers`), invites, domains, owner's plan and seats. */
  private async describe<M>(em: EntityManager, membership: MembershipRow, loadMembers: (workspaceId: string) => Promise<M[]>): Promise<WorkspaceDescription<M>> {
    const { workspace, role } = membership;
    const [members, invites, claims, ownerPlan] = await Promise.all([
      loadMembers(workspace.id),
      listPendingInvites(em, workspace.id, new Date(this.now())),
      listDomainClaims(em, workspace.id),
      findAccountPlan(em, workspace.owner_user_id),
    ]);
    const validAfter = this.deps.verifier.validAfter();
    return {
      id: workspace.id,
      name: workspace.name,
      plan: ownerPlan ?? 'free',
      seat_limit: workspace.seat_limit,
      seats_used: members.length + invites.length,
      domains: claims.map((claim) => domainRecord(claim, validAfter)),
      role,
      members,
      invites: invites.map(inviteRecord),
      join_link: isManager(role) ? joinLinkRecord(this.deps.baseUrl, workspace) : null,
    };
  }
}
