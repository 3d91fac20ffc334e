/** Wires the teams service: the accounts' mailer, billing's seat changes, the sign-in auto-join hook, the domain proofs' DNS look-ups. */
import type { MikroORM } from '@mikro-orm/core';
import type { DnsSettings, TeamDomainSettings } from '../../config.js';
import type { Logger } from '../../logger.js';
import type { AccountsModule } from '../accounts/accounts.module.js';
import type { SubscriptionService } from '../billing/subscription.service.js';
import { createTxtLookup } from './dns-txt-lookup.js';
import { DomainVerifier } from './domain-verifier.js';
import { TeamsService } from './teams.service.js';

export function createTeamsService(deps: {
  orm: MikroORM;
  billing: SubscriptionService;
  accounts: AccountsModule;
  baseUrl: string;
  logger: Logger;
  dns: DnsSettings;
  teamDomains: TeamDomainSettings;
}): TeamsService {
  const domains = new DomainVerifier({ orm: deps.orm, lookup: createTxtLookup(deps.dns), settings: deps.teamDomains, logger: deps.logger });
  const teams = new TeamsService({ orm: deps.orm, mailer: deps.accounts.mailer, billing: deps.billing, baseUrl: deps.baseUrl, logger: deps.logger, domains });
  deps.accounts.accounts.sessions.onSignIn((user) => teams.autoJoin(user));
  return teams;
}
