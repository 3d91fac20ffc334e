/**
 * The accounts subgraph: me, API keys and usage for the dashboard, as a federation 2 subgraph.
 * Expensive fields are limited per caller by graphql-rate-limit-directive (in-process counters).
 */
import type { GraphQLSchema } from 'graphql';
import { buildTypeGraphqlSubgraph, type SubgraphBuildOptions } from '../../src/graphql/federation.js';
import { perCallerRateLimit } from '../../src/graphql/rate-limit.js';
import { AccountsResolver, type AccountsGraphqlApi } from './accounts.resolver.js';

export function buildAccountsSubgraph(api: AccountsGraphqlApi, options: SubgraphBuildOptions = {}): Promise<GraphQLSchema> {
  const rateLimit = perCallerRateLimit();
  return buildTypeGraphqlSubgraph({
    ...options,
    resolvers: [AccountsResolver],
    instances: [new AccountsResolver(api)],
    federationImports: ['@key'],
    extraTypeDefs: rateLimit.typeDefs,
    transformSchema: rateLimit.transform,
  });
}
