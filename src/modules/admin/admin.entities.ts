/**
 * The administration area's tables: the audit log of every administrative write, the erasure
 * log (kept after the account is gone, with a hash of its e-mail only), administrators' plan
 * overrides, and the Stripe cancellations an erasure still owes (retried until they succeed).
 */
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const AdminAuditEntryEntity = defineEntity({
  name: 'AdminAuditEntry',
  tableName: 'admin_audit_log',
  properties: {
    id: p.uuid().primary(),
    /** The administrator (no foreign key: the entry outlives the account). */
    actor_user_id: p.uuid().nullable(),
    actor_email: p.text(),
    /** `user.plan_override`, `user.erase`, `feedback.status`, `feedback.mark_forwarded`. */
    action: p.text(),
    target_type: p.text(),
    target_id: p.text(),
    before: p.json<unknown>().nullable(),
    after: p.json<unknown>().nullable(),
    reason: p.text().nullable(),
    created_at: p.datetime().index('admin_audit_log_created_at_index'),
  },
});
export type AdminAuditEntry = InferEntity<typeof AdminAuditEntryEntity>;

export const UserDeletionLogEntity = defineEntity({
  name: 'UserDeletionLog',
  tableName: 'user_deletion_log',
  properties: {
    id: p.uuid().primary(),
    user_id: p.uuid().index('user_deletion_log_user_id_index'),
    /** SHA-256 of the lower-cased e-mail: proves an erasure was done without keeping the address. */
    email_hash: p.text(),
    /** Null when the account holder deleted their own account. */
    actor_user_id: p.uuid().nullable(),
    actor_email: p.text().nullable(),
    reason: p.text().nullable(),
    created_at: p.datetime(),
  },
});
export type UserDeletionLog = InferEntity<typeof UserDeletionLogEntity>;

export const PlanOverrideEntity = defineEntity({
  name: 'PlanOverride',
  tableName: 'plan_override',
  properties: {
    user_id: p.uuid().primary(),
    /** A plan slug of the catalogue; wins over the subscription's plan (`app_user.plan`) while the row exists. */
    plan: p.text(),
    reason: p.text().nullable(),
    set_by_user_id: p.uuid().nullable(),
    set_at: p.datetime(),
  },
});
export type PlanOverride = InferEntity<typeof PlanOverrideEntity>;

export const PendingStripeCancellationEntity = defineEntity({
  name: 'PendingStripeCancellation',
  tableName: 'pending_stripe_cancellation',
  properties: {
    subscription_id: p.text().primary(),
    /** The erased account (kept to trace the retry; its row is gone). */
    user_id: p.uuid(),
    attempts: p.integer().default(0),
    last_error: p.text().nullable(),
    next_attempt_at: p.datetime().index('pending_stripe_cancellation_next_attempt_at_index'),
    completed_at: p.datetime().nullable(),
    /** Given up after the last allowed attempt (see stripe-cancellations.ts); to be cancelled by hand. */
    failed_at: p.datetime().nullable(),
    created_at: p.datetime(),
  },
});
export type PendingStripeCancellation = InferEntity<typeof PendingStripeCancellationEntity>;
