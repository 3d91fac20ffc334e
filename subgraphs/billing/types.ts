/**
 * GraphQL types of the billing subgraph: the REST records field for field (snake_case included;
 * input fields and arguments camelCase, translated back to REST's names by the resolvers).
 * Every decorator names its type explicitly (tsx emits no decorator metadata).
 */
import 'reflect-metadata';
import { ArgsType, Directive, Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';
import { Audience, BillingInterval, PaidPlan } from './enums.js';

@ObjectType()
export class PlanPricesType {
  @Field(() => Float) monthly!: number;
  @Field(() => Float) yearly!: number;
  @Field(() => String) currency!: string;
}

@ObjectType()
export class PlanLimitsType {
  @Field(() => Int) per_minute!: number;
  @Field(() => Int, { nullable: true }) per_day!: number | null;
  @Field(() => Int, { nullable: true }) per_period!: number | null;
}

@ObjectType()
export class PlanPriceIdsType {
  @Field(() => String, { nullable: true }) monthly!: string | null;
  @Field(() => String, { nullable: true }) yearly!: string | null;
}

@ObjectType({ description: 'A purchasable plan (GET /v1/billing/plans); the audience fields only in an audience catalogue.' })
export class PlanType {
  @Field(() => String) slug!: string;
  @Field(() => String) name!: string;
  @Field(() => Boolean) per_seat!: boolean;
  @Field(() => PlanPricesType) prices!: PlanPricesType;
  @Field(() => PlanLimitsType) limits!: PlanLimitsType;
  @Field(() => [String]) features!: string[];
  @Field(() => PlanPriceIdsType, { nullable: true, description: 'Only when billing is enabled.' }) price_ids?: PlanPriceIdsType;
  @Field(() => Int, { nullable: true }) order?: number;
  @Field(() => Boolean, { nullable: true }) recommended?: boolean;
  @Field(() => String, { nullable: true }) tagline?: string | null;
}

@ObjectType({ description: 'A legal document a checkout asks assent to, at its current version.' })
export class CheckoutDocumentType {
  @Field(() => String) key!: string;
  @Field(() => String) title!: string;
  @Field(() => String) version!: string;
  @Field(() => String, { description: 'accept (agreements) or acknowledge (the privacy notice).' }) assent!: string;
}

@ObjectType()
export class PlansType {
  @Field(() => String, { nullable: true }) audience?: string;
  @Field(() => String, { nullable: true }) title?: string;
  @Field(() => [PlanType]) plans!: PlanType[];
}

@ObjectType({ description: 'GET /v1/billing/promo.' })
export class PromoType {
  @Field(() => String) code!: string;
  @Field(() => Boolean) valid!: boolean;
  @Field(() => String, { nullable: true }) reason?: string;
  @Field(() => Float, { nullable: true }) percent_off?: number | null;
  @Field(() => Float, { nullable: true }) amount_off?: number | null;
  @Field(() => String, { nullable: true }) currency?: string | null;
  @Field(() => String, { nullable: true }) duration?: string;
  @Field(() => Int, { nullable: true }) duration_in_months?: number | null;
  @Field(() => [String], { nullable: true }) plans?: string[];
  @Field(() => String, { nullable: true }) expires_at?: string | null;
  @Field(() => Int, { nullable: true }) seats_remaining?: number | null;
}

@ObjectType()
export class SubscriptionType {
  @Field(() => ID) id!: string;
  @Field(() => String) plan!: string;
  @Field(() => String) status!: string;
  @Field(() => String) interval!: string;
  @Field(() => Int) quantity!: number;
  @Field(() => String) current_period_start!: string;
  @Field(() => String) current_period_end!: string;
  @Field(() => Boolean) cancel_at_period_end!: boolean;
}

@ObjectType()
export class AutoTopupSettingsType {
  @Field(() => Boolean) enabled!: boolean;
  @Field(() => Int) threshold_usd!: number;
  @Field(() => Int) amount_usd!: number;
}

@ObjectType()
export class FailureType {
  @Field(() => String) reason!: string;
  @Field(() => String) at!: string;
}

@ObjectType()
export class CreditsType {
  @Field(() => Float) balance_usd!: number;
  @Field(() => AutoTopupSettingsType) auto_topup!: AutoTopupSettingsType;
  @Field(() => FailureType, { nullable: true }) auto_topup_last_failure!: FailureType | null;
}

@ObjectType()
export class WorkspaceType {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => Int) seat_limit!: number;
}

@ObjectType()
export class AdminOverrideType {
  @Field(() => String) plan!: string;
  @Field(() => String, { nullable: true }) reason!: string | null;
  @Field(() => String) set_at!: string;
}

