/**
 * Queries of the `workspace_domain` table: workspaces' claims of allowed domains and their DNS
 * proofs (the rule that decides a claim's state is domain-proof.ts). Every function runs on the
 * entity manager or transaction it is given and never opens one itself.
 */
import type { EntityManager } from '@mikro-orm/core';
import type { CheckError, ClaimDecision, DomainClaim, DomainStatus } from './domain-proof.js';
import { WorkspaceDomainEntity } from './workspace.entity.js';
import { asDate, asDateOrNull, selectRows } from './row-values.js';

/** A workspace's claim of a domain as its views show it. */
export interface DomainClaimRow {
  domain: string;
  status: DomainStatus;
  token: string;
  verified_at: Date | null;
  last_seen_at: Date | null;
  checked_at: Date | null;
  check_error: CheckError | null;
}

/** A new claim: pending with a fresh token until its TXT record is seen. */
export interface NewDomainClaim {
  workspaceId: string;
  domain: string;
  token: string;
  createdAt: Date;
  firstCheckAt: Date;
}

/** The workspace's claims, by domain name. */
export async function listDomainClaims(em: EntityManager, workspaceId: string): Promise<DomainClaimRow[]> {
  const claims = await em.find(WorkspaceDomainEntity, { workspace_id: workspaceId }, { orderBy: { domain: 'asc' } });
  return claims.map((c) => ({
    domain: c.domain,
    status: c.status as DomainStatus,
    token: c.token,
    verified_at: asDateOrNull(c.verified_at),
    last_seen_at: asDateOrNull(c.last_seen_at),
    checked_at: asDateOrNull(c.checked_at),
    check_error: (c.check_error ?? null) as CheckError | null,
  }));
}

/** The names of the domains the workspace claims. */
export async function listClaimedDomains(em: EntityManager, workspaceId: string): Promise<string[]> {
  const claims = await em.find(WorkspaceDomainEntity, { workspace_id: workspaceId }, { fields: ['domain'] });
  return claims.map((c) => c.domain);
}

/** Whether the workspace claims the domain. */
export async function isDomainClaimed(em: EntityManager, workspaceId: string, domain: string): Promise<boolean> {
  return (await em.count(WorkspaceDomainEntity, { workspace_id: workspaceId, domain })) > 0;
}

/** Stores a new pending claim. */
export async function insertPendingClaim(em: EntityManager, claim: NewDomainClaim): Promise<void> {
  await em.insert(WorkspaceDomainEntity, {
    workspace_id: claim.workspaceId,
    domain: claim.domain,
    status: 'pending',
    token: claim.token,
    created_at: claim.createdAt,
    next_check_at: claim.firstCheckAt,
  });
}

/** Forgets the workspace's claim of the domain (its proof with it). */
export async function deleteClaim(em: EntityManager, workspaceId: string, domain: string): Promise<void> {
  await em.nativeDelete(WorkspaceDomainEntity, { workspace_id: workspaceId, domain });
}

/**
 * The workspaces (oldest first) holding the domain with a proof seen after `validAfter` (raw
 * SQL: a join ordered by the workspace's age, at every sign-in of a verified address).
 */
export async function findWorkspacesHoldingDomain(em: EntityManager, domain: string, validAfter: Date): Promise<string[]> {
  const rows = await selectRows<{ id: string }>(
    em,
    `select w.id from workspace_domain d join workspace w on w.id = d.workspace_id
      where d.domain = ? and d.status = 'verified' and d.last_seen_at > ?
      order by w.created_at`,
    [domain, validAfter],
  );
  return rows.map((r) => r.id);
}

/**
 * Every workspace's claim of the domain, locked for the transaction in a fixed order (raw SQL:
 * `for update`, so an owner's check and a sweep of the same domain apply one after the other).
 */
export async function lockClaimsOfDomain(em: EntityManager, domain: string): Promise<DomainClaim[]> {
  const rows = await selectRows<{ workspace_id: string; status: string; token: string; created_at: Date | string; last_seen_at: Date | string | null }>(
    em,
    'select workspace_id, status, token, created_at, last_seen_at from workspace_domain where domain = ? order by workspace_id for update',
    [domain],
  );
  return rows.map((r) => ({ workspace_id: r.workspace_id, status: r.status as DomainStatus, token: r.token, created_at: asDate(r.created_at), last_seen_at: asDateOrNull(r.last_seen_at) }));
}

/**
 * Stores one claim's decision made at `at` (raw SQL: `last_seen_at` and `verified_at` move only
 * under conditions on the row's current state, which one statement expresses without a read).
 */
export async function applyClaimDecision(em: EntityManager, domain: string, decision: ClaimDecision, at: Date): Promise<void> {
  await selectRows(
    em,
    `update workspace_domain
        set status = ?, check_error = ?, checked_at = ?, next_check_at = ?,
            last_seen_at = case when ? then ? else last_seen_at end,
            verified_at = case when ? = 'pending' then null when status = 'verified' then verified_at else ? end
      where workspace_id = ? and domain = ?`,
    [decision.status, decision.check_error, at, decision.next_check_at, decision.seen, at, decision.status, at, decision.workspace_id, domain],
  );
}

/**
 * Leases up to `limit` claims due at `now` by pushing their next check to `leaseUntil`, skipping
 * those another process holds, and returns their domains (raw SQL: `for update skip locked` in
 * an `update … returning`, one statement whether anything is due or not).
 */
export async function leaseDueClaims(em: EntityManager, now: Date, leaseUntil: Date, limit: number): Promise<string[]> {
  const rows = await selectRows<{ domain: string }>(
    em,
    `update workspace_domain d set next_check_at = ?
       from (select workspace_id, domain from workspace_domain where next_check_at <= ? order by next_check_at limit ? for update skip locked) due
      where d.workspace_id = due.workspace_id and d.domain = due.domain
      returning d.domain`,
    [leaseUntil, now, limit],
  );
  return rows.map((r) => r.domain);
}
