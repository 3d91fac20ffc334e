/**
 * Applying a Stripe subscription to the database, inside the caller's transaction: the stored
 * subscription row, the team workspace of a per-seat plan (seat_limit = quantity) and the
 * account's effective plan and billing window (the `app_user` columns every authenticator reads).
 *
 * Order safety: callers pass the subscription as Stripe has it NOW (fetched, not taken from the
 * event), so an event delivered late re-applies the current state instead of an older one.
 */
import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import { PLANS } from '../usage/plans.js';
import type { Catalogue } from './catalogue.js';

/** Runs SQL in the transaction. */
export type Sql = (sql: string, params?: unknown[]) => Promise<Record<string, any>[]>;

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

export interface AppliedSubscription {
  userId: string;
  plan: string;
  workspaceId: string | null;
}

/**
 * Stores `sub` for its account and recomputes the account's effective plan. Returns null (and
 * writes nothing) for a subscription of no known account or a price the catalogue does not sell.
 */
export async function applySubscription(sql: Sql, catalogue: Catalogue, sub: SubscriptionFacts): Promise<AppliedSubscription | null> {
  const userId = await accountOf(sql, sub);
  const sold = sub.priceId ? catalogue.planOfPrice(sub.priceId) : null;
  if (!userId || !sold) return null;
  let workspaceId: string | null = null;
  if (PLANS[sold.plan].perSeat) {
    // the buyer's workspace becomes a team workspace whose seats follow the subscription
    const [existing] = await sql('select id from workspace where owner_user_id = ?', [userId]);
    if (existing) {
      workspaceId = existing.id as string;
      await sql('update workspace set seat_limit = ?, kind = ? where id = ?', [sub.quantity, 'team', workspaceId]);
    } else {
      workspaceId = randomUUID();
      const [user] = await sql('select email from app_user where id = ?', [userId]);
      const name = sub.metadata.workspace_name || `${user?.email ?? 'Team'} workspace`;
      await sql('insert into workspace (id, owner_user_id, name, kind, seat_limit, created_at) values (?, ?, ?, ?, ?, ?)', [workspaceId, userId, name, 'team', sub.quantity, new Date()]);
    }
    // the subscriber owns it (teams: one workspace per account at a time, so this moves them)
    await sql(
      `insert into workspace_member (user_id, workspace_id, role, joined_at) values (?, ?, 'owner', ?)
       on conflict (user_id) do update set workspace_id = excluded.workspace_id, role = 'owner', joined_at = excluded.joined_at where workspace_member.workspace_id <> excluded.workspace_id or workspace_member.role <> 'owner'`,
      [userId, workspaceId, new Date()],
    );
  }
  await sql(
    `insert into billing_subscription (id, user_id, stripe_customer_id, plan, interval, status, quantity, current_period_start, current_period_end, cancel_at_period_end, workspace_id, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     on conflict (id) do update set plan = excluded.plan, interval = excluded.interval, status = excluded.status, quantity = excluded.quantity,
       current_period_start = excluded.current_period_start, current_period_end = excluded.current_period_end,
       cancel_at_period_end = excluded.cancel_at_period_end, workspace_id = coalesce(excluded.workspace_id, billing_subscription.workspace_id), updated_at = excluded.updated_at`,
    [sub.id, userId, sub.customer, sold.plan, sold.interval, sub.status, sub.quantity, new Date(sub.periodStart * 1000), new Date(sub.periodEnd * 1000), sub.cancelAtPeriodEnd, workspaceId, new Date()],
  );
  await syncEffectivePlan(sql, userId);
  return { userId, plan: sold.plan, workspaceId };
}

/** The account a subscription belongs to: its metadata (set at checkout), else the customer's account. */
async function accountOf(sql: Sql, sub: SubscriptionFacts): Promise<string | null> {
  const candidates: string[] = [];
  if (sub.metadata.account_id) candidates.push(sub.metadata.account_id);
  const [byCustomer] = await sql('select user_id from billing_account where stripe_customer_id = ?', [sub.customer]);
  if (byCustomer) candidates.push(byCustomer.user_id as string);
  for (const id of candidates) {
    if (!/^[0-9a-f-]{36}$/i.test(id)) continue;
    const [user] = await sql('select id from app_user where id = ?', [id]);
    if (user) return id;
  }
  return null;
}

/**
 * The effective plan: the entitled subscription's (latest updated, if several), else Free; its
 * billing window goes with it. (An administrator override, when the admin issue adds it, wins.)
 */
export async function syncEffectivePlan(sql: Sql, userId: string): Promise<void> {
  const [entitled] = await sql(
    `select plan, current_period_start, current_period_end from billing_subscription
      where user_id = ? and status in (${ENTITLED_STATUSES.map(() => '?').join(', ')})
      order by updated_at desc limit 1`,
    [userId, ...ENTITLED_STATUSES],
  );
  if (entitled) {
    await sql('update app_user set plan = ?, billing_period_start = ?, billing_period_end = ? where id = ?', [
      entitled.plan,
      new Date(entitled.current_period_start),
      new Date(entitled.current_period_end),
      userId,
    ]);
  } else {
    await sql('update app_user set plan = ?, billing_period_start = null, billing_period_end = null where id = ?', ['free', userId]);
  }
}
