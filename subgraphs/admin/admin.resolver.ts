/**
 * Resolvers of the admin subgraph: thin, GraphQL context -> one admin service call (the same
 * functions as REST, which check the administrator first). Per-user request totals are resolved
 * through a DataLoader per request: one query for a whole page of users.
 */
import 'reflect-metadata';
import DataLoader from 'dataloader';
import { Arg, Args, Ctx, Directive, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { requestContextOf, type GraphqlContext } from '../../src/graphql/context.js';
import { validatedAs } from '../../src/graphql/errors.js';
import { AuditAction, FeedbackStatusFilter, OverridePlan, SettableFeedbackStatus } from './enums.js';
import type { AdminModule } from '../../src/modules/admin/admin.module.js';
import {
  AdminAuditPageType,
  AdminFeedbackListType,
  AdminFeedbackReportType,
  AdminStatsType,
  AdminUsersArgs,
  AdminUsersPageType,
  AdminUserType,
  PlanOverrideResultType,
  UserEndpointsType,
  UserErasureResultType,
} from './types.js';
import { MUTATION_LIMITS } from '../../src/modules/usage/operation-limits.js';

/** What the admin subgraph asks of the services. */
export interface AdminGraphqlApi {
  audit: Pick<AdminModule['audit'], 'list'>;
  users: Pick<AdminModule['users'], 'stats' | 'users' | 'userEndpoints' | 'requestTotals'>;
  overrides: Pick<AdminModule['overrides'], 'set'>;
  erasure: Pick<AdminModule['erasure'], 'erase'>;
  feedback: Pick<AdminModule['feedback'], 'list' | 'update' | 'markForwarded'>;
}

/** Documentation of the limit each mutation's service counts (one list: src/modules/usage/operation-limits.ts). */
export const MUTATION_RATE_LIMIT = { limit: MUTATION_LIMITS.admin.limit, duration: MUTATION_LIMITS.admin.durationSeconds };
const RATE_LIMITED = `@rateLimit(limit: ${MUTATION_RATE_LIMIT.limit}, duration: ${MUTATION_RATE_LIMIT.duration})`;

/** Arguments as the services' REST-shaped input: absent and null arguments take the defaults. */
function present<T extends object>(input: T): Partial<T> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined)) as Partial<T>;
}

/** The key of the request's DataLoader of request totals (RequestContext.loader). */
const TOTALS_LOADER = Symbol('admin request totals');

@Resolver()
export class AdminResolver {
  constructor(private readonly api: AdminGraphqlApi) {}

  @Query(() => AdminStatsType, { nullable: true, description: 'GET /v1/admin/stats (administrators only).' })
  adminStats(@Ctx() context: GraphqlContext) {
    return this.api.users.stats(requestContextOf(context));
  }

  @Query(() => AdminUsersPageType, { nullable: true, description: 'GET /v1/admin/users (administrators only).' })
  adminUsers(@Args(() => AdminUsersArgs) args: AdminUsersArgs, @Ctx() context: GraphqlContext) {
    return validatedAs('args', this.api.users.users(requestContextOf(context), present(args)));
  }

  @Query(() => UserEndpointsType, { nullable: true, description: 'GET /v1/admin/users/{user_id}/endpoints (administrators only).' })
  adminUserEndpoints(@Arg('userId', () => String) userId: string, @Ctx() context: GraphqlContext) {
    return validatedAs('args', this.api.users.userEndpoints(requestContextOf(context), { user_id: userId }));
  }

  @Query(() => AdminFeedbackListType, { nullable: true, description: 'GET /v1/admin/feedback (administrators only).' })
  adminFeedback(
    @Arg('status', () => FeedbackStatusFilter, { nullable: true }) status: string | null,
    @Arg('limit', () => Int, { nullable: true }) limit: number | null,
    @Ctx() context: GraphqlContext,
  ) {
    return validatedAs('args', this.api.feedback.list(requestContextOf(context), present({ status, limit })));
  }

