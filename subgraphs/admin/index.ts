/**
 * The admin subgraph: statistics, users (paged), a user's endpoints, feedback reports and the
 * audit log, and the override, erasure and feedback mutations, as a federation 2 subgraph. Only
 * administrators reach it: every resolver calls an admin service, which checks first.
 */
import type { GraphQLSchema } from 'graphql';
import { buildTypeGraphqlSubgraph, type SubgraphBuildOptions } from '../../src/graphql/federation.js';
import { RATE_LIMIT_DIRECTIVE_TYPE_DEFS } from '../../src/graphql/rate-limit.js';
import { AdminResolver, AdminUserTotalsResolver, type AdminGraphqlApi } from './admin.resolver.js';

export function buildAdminSubgraph(api: AdminGraphqlApi, options: SubgraphBuildOptions = {}): Promise<GraphQLSchema> {
  return buildTypeGraphqlSubgraph({
    ...options,
    resolvers: [AdminResolver, AdminUserTotalsResolver],
    instances: [new AdminResolver(api), new AdminUserTotalsResolver(api)],
    federationImports: [],
    extraTypeDefs: RATE_LIMIT_DIRECTIVE_TYPE_DEFS,
  });
}
