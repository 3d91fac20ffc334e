/**
 * Statements on `billing_account`: one row per account that touched billing (its Stripe customer,
 * audience choice and auto top-up setting). Reads go through the entity manager without its
 * identity map (a later raw write in the same unit of work must not leave a stale entity behind);
 * the upserts and conditional updates stay SQL, as noted on each.
 */
import type { EntityManager } from '@mikro-orm/core';
import { type BillingAccount, BillingAccountEntity } from './billing.entities.js';
import { sqlRows } from '../../util/raw-sql.js';

/** The account's billing row, or null when it never touched billing. */
export function findBillingAccount(em: EntityManager, userId: string): Promise<BillingAccount | null> {
  return em.findOne(BillingAccountEntity, { user_id: userId }, { disableIdentityMap: true });
}

/** The account's Stripe customer id, or null. */
export async function findStripeCustomerId(em: EntityManager, userId: string): Promise<string | null> {
  const row = await em.findOne(BillingAccountEntity, { user_id: userId }, { fields: ['stripe_customer_id'], disableIdentityMap: true });
  return row?.stripe_customer_id ?? null;
}

/** The account a Stripe customer belongs to, or null. */
export async function findAccountOfCustomer(em: EntityManager, customerId: string): Promise<string | null> {
  const row = await em.findOne(BillingAccountEntity, { stripe_customer_id: customerId }, { fields: ['user_id'], disableIdentityMap: true });
  return row?.user_id ?? null;
}

/** Stores a Free account's audience choice, creating the row when needed. */
export async function saveAudience(em: EntityManager, userId: string, audience: string): Promise<void> {
  // SQL: an upsert that touches only the audience (the ORM's upsert would write every column)
  await sqlRows(
    em,
    `insert into billing_account (user_id, audience, created_at, updated_at) values (?, ?, ?, ?)
     on conflict (user_id) do update set audience = excluded.audience, updated_at = excluded.updated_at`,
    [userId, audience, new Date(), new Date()],
  );
}

/** Records the account's Stripe customer unless it already has one (the first one stays). */
export async function saveStripeCustomerIdOnce(em: EntityManager, userId: string, customerId: string): Promise<void> {
  // SQL: an upsert that keeps an existing customer id (coalesce), which the ORM's upsert cannot say
  await sqlRows(
    em,
    `insert into billing_account (user_id, stripe_customer_id, created_at, updated_at) values (?, ?, ?, ?)
     on conflict (user_id) do update set stripe_customer_id = coalesce(billing_account.stripe_customer_id, excluded.stripe_customer_id), updated_at = excluded.updated_at`,
    [userId, customerId, new Date(), new Date()],
  );
}

export interface AutoTopupSettingRow {
  enabled: boolean;
  thresholdUsd: number;
  amountUsd: number;
}

/** Saves the auto top-up setting of an existing row; enabling it clears the last failure. */
export async function saveAutoTopupSetting(em: EntityManager, userId: string, setting: AutoTopupSettingRow): Promise<void> {
  // SQL: the failure columns are cleared only when enabling (a conditional update in one statement)
  await sqlRows(
    em,
    `update billing_account set auto_topup_enabled = ?, auto_topup_threshold_usd = ?, auto_topup_amount_usd = ?,
       auto_topup_failure = case when ? then null else auto_topup_failure end,
       auto_topup_failed_at = case when ? then null else auto_topup_failed_at end, updated_at = ?
     where user_id = ?`,
    [setting.enabled, setting.thresholdUsd, setting.amountUsd, setting.enabled, setting.enabled, new Date(), userId],
  );
}

/**
 * Claims the account's one auto top-up attempt at `claimedAt` when auto top-up is on and no claim
 * newer than `staleBefore` exists; false when another attempt holds it.
 */
export async function claimAutoTopup(em: EntityManager, userId: string, claimedAt: Date, staleBefore: Date): Promise<boolean> {
  // SQL: a compare-and-set in one statement, so two processes cannot both claim
  const claimed = await sqlRows<{ user_id: string }>(
    em,
    `update billing_account set auto_topup_started_at = ? where user_id = ? and auto_topup_enabled
       and (auto_topup_started_at is null or auto_topup_started_at < ?) returning user_id`,
    [claimedAt, userId, staleBefore],
  );
  return claimed.length > 0;
}

/** Releases the claim taken at `claimedAt` (a newer claim of another attempt stays). */
export async function releaseAutoTopupClaim(em: EntityManager, userId: string, claimedAt: Date): Promise<void> {
  await em.nativeUpdate(BillingAccountEntity, { user_id: userId, auto_topup_started_at: claimedAt }, { auto_topup_started_at: null });
}

/** Turns auto top-up off and records why (a declined or authentication-requiring charge). */
export async function recordAutoTopupFailure(em: EntityManager, userId: string, reason: string): Promise<void> {
  const now = new Date();
  await em.nativeUpdate(BillingAccountEntity, { user_id: userId }, { auto_topup_enabled: false, auto_topup_failure: reason, auto_topup_failed_at: now, updated_at: now });
}
