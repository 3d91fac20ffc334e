/**
 * The billing subgraph: plans, promotion codes, status, checkout, credits, portal and audience,
 * as a federation 2 subgraph; it extends the accounts subgraph's `User` entity with `billing`.
 * Mutations are limited per caller by graphql-rate-limit-directive (in-process counters).
 */
import type { GraphQLSchema } from 'graphql';
import { rateLimitDirective } from 'graphql-rate-limit-directive';
import { isAccount } from '../../src/context.js';
import { requestContextOf } from '../../src/graphql/context.js';
import { toGraphQLError } from '../../src/graphql/errors.js';
import { buildTypeGraphqlSubgraph, type SubgraphBuildOptions } from '../../src/graphql/federation.js';
import { DomainError } from '../../src/errors.js';
import { BillingResolver, UserBillingResolver, type BillingGraphqlApi } from './billing.resolver.js';
import { UserType } from './types.js';

export function buildBillingSubgraph(api: BillingGraphqlApi, options: SubgraphBuildOptions = {}): Promise<GraphQLSchema> {
  const { rateLimitDirectiveTypeDefs, rateLimitDirectiveTransformer } = rateLimitDirective({
    keyGenerator: (_directiveArgs, _source, _args, context, info) => {
      const caller = requestContextOf(context).caller;
      const who = isAccount(caller) ? `user:${caller.userId}` : `ip:${caller.ip ?? 'unknown'}`;
      return `${who}:${info.parentType.name}.${info.fieldName}`;
    },
    onLimit: (resource, directiveArgs) => {
      throw toGraphQLError(
        new DomainError('rate_limited', `Too many requests for this field: at most ${directiveArgs.limit} per ${directiveArgs.duration} seconds`, {
          retryAfterSeconds: Math.ceil(resource.msBeforeNext / 1000),
        }),
      );
    },
  });
  return buildTypeGraphqlSubgraph({
    ...options,
    resolvers: [BillingResolver, UserBillingResolver],
    instances: [new BillingResolver(api), new UserBillingResolver(api)],
    // a User reference ({id}) is all the billing field needs
    orphanedTypes: [UserType],
    referenceResolvers: { UserType: (reference: { id: string }) => ({ id: reference.id }) },
    federationImports: ['@key'],
    extraTypeDefs: rateLimitDirectiveTypeDefs,
    transformSchema: rateLimitDirectiveTransformer,
  });
}
