/**
 * Statements on `billing_subscription`: each Stripe subscription as last read from Stripe. Reads
 * go through the entity manager without its identity map; the upsert stays SQL (see there).
 */
import type { EntityManager, FilterQuery } from '@mikro-orm/core';
import { type Subscription, SubscriptionEntity } from './billing.entities.js';
import { sqlRows } from '../../util/raw-sql.js';

export interface SubscriptionFilter {
  /** Only subscriptions in one of these statuses. */
  statuses?: readonly string[];
  /** Only per-seat subscriptions (those that pay for a team workspace). */
  withWorkspace?: boolean;
}

/** The subscription to show the account: its entitled one if any, else its most recently updated one, or null. */
export async function findShownSubscription(em: EntityManager, userId: string, entitled: readonly string[]): Promise<Subscription | null> {
  return (await findLatestSubscription(em, userId, { statuses: entitled })) ?? findLatestSubscription(em, userId);
}

/** The account's most recently updated subscription matching `filter`, or null. */
export function findLatestSubscription(em: EntityManager, userId: string, filter: SubscriptionFilter = {}): Promise<Subscription | null> {
  const where: FilterQuery<Subscription> = { user_id: userId };
  if (filter.statuses) where.status = { $in: [...filter.statuses] };
  if (filter.withWorkspace) where.workspace_id = { $ne: null };
  return em.findOne(SubscriptionEntity, where, { orderBy: { updated_at: 'desc' }, disableIdentityMap: true });
}

/** The team workspace a subscription pays for, or null (not per-seat, or unknown). */
export async function findSubscriptionWorkspaceId(em: EntityManager, subscriptionId: string): Promise<string | null> {
  const row = await em.findOne(SubscriptionEntity, { id: subscriptionId }, { fields: ['workspace_id'], disableIdentityMap: true });
  return row?.workspace_id ?? null;
}

/** A subscription as billing stores it (Stripe's copy, in our plan and interval names). */
export interface SubscriptionRecord {
  id: string;
  userId: string;
  customerId: string;
  plan: string;
  interval: string;
  status: string;
  quantity: number;
  periodStart: Date;
  periodEnd: Date;
  cancelAtPeriodEnd: boolean;
  /** null keeps the workspace already recorded. */
  workspaceId: string | null;
  /** A duplicate's settlement (the subscription kept, the refund); null keeps what is recorded. */
  duplicate?: { duplicateOf: string; refundIds: string[]; refundedCents: number } | null;
}

/** Stores the subscription, replacing the previous copy (its account and customer never change). */
export async function saveSubscription(em: EntityManager, sub: SubscriptionRecord): Promise<void> {
  // SQL: an upsert that keeps the recorded workspace and duplicate settlement when the new copy has none (coalesce)
  const duplicate = sub.duplicate ?? null;
  await sqlRows(
    em,
    `insert into billing_subscription (id, user_id, stripe_customer_id, plan, interval, status, quantity, current_period_start, current_period_end, cancel_at_period_end, workspace_id,
       duplicate_of, duplicate_refund_ids, duplicate_refunded_cents, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     on conflict (id) do update set plan = excluded.plan, interval = excluded.interval, status = excluded.status, quantity = excluded.quantity,
       current_period_start = excluded.current_period_start, current_period_end = excluded.current_period_end,
       cancel_at_period_end = excluded.cancel_at_period_end, workspace_id = coalesce(excluded.workspace_id, billing_subscription.workspace_id),
       duplicate_of = coalesce(excluded.duplicate_of, billing_subscription.duplicate_of),
       duplicate_refund_ids = coalesce(excluded.duplicate_refund_ids, billing_subscription.duplicate_refund_ids),
       duplicate_refunded_cents = coalesce(excluded.duplicate_refunded_cents, billing_subscription.duplicate_refunded_cents), updated_at = excluded.updated_at`,
    [
      sub.id, sub.userId, sub.customerId, sub.plan, sub.interval, sub.status, sub.quantity, sub.periodStart, sub.periodEnd, sub.cancelAtPeriodEnd, sub.workspaceId,
      duplicate?.duplicateOf ?? null, duplicate ? duplicate.refundIds.join(',') : null, duplicate?.refundedCents ?? null, new Date(),
    ],
  );
}
