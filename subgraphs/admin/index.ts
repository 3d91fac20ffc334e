/**
 * The admin subgraph: statistics, users (paged), a user's endpoints, feedback reports and the
 * audit log, the override, erasure, feedback and partner mutations, and partner analytics
 * (analytics.resolver.ts), as a federation 2 subgraph. Only administrators reach it, and partners
 * its analytics within their scope: every resolver calls a service, which checks first.
 */
import type { GraphQLSchema } from 'graphql';
import { buildTypeGraphqlSubgraph, type SubgraphBuildOptions } from '../../src/graphql/federation.js';
import { RATE_LIMIT_DIRECTIVE_TYPE_DEFS } from '../../src/graphql/rate-limit.js';
import { AdminResolver, AdminUserTotalsResolver, type AdminGraphqlApi } from './admin.resolver.js';
import { AnalyticsResolver, type AnalyticsGraphqlApi } from './analytics.resolver.js';

export function buildAdminSubgraph(api: AdminGraphqlApi & AnalyticsGraphqlApi, options: SubgraphBuildOptions = {}): Promise<GraphQLSchema> {
  return buildTypeGraphqlSubgraph({
    ...options,
    resolvers: [AdminResolver, AdminUserTotalsResolver, AnalyticsResolver],
    instances: [new AdminResolver(api), new AdminUserTotalsResolver(api), new AnalyticsResolver(api)],
    federationImports: [],
    extraTypeDefs: RATE_LIMIT_DIRECTIVE_TYPE_DEFS,
  });
}