@ObjectType({ description: 'The team workspace whose plan a member uses (its owner pays).' })
export class TeamPlanType {
  @Field(() => ID) workspace_id!: string;
  @Field(() => String) workspace_name!: string;
  @Field(() => String) role!: string;
  @Field(() => String) owner_email!: string;
}

@ObjectType({ description: "One invoice of the caller's Stripe customer." })
export class InvoiceType {
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true }) number!: string | null;
  @Field(() => String, { nullable: true }) status!: string | null;
  @Field(() => String) created_at!: string;
  @Field(() => String, { nullable: true }) period_start!: string | null;
  @Field(() => String, { nullable: true }) period_end!: string | null;
  @Field(() => Float) total_usd!: number;
  @Field(() => Float) amount_paid_usd!: number;
  @Field(() => String) currency!: string;
  @Field(() => String, { nullable: true, description: "Stripe's page of the invoice (view, pay, download)." }) hosted_invoice_url!: string | null;
  @Field(() => String, { nullable: true }) invoice_pdf!: string | null;
}

@ObjectType({ description: 'GET /v1/billing/invoices.' })
export class InvoiceListType {
  @Field(() => [InvoiceType]) invoices!: InvoiceType[];
  @Field(() => Boolean, { description: 'Older invoices exist: the customer portal lists them all.' }) has_more!: boolean;
}

@ObjectType({ description: 'GET /v1/billing/status.' })
export class BillingStatusType {
  @Field(() => Boolean) billing_enabled!: boolean;
  @Field(() => String) plan!: string;
  @Field(() => String, { nullable: true }) audience!: string | null;
  @Field(() => SubscriptionType, { nullable: true }) subscription!: SubscriptionType | null;
  @Field(() => CreditsType) credits!: CreditsType;
  @Field(() => WorkspaceType, { nullable: true }) workspace!: WorkspaceType | null;
  @Field(() => AdminOverrideType, { nullable: true, description: "An administrator's plan override; it wins over the subscription while set." }) admin_override!: AdminOverrideType | null;
  @Field(() => TeamPlanType, { nullable: true, description: 'The team workspace whose plan this account uses as a member; null for the owner and outside a team.' }) team_plan!: TeamPlanType | null;
}

@ObjectType({ description: 'The accounts subgraph\'s user, extended with its billing state (only the caller\'s own).' })
@Directive('@key(fields: "id")')
export class UserType {
  @Field(() => ID) id!: string;
}

@ObjectType()
export class CheckoutUrlType {
  @Field(() => String) checkout_url!: string;
}

@ObjectType()
export class CheckoutVerificationType {
  @Field(() => String) session_id!: string;
  @Field(() => String) mode!: string;
  @Field(() => String, { nullable: true }) status!: string | null;
  @Field(() => String) payment_status!: string;
  @Field(() => String, { nullable: true }) plan!: string | null;
  @Field(() => String, { nullable: true }) interval!: string | null;
  @Field(() => Int, { nullable: true }) quantity!: number | null;
  @Field(() => String, { nullable: true }) workspace_id!: string | null;
  @Field(() => Float, { nullable: true }) credits_usd!: number | null;
}

@ObjectType()
export class AutoTopupType {
  @Field(() => Boolean) enabled!: boolean;
  @Field(() => Int) threshold_usd!: number;
  @Field(() => Int) amount_usd!: number;
  @Field(() => FailureType, { nullable: true }) last_failure!: FailureType | null;
}

@ObjectType()
export class PortalSessionType {
  @Field(() => String) url!: string;
}

@ObjectType()
export class AudienceType {
  @Field(() => String) audience!: string;
}

@InputType({ description: 'CheckoutRequest.' })
export class CheckoutInput {
  @Field(() => PaidPlan) plan!: string;
  @Field(() => BillingInterval, { nullable: true }) interval?: string;
  @Field(() => Int, { nullable: true }) quantity?: number;
  @Field(() => String, { nullable: true }) workspaceName?: string | null;
  @Field(() => String, { nullable: true }) promoCode?: string | null;
  @Field(() => Audience, { nullable: true }) audience?: string | null;
  @Field(() => Boolean, { nullable: true }) legalAccepted?: boolean;
}

@InputType({ description: 'AutoTopupRequest.' })
export class AutoTopupInput {
  @Field(() => Boolean, { nullable: true }) enabled?: boolean;
  @Field(() => Int, { nullable: true }) thresholdUsd?: number;
  @Field(() => Int, { nullable: true }) amountUsd?: number;
}

@ArgsType()
export class PlansArgs {
  @Field(() => Audience, { nullable: true }) audience?: string | null;
}

@ArgsType()
export class PromoArgs {
  @Field(() => String) code!: string;
}
