/**
 * Resolvers of the accounts subgraph: the dashboard's me, keys (create/revoke) and usage. Thin:
 * GraphQL context -> one service call, the same services as the REST doors. Expensive fields
 * carry @rateLimit (graphql-rate-limit-directive), per caller.
 */
import 'reflect-metadata';
import { Args, Ctx, Directive, Mutation, Query, Resolver } from 'type-graphql';
import { requestContextOf, type GraphqlContext } from '../../src/graphql/context.js';
import { validatedAs } from '../../src/graphql/errors.js';
import type { AccountsService } from '../../src/modules/accounts/accounts.service.js';
import type { ApiKeyService } from '../../src/modules/accounts/api-key.service.js';
import type { UsageService } from '../../src/modules/usage/usage.service.js';
import { ApiKeyType, CreatedApiKeyType, CreateKeyArgs, MeType, RevokeKeyArgs, UsageType } from './types.js';

/** What the accounts subgraph asks of the services. */
export interface AccountsGraphqlApi {
  accounts: Pick<AccountsService, 'me'>;
  apiKeys: Pick<ApiKeyService, 'list' | 'create' | 'revoke'>;
  usage: Pick<UsageService, 'usageOf'>;
}

/** Per caller and field: usage reads a month of rows, key creation writes. */
export const USAGE_RATE_LIMIT = { limit: 30, duration: 60 };
export const CREATE_KEY_RATE_LIMIT = { limit: 10, duration: 60 };

@Resolver()
export class AccountsResolver {
  constructor(private readonly api: AccountsGraphqlApi) {}

  @Query(() => MeType, { description: 'The signed-in account; UNAUTHENTICATED without credentials.' })
  me(@Ctx() context: GraphqlContext) {
    return this.api.accounts.me(requestContextOf(context));
  }

  @Query(() => [ApiKeyType], { description: "The caller's active API keys." })
  keys(@Ctx() context: GraphqlContext) {
    return this.api.apiKeys.list(requestContextOf(context));
  }

  @Query(() => UsageType, { description: "The caller's usage and limits (GET /v1/usage/me)." })
  @Directive(`@rateLimit(limit: ${USAGE_RATE_LIMIT.limit}, duration: ${USAGE_RATE_LIMIT.duration})`)
  usage(@Ctx() context: GraphqlContext) {
    return this.api.usage.usageOf(requestContextOf(context));
  }

  @Mutation(() => CreatedApiKeyType, { description: 'Creates an API key; the full key is in this answer only.' })
  @Directive(`@rateLimit(limit: ${CREATE_KEY_RATE_LIMIT.limit}, duration: ${CREATE_KEY_RATE_LIMIT.duration})`)
  createKey(@Args(() => CreateKeyArgs) { name }: CreateKeyArgs, @Ctx() context: GraphqlContext) {
    return validatedAs('input', this.api.apiKeys.create(requestContextOf(context), name === undefined || name === null ? {} : { name }));
  }

  @Mutation(() => Boolean, { description: 'Revokes one of the caller\'s keys at once; NOT_FOUND for any other id.' })
  async revokeKey(@Args(() => RevokeKeyArgs) { id }: RevokeKeyArgs, @Ctx() context: GraphqlContext) {
    await this.api.apiKeys.revoke(requestContextOf(context), id);
    return true;
  }
}
