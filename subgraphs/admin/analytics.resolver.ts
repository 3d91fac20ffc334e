/**
 * Partner analytics in the admin subgraph (issue #35): the four queries, the partner mutations,
 * the caller's own scope (`partnerScope`) and an administrator's read of a user's
 * (`adminPartner`), each one service call (src/modules/analytics checks the per-caller limit,
 * then administrator, partner and scope). Arguments are camelCase; `@rateLimit` documents the limits
 * the services count (ANALYTICS_QUERY_LIMIT and the admin mutations' in operation-limits.ts).
 */
import 'reflect-metadata';
import { Arg, Ctx, Directive, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { requestContextOf, type GraphqlContext } from '../../src/graphql/context.js';
import { nullWhenNotFound, validatedAs } from '../../src/graphql/errors.js';
import type { AnalyticsModule } from '../../src/modules/analytics/analytics.module.js';
import type { Granularity } from '../../src/modules/analytics/analytics.schema.js';
import { ANALYTICS_QUERY_LIMIT, MUTATION_LIMITS, rateLimitDirectiveOf } from '../../src/modules/usage/operation-limits.js';
import { AnalyticsGranularity, CountryUsageType, PartnerRemovalType, PartnerScopeType, ResolverOutcomesType, SourceUsageType, TopDocumentsType } from './analytics.types.js';

/** What the analytics fields ask of the services. */
export interface AnalyticsGraphqlApi {
  analytics: Pick<AnalyticsModule['analytics'], 'sourceUsage' | 'countryUsage' | 'topDocuments' | 'resolverOutcomes'>;
  partners: Pick<AnalyticsModule['partners'], 'ownScope' | 'get' | 'set' | 'remove'>;
}

/** Documentation of the limits the services count (src/modules/usage/operation-limits.ts): one budget per caller across doors. */
const QUERY_LIMITED = rateLimitDirectiveOf(ANALYTICS_QUERY_LIMIT);
const MUTATION_LIMITED = rateLimitDirectiveOf(MUTATION_LIMITS.admin);

/** Absent and null arguments are left out (the services apply their defaults). */
function present<T extends object>(input: T): Partial<T> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined)) as Partial<T>;
}

@Resolver()
export class AnalyticsResolver {
  constructor(private readonly api: AnalyticsGraphqlApi) {}

  @Query(() => SourceUsageType, { nullable: true, description: 'Per source and period: searches returning it, hits, documents fetched, resolutions, distinct accounts (partners: their sources).' })
  @Directive(QUERY_LIMITED)
  sourceUsage(
    @Arg('sources', () => [String]) sources: string[],
    @Arg('from', () => String, { description: 'First UTC day, YYYY-MM-DD.' }) from: string,
    @Arg('to', () => String, { description: 'Last UTC day, YYYY-MM-DD (at most 400 days from `from`).' }) to: string,
    @Arg('granularity', () => AnalyticsGranularity, { nullable: true }) granularity: Granularity | null,
    @Ctx() context: GraphqlContext,
  ) {
    return validatedAs('args', this.api.analytics.sourceUsage(requestContextOf(context), present({ sources, from, to, granularity })));
  }

  @Query(() => CountryUsageType, { nullable: true, description: 'Per country and period: searches filtered by it, hits, documents fetched, resolutions, distinct accounts (partners: their countries).' })
  @Directive(QUERY_LIMITED)
  countryUsage(
    @Arg('countries', () => [String]) countries: string[],
    @Arg('from', () => String) from: string,
    @Arg('to', () => String) to: string,
    @Arg('granularity', () => AnalyticsGranularity, { nullable: true }) granularity: Granularity | null,
    @Ctx() context: GraphqlContext,
  ) {
    return validatedAs('args', this.api.analytics.countryUsage(requestContextOf(context), present({ countries, from, to, granularity })));
  }

  @Query(() => TopDocumentsType, { nullable: true, description: "The source's most fetched documents over the range." })
  @Directive(QUERY_LIMITED)
  topDocuments(
    @Arg('source', () => String) source: string,
    @Arg('from', () => String) from: string,
    @Arg('to', () => String) to: string,
    @Arg('limit', () => Int, { nullable: true, description: '1-100, default 10.' }) limit: number | null,
    @Ctx() context: GraphqlContext,
  ) {
    return validatedAs('args', this.api.analytics.topDocuments(requestContextOf(context), present({ source, from, to, limit })));
  }

  @Query(() => ResolverOutcomesType, { nullable: true, description: 'Resolutions per country and match type (without countries: every country in scope).' })
  @Directive(QUERY_LIMITED)
  resolverOutcomes(
    @Arg('countries', () => [String], { nullable: true }) countries: string[] | null,
    @Arg('from', () => String) from: string,
    @Arg('to', () => String) to: string,
    @Ctx() context: GraphqlContext,
  ) {
    return validatedAs('args', this.api.analytics.resolverOutcomes(requestContextOf(context), present({ countries, from, to })));
  }

  @Query(() => PartnerScopeType, { nullable: true, description: "The caller's own partner scope; null when the caller is not a partner. Not counted: the caller's own record, like `me`." })
  partnerScope(@Ctx() context: GraphqlContext) {
    return this.api.partners.ownScope(requestContextOf(context));
  }

  @Query(() => PartnerScopeType, { nullable: true, description: "GET /v1/admin/users/{user_id}/partner: a user's partner scope, administrators only; null when the user is not a partner." })
  adminPartner(@Arg('userId', () => ID) userId: string, @Ctx() context: GraphqlContext) {
    return validatedAs('args', nullWhenNotFound(this.api.partners.get(requestContextOf(context), { user_id: userId })));
  }

  @Mutation(() => PartnerScopeType, { description: 'PUT /v1/admin/users/{user_id}/partner: makes the account a partner with this scope, or replaces it.' })
  @Directive(MUTATION_LIMITED)
  adminSetPartner(
    @Arg('userId', () => String) userId: string,
    @Arg('sources', () => [String], { nullable: true }) sources: string[] | null,
    @Arg('countries', () => [String], { nullable: true }) countries: string[] | null,
    @Arg('reason', () => String, { nullable: true }) reason: string | null,
    @Ctx() context: GraphqlContext,
  ) {
    return validatedAs('args', this.api.partners.set(requestContextOf(context), { user_id: userId }, present({ sources, countries, reason })));
  }

  @Mutation(() => PartnerRemovalType, { description: 'DELETE /v1/admin/users/{user_id}/partner.' })
  @Directive(MUTATION_LIMITED)
  adminRemovePartner(@Arg('userId', () => String) userId: string, @Arg('reason', () => String, { nullable: true }) reason: string | null, @Ctx() context: GraphqlContext) {
    return validatedAs('args', this.api.partners.remove(requestContextOf(context), { user_id: userId }, present({ reason })));
  }
}
