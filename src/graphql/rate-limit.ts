/**
 * The `@rateLimit` directive every subgraph with expensive fields carries
 * (graphql-rate-limit-directive, in-process counters): one budget per caller (account, else
 * client IP) and field; over it the field fails with the same `rate_limited` error as REST's 429.
 */
import { rateLimitDirective } from 'graphql-rate-limit-directive';
import { isAccount } from '../context.js';
import { DomainError } from '../errors.js';
import { requestContextOf } from './context.js';
import { toGraphQLError } from './errors.js';

/** The directive's type definitions and the schema transformer that applies it. */
export function perCallerRateLimit(): { typeDefs: string; transform: ReturnType<typeof rateLimitDirective>['rateLimitDirectiveTransformer'] } {
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
  return { typeDefs: rateLimitDirectiveTypeDefs, transform: rateLimitDirectiveTransformer };
}
