/**
 * Team workspaces: members and roles, e-mail invites, the shareable join link, allowed domains
 * and seats. One service for REST, the usage guard (pooled allowance through the authenticator's
 * membership lookup) and the sign-in auto-join.
 *
 * Every write is one transaction that first locks the workspace row (`for update`): seat counting
 * (members + pending invites against `seat_limit`) is serialised per workspace, so two concurrent
 * joins for the last seat cannot both win. Roles: owner (the subscriber), admin, member. Another
 * workspace's objects are 404; a role that may not act is 403.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import { type AccountCaller, type PlanId, type RequestContext, requireAccount } from '../../context.js';
import { DomainError, NotFoundError, ValidationError, type ValidationIssue } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { parseInput } from '../../validation.js';
import type { TeamMembership, WorkspaceProvider } from '../accounts/authenticator.js';
import { sha256 } from '../accounts/hashing.js';
import type { Mailer } from '../accounts/mailer.js';
import { planOf, ROLLING_PERIOD_MS } from '../usage/plans.js';
import { domainOf, normaliseDomain } from './domains.js';
import { challengeName, challengeValue, newDomainToken, type CheckError, type DomainStatus } from './domain-proof.js';
import type { DomainVerifier } from './domain-verifier.js';
import {
  domainsRequestSchema,
  inviteRequestSchema,
  joinRequestSchema,
  roleRequestSchema,
  seatsRequestSchema,
  type DomainRecord,
  type InviteAnswer,
  type InviteRecord,
  type JoinAnswer,
  type JoinLinkRecord,
  type TeamRecord,
} from './teams.schema.js';

export type Role = 'owner' | 'admin' | 'member';
type Sql = (sql: string, params?: unknown[]) => Promise<Record<string, any>[]>;

export const INVITE_TTL_MS = 14 * 24 * 3600_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What teams needs of billing: changing the subscription's quantity (seat_limit follows from the webhook). */
export interface SeatBilling {
  changeSeatQuantity(ownerUserId: string, quantity: number): Promise<void>;
}

export interface TeamsDeps {
  orm: MikroORM;
  mailer: Mailer;
  billing: SeatBilling | null;
  baseUrl: string;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** Checks allowed domains' DNS proofs (at an owner's request and in the background). */
  domains: DomainVerifier;
  now?: () => number;
}

/** A team workspace as GraphQL serves it (members without their user details and usage). */
export interface WorkspaceOverview {
  id: string;
  name: string;
  plan: string;
  seat_limit: number;
  seats_used: number;
  allowed_domains: string[];
  domains: DomainRecord[];
  role: Role;
  members: { workspace_id: string; user_id: string; role: Role; joined_at: string }[];
  invites: InviteRecord[];
  join_link: JoinLinkRecord | null;
  /** Start of the period members' requests are counted from. */
  period_start: string;
}

interface Membership {
  workspace: Record<string, any>;
  role: Role;
}

const iso = (value: unknown) => new Date(value as string).toISOString();

export class TeamsService implements WorkspaceProvider {
  constructor(private readonly deps: TeamsDeps) {}

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  private query(sql: string, params: unknown[] = []): Promise<Record<string, any>[]> {
    return this.deps.orm.em.fork().getConnection().execute(sql, params) as Promise<Record<string, any>[]>;
  }

