/**
 * The closed sets of the admin arguments as GraphQL enums (issue #35, item 7), from the same
 * constants the REST schemas validate against. Audit actions are written `user_erase` for REST's
 * `user.erase` (GraphQL names allow no dot: src/graphql/closed-set-enum.ts).
 */
import { closedSetEnum } from '../../src/graphql/closed-set-enum.js';
import { USER_SORTS } from '../../src/modules/admin/admin.schema.js';
import { AUDIT_ACTIONS } from '../../src/modules/admin/audit-log.js';
import { SETTABLE_STATUSES } from '../../src/modules/admin/feedback-admin.service.js';
import { FEEDBACK_STATUSES } from '../../src/modules/admin/feedback-report.entity.js';
import { PURCHASABLE_PLANS } from '../../src/modules/billing/catalogue.js';

export const AdminUserSort = closedSetEnum('AdminUserSort', USER_SORTS, 'The order of the admin user list.');
export const FeedbackStatusFilter = closedSetEnum('FeedbackStatusFilter', [...FEEDBACK_STATUSES, 'all'], 'Feedback reports of one status, or all.');
export const SettableFeedbackStatus = closedSetEnum('SettableFeedbackStatus', SETTABLE_STATUSES, 'A status an administrator sets on a feedback report.');
export const AuditAction = closedSetEnum('AuditAction', AUDIT_ACTIONS, "An audit log entry's action; `.` written `_` (user_erase is user.erase).");
export const OverridePlan = closedSetEnum('OverridePlan', PURCHASABLE_PLANS, 'A plan slug of the catalogue.');
