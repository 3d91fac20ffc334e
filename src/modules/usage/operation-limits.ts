/**
 * The one list of per-caller operation limits (issue #35 item 8): the account, team, billing and
 * administration operations a caller may only repeat so often, whatever door it comes through.
 * The services call `OperationLimiter.check` first thing, so REST, GraphQL and MCP count ONE
 * budget per caller (the account; an anonymous caller by its client IP) and operation, in the
 * same CounterStore as the plan limits: Redis when REDIS_URL is set (every process shares it),
 * else this process's memory. The subgraphs' `@rateLimit` directives are generated from this list
 * and only document it; they count nothing.
 *
 * Redis lost or frozen: the counters' own rule (redis-counter-store.ts, docs/reliability.md)
 * applies unchanged: the call fails with `unavailable` (503, Retry-After 5) within
 * REDIS_COMMAND_TIMEOUT_MS instead of being let through or counted in memory, so a limit is never
 * exceeded. Redis restarted empty: these budgets have no stored rows behind them and restart
 * empty (a caller may spend one more budget), like the other operation limits.
 *
 * Independent of the plan and of RATE_LIMITS, and administrators are limited too: these protect
 * the service (Stripe calls, mails, DNS look-ups, audited writes), they are not a quota. Every
 * call counts, refused ones too (401, 403, 422, 409): the check comes first, before the caller's
 * rights and the input are looked at, so a flood of bad calls is turned away as cheaply as good ones.
 * test/operation-limits-doors.test.ts holds the GraphQL directives and the OpenAPI 429s to this list.
 */
import { isAccount, type RequestContext } from '../../context.js';
import type { CounterStore } from './counter-store.js';
import { type OperationLimit, throttleOperation } from './throttle.js';

/** Team mutations (invites, join link, domains, members, seats): a dashboard needs a few per minute. */
const TEAM_MUTATION = { limit: 20, durationSeconds: 60 };
/** Billing mutations call Stripe or write billing state. */
const BILLING_MUTATION = { limit: 10, durationSeconds: 60 };
/** Administrators' writes (each one audited). */
const ADMIN_MUTATION = { limit: 30, durationSeconds: 60 };
/** Partner analytics' queries (issue #35): each reads up to 400 days of day cells. */
const ANALYTICS_QUERY = { limit: 60, durationSeconds: 60 };

/** One operation's limit per caller, and where each door serves it. */
export interface OperationLimitRule {
  limit: number;
  durationSeconds: number;
  /** The REST operations (`METHOD /path` as in /openapi.json) that call the limited service method. */
  rest: readonly string[];
  /** The GraphQL root field that calls it (its `@rateLimit` documents this limit); null when no field does. */
  graphql: string | null;
}

