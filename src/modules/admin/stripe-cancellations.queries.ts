/**
 * Queries of the `pending_stripe_cancellation` table, the durable queue of the Stripe
 * cancellations erasures owe (the rules are in stripe-cancellations.ts). Every function runs on
 * the entity manager or transaction it is given and never opens one itself.
 */
import type { EntityManager } from '@mikro-orm/core';
import { placeholders, sqlRows } from '../../util/raw-sql.js';
import { PendingStripeCancellationEntity } from './admin.entities.js';

/** One leased cancellation: its subscription, the erased account, and this attempt's number. */
export interface LeasedCancellation {
  subscription_id: string;
  user_id: string;
  attempts: number;
}

/** Records the cancellations an erasure owes, due at `at` (in the erasure's transaction). */
export async function oweCancellations(tx: EntityManager, userId: string, subscriptionIds: string[], at: Date): Promise<void> {
  for (const subscription_id of subscriptionIds) {
    await tx.upsert(PendingStripeCancellationEntity, { subscription_id, user_id: userId, attempts: 0, next_attempt_at: at, created_at: at, last_error: null, completed_at: null, failed_at: null });
  }
}

/**
 * Leases up to `limit` owed cancellations due at `now` (only `only`'s, when given) for one attempt:
 * in one statement it counts the attempt and pushes `next_attempt_at` out to `leaseUntil`, skipping
 * rows another process holds (`for update skip locked`), so two processes never call Stripe for
 * the same subscription at once, and one that dies mid-attempt leaves the row due again after the
 * lease. Raw SQL: an update from a locked sub-select, which the ORM does not express.
 */
export async function leaseDueCancellations(em: EntityManager, now: Date, leaseUntil: Date, limit: number, only?: string[]): Promise<LeasedCancellation[]> {
  if (only?.length === 0) return [];
  const rows = await sqlRows<LeasedCancellation>(
    em,
    `update pending_stripe_cancellation c set attempts = c.attempts + 1, next_attempt_at = ?
       from (select subscription_id from pending_stripe_cancellation
              where completed_at is null and failed_at is null and next_attempt_at <= ?${only ? ` and subscription_id in (${placeholders(only)})` : ''}
              order by next_attempt_at limit ? for update skip locked) due
      where c.subscription_id = due.subscription_id
      returning c.subscription_id, c.user_id, c.attempts`,
    [leaseUntil, now, ...(only ?? []), limit],
  );
  return rows.map((r) => ({ subscription_id: r.subscription_id, user_id: r.user_id, attempts: Number(r.attempts) }));
}

/** Stripe confirmed (or no longer knows the subscription): nothing is owed any more. */
export async function markCancelled(em: EntityManager, subscriptionId: string, at: Date): Promise<void> {
  await em.nativeUpdate(PendingStripeCancellationEntity, { subscription_id: subscriptionId }, { completed_at: at, last_error: null });
}

/** The attempt failed: tried again at `nextAttemptAt`. */
export async function scheduleRetry(em: EntityManager, subscriptionId: string, error: string, nextAttemptAt: Date): Promise<void> {
  await em.nativeUpdate(PendingStripeCancellationEntity, { subscription_id: subscriptionId }, { last_error: error, next_attempt_at: nextAttemptAt });
}

/** The last allowed attempt failed: no more retries; the row stays for an operator to act on. */
export async function markFailed(em: EntityManager, subscriptionId: string, error: string, at: Date): Promise<void> {
  await em.nativeUpdate(PendingStripeCancellationEntity, { subscription_id: subscriptionId }, { last_error: error, failed_at: at });
}

/** How many cancellations are still owed (not confirmed and not given up). */
export function countOwed(em: EntityManager): Promise<number> {
  return em.count(PendingStripeCancellationEntity, { completed_at: null, failed_at: null });
}

/** The cancellations given up on, newest first (for the logs and whoever cancels them by hand). */
export async function listFailed(em: EntityManager): Promise<{ subscription_id: string; user_id: string; attempts: number; last_error: string | null; failed_at: Date }[]> {
  const rows = await em.find(PendingStripeCancellationEntity, { failed_at: { $ne: null } }, { orderBy: { failed_at: 'desc' } });
  return rows.map((r) => ({ subscription_id: r.subscription_id, user_id: r.user_id, attempts: r.attempts, last_error: r.last_error ?? null, failed_at: r.failed_at! }));
}