  @Query(() => AdminAuditPageType, { nullable: true, description: 'GET /v1/admin/audit (administrators only).' })
  async adminAudit(
    @Arg('limit', () => Int, { nullable: true }) limit: number | null,
    @Arg('offset', () => Int, { nullable: true }) offset: number | null,
    @Arg('action', () => AuditAction, { nullable: true }) action: string | null,
    @Arg('targetId', () => String, { nullable: true }) targetId: string | null,
    @Ctx() context: GraphqlContext,
  ) {
    const page = await validatedAs('args', this.api.audit.list(requestContextOf(context), present({ limit, offset, action, target_id: targetId })));
    return {
      total: page.total,
      items: page.items.map(({ before, after, ...entry }) => ({ ...entry, before_json: before == null ? null : JSON.stringify(before), after_json: after == null ? null : JSON.stringify(after) })),
    };
  }

  @Mutation(() => PlanOverrideResultType, { description: 'PATCH /v1/admin/users/{user_id}: sets (plan) or removes (null) the plan override.' })
  @Directive(RATE_LIMITED)
  adminSetPlanOverride(
    @Arg('userId', () => String) userId: string,
    @Arg('plan', () => OverridePlan, { nullable: true }) plan: string | null,
    @Arg('reason', () => String, { nullable: true }) reason: string | null,
    @Ctx() context: GraphqlContext,
  ) {
    return validatedAs('args', this.api.overrides.set(requestContextOf(context), { user_id: userId }, { plan: plan ?? null, reason }));
  }

  @Mutation(() => UserErasureResultType, { description: 'DELETE /v1/admin/users/{user_id}: erasure by the deletion rules.' })
  @Directive(RATE_LIMITED)
  adminEraseUser(@Arg('userId', () => String) userId: string, @Arg('reason', () => String, { nullable: true }) reason: string | null, @Ctx() context: GraphqlContext) {
    return validatedAs('args', this.api.erasure.erase(requestContextOf(context), { user_id: userId }, present({ reason })));
  }

  @Mutation(() => AdminFeedbackReportType, { description: 'PATCH /v1/admin/feedback/{report_id}: resolved, dismissed or forwarded.' })
  @Directive(RATE_LIMITED)
  adminUpdateFeedback(
    @Arg('reportId', () => String) reportId: string,
    @Arg('status', () => SettableFeedbackStatus) status: string,
    @Arg('note', () => String, { nullable: true }) note: string | null,
    @Ctx() context: GraphqlContext,
  ) {
    return validatedAs('args', this.api.feedback.update(requestContextOf(context), { report_id: reportId }, present({ status, note })));
  }

  @Mutation(() => AdminFeedbackReportType, { description: 'POST /v1/admin/feedback/{report_id}/mark-forwarded.' })
  @Directive(RATE_LIMITED)
  adminMarkFeedbackForwarded(@Arg('reportId', () => String) reportId: string, @Arg('url', () => String) url: string, @Ctx() context: GraphqlContext) {
    return validatedAs('args', this.api.feedback.markForwarded(requestContextOf(context), { report_id: reportId }, { url }));
  }
}

@Resolver(() => AdminUserType)
export class AdminUserTotalsResolver {
  constructor(private readonly api: AdminGraphqlApi) {}

  /** Total requests of the user, batched over the page through one DataLoader per request. */
  @FieldResolver(() => Int)
  requests_total(@Root() user: AdminUserType, @Ctx() context: GraphqlContext) {
    const ctx = requestContextOf(context);
    const loader = ctx.loader(
      TOTALS_LOADER,
      () =>
        new DataLoader<string, number>(async (ids) => {
          const totals = await this.api.users.requestTotals(ctx, ids);
          return ids.map((id) => totals.get(id) ?? 0);
        }),
    );
    return loader.load(user.id);
  }
}
