/**
 * Test helper: accounts and team workspaces written straight into a test database (the rows a
 * checkout and sign-ups would leave), and the request context of an account, for the teams
 * services' tests against a real database.
 */
import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import { requestContexts, type PlanId, type RequestContext } from '../../src/context.js';
import { DomainError } from '../../src/errors.js';
import { UserEntity } from '../../src/modules/accounts/user.entity.js';
import { WorkspaceDomainEntity, WorkspaceEntity, WorkspaceInviteEntity, WorkspaceMemberEntity } from '../../src/modules/teams/workspace.entity.js';

export interface TestAccount {
  id: string;
  email: string;
  ctx: RequestContext;
}

/** Stores an account (verified address unless told) and returns it with its request context. */
export async function createAccount(orm: MikroORM, email: string, options: { plan?: PlanId; verified?: boolean } = {}): Promise<TestAccount> {
  const id = randomUUID();
  const plan = options.plan ?? 'free';
  const emailVerified = options.verified ?? true;
  await orm.em.fork().insert(UserEntity, { id, email, email_lower: email.toLowerCase(), email_verified: emailVerified, plan, created_at: new Date() });
  const ctx = requestContexts(orm).forCaller({ kind: 'user', ip: null, userId: id, email, plan, isAdmin: false, emailVerified, seats: 1, keyId: null, billingPeriod: null });
  return { id, email, ctx };
}

/** Stores a team workspace of `seats` seats owned by a new paying account (its first member). */
export async function createTeam(orm: MikroORM, ownerEmail: string, seats: number, options: { createdAt?: Date } = {}): Promise<{ id: string; owner: TestAccount }> {
  const owner = await createAccount(orm, ownerEmail, { plan: 'professional' });
  const id = randomUUID();
  const em = orm.em.fork();
  await em.insert(WorkspaceEntity, { id, owner_user_id: owner.id, name: `Team of ${ownerEmail}`, kind: 'team', seat_limit: seats, created_at: options.createdAt ?? new Date() });
  await em.insert(WorkspaceMemberEntity, { user_id: owner.id, workspace_id: id, role: 'owner', joined_at: new Date() });
  return { id, owner };
}

/** Adds the account to the workspace with `role`. */
export async function addMember(orm: MikroORM, workspaceId: string, userId: string, role: 'admin' | 'member' = 'member'): Promise<void> {
  await orm.em.fork().insert(WorkspaceMemberEntity, { user_id: userId, workspace_id: workspaceId, role, joined_at: new Date() });
}

/** Stores an invite to `email` that expires at `expiresAt` (its token hash random: it is not used to join). */
export async function storeInvite(orm: MikroORM, workspaceId: string, invitedBy: string, email: string, expiresAt: Date): Promise<void> {
  await orm.em.fork().insert(WorkspaceInviteEntity, {
    id: randomUUID(),
    workspace_id: workspaceId,
    email,
    email_lower: email.toLowerCase(),
    token_hash: randomUUID(),
    invited_by: invitedBy,
    created_at: new Date(),
    expires_at: expiresAt,
  });
}

/** Stores the workspace's claim of `domain`, verified with its record seen at `lastSeenAt`, or pending. */
export async function storeDomainClaim(orm: MikroORM, workspaceId: string, domain: string, proof: { lastSeenAt: Date } | 'pending'): Promise<void> {
  const verified = proof !== 'pending';
  await orm.em.fork().insert(WorkspaceDomainEntity, {
    workspace_id: workspaceId,
    domain,
    status: verified ? 'verified' : 'pending',
    token: randomUUID(),
    created_at: new Date(),
    verified_at: verified ? proof.lastSeenAt : null,
    last_seen_at: verified ? proof.lastSeenAt : null,
    next_check_at: new Date(Date.now() + 3_600_000),
  });
}

/** The domain error code a refused call ends in (`none` when it succeeds; other errors rethrown). */
export async function codeOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
  return 'none';
}
