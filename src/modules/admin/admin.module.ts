/** The administration area's services, built over the relational store and the accounts module. */
import type { MikroORM } from '@mikro-orm/core';
import type { AccountsModule } from '../accounts/accounts.module.js';
import { AdminUsersService } from './admin-users.service.js';
import { AuditLogService } from './audit-log.js';

export interface AdminModule {
  audit: AuditLogService;
  users: AdminUsersService;
}

export function createAdminModule(deps: { orm: MikroORM; accounts: AccountsModule }): AdminModule {
  const isAdmin = (email: string, verified: boolean) => deps.accounts.accounts.isAdmin(email, verified);
  return {
    audit: new AuditLogService({ orm: deps.orm }),
    users: new AdminUsersService({ orm: deps.orm, isAdmin }),
  };
}
