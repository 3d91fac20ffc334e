/**
 * The teams subgraph: the caller's Workspace entity (keyed by id) with members, invites and the
 * join link, and the team mutations, as a federation 2 subgraph; it extends the accounts
 * subgraph's `User` entity with `workspace`. Mutations are limited per caller.
 */
import type { GraphQLSchema } from 'graphql';
import { requestContextOf } from '../../src/graphql/context.js';
import { buildTypeGraphqlSubgraph, type SubgraphBuildOptions } from '../../src/graphql/federation.js';
import { RATE_LIMIT_DIRECTIVE_TYPE_DEFS } from '../../src/graphql/rate-limit.js';
import { callerWorkspaceNamed } from './caller-workspace.js';
import { TeamMemberResolver, TeamsResolver, UserTeamResolver, type TeamsGraphqlApi } from './teams.resolver.js';
import { UserType } from './types.js';

export function buildTeamsSubgraph(api: TeamsGraphqlApi, options: SubgraphBuildOptions = {}): Promise<GraphQLSchema> {
  return buildTypeGraphqlSubgraph({
    ...options,
    resolvers: [TeamsResolver, TeamMemberResolver, UserTeamResolver],
    instances: [new TeamsResolver(api), new TeamMemberResolver(api), new UserTeamResolver(api)],
    orphanedTypes: [UserType],
    referenceResolvers: {
      UserType: (reference: { id: string }) => ({ id: reference.id }),
      // another subgraph's Workspace reference: only the caller's own workspace resolves, read once per request
      Workspace: (reference: { id: string }, context: unknown) => callerWorkspaceNamed(api, requestContextOf(context), reference.id),
    },
    federationImports: ['@key'],
    extraTypeDefs: RATE_LIMIT_DIRECTIVE_TYPE_DEFS,
  });
}
