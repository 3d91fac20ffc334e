/**
 * GraphQL types of the accounts subgraph: the REST records field for field (snake_case
 * included). Every decorator names its type explicitly (tsx emits no decorator metadata).
 */
import 'reflect-metadata';
import { ArgsType, Directive, Field, ID, Int, ObjectType } from 'type-graphql';

// An entity: the billing subgraph adds the account's billing state to it (resolved there by id).
@ObjectType({ description: 'An account (GET /auth/me `user`).' })
@Directive('@key(fields: "id", resolvable: false)')
export class UserType {
  @Field(() => ID) id!: string;
  @Field(() => String) email!: string;
  @Field(() => String, { nullable: true }) name!: string | null;
  @Field(() => String) plan!: string;
  @Field(() => Boolean) is_admin!: boolean;
  @Field(() => Boolean) email_verified!: boolean;
  @Field(() => String) created_at!: string;
}

@ObjectType()
export class LegalAcceptanceType {
  @Field(() => Boolean) accepted!: boolean;
  @Field(() => String, { nullable: true }) terms_version!: string | null;
  @Field(() => String) current_terms_version!: string;
  @Field(() => String, { nullable: true }) accepted_at!: string | null;
}

@ObjectType({ description: 'The signed-in account (GET /auth/me).' })
export class MeType {
  @Field(() => UserType) user!: UserType;
  @Field(() => String) plan!: string;
  @Field(() => String) workspace_role!: string;
  @Field(() => LegalAcceptanceType) legal_acceptance!: LegalAcceptanceType;
}

@ObjectType({ description: 'An API key record (the full key only in createKey); revoked keys stay listed.' })
export class ApiKeyType {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String) key_prefix!: string;
  @Field(() => String) created_at!: string;
  @Field(() => String, { description: 'Its creation time until it is first used.' }) last_used_at!: string;
  @Field(() => Boolean, { description: 'Revoked keys stay listed and no longer authenticate.' }) revoked!: boolean;
}

@ObjectType({ description: 'The key revocation response (DELETE /v1/keys/{key_id}).' })
export class KeyRevocationType {
  @Field(() => String) status!: string;
  @Field(() => ID) id!: string;
}

@ObjectType()
export class CreatedApiKeyType extends ApiKeyType {
  @Field(() => String, { description: 'The full key: shown once.' }) key!: string;
  @Field(() => Boolean, {
    nullable: true,
    description: 'True when the account has not proven its e-mail address: the key is revoked when the address is verified or the password reset.',
  })
  ends_when_email_verified?: true;
  @Field(() => String, { nullable: true, description: 'Says the same in a sentence, when ends_when_email_verified is set.' }) warning?: string;
}

@ObjectType({ description: 'An OAuth client the user authorised (GET /v1/oauth/grants).' })
export class OAuthGrantType {
  @Field(() => ID, { description: 'The client id: the handle to revoke with.' }) id!: string;
  @Field(() => String) client_id!: string;
  @Field(() => String, { nullable: true }) client_name!: string | null;
  @Field(() => String, { nullable: true }) client_uri!: string | null;
  @Field(() => [String]) scopes!: string[];
  @Field(() => [String]) resources!: string[];
  @Field(() => String) authorized_at!: string;
  @Field(() => String, { nullable: true }) expires_at!: string | null;
}

@ObjectType({ description: 'DELETE /v1/oauth/grants/{id}.' })
export class OAuthGrantRevocationType {
  @Field(() => String) status!: string;
  @Field(() => ID) id!: string;
}

@ObjectType()
export class UsageDayType {
  @Field(() => String) date!: string;
  @Field(() => Int) count!: number;
}

@ObjectType({ description: 'GET /v1/usage/me.' })
export class UsageType {
  @Field(() => String) plan!: string;
  @Field(() => String) period_start!: string;
  @Field(() => String, { nullable: true }) period_end!: string | null;
  @Field(() => String) period_type!: string;
  @Field(() => Int) requests_today!: number;
  @Field(() => Int) requests_in_period!: number;
  @Field(() => Int, { nullable: true, description: "Team members only: the caller's own requests in the period." }) my_requests_in_period?: number;
  @Field(() => Int) per_minute_limit!: number;
  @Field(() => Int, { description: 'The daily cap; plans without one report their period allowance.' }) per_day_limit!: number;
  @Field(() => Int) per_period_limit!: number;
  @Field(() => Boolean) has_daily_limit!: boolean;
  @Field(() => Boolean) limits_enforced!: boolean;
  @Field(() => [UsageDayType]) daily_history!: UsageDayType[];
}

@ArgsType()
export class CreateKeyArgs {
  @Field(() => String, { nullable: true, description: 'At most 100 characters; default "Default".' })
  name?: string | null;
}

@ObjectType({ description: 'One API key and endpoint of the usage breakdown; the key fields are null for requests made without a key.' })
export class UsageBreakdownRowType {
  @Field(() => ID, { nullable: true }) key_id!: string | null;
  @Field(() => String, { nullable: true }) key_name!: string | null;
  @Field(() => String, { nullable: true }) key_prefix!: string | null;
  @Field(() => Boolean, { nullable: true }) key_revoked!: boolean | null;
  @Field(() => String) endpoint!: string;
  @Field(() => Int) requests!: number;
}

@ObjectType({ description: 'GET /v1/usage/breakdown: billed requests per API key and endpoint over a range of UTC days.' })
export class UsageBreakdownType {
  @Field(() => String) from!: string;
  @Field(() => String) to!: string;
  @Field(() => Int) total!: number;
  @Field(() => [UsageBreakdownRowType]) rows!: UsageBreakdownRowType[];
}

@ArgsType()
export class UsageBreakdownArgs {
  @Field(() => String, { nullable: true, description: 'First UTC day (YYYY-MM-DD), included; default 29 days before `to`.' })
  from?: string | null;
  @Field(() => String, { nullable: true, description: 'Last UTC day (YYYY-MM-DD), included; default today.' })
  to?: string | null;
}

@ArgsType()
export class RenameKeyArgs {
  @Field(() => ID)
  id!: string;
  @Field(() => String, { description: '1 to 100 characters.' })
  name!: string;
}

@ArgsType()
export class RevokeKeyArgs {
  @Field(() => ID)
  id!: string;
}

@ArgsType()
export class RevokeOAuthGrantArgs {
  @Field(() => ID, { description: 'The client id.' })
  id!: string;
}

@ObjectType({ description: "The dashboard home's getting-started checklist: what the service observed of the account." })
export class GettingStartedType {
  @Field(() => Boolean, { description: 'The e-mail address is proven.' }) verified!: boolean;
  @Field(() => Boolean, { description: 'An API key that is not revoked exists.' }) has_key!: boolean;
  @Field(() => String, { nullable: true, description: 'When the first billed call was recorded (any door), or null.' }) first_call_at!: string | null;
  @Field(() => Boolean, { description: 'An OAuth grant (an MCP client connected through /oauth) has not expired.' }) agent_connected!: boolean;
}
