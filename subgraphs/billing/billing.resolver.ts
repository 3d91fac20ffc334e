/**
 * Resolvers of the billing subgraph: thin, GraphQL context -> one billing service call (the same
 * functions as REST). Mutations carry @rateLimit to document the per-caller limit the services
 * count (one budget with REST); the services keep every rule.
 */
import 'reflect-metadata';
import { Arg, Args, Ctx, Directive, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { isAccount } from '../../src/context.js';
import { requestContextOf, type GraphqlContext } from '../../src/graphql/context.js';
import { validatedAs } from '../../src/graphql/errors.js';
import { restBody } from '../../src/graphql/argument-names.js';
import { Audience, PaidPlan } from './enums.js';
import type { BillingModule } from '../../src/modules/billing/billing.module.js';
import {
  AudienceType,
  AutoTopupInput,
  AutoTopupType,
  BillingStatusType,
  CheckoutDocumentType,
  CheckoutInput,
  CheckoutUrlType,
  CheckoutVerificationType,
  InvoiceListType,
  PlansArgs,
  PlansType,
  PortalSessionType,
  PromoArgs,
  PromoType,
  UserType,
} from './types.js';
import { MUTATION_LIMITS, OPERATION_LIMITS } from '../../src/modules/usage/operation-limits.js';

/** What the billing subgraph asks of the services. */
export interface BillingGraphqlApi {
  checkout: Pick<BillingModule['checkout'], 'plans' | 'checkoutDocuments' | 'setAudience' | 'checkout' | 'verifyCheckout'>;
  promo: Pick<BillingModule['promo'], 'promo'>;
  credits: Pick<BillingModule['credits'], 'topupCheckout'>;
  autoTopup: Pick<BillingModule['autoTopup'], 'get' | 'set'>;
  subscriptions: Pick<BillingModule['subscriptions'], 'status' | 'portal' | 'invoices'>;
}

/** Mutations that call Stripe or write: a few per minute per caller is all a dashboard needs. */
/** Documentation of the limit each mutation's service counts (one list: src/modules/usage/operation-limits.ts). */
export const MUTATION_RATE_LIMIT = { limit: MUTATION_LIMITS.billing.limit, duration: MUTATION_LIMITS.billing.durationSeconds };
const RATE_LIMITED = `@rateLimit(limit: ${MUTATION_RATE_LIMIT.limit}, duration: ${MUTATION_RATE_LIMIT.duration})`;

@Resolver()
export class BillingResolver {
  constructor(private readonly api: BillingGraphqlApi) {}

  @Query(() => PlansType, { description: 'GET /v1/billing/plans: the legacy catalogue, or an audience catalogue.' })
  plans(@Args(() => PlansArgs) { audience }: PlansArgs, @Ctx() context: GraphqlContext) {
    // a bad audience is reported at ["audience"], the argument's own name
    return this.api.checkout.plans(requestContextOf(context), audience === null || audience === undefined ? {} : { audience });
  }

  @Query(() => [CheckoutDocumentType], {
    description: 'The legal documents (and versions) a checkout of the plan asks assent to: the data processing agreement only for per-seat plans.',
  })
  checkoutDocuments(@Arg('plan', () => PaidPlan) plan: string, @Ctx() context: GraphqlContext) {
    // a bad plan is reported at ["plan"], the argument's own name
    return this.api.checkout.checkoutDocuments(requestContextOf(context), { plan });
  }

  @Query(() => PromoType, { nullable: true, description: 'GET /v1/billing/promo.' })
  promo(@Args(() => PromoArgs) { code }: PromoArgs, @Ctx() context: GraphqlContext) {
    return this.api.promo.promo(requestContextOf(context), { code });
  }

  @Query(() => BillingStatusType, { nullable: true, description: 'GET /v1/billing/status.' })
  billingStatus(@Ctx() context: GraphqlContext) {
    return this.api.subscriptions.status(requestContextOf(context));
  }

  @Query(() => InvoiceListType, { nullable: true, description: "GET /v1/billing/invoices: the caller's own invoices, newest first, with Stripe's hosted page of each." })
  @Directive(`@rateLimit(limit: ${OPERATION_LIMITS.billing_invoices.limit}, duration: ${OPERATION_LIMITS.billing_invoices.durationSeconds})`)
  invoices(@Ctx() context: GraphqlContext) {
    return this.api.subscriptions.invoices(requestContextOf(context));
  }

  @Query(() => AutoTopupType, { nullable: true, description: 'GET /v1/billing/credit-topups/auto.' })
  autoTopup(@Ctx() context: GraphqlContext) {
    return this.api.autoTopup.get(requestContextOf(context));
  }

  @Mutation(() => CheckoutUrlType, { description: 'POST /v1/billing/checkout: records the legal assent, then a Stripe Checkout Session.' })
  @Directive(RATE_LIMITED)
  checkout(@Arg('input', () => CheckoutInput) input: CheckoutInput, @Ctx() context: GraphqlContext) {
    const userAgent = context.incomingHeaders?.['user-agent'] ?? null;
    return validatedAs('input', this.api.checkout.checkout(requestContextOf(context), restBody(input), { userAgent }));
  }

  @Mutation(() => CheckoutVerificationType, { description: 'POST /v1/billing/checkout/verify.' })
  @Directive(RATE_LIMITED)
  verifyCheckout(@Arg('sessionId', () => String) sessionId: string, @Ctx() context: GraphqlContext) {
    return validatedAs('input', this.api.checkout.verifyCheckout(requestContextOf(context), { session_id: sessionId }));
  }

  @Mutation(() => CheckoutUrlType, { description: 'POST /v1/billing/credit-topups/checkout.' })
  @Directive(RATE_LIMITED)
  creditTopupCheckout(@Arg('amountUsd', () => Int) amountUsd: number, @Ctx() context: GraphqlContext) {
    return validatedAs('input', this.api.credits.topupCheckout(requestContextOf(context), { amount_usd: amountUsd }));
  }

  @Mutation(() => AutoTopupType, { description: 'PUT /v1/billing/credit-topups/auto.' })
  @Directive(RATE_LIMITED)
  setAutoTopup(@Arg('input', () => AutoTopupInput) input: AutoTopupInput, @Ctx() context: GraphqlContext) {
    return validatedAs('input', this.api.autoTopup.set(requestContextOf(context), restBody(input)));
  }

  @Mutation(() => PortalSessionType, { description: 'POST /v1/billing/portal.' })
  @Directive(RATE_LIMITED)
  portalSession(@Ctx() context: GraphqlContext) {
    return this.api.subscriptions.portal(requestContextOf(context));
  }

  @Mutation(() => AudienceType, { description: 'POST /v1/billing/audience.' })
  @Directive(RATE_LIMITED)
  setAudience(@Arg('audience', () => Audience) audience: string, @Ctx() context: GraphqlContext) {
    return validatedAs('input', this.api.checkout.setAudience(requestContextOf(context), { audience }));
  }
}

/** The key of the request's memo of the caller's billing state (RequestContext.loader). */
const CALLER_BILLING_STATUS = Symbol('billing caller status');

@Resolver(() => UserType)
export class UserBillingResolver {
  constructor(private readonly api: BillingGraphqlApi) {}

  /** The user's billing state: the caller's own only (null for anyone else's user). */
  @FieldResolver(() => BillingStatusType, { nullable: true })
  billing(@Root() user: UserType, @Ctx() context: GraphqlContext) {
    const ctx = requestContextOf(context);
    if (!isAccount(ctx.caller) || ctx.caller.userId !== user.id) return null;
    // read once per request: a list of references to the caller's user (the gateway sends them
    // as one `_entities` list) ran the status statements once per reference; one key per
    // request, so a memo in the request's loaders rather than a DataLoader
    return ctx.loader(CALLER_BILLING_STATUS, () => this.api.subscriptions.status(ctx));
  }
}
