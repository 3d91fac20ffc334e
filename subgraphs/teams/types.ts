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

@ObjectType('TeamDomainVerification', { description: 'The DNS record that proves a workspace controls a domain.' })
export class TeamDomainVerificationType {
  @Field(() => String, { description: 'Always TXT.' }) type!: string;
  @Field(() => String) name!: string;
  @Field(() => String) value!: string;
}

@ObjectType('TeamDomain', { description: 'An allowed domain and its proof state: only a verified domain auto-joins accounts.' })
export class TeamDomainType {
  @Field(() => String) domain!: string;
  @Field(() => String, { description: 'pending or verified.' }) status!: string;
  @Field(() => TeamDomainVerificationType) verification!: TeamDomainVerificationType;
  @Field(() => String, { nullable: true }) verified_at!: string | null;
  @Field(() => String, { nullable: true }) checked_at!: string | null;
  @Field(() => String, { nullable: true, description: 'record_missing, dns_error or verified_elsewhere.' }) check_error!: string | null;
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
  @Field(() => [TeamDomainType], { description: 'The listed domains with their proof state.' }) domains!: TeamDomainType[];
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

@ObjectType('TeamInvitePreview', { description: "What an invite or join link's token shows before joining: the team, and the invited address of an e-mail invite." })
export class TeamInvitePreviewType {
  @Field(() => String, { description: '`invite` (an e-mail invite, for one address) or `join_link` (the shareable link).' }) kind!: string;
  @Field(() => String) team_name!: string;
  @Field(() => String, { nullable: true, description: 'The invited address (e-mail invites only).' }) email!: string | null;
  @Field(() => String, { nullable: true }) expires_at!: string | null;
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
  @Field(() => [TeamDomainType]) domains!: TeamDomainType[];
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