/** Operation -> limit per caller and window, and the REST operations and GraphQL field of each. */
export const OPERATION_LIMITS = {
  // a month of usage rows per call
  usage: { limit: 30, durationSeconds: 60, rest: ['GET /v1/usage/me'], graphql: 'Query.usage' },
  // up to a year of the caller's usage rows, grouped
  usage_breakdown: { limit: 30, durationSeconds: 60, rest: ['GET /v1/usage/breakdown'], graphql: 'Query.usageBreakdown' },
  create_key: { limit: 20, durationSeconds: 60, rest: ['POST /v1/keys'], graphql: 'Mutation.createKey' },
  // a write to a key row, as often as creating one
  rename_key: { limit: 20, durationSeconds: 60, rest: ['PATCH /v1/keys/{key_id}'], graphql: 'Mutation.renameKey' },
  // proves the address with an invite's token: ends credentials and mails the owner (REST only)
  verify_email_invite: { limit: 10, durationSeconds: 60, rest: ['POST /auth/verify-email/invite'], graphql: null },
  // the invite page's preview, open to anonymous callers (counted per client IP): a token look-up
  team_invite_preview: { limit: 30, durationSeconds: 60, rest: [], graphql: 'Query.teamInvite' },
  team_invite: { ...TEAM_MUTATION, rest: ['POST /v1/team/invites'], graphql: 'Mutation.inviteMembers' },
  team_invite_revoke: { ...TEAM_MUTATION, rest: ['DELETE /v1/team/invites/{invite_id}'], graphql: 'Mutation.revokeInvite' },
  team_join_link_rotate: { ...TEAM_MUTATION, rest: ['POST /v1/team/join-link'], graphql: 'Mutation.rotateJoinLink' },
  team_join_link_disable: { ...TEAM_MUTATION, rest: ['DELETE /v1/team/join-link'], graphql: 'Mutation.disableJoinLink' },
  team_join: { ...TEAM_MUTATION, rest: ['POST /v1/team/join'], graphql: 'Mutation.joinTeam' },
  team_domains_set: { ...TEAM_MUTATION, rest: ['PUT /v1/team/domains'], graphql: 'Mutation.setAllowedDomains' },
  // a DNS look-up
  team_domain_check: { ...TEAM_MUTATION, rest: ['POST /v1/team/domains/{domain}/check'], graphql: 'Mutation.checkAllowedDomain' },
  team_member_role: { ...TEAM_MUTATION, rest: ['PATCH /v1/team/members/{member_user_id}'], graphql: 'Mutation.changeMemberRole' },
  team_member_remove: { ...TEAM_MUTATION, rest: ['DELETE /v1/team/members/{member_user_id}'], graphql: 'Mutation.removeMember' },
  team_seats: { ...TEAM_MUTATION, rest: ['POST /v1/team/seats'], graphql: 'Mutation.setSeats' },
  billing_checkout: { ...BILLING_MUTATION, rest: ['POST /v1/billing/checkout'], graphql: 'Mutation.checkout' },
  billing_checkout_verify: { ...BILLING_MUTATION, rest: ['POST /v1/billing/checkout/verify'], graphql: 'Mutation.verifyCheckout' },
  billing_topup_checkout: { ...BILLING_MUTATION, rest: ['POST /v1/billing/credit-topups/checkout'], graphql: 'Mutation.creditTopupCheckout' },
  billing_auto_topup: { ...BILLING_MUTATION, rest: ['PUT /v1/billing/credit-topups/auto'], graphql: 'Mutation.setAutoTopup' },
  billing_portal: { ...BILLING_MUTATION, rest: ['GET /v1/billing/portal', 'POST /v1/billing/portal'], graphql: 'Mutation.portalSession' },
  billing_audience: { ...BILLING_MUTATION, rest: ['POST /v1/billing/audience'], graphql: 'Mutation.setAudience' },
  // a Stripe call per page view
  billing_invoices: { limit: 30, durationSeconds: 60, rest: ['GET /v1/billing/invoices'], graphql: 'Query.invoices' },
  admin_plan_override: { ...ADMIN_MUTATION, rest: ['PATCH /v1/admin/users/{user_id}'], graphql: 'Mutation.adminSetPlanOverride' },
  admin_erase_user: { ...ADMIN_MUTATION, rest: ['DELETE /v1/admin/users/{user_id}'], graphql: 'Mutation.adminEraseUser' },
  admin_feedback_update: { ...ADMIN_MUTATION, rest: ['PATCH /v1/admin/feedback/{report_id}'], graphql: 'Mutation.adminUpdateFeedback' },
  admin_feedback_forward: { ...ADMIN_MUTATION, rest: ['POST /v1/admin/feedback/{report_id}/mark-forwarded'], graphql: 'Mutation.adminMarkFeedbackForwarded' },
  admin_partner_set: { ...ADMIN_MUTATION, rest: ['PUT /v1/admin/users/{user_id}/partner'], graphql: 'Mutation.adminSetPartner' },
  admin_partner_remove: { ...ADMIN_MUTATION, rest: ['DELETE /v1/admin/users/{user_id}/partner'], graphql: 'Mutation.adminRemovePartner' },
  analytics_source_usage: { ...ANALYTICS_QUERY, rest: [], graphql: 'Query.sourceUsage' },
  analytics_country_usage: { ...ANALYTICS_QUERY, rest: [], graphql: 'Query.countryUsage' },
  analytics_top_documents: { ...ANALYTICS_QUERY, rest: [], graphql: 'Query.topDocuments' },
  analytics_resolver_outcomes: { ...ANALYTICS_QUERY, rest: [], graphql: 'Query.resolverOutcomes' },
} as const satisfies Record<string, OperationLimitRule>;

export type LimitedOperation = keyof typeof OPERATION_LIMITS;

/** The same limit for every team, billing and administration mutation: what their subgraphs' directives show. */
export const MUTATION_LIMITS = { team: TEAM_MUTATION, billing: BILLING_MUTATION, admin: ADMIN_MUTATION } as const;
/** Every partner analytics query's limit, what its directive shows. */
export const ANALYTICS_QUERY_LIMIT = ANALYTICS_QUERY;

/** The rule of one operation, as throttle.ts counts it. */
export function operationLimit(operation: LimitedOperation): OperationLimit {
  const { limit, durationSeconds } = OPERATION_LIMITS[operation];
  return { operation, limit, durationSeconds };
}

/** `@rateLimit(limit: N, duration: S)` of an operation's limit: a GraphQL field's documentation of it. */
export function rateLimitDirectiveOf(limit: { limit: number; durationSeconds: number }): string {
  return `@rateLimit(limit: ${limit.limit}, duration: ${limit.durationSeconds})`;
}

/** Who a budget belongs to: the account, else the client IP. */
export function budgetHolderOf(ctx: RequestContext): string {
  const caller = ctx.caller;
  return isAccount(caller) ? `user:${caller.userId}` : `ip:${caller.ip ?? 'unknown'}`;
}

/** Counts calls of the listed operations per caller; every door reaches it through the services. */
export class OperationLimiter {
  constructor(
    private readonly store: CounterStore,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one call of `operation` by the caller; `rate_limited` (429, Retry-After) once its budget is spent. */
  check(ctx: RequestContext, operation: LimitedOperation): Promise<void> {
    return throttleOperation(this.store, budgetHolderOf(ctx), operationLimit(operation), this.now());
  }
}
