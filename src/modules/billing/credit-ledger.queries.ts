/**
 * Statements on `credit_ledger`, the append-only truth of extra credits: grants (+), consumption
 * (−), refunds (−); the balance is the sum. Plain appends and reads go through the entity manager
 * (without its identity map); the sum, the lock and the insert-once stay SQL, as noted on each.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { CreditEntryEntity } from './billing.entities.js';
import { sqlRows } from '../../util/raw-sql.js';

export type LedgerKind = 'grant' | 'consumption' | 'refund' | 'refund_shortfall';

export interface LedgerEntry {
  userId: string;
  kind: LedgerKind;
  amountMicroUsd: number;
  /** Unique when set: a Stripe object's grant or refund takes effect once. */
  reference: string | null;
  note: string | null;
}

/** The account's ledger balance in micro-dollars (may be negative: consumption flushed past a refund). */
export async function sumLedger(em: EntityManager, userId: string): Promise<number> {
  // SQL: an aggregate; bigint sums come back as text, hence Number()
  const [row] = await sqlRows<{ balance: string | number }>(em, 'select coalesce(sum(amount_micro_usd), 0) as balance from credit_ledger where user_id = ?', [userId]);
  return Number(row?.balance ?? 0);
}

/** Holds the account's ledger until the transaction ends, so a concurrent refund reads the balance after this one. */
export async function lockAccountLedger(em: EntityManager, userId: string): Promise<void> {
  // SQL: a transaction-scoped advisory lock has no ORM form
  await sqlRows(em, 'select pg_advisory_xact_lock(hashtext(?))', [`credit_ledger:${userId}`]);
}

/** Appends an entry whose reference is new; false (nothing written) when that reference is already in the ledger. */
export async function appendEntryOnce(em: EntityManager, entry: LedgerEntry & { reference: string }): Promise<boolean> {
  // SQL: insert-or-nothing on the unique reference, in one statement (two deliveries may race)
  const inserted = await sqlRows<{ id: string }>(
    em,
    `insert into credit_ledger (id, user_id, kind, amount_micro_usd, reference, note, created_at) values (?, ?, ?, ?, ?, ?, ?) on conflict (reference) do nothing returning id`,
    [randomUUID(), entry.userId, entry.kind, entry.amountMicroUsd, entry.reference, entry.note, new Date()],
  );
  return inserted.length > 0;
}

/** Appends one entry. */
export async function appendEntry(em: EntityManager, entry: LedgerEntry): Promise<void> {
  await em.insert(CreditEntryEntity, {
    id: randomUUID(),
    user_id: entry.userId,
    kind: entry.kind,
    amount_micro_usd: entry.amountMicroUsd,
    reference: entry.reference,
    note: entry.note,
    created_at: new Date(),
  });
}

/** Appends one consumption entry per account (amounts in micro-dollars, positive), in one statement. */
export async function appendConsumption(em: EntityManager, consumed: ReadonlyArray<readonly [userId: string, amountMicroUsd: number]>, at: Date): Promise<void> {
  if (consumed.length === 0) return;
  await em.insertMany(
    CreditEntryEntity,
    consumed.map(([userId, amount]) => ({ id: randomUUID(), user_id: userId, kind: 'consumption', amount_micro_usd: -amount, reference: null, note: null, created_at: at })),
  );
}

/** The entry recorded under `reference` (a grant's or a refund's), or null. */
export async function findEntryByReference(em: EntityManager, reference: string): Promise<{ userId: string; amountMicroUsd: number } | null> {
  const row = await em.findOne(CreditEntryEntity, { reference }, { fields: ['user_id', 'amount_micro_usd'], disableIdentityMap: true });
  return row ? { userId: row.user_id, amountMicroUsd: Number(row.amount_micro_usd) } : null;
}

/** The references starting with `prefix` (e.g. every refund entry of one charge). */
export async function findReferencesStartingWith(em: EntityManager, prefix: string): Promise<string[]> {
  const rows = await em.find(CreditEntryEntity, { reference: { $like: `${prefix}%` } }, { fields: ['reference'], disableIdentityMap: true });
  return rows.map((r) => r.reference).filter((r): r is string => r !== null);
}
