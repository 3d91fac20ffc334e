/**
 * The billing subgraph: plans, promotion codes, status, checkout, credits, portal and audience,
 * as a federation 2 subgraph; it extends the accounts subgraph's `User` entity with `billing`.
 * Mutations are limited per caller by their services (usage/operation-limits.ts; @rateLimit documents it).
 */
import type { GraphQLSchema } from 'graphql';
import { buildTypeGraphqlSubgraph, type SubgraphBuildOptions } from '../../src/graphql/federation.js';
import { RATE_LIMIT_DIRECTIVE_TYPE_DEFS } from '../../src/graphql/rate-limit.js';
import { BillingResolver, UserBillingResolver, type BillingGraphqlApi } from './billing.resolver.js';
import { UserType } from './types.js';

export function buildBillingSubgraph(api: BillingGraphqlApi, options: SubgraphBuildOptions = {}): Promise<GraphQLSchema> {
  return buildTypeGraphqlSubgraph({
    ...options,
    resolvers: [BillingResolver, UserBillingResolver],
    instances: [new BillingResolver(api), new UserBillingResolver(api)],
    // a User reference ({id}) is all the billing field needs
    orphanedTypes: [UserType],
    referenceResolvers: { UserType: (reference: { id: string }) => ({ id: reference.id }) },
    federationImports: ['@key'],
    extraTypeDefs: RATE_LIMIT_DIRECTIVE_TYPE_DEFS,
  });
}
