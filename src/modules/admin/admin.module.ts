/** The administration area's services, built over the relational store and the accounts module. */
import type { MikroORM } from '@mikro-orm/core';
import type { AccountsModule } from '../accounts/accounts.module.js';
import { AdminUsersService } from './admin-users.service.js';
import { AuditLogService } from './audit-log.js';
import { FeedbackAdminService } from './feedback-admin.service.js';
import { PlanOverrideService } from './plan-override.service.js';
import { StripeCancellations } from './stripe-cancellations.js';
import { UserErasureService } from './user-erasure.service.js';
import type Stripe from 'stripe';
import type { Logger } from '../../logger.js';
import type { AnalyticsModule } from '../analytics/analytics.module.js';

export interface AdminModule {
  audit: AuditLogService;
  users: AdminUsersService;
  overrides: PlanOverrideService;
  erasure: UserErasureService;
  feedback: FeedbackAdminService;
  /** Partner analytics' queries and partner accounts (src/modules/analytics), served with the admin area. */
  analytics: AnalyticsModule['analytics'];
  partners: AnalyticsModule['partners'];
  /** Owed Stripe cancellations of erased accounts (a durable queue, retried at start and every minute). */
  cancellations: StripeCancellations;
  /** Stops the cancellation retries, waiting for one that runs. */
  close(): Promise<void>;
}

export function createAdminModule(deps: { orm: MikroORM; accounts: AccountsModule; stripe: Stripe | null; logger: Logger; analytics: Pick<AnalyticsModule, 'analytics' | 'partners'> }): AdminModule {
  const isAdmin = (email: string, verified: boolean) => deps.accounts.accounts.isAdmin(email, verified);
  const cancellations = new StripeCancellations({ orm: deps.orm, stripe: deps.stripe, logger: deps.logger });
  // both erasure paths (DELETE /auth/me and the admin's) owe their Stripe cancellations here
  deps.accounts.accounts.deletion.useSubscriptionCanceller(cancellations);
  cancellations.start();
  return {
    audit: new AuditLogService({ orm: deps.orm }),
    users: new AdminUsersService({ orm: deps.orm, isAdmin }),
    overrides: new PlanOverrideService({ orm: deps.orm, limits: deps.accounts.limits }),
    erasure: new UserErasureService({ deletion: deps.accounts.accounts.deletion, limits: deps.accounts.limits }),
    feedback: new FeedbackAdminService({ orm: deps.orm, limits: deps.accounts.limits }),
    analytics: deps.analytics.analytics,
    partners: deps.analytics.partners,
    cancellations,
    close: () => cancellations.stop(),
  };
}
