/**
 * Resolvers of the teams subgraph: thin, GraphQL context -> one team service call (the same
 * functions as REST). A member's account and usage come through per-request DataLoaders, so a
 * team query runs the same few SQL statements whatever the member count.
 */
import 'reflect-metadata';
import DataLoader from 'dataloader';
import { callerWorkspaceOf } from './caller-workspace.js';
import { AssignableRole } from './enums.js';
import { Arg, Ctx, Directive, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { isAccount } from '../../src/context.js';
import { requestContextOf, type GraphqlContext } from '../../src/graphql/context.js';
import type { AllowedDomainsService } from '../../src/modules/teams/allowed-domains.service.js';
import type { InvitesService } from '../../src/modules/teams/invites.service.js';
import type { MembershipService } from '../../src/modules/teams/membership.service.js';
import type { TeamViewsService } from '../../src/modules/teams/team-views.service.js';
import {
  TeamDomainsType,
  TeamDomainType,
  TeamInvitePreviewType,
  TeamInvitesResultType,
  TeamJoinLinkResultType,
  TeamJoinResultType,
  TeamMemberRoleType,
  TeamMemberType,
  TeamMemberUserType,
  TeamSeatsType,
  TeamStatusType,
  TeamWorkspaceType,
  UserType,
} from './types.js';
import { MUTATION_LIMITS, OPERATION_LIMITS, rateLimitDirectiveOf } from '../../src/modules/usage/operation-limits.js';

/** What the teams subgraph asks of the services. */
export interface TeamsGraphqlApi {
  views: Pick<TeamViewsService, 'overview' | 'usersByIds' | 'requestsInPeriod'>;
  invites: Pick<InvitesService, 'invite' | 'revokeInvite' | 'rotateJoinLink' | 'disableJoinLink' | 'join' | 'preview'>;
  domains: Pick<AllowedDomainsService, 'setDomains' | 'checkDomain'>;
  membership: Pick<MembershipService, 'changeRole' | 'removeMember' | 'setSeats'>;
}

/** Documentation of the limit each mutation's service counts (one list: src/modules/usage/operation-limits.ts). */
export const MUTATION_RATE_LIMIT = { limit: MUTATION_LIMITS.team.limit, duration: MUTATION_LIMITS.team.durationSeconds };
// a bad argument is reported at its own name (`["emails", 1]`), as billing's plans(audience)
const RATE_LIMITED = `@rateLimit(limit: ${MUTATION_RATE_LIMIT.limit}, duration: ${MUTATION_RATE_LIMIT.duration})`;

interface Loaders {
  users: DataLoader<string, Awaited<ReturnType<TeamsGraphqlApi['views']['usersByIds']>>[number]>;
  /** key: `${workspaceId} ${since} ${userId}`; one grouped statement per workspace and period. */
  requests: DataLoader<string, number>;
}

/** The key of the request's teams loaders (RequestContext.loader). */
const TEAMS_LOADERS = Symbol('teams loaders');

/** The request's set of teams loaders, made on first use. */
function loadersOf(api: TeamsGraphqlApi, context: GraphqlContext): Loaders {
  const ctx = requestContextOf(context);
  return ctx.loader(TEAMS_LOADERS, (): Loaders => ({
    users: new DataLoader((ids) => api.views.usersByIds(ctx, ids)),
    requests: new DataLoader(async (keys) => {
      const groups = new Map<string, { workspaceId: string; since: string; userIds: string[] }>();
      for (const key of keys) {
        const [workspaceId, since, userId] = key.split(' ') as [string, string, string];
        const group = groups.get(`${workspaceId} ${since}`) ?? { workspaceId, since, userIds: [] };
        group.userIds.push(userId);
        groups.set(`${workspaceId} ${since}`, group);
      }
      const counts = new Map<string, number>();
      for (const group of groups.values()) {
        const values = await api.views.requestsInPeriod(ctx, group.workspaceId, group.since, group.userIds);
        group.userIds.forEach((id, i) => counts.set(`${group.workspaceId} ${group.since} ${id}`, values[i]!));
      }
      return keys.map((key) => counts.get(key) ?? 0);
    }),
  }));
}

/** The period a member's requests are counted over: the workspace's, carried down from it. */
const periodOfMember = new WeakMap<object, string>();

@Resolver(() => TeamWorkspaceType)
export class TeamsResolver {
  constructor(private readonly api: TeamsGraphqlApi) {}

  @Query(() => TeamWorkspaceType, { nullable: true, description: "GET /v1/team: the caller's team workspace (null in the personal workspace)." })
  team(@Ctx() context: GraphqlContext) {
    return callerWorkspaceOf(this.api, requestContextOf(context)); // aliases and references share one read
  }

  @FieldResolver(() => [TeamMemberType])
  members(@Root() workspace: TeamWorkspaceType) {
    for (const member of workspace.members) periodOfMember.set(member, workspace.period_start);
    return workspace.members;
  }

  @Query(() => TeamInvitePreviewType, {
    description: "The invite page's preview of an invite or join link token (no account needed; only the token's holder learns the team and the invited address). NOT_FOUND for an unknown, used, expired, revoked or rotated token.",
  })
  @Directive(rateLimitDirectiveOf(OPERATION_LIMITS.team_invite_preview))
  teamInvite(@Arg('token', () => String) token: string, @Ctx() context: GraphqlContext) {
    return this.api.invites.preview(requestContextOf(context), { token });
  }

  @Mutation(() => TeamInvitesResultType, { description: 'POST /v1/team/invites.' })
  @Directive(RATE_LIMITED)
  inviteMembers(@Arg('emails', () => [String]) emails: string[], @Ctx() context: GraphqlContext) {
    return this.api.invites.invite(requestContextOf(context), { emails });
  }

  @Mutation(() => TeamStatusType, { description: 'DELETE /v1/team/invites/{invite_id}.' })
  @Directive(RATE_LIMITED)
  revokeInvite(@Arg('inviteId', () => String) inviteId: string, @Ctx() context: GraphqlContext) {
    return this.api.invites.revokeInvite(requestContextOf(context), inviteId);
  }

  @Mutation(() => TeamJoinLinkResultType, { description: 'POST /v1/team/join-link: create or rotate.' })
  @Directive(RATE_LIMITED)
  rotateJoinLink(@Ctx() context: GraphqlContext) {
    return this.api.invites.rotateJoinLink(requestContextOf(context));
  }

  @Mutation(() => TeamJoinLinkResultType, { description: 'DELETE /v1/team/join-link.' })
  @Directive(RATE_LIMITED)
  disableJoinLink(@Ctx() context: GraphqlContext) {
    return this.api.invites.disableJoinLink(requestContextOf(context));
  }

  @Mutation(() => TeamJoinResultType, { description: 'POST /v1/team/join.' })
  @Directive(RATE_LIMITED)
  joinTeam(@Arg('token', () => String) token: string, @Ctx() context: GraphqlContext) {
    return this.api.invites.join(requestContextOf(context), { token });
  }

  @Mutation(() => TeamDomainsType, { description: 'PUT /v1/team/domains.' })
  @Directive(RATE_LIMITED)
  setAllowedDomains(@Arg('domains', () => [String]) domains: string[], @Ctx() context: GraphqlContext) {
    return this.api.domains.setDomains(requestContextOf(context), { domains });
  }

  @Mutation(() => TeamDomainType, { description: 'POST /v1/team/domains/{domain}/check: look the TXT record up now.' })
  @Directive(RATE_LIMITED)
  checkAllowedDomain(@Arg('domain', () => String) domain: string, @Ctx() context: GraphqlContext) {
    return this.api.domains.checkDomain(requestContextOf(context), domain);
  }

  @Mutation(() => TeamMemberRoleType, { description: 'PATCH /v1/team/members/{member_user_id}.' })
  @Directive(RATE_LIMITED)
  changeMemberRole(@Arg('memberUserId', () => String) memberUserId: string, @Arg('role', () => AssignableRole) role: string, @Ctx() context: GraphqlContext) {
    return this.api.membership.changeRole(requestContextOf(context), memberUserId, { role });
  }

  @Mutation(() => TeamStatusType, { description: 'DELETE /v1/team/members/{member_user_id}: leave or remove.' })
  @Directive(RATE_LIMITED)
  removeMember(@Arg('memberUserId', () => String) memberUserId: string, @Ctx() context: GraphqlContext) {
    return this.api.membership.removeMember(requestContextOf(context), memberUserId);
  }

  @Mutation(() => TeamSeatsType, { description: 'POST /v1/team/seats (owner only).' })
  @Directive(RATE_LIMITED)
  setSeats(@Arg('quantity', () => Int) quantity: number, @Ctx() context: GraphqlContext) {
    return this.api.membership.setSeats(requestContextOf(context), { quantity });
  }
}

@Resolver(() => TeamMemberType)
export class TeamMemberResolver {
  constructor(private readonly api: TeamsGraphqlApi) {}

  @FieldResolver(() => TeamMemberUserType, { nullable: true })
  user(@Root() member: TeamMemberType, @Ctx() context: GraphqlContext) {
    return loadersOf(this.api, context).users.load(member.user_id);
  }

  @FieldResolver(() => Int, { description: "The member's requests in the workspace's period." })
  requests_in_period(@Root() member: TeamMemberType, @Ctx() context: GraphqlContext) {
    const since = periodOfMember.get(member);
    if (!since) return 0;
    return loadersOf(this.api, context).requests.load(`${member.workspace_id} ${since} ${member.user_id}`);
  }
}

@Resolver(() => UserType)
export class UserTeamResolver {
  constructor(private readonly api: TeamsGraphqlApi) {}

  /** The user's team workspace: the caller's own only (null for anyone else, or outside a team). */
  @FieldResolver(() => TeamWorkspaceType, { nullable: true })
  workspace(@Root() user: UserType, @Ctx() context: GraphqlContext) {
    const ctx = requestContextOf(context);
    if (!isAccount(ctx.caller) || ctx.caller.userId !== user.id) return null;
    return callerWorkspaceOf(this.api, ctx);
  }
}