  private transaction<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
    return this.deps.orm.em.fork().transactional(async (tx) => {
      const sql: Sql = (query, params = []) => tx.getConnection().execute(query, params, 'all', tx.getTransactionContext()) as Promise<Record<string, any>[]>;
      return work(sql);
    });
  }

  // --- the authenticator's lookup ---------------------------------------------------------------

  /** The caller's team workspace terms (one indexed join per authenticated request). */
  async membershipOf(userId: string): Promise<TeamMembership | null> {
    const [row] = await this.query(
      `select w.id, w.seat_limit, o.plan, o.billing_period_start, o.billing_period_end
         from workspace_member m join workspace w on w.id = m.workspace_id join app_user o on o.id = w.owner_user_id
        where m.user_id = ?`,
      [userId],
    );
    if (!row) return null;
    return {
      workspaceId: row.id,
      plan: row.plan as PlanId,
      seats: Math.max(1, Number(row.seat_limit)),
      billingPeriod: row.billing_period_start && row.billing_period_end ? { start: new Date(row.billing_period_start).getTime(), end: new Date(row.billing_period_end).getTime() } : null,
    };
  }

  // --- reading ----------------------------------------------------------------------------------

  /** The caller's membership, the workspace row locked for the transaction when `sql` is one. */
  private async membership(sql: Sql, userId: string, lock: boolean): Promise<Membership | null> {
    const [row] = await sql(
      `select m.role, w.* from workspace_member m join workspace w on w.id = m.workspace_id where m.user_id = ?${lock ? ' for update of w' : ''}`,
      [userId],
    );
    if (!row) return null;
    const { role, ...workspace } = row;
    return { role: role as Role, workspace };
  }

  /** The caller's membership with one of `roles`, else 403 (a personal workspace has no team to manage). */
  private async requireRole(sql: Sql, caller: AccountCaller, roles: Role[], action: string, lock = true): Promise<Membership> {
    const membership = await this.membership(sql, caller.userId, lock);
    if (!membership) throw new DomainError('forbidden', `Only a team workspace's ${roles.join(' or ')} may ${action}; you are in your personal workspace`);
    if (!roles.includes(membership.role)) throw new DomainError('forbidden', `Only the workspace's ${roles.join(' or ')} may ${action}`);
    return membership;
  }

  /** Members plus pending (unexpired) invites: the seats in use. */
  private async seatsUsed(sql: Sql, workspaceId: string): Promise<number> {
    const [row] = await sql(
      `select (select count(*) from workspace_member where workspace_id = ?) + (select count(*) from workspace_invite where workspace_id = ? and accepted_at is null and expires_at > ?) as n`,
      [workspaceId, workspaceId, new Date(this.now())],
    );
    return Number(row?.n ?? 0);
  }

  /** GET /v1/team: the caller's workspace, members (with their requests in the period) and pending invites. */
  async team(ctx: RequestContext): Promise<TeamRecord> {
    const caller = requireAccount(ctx);
    const sql: Sql = (q, p) => this.query(q, p);
    const membership = await this.membership(sql, caller.userId, false);
    if (!membership) return this.personalTeam(caller);
    const { workspace, role } = membership;
    const periodStart = caller.billingPeriod ? caller.billingPeriod.start : this.now() - ROLLING_PERIOD_MS;
    const [members, invites, domains, [owner]] = await Promise.all([
      sql(
        `select m.user_id, u.email, u.name, m.role, m.joined_at,
                (select count(*) from usage_event e where e.workspace_id = m.workspace_id and e.user_id = m.user_id and e.created_at >= ?) as requests
           from workspace_member m join app_user u on u.id = m.user_id where m.workspace_id = ? order by m.joined_at, u.email_lower`,
        [new Date(periodStart), workspace.id],
      ),
      this.pendingInvites(sql, workspace.id),
      this.domainRecords(sql, workspace.id),
      sql('select plan from app_user where id = ?', [workspace.owner_user_id]),
    ]);
    const manager = role === 'owner' || role === 'admin';
    return {
      workspace: {
        id: workspace.id,
        kind: 'team',
        name: workspace.name,
        plan: owner?.plan ?? 'free',
        seat_limit: Number(workspace.seat_limit),
        seats_used: members.length + invites.length,
        allowed_domains: domains.map((d) => d.domain),
        domains,
      },
      role,
      members: members.map((m) => ({ user_id: m.user_id, email: m.email, name: m.name ?? null, role: m.role, joined_at: iso(m.joined_at), requests_in_period: Number(m.requests) })),
      invites,
      ...(manager ? { join_link: this.joinLinkRecord(workspace) } : {}),
    };
  }

  /**
   * The caller's team workspace without its members' details (GraphQL resolves users and usage
   * through batch loaders: `usersByIds`, `requestsInPeriod`); null in the personal workspace or
   * when `workspaceId` is given and is another workspace.
   */
  async overview(ctx: RequestContext, workspaceId?: string): Promise<WorkspaceOverview | null> {
    const caller = requireAccount(ctx);
    const sql: Sql = (q, p) => this.query(q, p);
    const membership = await this.membership(sql, caller.userId, false);
    if (!membership || (workspaceId !== undefined && membership.workspace.id !== workspaceId)) return null;
    const { workspace, role } = membership;
    const [members, invites, domains, [owner]] = await Promise.all([
      sql('select user_id, role, joined_at from workspace_member where workspace_id = ? order by joined_at, user_id', [workspace.id]),
      this.pendingInvites(sql, workspace.id),
      this.domainRecords(sql, workspace.id),
      sql('select plan from app_user where id = ?', [workspace.owner_user_id]),
    ]);
    const manager = role === 'owner' || role === 'admin';
    return {
      id: workspace.id,
      name: workspace.name,
      plan: owner?.plan ?? 'free',
      seat_limit: Number(workspace.seat_limit),
      seats_used: members.length + invites.length,
      allowed_domains: domains.map((d) => d.domain),
      domains,
      role,
      members: members.map((m) => ({ workspace_id: workspace.id, user_id: m.user_id, role: m.role, joined_at: iso(m.joined_at) })),
      invites,
      join_link: manager ? this.joinLinkRecord(workspace) : null,
      period_start: new Date(caller.billingPeriod ? caller.billingPeriod.start : this.now() - ROLLING_PERIOD_MS).toISOString(),
    };
  }

  /** Batch: accounts by id (one statement for any number of ids). */
  async usersByIds(ids: readonly string[]): Promise<({ id: string; email: string; name: string | null } | null)[]> {
    if (ids.length === 0) return [];
    const rows = await this.query(`select id, email, name from app_user where id in (${ids.map(() => '?').join(', ')})`, [...ids]);
    const byId = new Map(rows.map((r) => [r.id as string, { id: r.id as string, email: r.email as string, name: (r.name ?? null) as string | null }]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  /** Batch: each member's requests counted in the workspace's pool since `since` (one grouped statement). */
  async requestsInPeriod(workspaceId: string, since: string, userIds: readonly string[]): Promise<number[]> {
    if (userIds.length === 0) return [];
    const rows = await this.query(
      `select user_id, count(*) as n from usage_event where workspace_id = ? and created_at >= ? and user_id in (${userIds.map(() => '?').join(', ')}) group by user_id`,
      [workspaceId, new Date(since), ...userIds],
    );
    const byId = new Map(rows.map((r) => [r.user_id as string, Number(r.n)]));
    return userIds.map((id) => byId.get(id) ?? 0);
  }

  private async personalTeam(caller: AccountCaller): Promise<TeamRecord> {
    const [user] = await this.query('select email, name, created_at from app_user where id = ?', [caller.userId]);
    return {
      workspace: { id: null, kind: 'personal', name: 'Personal workspace', plan: caller.plan, seat_limit: 1, seats_used: 1, allowed_domains: [], domains: [] },
      role: 'owner',
      members: [{ user_id: caller.userId, email: user?.email ?? caller.email, name: user?.name ?? null, role: 'owner', joined_at: iso(user?.created_at ?? new Date()), requests_in_period: 0 }],
      invites: [],
      join_link: null,
    };
  }

  private async pendingInvites(sql: Sql, workspaceId: string): Promise<InviteRecord[]> {
    const rows = await sql(
      `select id, email, invited_by, created_at, expires_at from workspace_invite where workspace_id = ? and accepted_at is null and expires_at > ? order by created_at, email_lower`,
      [workspaceId, new Date(this.now())],
    );
    return rows.map(inviteRecord);
  }

  private joinLinkRecord(workspace: Record<string, any>): JoinLinkRecord | null {
    if (!workspace.join_token) return null;
    return { token: workspace.join_token, url: this.joinUrl(workspace.join_token), created_at: iso(workspace.join_token_created_at) };
  }

  private joinUrl(token: string): string {
    return `${this.deps.baseUrl}/dashboard/team/join?token=${encodeURIComponent(token)}`;
  }

  // --- members ----------------------------------------------------------------------------------

  /** PATCH /v1/team/members/{id}: the owner sets another member's role (admin or member). */
  async changeRole(ctx: RequestContext, memberUserId: string, input: unknown): Promise<{ user_id: string; role: Role }> {
    const caller = requireAccount(ctx);
    checkUuid(memberUserId, 'member_user_id');
    const { role } = parseInput(roleRequestSchema, input);
    return this.transaction(async (sql) => {
      const { workspace } = await this.requireRole(sql, caller, ['owner'], 'change roles');
      const [target] = await sql('select role from workspace_member where user_id = ? and workspace_id = ?', [memberUserId, workspace.id]);
      if (!target) throw new NotFoundError('Member not found in your workspace');
      if (target.role === 'owner') throw new DomainError('conflict', "The owner's role cannot change");
      await sql('update workspace_member set role = ? where user_id = ?', [role, memberUserId]);
      return { user_id: memberUserId, role };
    });
  }

  /**
   * DELETE /v1/team/members/{id}: leave (any member but the owner) or remove (owner: anyone else;
   * admins: members only). The removed account is back in its personal workspace on its own plan
   * (Free without a subscription); its usage rows keep the workspace id (the team's history).
   */
  async removeMember(ctx: RequestContext, memberUserId: string): Promise<{ status: 'removed'; user_id: string }> {
    const caller = requireAccount(ctx);
    checkUuid(memberUserId, 'member_user_id');
    return this.transaction(async (sql) => {
      const membership = await this.membership(sql, caller.userId, true);
      if (!membership) throw new NotFoundError('Member not found in your workspace');
      const { workspace, role } = membership;
      const [target] = await sql('select role from workspace_member where user_id = ? and workspace_id = ?', [memberUserId, workspace.id]);
      if (!target) throw new NotFoundError('Member not found in your workspace');
      if (memberUserId === caller.userId) {
        if (role === 'owner') throw new DomainError('conflict', 'The owner cannot leave the workspace: cancel the subscription or hand the workspace over first');
      } else if (role === 'member') {
        throw new DomainError('forbidden', 'Only the owner or an admin may remove members');
      } else if (role === 'admin' && target.role !== 'member') {
        throw new DomainError('forbidden', 'Admins may remove members only, not the owner or other admins');
      }
      await sql('delete from workspace_member where user_id = ?', [memberUserId]);
      return { status: 'removed' as const, user_id: memberUserId };
    });
  }

  // --- invites ----------------------------------------------------------------------------------

  /**
   * POST /v1/team/invites: all or nothing. Addresses are folded; members, pending invites and
   * repeats are skipped and reported; when the rest does not fit in the free seats, 409 and
   * nothing is stored or mailed. Mails go out after the commit.
   */
  async invite(ctx: RequestContext, input: unknown): Promise<InviteAnswer> {
    const caller = requireAccount(ctx);
    const { emails } = parseInput(inviteRequestSchema, input);
    const { answer, mails } = await this.transaction(async (sql) => {
      const { workspace } = await this.requireRole(sql, caller, ['owner', 'admin'], 'invite');
      const folded = emails.map((e) => ({ email: e.trim(), lower: e.trim().toLowerCase() }));
      const lowers = [...new Set(folded.map((f) => f.lower))];
      const marks = lowers.map(() => '?').join(', ');
      const members = new Set(
        (await sql(`select u.email_lower from workspace_member m join app_user u on u.id = m.user_id where m.workspace_id = ? and u.email_lower in (${marks})`, [workspace.id, ...lowers])).map((r) => r.email_lower as string),
      );
      const invited = new Set(
        (await sql(`select email_lower from workspace_invite where workspace_id = ? and accepted_at is null and expires_at > ? and email_lower in (${marks})`, [workspace.id, new Date(this.now()), ...lowers])).map((r) => r.email_lower as string),
      );
      const skipped: InviteAnswer['skipped'] = [];
      const fresh: { email: string; lower: string }[] = [];
      const seen = new Set<string>();
      for (const f of folded) {
        if (members.has(f.lower)) skipped.push({ email: f.lower, reason: 'already_member' });
        else if (invited.has(f.lower)) skipped.push({ email: f.lower, reason: 'already_invited' });
        else if (seen.has(f.lower)) skipped.push({ email: f.lower, reason: 'duplicate' });
        else fresh.push(f);
        seen.add(f.lower);
      }
      const free = Number(workspace.seat_limit) - (await this.seatsUsed(sql, workspace.id));
      if (fresh.length > free) {
        throw new DomainError('conflict', `Not enough seats: ${Math.max(0, free)} seat(s) free for ${fresh.length} new invite(s); nothing was sent. Add seats (POST /v1/team/seats) or remove invites first`);
      }
      const created: InviteRecord[] = [];
      const mails: { to: string; token: string }[] = [];
      const now = new Date(this.now());
      const expires = new Date(this.now() + INVITE_TTL_MS);
      for (const f of fresh) {
        const id = randomUUID();
        const token = newToken();
        await sql(
          'insert into workspace_invite (id, workspace_id, email, email_lower, token_hash, invited_by, created_at, expires_at) values (?, ?, ?, ?, ?, ?, ?, ?)',
          [id, workspace.id, f.lower, f.lower, sha256(token), caller.userId, now, expires],
        );
        created.push({ id, email: f.lower, invited_by: caller.userId, created_at: now.toISOString(), expires_at: expires.toISOString() });
        mails.push({ to: f.lower, token });
      }
      return { answer: { invites: created, skipped }, mails: { list: mails, workspaceName: workspace.name as string } };
    });
    for (const mail of mails.list) {
      await this.deps.mailer
        .send({
          to: mail.to,
          subject: `You are invited to join ${mails.workspaceName}`,
          text: `${caller.email} invites you to the workspace "${mails.workspaceName}".\n\nJoin it here (valid 14 days, once, for this address):\n${this.joinUrl(mail.token)}\n`,
        })
        .catch((error) => this.deps.logger.error('teams: an invite mail could not be sent', error));
    }
    return answer;
  }

  /** DELETE /v1/team/invites/{id}: a pending invite of the caller's workspace; its seat is free again. */
  async revokeInvite(ctx: RequestContext, inviteId: string): Promise<{ status: 'revoked'; id: string }> {
    const caller = requireAccount(ctx);
    checkUuid(inviteId, 'invite_id');
    return this.transaction(async (sql) => {
      const { workspace } = await this.requireRole(sql, caller, ['owner', 'admin'], 'revoke invites');
      const [invite] = await sql('select id from workspace_invite where id = ? and workspace_id = ? and accepted_at is null', [inviteId, workspace.id]);
      if (!invite) throw new NotFoundError('Pending invite not found in your workspace');
      await sql('delete from workspace_invite where id = ?', [inviteId]);
      return { status: 'revoked' as const, id: inviteId };
    });
  }

  // --- join link and joining ---------------------------------------------------------------------

  /** POST /v1/team/join-link: creates or rotates the link (the old one stops working). */
  async rotateJoinLink(ctx: RequestContext): Promise<{ join_link: JoinLinkRecord | null }> {
    const caller = requireAccount(ctx);
    return this.transaction(async (sql) => {
      const { workspace } = await this.requireRole(sql, caller, ['owner', 'admin'], 'manage the join link');
      const token = newToken();
      const now = new Date(this.now());
      await sql('update workspace set join_token = ?, join_token_created_at = ? where id = ?', [token, now, workspace.id]);
      return { join_link: this.joinLinkRecord({ join_token: token, join_token_created_at: now }) };
    });
  }

  /** DELETE /v1/team/join-link: disables the link. */
  async disableJoinLink(ctx: RequestContext): Promise<{ join_link: null }> {
    const caller = requireAccount(ctx);
    return this.transaction(async (sql) => {
      const { workspace } = await this.requireRole(sql, caller, ['owner', 'admin'], 'manage the join link');
      await sql('update workspace set join_token = null, join_token_created_at = null where id = ?', [workspace.id]);
      return { join_link: null };
    });
  }

  /**
   * POST /v1/team/join: an invite token (only for the account whose verified address it was sent
   * to, once) or the join link's token. Joining one's own workspace again is 200 and changes nothing.
   */
  async join(ctx: RequestContext, input: unknown): Promise<JoinAnswer> {
    const caller = requireAccount(ctx);
    const { token } = parseInput(joinRequestSchema, input);
    return this.transaction(async (sql) => {
      const [invite] = await sql('select * from workspace_invite where token_hash = ?', [sha256(token)]);
      let workspaceId: string;
      if (invite) {
        workspaceId = invite.workspace_id;
      } else {
        const [linked] = await sql('select id from workspace where join_token = ?', [token]);
        if (!linked) throw new NotFoundError('This invite or join link is not valid (unknown, used, expired, revoked or rotated)');
        workspaceId = linked.id;
      }
      const [workspace] = await sql('select * from workspace where id = ? for update', [workspaceId]);
      if (!workspace) throw new NotFoundError('This invite or join link is not valid');
      const current = await this.membership(sql, caller.userId, false);
      if (current?.workspace.id === workspaceId) return { workspace_id: workspaceId, name: workspace.name, role: current.role, joined: false };
      if (invite) {
        if (invite.accepted_at || new Date(invite.expires_at).getTime() <= this.now()) throw new NotFoundError('This invite is not valid any more (used or expired)');
        const [user] = await sql('select email_lower, email_verified from app_user where id = ?', [caller.userId]);
        if (user?.email_lower !== invite.email_lower || !user?.email_verified) {
          throw new DomainError('forbidden', 'This invite was sent to another address: sign in with the verified e-mail address it was sent to');
        }
      }
      await this.refuseIfElsewhere(sql, caller.userId, current);
      // this invite's own reserved seat is the one it takes
      const used = (await this.seatsUsed(sql, workspaceId)) - (invite ? 1 : 0);
      if (used >= Number(workspace.seat_limit)) throw new DomainError('conflict', 'No seat is free in this workspace: ask its owner to add seats');
      await this.addMember(sql, caller.userId, workspaceId);
      if (invite) await sql('update workspace_invite set accepted_at = ?, accepted_by = ? where id = ?', [new Date(this.now()), caller.userId, invite.id]);
      return { workspace_id: workspaceId, name: workspace.name, role: 'member' as const, joined: true };
    });
  }

  /** 409 when the account is in another team workspace or pays for its own plan. */
  private async refuseIfElsewhere(sql: Sql, userId: string, current: Membership | null): Promise<void> {
    if (current) {
      if (current.role === 'owner') {
        const [others] = await sql('select count(*) as n from workspace_member where workspace_id = ? and user_id <> ?', [current.workspace.id, userId]);
        if (Number(others?.n ?? 0) > 0) throw new DomainError('conflict', 'You own a team workspace with other members: remove them or hand it over first');
        throw new DomainError('conflict', 'You own a paid team workspace: cancel its subscription first');
      }
      throw new DomainError('conflict', 'You belong to another team workspace: leave it first');
    }
    const [own] = await sql('select plan from app_user where id = ?', [userId]);
    if (own && planOf(own.plan).paid) throw new DomainError('conflict', 'You have your own paid subscription: cancel it before joining a team workspace');
  }

  private async addMember(sql: Sql, userId: string, workspaceId: string): Promise<void> {
    await sql(`insert into workspace_member (user_id, workspace_id, role, joined_at) values (?, ?, 'member', ?)`, [userId, workspaceId, new Date(this.now())]);
  }

  // --- domains and auto-join ----------------------------------------------------------------------

  /**
   * PUT /v1/team/domains: replaces the allowed domains (ASCII, lower-cased; public mail domains
   * refused). A domain already listed keeps its token and proof; a new one is pending with a new
   * token until its TXT record is seen; a removed one is forgotten (its proof with it).
   */
  async setDomains(ctx: RequestContext, input: unknown): Promise<{ allowed_domains: string[]; domains: DomainRecord[] }> {
    const caller = requireAccount(ctx);
    const { domains } = parseInput(domainsRequestSchema, input);
    const issues: ValidationIssue[] = [];
    const normalised: string[] = [];
    domains.forEach((raw, i) => {
      const result = normaliseDomain(raw);
      if ('error' in result) issues.push({ type: 'value_error', loc: ['domains', i], msg: `Value error, ${result.error}`, input: raw, ctx: { error: result.error } });
      else if (!normalised.includes(result.domain)) normalised.push(result.domain);
    });
    if (issues.length) throw new ValidationError(issues);
    return this.transaction(async (sql) => {
      const { workspace } = await this.requireRole(sql, caller, ['owner', 'admin'], 'set the allowed domains');
      const kept = new Set((await sql('select domain from workspace_domain where workspace_id = ?', [workspace.id])).map((r) => r.domain as string));
      for (const domain of kept) if (!normalised.includes(domain)) await sql('delete from workspace_domain where workspace_id = ? and domain = ?', [workspace.id, domain]);
      for (const domain of normalised) {
        if (kept.has(domain)) continue;
        await sql(`insert into workspace_domain (workspace_id, domain, status, token, created_at, next_check_at) values (?, ?, 'pending', ?, ?, ?)`, [
          workspace.id,
          domain,
          newDomainToken(),
          new Date(this.now()),
          this.deps.domains.firstCheckAt(),
        ]);
      }
      const records = await this.domainRecords(sql, workspace.id);
      return { allowed_domains: records.map((d) => d.domain), domains: records };
    });
  }

  /**
   * POST /v1/team/domains/{domain}/check: looks the domain's TXT record up now (owner or admin)
   * and answers its state. The look-up runs outside any transaction (it may take the DNS timeout);
   * its answer is applied to every workspace's claim of the domain (domain-verifier.ts).
   */
  async checkDomain(ctx: RequestContext, rawDomain: string): Promise<DomainRecord> {
    const caller = requireAccount(ctx);
    const normalised = normaliseDomain(rawDomain);
    if ('error' in normalised) {
      throw new ValidationError([{ type: 'value_error', loc: ['domain'], msg: `Value error, ${normalised.error}`, input: rawDomain, ctx: { error: normalised.error } }]);
    }
    const { domain } = normalised;
    const sql: Sql = (q, p) => this.query(q, p);
    const { workspace } = await this.requireRole(sql, caller, ['owner', 'admin'], 'check the allowed domains', false);
    const [listed] = await sql('select 1 from workspace_domain where workspace_id = ? and domain = ?', [workspace.id, domain]);
    if (!listed) throw new NotFoundError('This domain is not listed in your workspace: add it with PUT /v1/team/domains first');
    await this.deps.domains.check(domain);
    const record = (await this.domainRecords(sql, workspace.id)).find((d) => d.domain === domain);
    if (!record) throw new NotFoundError('This domain was removed from your workspace meanwhile');
    return record;
  }

  /** The workspace's claims with the record to publish; a verified claim whose proof is too old shows (and acts) as pending. */
  private async domainRecords(sql: Sql, workspaceId: string): Promise<DomainRecord[]> {
    const rows = await sql('select domain, status, token, verified_at, last_seen_at, checked_at, check_error from workspace_domain where workspace_id = ? order by domain', [workspaceId]);
    const validAfter = this.deps.domains.validAfter().getTime();
    return rows.map((row) => {
      const proven = (row.status as DomainStatus) === 'verified' && row.last_seen_at !== null && new Date(row.last_seen_at).getTime() > validAfter;
      return {
        domain: row.domain,
        status: proven ? 'verified' : 'pending',
        verification: { type: 'TXT' as const, name: challengeName(row.domain), value: challengeValue(row.token) },
        verified_at: proven && row.verified_at ? iso(row.verified_at) : null,
        checked_at: row.checked_at ? iso(row.checked_at) : null,
        check_error: (row.check_error ?? (row.status === 'verified' && !proven ? 'dns_error' : null)) as CheckError | null,
      };
    });
  }

  /**
   * Sign-in of a verified address: an account in no team workspace and without its own paid plan
   * joins the workspace holding its domain with a proof seen recently enough (at most one: a
   * partial unique index), when a seat is free; a pending claim joins nobody. Never fails the sign-in.
   */
  async autoJoin(user: { id: string; email: string }): Promise<void> {
    const domain = domainOf(user.email);
    if (!domain) return;
    try {
      const candidates = await this.query(
        `select w.id from workspace_domain d join workspace w on w.id = d.workspace_id
          where d.domain = ? and d.status = 'verified' and d.last_seen_at > ? order by w.created_at`,
        [domain, this.deps.domains.validAfter()],
      );
      for (const { id } of candidates) {
        const joined = await this.transaction(async (sql) => {
          const [workspace] = await sql('select * from workspace where id = ? for update', [id]);
          if (!workspace) return false;
          const [current] = await sql('select 1 from workspace_member where user_id = ?', [user.id]);
          const [own] = await sql('select plan from app_user where id = ?', [user.id]);
          if (current || (own && planOf(own.plan).paid)) return true; // already in a paid workspace: stop
          if ((await this.seatsUsed(sql, id)) >= Number(workspace.seat_limit)) return false;
          await this.addMember(sql, user.id, id);
          this.deps.logger.info(`teams: an account joined workspace ${id} through its allowed domain`);
          return true;
        });
        if (joined) return;
      }
    } catch (error) {
      this.deps.logger.error('teams: domain auto-join failed; the sign-in goes on', error);
    }
  }

  /** Starts the periodic re-check of allowed domains' proofs (the platform does, once; stopped on shutdown). */
  startDomainRechecks(): void {
    this.deps.domains.start();
  }

  /** Stops the periodic re-checks and cancels look-ups in flight. */
  stopDomainRechecks(): Promise<void> {
    return this.deps.domains.stop();
  }

  /** One re-check sweep now, as the timer runs it: the number of domains looked up. */
  recheckDueDomains(): Promise<number> {
    return this.deps.domains.recheckDue();
  }

  // --- seats ------------------------------------------------------------------------------------

  /** POST /v1/team/seats: the owner asks billing for a new quantity; seat_limit follows with the webhook. */
  async setSeats(ctx: RequestContext, input: unknown): Promise<{ quantity: number; seat_limit: number }> {
    const caller = requireAccount(ctx);
    const { quantity } = parseInput(seatsRequestSchema, input);
    const membership = await this.membership((q, p) => this.query(q, p), caller.userId, false);
    if (!membership || membership.role !== 'owner') throw new DomainError('forbidden', "Only the workspace's owner may change the seats");
    const { workspace } = membership;
    const used = await this.seatsUsed((q, p) => this.query(q, p), workspace.id);
    if (quantity < used) throw new DomainError('conflict', `${used} seat(s) are in use (members and pending invites): remove some before going down to ${quantity}`);
    if (!this.deps.billing) throw new DomainError('conflict', 'No subscription to change: billing is not configured');
    await this.deps.billing.changeSeatQuantity(caller.userId, quantity);
    const [row] = await this.query('select seat_limit from workspace where id = ?', [workspace.id]);
    return { quantity, seat_limit: Number(row?.seat_limit ?? workspace.seat_limit) };
  }
}

function newToken(): string {
  return randomBytes(32).toString('base64url');
}

function checkUuid(value: string, name: string): void {
  if (!UUID.test(value)) {
    throw new ValidationError([{ type: 'uuid_parsing', loc: [name], msg: 'Input should be a valid UUID', input: value }]);
  }
}

function inviteRecord(row: Record<string, any>): InviteRecord {
  return { id: row.id, email: row.email, invited_by: row.invited_by, created_at: iso(row.created_at), expires_at: iso(row.expires_at) };
}
