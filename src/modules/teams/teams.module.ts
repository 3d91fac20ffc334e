/**
 * Wires the teams services: the views, membership (roles, leaving, seats: billing's seat
 * changes), invites and joining (the accounts' mailer), allowed domains (the proofs' DNS
 * look-ups; the sign-in auto-join hook), and the background re-check of domain proofs.
 */
import type { MikroORM } from '@mikro-orm/core';
import type { DnsSettings, TeamDomainSettings } from '../../config.js';
import type { Logger } from '../../logger.js';
import type { AccountsModule } from '../accounts/accounts.module.js';
import { AllowedDomainsService } from './allowed-domains.service.js';
import { createTxtLookup } from './dns-txt-lookup.js';
import { DomainVerifier } from './domain-verifier.js';
import { isPendingInviteTo } from './invite-proof.js';
import { InvitesService } from './invites.service.js';
import { MembershipService, type SeatBilling } from './membership.service.js';
import { TeamViewsService } from './team-views.service.js';

/** The team services the doors call (REST, GraphQL). */
export interface TeamsServices {
  views: TeamViewsService;
  membership: MembershipService;
  invites: InvitesService;
  domains: AllowedDomainsService;
}

/** The team services and the lifecycle of the domain proofs' background re-check. */
export interface TeamsModule extends TeamsServices {
  /** Starts the periodic re-check of allowed domains' proofs (the platform does, once; stopped on shutdown). */
  startDomainRechecks(): void;
  /** Stops the periodic re-checks and cancels look-ups in flight. */
  stopDomainRechecks(): Promise<void>;
  /** One re-check sweep now, as the timer runs it: the number of domains looked up. */
  recheckDueDomains(): Promise<number>;
}

/** Builds the team services, hooks the domain auto-join into every sign-in of a verified address and lets invites vouch for registrations. */
export function createTeamsModule(deps: {
  orm: MikroORM;
  /** Billing's seat changes (billing's subscription service; teams needs only this of it). */
  billing: SeatBilling;
  accounts: AccountsModule;
  baseUrl: string;
  logger: Logger;
  dns: DnsSettings;
  teamDomains: TeamDomainSettings;
}): TeamsModule {
  const { orm, baseUrl, logger } = deps;
  const verifier = new DomainVerifier({ orm, lookup: createTxtLookup(deps.dns), settings: deps.teamDomains, logger });
  const limits = deps.accounts.limits;
  const domains = new AllowedDomainsService({ orm, verifier, logger, limits });
  deps.accounts.accounts.sessions.onSignIn((user) => domains.autoJoin(user));
  // a registration from an invite's link is proven by that invite: no verification mail
  deps.accounts.accounts.vouchWithInvites((em, emailLower, token) => isPendingInviteTo(em, emailLower, token, Date.now()));
  return {
    views: new TeamViewsService({ orm, baseUrl, verifier }),
    membership: new MembershipService({ orm, billing: deps.billing, limits }),
    invites: new InvitesService({ orm, mailer: deps.accounts.mailer, baseUrl, logger, limits, sessions: deps.accounts.accounts.sessions, outbox: deps.accounts.outbox }),
    domains,
    startDomainRechecks: () => verifier.start(),
    stopDomainRechecks: () => verifier.stop(),
    recheckDueDomains: () => verifier.recheckDue(),
  };
}
