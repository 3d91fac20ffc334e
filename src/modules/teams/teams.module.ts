/** Wires the teams service: the accounts' mailer, billing's seat changes, the sign-in auto-join hook. */
import type { MikroORM } from '@mikro-orm/core';
import type { Logger } from '../../logger.js';
import type { AccountsModule } from '../accounts/accounts.module.js';
import type { BillingService } from '../billing/billing.service.js';
import { TeamsService } from './teams.service.js';

export function createTeamsService(deps: { orm: MikroORM; billing: BillingService; accounts: AccountsModule; baseUrl: string; logger: Logger }): TeamsService {
  const teams = new TeamsService({ orm: deps.orm, mailer: deps.accounts.mailer, billing: deps.billing, baseUrl: deps.baseUrl, logger: deps.logger });
  deps.accounts.accounts.sessions.onSignIn((user) => teams.autoJoin(user));
  return teams;
}
