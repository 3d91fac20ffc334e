/**
 * Resolvers of the accounts subgraph: the dashboard's me, keys (create/revoke), authorised OAuth
 * clients (list/revoke) and usage. Thin:
 * GraphQL context -> one service call, the same services as the REST doors. Expensive fields
 * carry @rateLimit as documentation: their services count the limit, one budget with REST.
 */
import 'reflect-metadata';
import { Args, Ctx, Directive, FieldResolver, Mutation, Query, Resolver } from 'type-graphql';
import { requestContextOf, type GraphqlContext } from '../../src/graphql/context.js';
import { validatedAs } from '../../src/graphql/errors.js';
import type { AccountsService } from '../../src/modules/accounts/accounts.service.js';
import type { ApiKeyService } from '../../src/modules/accounts/api-key.service.js';
import type { OAuthGrantService } from '../../src/modules/accounts/oauth-grants.service.js';
import { OPERATION_LIMITS } from '../../src/modules/usage/operation-limits.js';
import type { UsageService } from '../../src/modules/usage/usage.service.js';
import {
  ApiKeyType,
  CreatedApiKeyType,
  CreateKeyArgs,
  GettingStartedType,
  KeyRevocationType,
  MeType,
  OAuthGrantRevocationType,
  OAuthGrantType,
  RenameKeyArgs,
  RevokeKeyArgs,
  RevokeOAuthGrantArgs,
  UsageBreakdownArgs,
  UsageBreakdownType,
  UsageType,
} from './types.js';

/** What the accounts subgraph asks of the services. */
export interface AccountsGraphqlApi {
  accounts: Pick<AccountsService, 'me' | 'gettingStarted'>;
  apiKeys: Pick<ApiKeyService, 'list' | 'create' | 'revoke' | 'rename'>;
  oauthGrants: Pick<OAuthGrantService, 'list' | 'revoke'>;
  usage: Pick<UsageService, 'usageOf' | 'breakdownOf'>;
}

/**
 * Per caller and field: usage reads a month of rows, key creation writes. The rule that counts is
 * in the services (UsageService.usageOf, ApiKeyService.create: shared CounterStore, every door and
 * process); the directive repeats the same budget in front of the resolver, so a flood of GraphQL
 * calls is turned away in-process before it reaches the counter store or the database.
 */
export const USAGE_RATE_LIMIT = { limit: OPERATION_LIMITS.usage.limit, duration: OPERATION_LIMITS.usage.durationSeconds };
export const USAGE_BREAKDOWN_RATE_LIMIT = { limit: OPERATION_LIMITS.usage_breakdown.limit, duration: OPERATION_LIMITS.usage_breakdown.durationSeconds };
export const CREATE_KEY_RATE_LIMIT = { limit: OPERATION_LIMITS.create_key.limit, duration: OPERATION_LIMITS.create_key.durationSeconds };
export const RENAME_KEY_RATE_LIMIT = { limit: OPERATION_LIMITS.rename_key.limit, duration: OPERATION_LIMITS.rename_key.durationSeconds };

@Resolver()
export class AccountsResolver {
  constructor(private readonly api: AccountsGraphqlApi) {}

  @Query(() => MeType, { nullable: true, description: 'The signed-in account; UNAUTHENTICATED without credentials.' })
  me(@Ctx() context: GraphqlContext) {
    return this.api.accounts.me(requestContextOf(context));
  }

  @Query(() => [ApiKeyType], { nullable: true, description: "The caller's API keys, newest first; revoked ones stay listed with revoked: true." })
  keys(@Ctx() context: GraphqlContext) {
    return this.api.apiKeys.list(requestContextOf(context));
  }

  @Query(() => UsageType, { nullable: true, description: "The caller's usage and limits (GET /v1/usage/me)." })
  @Directive(`@rateLimit(limit: ${USAGE_RATE_LIMIT.limit}, duration: ${USAGE_RATE_LIMIT.duration})`)
  usage(@Ctx() context: GraphqlContext) {
    return this.api.usage.usageOf(requestContextOf(context));
  }

  @Query(() => UsageBreakdownType, { nullable: true, description: "The caller's billed requests per API key and endpoint over a range of UTC days (GET /v1/usage/breakdown)." })
  @Directive(`@rateLimit(limit: ${USAGE_BREAKDOWN_RATE_LIMIT.limit}, duration: ${USAGE_BREAKDOWN_RATE_LIMIT.duration})`)
  usageBreakdown(@Args(() => UsageBreakdownArgs) { from, to }: UsageBreakdownArgs, @Ctx() context: GraphqlContext) {
    return this.api.usage.breakdownOf(requestContextOf(context), { ...(from ? { from } : {}), ...(to ? { to } : {}) });
  }

  @Mutation(() => ApiKeyType, { description: "Renames one of the caller's keys (PATCH /v1/keys/{key_id}); NOT_FOUND for any other id." })
  @Directive(`@rateLimit(limit: ${RENAME_KEY_RATE_LIMIT.limit}, duration: ${RENAME_KEY_RATE_LIMIT.duration})`)
  renameKey(@Args(() => RenameKeyArgs) { id, name }: RenameKeyArgs, @Ctx() context: GraphqlContext) {
    return this.api.apiKeys.rename(requestContextOf(context), id, { name });
  }

  @Mutation(() => CreatedApiKeyType, { description: 'Creates an API key; the full key is in this answer only.' })
  @Directive(`@rateLimit(limit: ${CREATE_KEY_RATE_LIMIT.limit}, duration: ${CREATE_KEY_RATE_LIMIT.duration})`)
  createKey(@Args(() => CreateKeyArgs) { name }: CreateKeyArgs, @Ctx() context: GraphqlContext) {
    return validatedAs('input', this.api.apiKeys.create(requestContextOf(context), name === undefined || name === null ? {} : { name }));
  }

  @Mutation(() => KeyRevocationType, { description: 'Revokes one of the caller\'s keys at once (it stays listed as revoked); NOT_FOUND for any other id.' })
  revokeKey(@Args(() => RevokeKeyArgs) { id }: RevokeKeyArgs, @Ctx() context: GraphqlContext) {
    return this.api.apiKeys.revoke(requestContextOf(context), id);
  }

  @Query(() => [OAuthGrantType], { nullable: true, description: 'The OAuth clients (MCP agents) the caller authorised, one per client (GET /v1/oauth/grants).' })
  oauthGrants(@Ctx() context: GraphqlContext) {
    return this.api.oauthGrants.list(requestContextOf(context));
  }

  @Mutation(() => OAuthGrantRevocationType, { description: "Revokes the caller's authorisation of a client: its access and refresh tokens end at once; NOT_FOUND when there is none." })
  revokeOAuthGrant(@Args(() => RevokeOAuthGrantArgs) { id }: RevokeOAuthGrantArgs, @Ctx() context: GraphqlContext) {
    return this.api.oauthGrants.revoke(requestContextOf(context), id);
  }
}

/** Fields of `me` computed only when asked (the session query on every page does not pay for them). */
@Resolver(() => MeType)
export class MeResolver {
  constructor(private readonly api: AccountsGraphqlApi) {}

  @FieldResolver(() => GettingStartedType, { description: "The getting-started checklist of the dashboard's home." })
  getting_started(@Ctx() context: GraphqlContext) {
    return this.api.accounts.gettingStarted(requestContextOf(context));
  }
}
