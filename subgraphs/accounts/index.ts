/**
 * The accounts subgraph: me, API keys and usage for the dashboard, as a federation 2 subgraph.
 * Expensive fields are limited per caller by their services (usage/operation-limits.ts; @rateLimit documents it).
 */
import type { GraphQLSchema } from 'graphql';
import { buildTypeGraphqlSubgraph, type SubgraphBuildOptions } from '../../src/graphql/federation.js';
import { RATE_LIMIT_DIRECTIVE_TYPE_DEFS } from '../../src/graphql/rate-limit.js';
import { AccountsResolver, MeResolver, type AccountsGraphqlApi } from './accounts.resolver.js';

export function buildAccountsSubgraph(api: AccountsGraphqlApi, options: SubgraphBuildOptions = {}): Promise<GraphQLSchema> {
  return buildTypeGraphqlSubgraph({
    ...options,
    resolvers: [AccountsResolver, MeResolver],
    instances: [new AccountsResolver(api), new MeResolver(api)],
    federationImports: ['@key'],
    extraTypeDefs: RATE_LIMIT_DIRECTIVE_TYPE_DEFS,
  });
}
