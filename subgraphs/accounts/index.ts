/**
 * The accounts subgraph: me, API keys and usage for the dashboard, as a federation 2 subgraph.
 * Expensive fields are limited per caller by graphql-rate-limit-directive (in-process counters).
 */
import type { GraphQLSchema } from 'graphql';
import { rateLimitDirective } from 'graphql-rate-limit-directive';
import { buildTypeGraphqlSubgraph, type SubgraphBuildOptions } from '../../src/graphql/federation.js';
import { requestContextOf } from '../../src/graphql/context.js';
import { toGraphQLError } from '../../src/graphql/errors.js';
import { isAccount } from '../../src/context.js';
import { DomainError } from '../../src/errors.js';
import { AccountsResolver, type AccountsGraphqlApi } from './accounts.resolver.js';

export function buildAccountsSubgraph(api: AccountsGraphqlApi, options: SubgraphBuildOptions = {}): Promise<GraphQLSchema> {
  const { rateLimitDirectiveTypeDefs, rateLimitDirectiveTransformer } = rateLimitDirective({
    // one budget per caller (account, else client IP) and field
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
    resolvers: [AccountsResolver],
    instances: [new AccountsResolver(api)],
    federationImports: ['@key'],
    extraTypeDefs: rateLimitDirectiveTypeDefs,
    transformSchema: rateLimitDirectiveTransformer,
  });
}
