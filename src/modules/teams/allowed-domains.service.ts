/**
 * Allowed domains of a team workspace: the list (each claim proven by a DNS TXT record:
 * domain-proof.ts decides, domain-verifier.ts looks up), and the sign-in auto-join of accounts
 * whose verified address is at a domain a workspace holds. Rules: team-rules.ts.
 */
import type { MikroORM } from '@mikro-orm/core';
import { backgroundEm, type RequestContext, requireAccount } from '../../context.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { parseInput } from '../../validation.js';
import { planOf } from '../usage/plans.js';
import { newDomainToken } from './domain-proof.js';
import type { DomainVerifier } from './domain-verifier.js';
import { domainOf, normaliseDomain, normaliseDomainList } from './domains.js';
import { findAccountPlan } from './team-accounts.queries.js';
import { domainRecord } from './team-records.js';
import { assertRole, autoJoinStep, MANAGER_ROLES } from './team-rules.js';
import { domainsRequestSchema, type DomainRecord } from './teams.schema.js';
import { deleteClaim, findWorkspacesHoldingDomain, insertPendingClaim, isDomainClaimed, listDomainClaims } from './workspace-domain.queries.js';
import { insertMember, isMemberAnywhere } from './workspace-member.queries.js';
import { countSeatsUsed, findMembership, lockWorkspace } from './workspace.queries.js';
import type { OperationLimiter } from '../usage/operation-limits.js';

export interface AllowedDomainsDeps {
  /** Per-caller limits of the operations a caller may only repeat so often (usage/operation-limits.ts). */
  limits: OperationLimiter;
  orm: MikroORM;
  /** Checks allowed domains' DNS proofs (at an owner's request and in the background). */
  verifier: DomainVerifier;
  logger: Pick<Logger, 'info' | 'error'>;
  now?: () => number;
}

export class AllowedDomainsService {
  constructor(private readonly deps: AllowedDomainsDeps) {}

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  /**
   * PUT /v1/team/domains: replaces the allowed domains (ASCII, lower-cased; public mail domains
   * refused). A domain already listed keeps its token and proof; a new one is pending with a new
   * token until its TXT record is seen; a removed one is forgotten (its proof with it).
   */
  async setDomains(ctx: RequestContext, input: unknown): Promise<{ allowed_domains: string[]; domains: DomainRecord[] }> {
    await this.deps.limits.check(ctx, 'team_domains_set');
    const caller = requireAccount(ctx);
    const listed = normaliseDomainList(parseInput(domainsRequestSchema, input).domains);
    if ('issues' in listed) throw new ValidationError(listed.issues);
    const wanted = listed.domains;
    return ctx.em.transactional(async (tx) => {
      const { workspace } = assertRole(await findMembership(tx, caller.userId, { lock: true }), MANAGER_ROLES, 'set the allowed domains');
      const kept = new Set((await listDomainClaims(tx, workspace.id)).map((claim) => claim.domain));
      for (const domain of kept) if (!wanted.includes(domain)) await deleteClaim(tx, workspace.id, domain);
      for (const domain of wanted) {
        if (kept.has(domain)) continue;
        await insertPendingClaim(tx, { workspaceId: workspace.id, domain, token: newDomainToken(), createdAt: new Date(this.now()), firstCheckAt: this.deps.verifier.firstCheckAt() });
      }
      const validAfter = this.deps.verifier.validAfter();
      const records = (await listDomainClaims(tx, workspace.id)).map((claim) => domainRecord(claim, validAfter));
      return { allowed_domains: records.map((d) => d.domain), domains: records };
    });
  }

  /**
   * POST /v1/team/domains/{domain}/check: looks the domain's TXT record up now (owner or admin)
   * and answers its state. The look-up runs outside any transaction (it may take the DNS timeout);
   * its answer is applied to every workspace's claim of the domain (domain-verifier.ts).
   */
  async checkDomain(ctx: RequestContext, rawDomain: string): Promise<DomainRecord> {
    await this.deps.limits.check(ctx, 'team_domain_check');
    const caller = requireAccount(ctx);
    const normalised = normaliseDomain(rawDomain);
    if ('error' in normalised) {
      throw new ValidationError([{ type: 'value_error', loc: ['domain'], msg: `Value error, ${normalised.error}`, input: rawDomain, ctx: { error: normalised.error } }]);
    }
    const { domain } = normalised;
    const em = ctx.em;
    const { workspace } = assertRole(await findMembership(em, caller.userId, { lock: false }), MANAGER_ROLES, 'check the allowed domains');
    if (!(await isDomainClaimed(em, workspace.id, domain))) throw new NotFoundError('This domain is not listed in your workspace: add it with PUT /v1/team/domains first');
    await this.deps.verifier.check(domain);
    // read again: the check changed the claims in another transaction (raw rows, no identity map to go stale)
    const claims = await listDomainClaims(ctx.em, workspace.id);
    const claim = claims.find((c) => c.domain === domain);
    if (!claim) throw new NotFoundError('This domain was removed from your workspace meanwhile');
    return domainRecord(claim, this.deps.verifier.validAfter());
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
      // a sign-in hook (sessions.onSignIn) without the request's context: its own unit of work
      const em = backgroundEm(this.deps.orm);
      const candidates = await findWorkspacesHoldingDomain(em, domain, this.deps.verifier.validAfter());
      for (const workspaceId of candidates) {
        const done = await em.transactional(async (tx) => {
          const workspace = await lockWorkspace(tx, workspaceId);
          if (!workspace) return false;
          const inWorkspace = await isMemberAnywhere(tx, user.id);
          const ownPlan = await findAccountPlan(tx, user.id);
          const ownPlanPaid = ownPlan !== null && planOf(ownPlan).paid;
          // seats are counted only when they can decide
          const seatsUsed = inWorkspace || ownPlanPaid ? 0 : await countSeatsUsed(tx, workspaceId, new Date(this.now()));
          const step = autoJoinStep({ inWorkspace, ownPlanPaid, seatsUsed, seatLimit: workspace.seat_limit });
          if (step === 'stop') return true;
          if (step === 'full') return false;
          await insertMember(tx, { userId: user.id, workspaceId, joinedAt: new Date(this.now()) });
          this.deps.logger.info(`teams: an account joined workspace ${workspaceId} through its allowed domain`);
          return true;
        });
        if (done) return;
      }
    } catch (error) {
      this.deps.logger.error('teams: domain auto-join failed; the sign-in goes on', error);
    }
  }
}
