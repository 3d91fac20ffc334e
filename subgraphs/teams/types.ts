/**
 * GraphQL types of the teams subgraph: the REST records field for field (snake_case included).
 * Every decorator names its type explicitly (tsx emits no decorator metadata).
 */
import 'reflect-metadata';
import { Directive, Field, ID, Int, ObjectType } from 'type-graphql';

@ObjectType('TeamInvite', { description: 'A pending e-mail invite.' })
export class TeamInviteType {
  @Field(() => ID) id!: string;
  @Field(() => String) email!: string;
  @Field(() => String) invited_by!: string;
  @Field(() => String) created_at!: string;
  @Field(() => String) expires_at!: string;
}

@ObjectType('TeamJoinLink')
export class TeamJoinLinkType {
  @Field(() => String) token!: string;
  @Field(() => String) url!: string;
  @Field(() => String) created_at!: string;
}

@ObjectType('TeamMember')
export class TeamMemberType {
  @Field(() => ID) user_id!: string;
  @Field(() => String) role!: string;
  @Field(() => String) joined_at!: string;
  workspace_id!: string;
}

@ObjectType('TeamMemberUser', { description: "A member's account (resolved in one batch per request)." })
export class TeamMemberUserType {
  @Field(() => ID) id!: string;
  @Field(() => String) email!: string;
  @Field(() => String, { nullable: true }) name!: string | null;
}

@ObjectType('Workspace', { description: "The caller's team workspace (GET /v1/team)." })
@Directive('@key(fields: "id")')
export class TeamWorkspaceType {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String) plan!: string;
  @Field(() => Int) seat_limit!: number;
  @Field(() => Int, { description: 'Members plus pending invites.' }) seats_used!: number;
  @Field(() => [String]) allowed_domains!: string[];
  @Field(() => String, { description: "The caller's role." }) role!: string;
  @Field(() => [TeamMemberType]) members!: TeamMemberType[];
  @Field(() => [TeamInviteType]) invites!: TeamInviteType[];
  @Field(() => TeamJoinLinkType, { nullable: true, description: 'Owner and admins only.' }) join_link!: TeamJoinLinkType | null;
  period_start!: string;
}

@ObjectType('TeamInviteSkip')
export class TeamInviteSkipType {
  @Field(() => String) email!: string;
  @Field(() => String) reason!: string;
}

@ObjectType('TeamInvitesResult')
export class TeamInvitesResultType {
  @Field(() => [TeamInviteType]) invites!: TeamInviteType[];
  @Field(() => [TeamInviteSkipType]) skipped!: TeamInviteSkipType[];
}

@ObjectType('TeamJoinResult')
export class TeamJoinResultType {
  @Field(() => ID) workspace_id!: string;
  @Field(() => String) name!: string;
  @Field(() => String) role!: string;
  @Field(() => Boolean) joined!: boolean;
}

@ObjectType('TeamMemberRole')
export class TeamMemberRoleType {
  @Field(() => ID) user_id!: string;
  @Field(() => String) role!: string;
}

@ObjectType('TeamStatus')
export class TeamStatusType {
  @Field(() => String) status!: string;
  @Field(() => ID, { nullable: true }) id?: string;
  @Field(() => ID, { nullable: true }) user_id?: string;
}

@ObjectType('TeamJoinLinkResult')
export class TeamJoinLinkResultType {
  @Field(() => TeamJoinLinkType, { nullable: true }) join_link!: TeamJoinLinkType | null;
}

@ObjectType('TeamDomains')
export class TeamDomainsType {
  @Field(() => [String]) allowed_domains!: string[];
}

@ObjectType('TeamSeats')
export class TeamSeatsType {
  @Field(() => Int) quantity!: number;
  @Field(() => Int) seat_limit!: number;
}

@ObjectType({ description: "The accounts subgraph's user, extended with its team workspace (only the caller's own)." })
@Directive('@key(fields: "id")')
export class UserType {
  @Field(() => ID) id!: string;
}
