/**
 * Checks the DNS proofs of allowed domains: at an owner's request (`check`) and in the
 * background (`recheckDue`, run by a timer the platform starts and stops).
 *
 * Several processes may share the database: a sweep claims its due rows in one statement
 * (`for update skip locked`, pushing `next_check_at` out by the retry interval as a lease), so
 * two sweeps never look up the same claim at once, and a process that dies mid-sweep leaves its
 * claims due again after the lease. Applying an answer locks every claim of that domain first,
 * so an owner's check and a sweep of the same domain apply one after the other, and the rule
 * (domain-proof.ts) only ever sees a consistent set; a repeated answer changes nothing new.
 */
import { backgroundEm } from '../../context.js';
import type { MikroORM } from '@mikro-orm/core';
import type { TeamDomainSettings } from '../../config.js';
import type { Logger } from '../../logger.js';
import type { TxtLookup } from './dns-txt-lookup.js';
import { challengeName, decideClaims, proofValidAfter } from './domain-proof.js';
import { applyClaimDecision, leaseDueClaims, lockClaimsOfDomain } from './workspace-domain.queries.js';

export interface DomainVerifierDeps {
  orm: MikroORM;
  lookup: TxtLookup;
  settings: TeamDomainSettings;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  now?: () => number;
}

export class DomainVerifier {
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> | null = null;
  private readonly stopping = new AbortController();

  constructor(private readonly deps: DomainVerifierDeps) {}

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  /** The oldest sighting a verified claim may rest on now (auto-join and the views ask it). */
  validAfter(): Date {
    return proofValidAfter(this.now(), this.deps.settings);
  }

  /** When a new claim is first looked at by the sweep (the owner may also check at once). */
  firstCheckAt(): Date {
    return new Date(this.now() + Math.min(this.deps.settings.retryMs, this.deps.settings.recheckMs));
  }

  /** Looks `domain`'s challenge name up once and applies the answer to every workspace's claim of it. */
  async check(domain: string): Promise<void> {
    const answer = await this.deps.lookup(challengeName(domain), this.stopping.signal);
    // our own shutdown says nothing about the domain
    if (answer.kind === 'error' && answer.code === 'ECANCELLED') return;
    await backgroundEm(this.deps.orm).transactional(async (tx) => {
      const claims = await lockClaimsOfDomain(tx, domain);
      const now = this.now();
      const decisions = decideClaims(claims, answer, now, this.deps.settings);
      // demotions before the promotion: the partial unique index holds after every statement
      decisions.sort((a, b) => Number(a.status === 'verified') - Number(b.status === 'verified'));
      const at = new Date(now);
      for (const decision of decisions) {
        const before = claims.find((c) => c.workspace_id === decision.workspace_id)!;
        await applyClaimDecision(tx, domain, decision, at);
        if (before.status !== decision.status) {
          this.deps.logger.info(`teams: allowed domain ${domain} of workspace ${decision.workspace_id} is ${decision.status} now (${decision.check_error ?? 'record seen'})`);
        }
      }
    });
  }

  /**
   * One sweep: claims up to `sweepBatch` due claims (skipping those another process holds) and
   * checks each of their domains once. Returns the number of domains looked up. When nothing is
   * due it is one indexed statement.
   */
  async recheckDue(): Promise<number> {
    const now = this.now();
    const claimed = await leaseDueClaims(backgroundEm(this.deps.orm), new Date(now), new Date(now + this.deps.settings.retryMs), this.deps.settings.sweepBatch);
    const domains = [...new Set(claimed)];
    for (const domain of domains) {
      if (this.stopping.signal.aborted) break;
      await this.check(domain).catch((error) => this.deps.logger.error(`teams: re-checking allowed domain ${domain} failed`, error));
    }
    return domains.length;
  }

  /** Starts the background re-checks (every TEAM_DOMAIN_SWEEP_SECONDS; none when 0). One sweep at a time per process. */
  start(): void {
    if (this.timer || this.deps.settings.sweepMs === 0 || this.stopping.signal.aborted) return;
    this.timer = setInterval(() => {
      if (this.sweeping) return;
      this.sweeping = this.recheckDue()
        .then(() => undefined)
        .catch((error) => this.deps.logger.error('teams: the allowed-domain re-check sweep failed', error))
        .finally(() => {
          this.sweeping = null;
        });
    }, this.deps.settings.sweepMs);
    // the timer alone does not keep the process alive
    this.timer.unref();
  }

  /** Stops the timer, cancels look-ups in flight and waits for a running sweep to end. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.stopping.abort();
    await this.sweeping;
  }
}
