/**
 * GraphQL types of the admin subgraph: the REST records field for field (snake_case included).
 * Every decorator names its type explicitly (tsx emits no decorator metadata).
 */
import 'reflect-metadata';
import { ArgsType, Field, ID, Int, ObjectType } from 'type-graphql';
import { AdminUserSort } from './enums.js';

@ObjectType()
export class DailyRequestsType {
  @Field(() => String) date!: string;
  @Field(() => Int) requests!: number;
}

@ObjectType()
export class EndpointCountType {
  @Field(() => String) endpoint!: string;
  @Field(() => Int) requests!: number;
}

@ObjectType({ description: 'GET /v1/admin/stats.' })
export class AdminStatsType {
  @Field(() => [DailyRequestsType]) daily_requests!: DailyRequestsType[];
  @Field(() => Int) total_users!: number;
  @Field(() => Int) requests_today!: number;
  @Field(() => Int) new_users_7d!: number;
  @Field(() => Int) new_users_30d!: number;
  @Field(() => Int) active_users_7d!: number;
  @Field(() => Int) active_users_30d!: number;
  @Field(() => [EndpointCountType]) top_endpoints!: EndpointCountType[];
}

@ObjectType()
export class AdminPlanOverrideType {
  @Field(() => String) plan!: string;
  @Field(() => String, { nullable: true }) reason!: string | null;
  @Field(() => String, { nullable: true }) set_by_user_id!: string | null;
  @Field(() => String) set_at!: string;
}

@ObjectType()
export class AdminWorkspaceRefType {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
}

@ObjectType({ description: 'A user as GET /v1/admin/users lists it; request counts are batched per page (DataLoader).' })
export class AdminUserType {
  @Field(() => ID) id!: string;
  @Field(() => String) email!: string;
  @Field(() => String, { nullable: true }) name!: string | null;
  @Field(() => String) plan!: string;
  @Field(() => String) subscription_plan!: string;
  @Field(() => AdminPlanOverrideType, { nullable: true }) override!: AdminPlanOverrideType | null;
  @Field(() => AdminWorkspaceRefType, { nullable: true }) workspace!: AdminWorkspaceRefType | null;
  @Field(() => String, { nullable: true }) role!: string | null;
  @Field(() => Boolean) is_admin!: boolean;
  @Field(() => String) created_at!: string;
  @Field(() => String, { nullable: true }) last_active_at!: string | null;
  @Field(() => Int) requests_period!: number;
}

@ObjectType()
export class AdminUsersPageType {
  @Field(() => Int) total!: number;
  @Field(() => Int) limit!: number;
  @Field(() => Int) offset!: number;
  @Field(() => String) sort!: string;
  @Field(() => [AdminUserType]) users!: AdminUserType[];
}

@ArgsType()
export class AdminUsersArgs {
  @Field(() => Int, { nullable: true }) limit?: number | null;
  @Field(() => Int, { nullable: true }) offset?: number | null;
  @Field(() => AdminUserSort, { nullable: true }) sort?: string | null;
  @Field(() => String, { nullable: true }) search?: string | null;
}

@ObjectType()
export class UserEndpointsType {
  @Field(() => ID) user_id!: string;
  @Field(() => [EndpointCountType]) endpoints!: EndpointCountType[];
}

@ObjectType()
export class AdminFeedbackReportType {
  @Field(() => ID) id!: string;
  @Field(() => String) source!: string;
  @Field(() => String, { nullable: true }) source_id!: string | null;
  @Field(() => String) issue_type!: string;
  @Field(() => String) description!: string;
  @Field(() => String) status!: string;
  @Field(() => String) channel!: string;
  @Field(() => String, { nullable: true }) user_id!: string | null;
  @Field(() => String, { nullable: true }) forwarded_url!: string | null;
  @Field(() => String, { nullable: true }) status_note!: string | null;
  @Field(() => String) created_at!: string;
  @Field(() => String, { nullable: true }) updated_at!: string | null;
}

@ObjectType()
export class AdminFeedbackListType {
  @Field(() => String) status!: string;
  @Field(() => Int) total!: number;
  @Field(() => [AdminFeedbackReportType]) reports!: AdminFeedbackReportType[];
}

@ObjectType({ description: 'An audit log entry; before and after as JSON text.' })
export class AdminAuditEntryType {
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true }) actor_user_id!: string | null;
  @Field(() => String) actor_email!: string;
  @Field(() => String) action!: string;
  @Field(() => String) target_type!: string;
  @Field(() => String) target_id!: string;
  @Field(() => String, { nullable: true, description: "A user target's current e-mail address (null once erased, and for other targets)." }) target_email!: string | null;
  @Field(() => String, { nullable: true }) before_json!: string | null;
  @Field(() => String, { nullable: true }) after_json!: string | null;
  @Field(() => String, { nullable: true }) reason!: string | null;
  @Field(() => String) created_at!: string;
}

@ObjectType()
export class AdminAuditPageType {
  @Field(() => Int) total!: number;
  @Field(() => [AdminAuditEntryType]) items!: AdminAuditEntryType[];
}

@ObjectType()
export class PlanOverrideResultType {
  @Field(() => ID) user_id!: string;
  @Field(() => String) plan!: string;
  @Field(() => String) subscription_plan!: string;
  @Field(() => AdminPlanOverrideType, { nullable: true }) override!: AdminPlanOverrideType | null;
}

@ObjectType()
export class UserErasureResultType {
  @Field(() => String) status!: string;
  @Field(() => ID) user_id!: string;
}
