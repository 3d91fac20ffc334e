/**
 * Applying a Stripe subscription to the database, inside the caller's transaction: the stored
 * subscription row, the team workspace of a per-seat plan (seat_limit = quantity) and the
 * account's effective plan and billing window (the `app_user` columns every authenticator reads).
 *
 * Order safety: callers pass the subscription as Stripe has it NOW (fetched, not taken from the
 * event), so an event delivered late re-applies the current state instead of an older one.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type Stripe from 'stripe';
import { PLANS } from '../usage/plans.js';
import { findAccountOfCustomer } from './billing-account.queries.js';
import { findLatestSubscription, saveSubscription } from './billing-subscription.queries.js';
import type { Catalogue } from './catalogue.js';
import { accountExists, createTeamWorkspace, lockAccountRow, findAccountEmail, findOwnedWorkspace, makeWorkspaceOwner, setEffectivePlan, setTeamSeats } from './subscriber.queries.js';

/** Statuses that keep the subscription's plan in force (past_due: Stripe is still retrying the payment). */
export const ENTITLED_STATUSES = ['active', 'trialing', 'past_due'] as const;

export interface SubscriptionFacts {
  id: string;
  customer: string;
  priceId: string | null;
  quantity: number;
  status: string;
  periodStart: number;
  periodEnd: number;
  cancelAtPeriodEnd: boolean;
  metadata: Record<string, string>;
}

/** The fields billing reads from a Stripe subscription (periods sit on the item in current API versions). */
export function subscriptionFacts(sub: Stripe.Subscription): SubscriptionFacts {
  const item = sub.items?.data?.[0] as (Stripe.SubscriptionItem & { current_period_start?: number; current_period_end?: number }) | undefined;
  const legacy = sub as unknown as { current_period_start?: number; current_period_end?: number };
  return {
    id: sub.id,
    customer: typeof sub.customer === 'string' ? sub.customer : sub.customer.id,
    priceId: item?.price?.id ?? null,
    quantity: item?.quantity ?? 1,
    status: sub.status,
    periodStart: item?.current_period_start ?? legacy.current_period_start ?? sub.start_date,
    periodEnd: item?.current_period_end ?? legacy.current_period_end ?? sub.start_date,
    cancelAtPeriodEnd: Boolean(sub.cancel_at_period_end),
    metadata: (sub.metadata ?? {}) as Record<string, string>,
  };
}

/** A duplicate subscription's settlement as stored with it (duplicate-subscriptions.ts makes it). */
export interface DuplicateSettlement {
  duplicateOf: string;
  refundIds: string[];
  refundedCents: number;
}

/**
 * Stores a settled subscription (duplicate-subscriptions.ts) on `tx`: the subscription kept
 * first, when the settlement found one, then the reported one with its refund.
 */
export async function applySettledSubscription(
  tx: EntityManager,
  catalogue: Catalogue,
  settled: { facts: SubscriptionFacts; duplicate: DuplicateSettlement | null; keeper: SubscriptionFacts | null },
): Promise<void> {
  if (settled.keeper) await applySubscription(tx, catalogue, settled.keeper);
  await applySubscription(tx, catalogue, settled.facts, settled.duplicate);
}

export interface AppliedSubscription {
  userId: string;
  plan: string;
  workspaceId: string | null;
}

/**
 * Stores `sub` for its account and recomputes the account's effective plan, on `tx` (the caller's
 * transaction). Returns null (and writes nothing) for a subscription of no known account or a
 * price the catalogue does not sell.
 */
export async function applySubscription(tx: EntityManager, catalogue: Catalogue, sub: SubscriptionFacts, duplicate: DuplicateSettlement | null = null): Promise<AppliedSubscription | null> {
  const userId = await accountOf(tx, sub);
  const sold = sub.priceId ? catalogue.planOfPrice(sub.priceId) : null;
  if (!userId || !sold) return null;
  await lockAccountRow(tx, userId);
  // a refunded duplicate pays for nothing: no team workspace is made or changed for it
  const workspaceId = PLANS[sold.plan].perSeat && !duplicate ? await teamWorkspaceOf(tx, userId, sub) : null;
  await saveSubscription(tx, {
    id: sub.id,
    userId,
    customerId: sub.customer,
    plan: sold.plan,
    interval: sold.interval,
    status: sub.status,
    quantity: sub.quantity,
    periodStart: new Date(sub.periodStart * 1000),
    periodEnd: new Date(sub.periodEnd * 1000),
    cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
    workspaceId,
    duplicate,
  });
  await syncEffectivePlan(tx, userId);
  return { userId, plan: sold.plan, workspaceId };
}

/** The buyer's workspace made a team workspace whose seats follow the subscription (created when missing), owned by the buyer. */
async function teamWorkspaceOf(tx: EntityManager, userId: string, sub: SubscriptionFacts): Promise<string> {
  const existing = await findOwnedWorkspace(tx, userId);
  let workspaceId: string;
  if (existing) {
    workspaceId = existing.id;
    await setTeamSeats(tx, workspaceId, sub.quantity);
  } else {
    workspaceId = randomUUID();
    const email = await findAccountEmail(tx, userId);
    const name = sub.metadata.workspace_name || `${email ?? 'Team'} workspace`;
    await createTeamWorkspace(tx, { id: workspaceId, ownerUserId: userId, name, seats: sub.quantity });
  }
  // the subscriber owns it (teams: one workspace per account at a time, so this moves them)
  await makeWorkspaceOwner(tx, userId, workspaceId);
  return workspaceId;
}

/** The account a subscription belongs to: its metadata (set at checkout), else the customer's account. */
async function accountOf(tx: EntityManager, sub: SubscriptionFacts): Promise<string | null> {
  const candidates: string[] = [];
  if (sub.metadata.account_id) candidates.push(sub.metadata.account_id);
  const byCustomer = await findAccountOfCustomer(tx, sub.customer);
  if (byCustomer) candidates.push(byCustomer);
  for (const id of candidates) {
    if (!/^[0-9a-f-]{36}$/i.test(id)) continue;
    if (await accountExists(tx, id)) return id;
  }
  return null;
}

/**
 * The effective plan: the entitled subscription's (latest updated, if several), else Free; its
 * billing window goes with it. (An administrator override, stored apart, wins where it is read.)
 */
export async function syncEffectivePlan(tx: EntityManager, userId: string): Promise<void> {
  const entitled = await findLatestSubscription(tx, userId, { statuses: ENTITLED_STATUSES });
  if (entitled) {
    await setEffectivePlan(tx, userId, entitled.plan, { start: new Date(entitled.current_period_start), end: new Date(entitled.current_period_end) });
  } else {
    await setEffectivePlan(tx, userId, 'free', null);
  }
}
