/**
 * Raw SQL for billing's query modules, run on the entity manager they are given and inside its
 * transaction when it has one: a forked entity manager's connection would otherwise run the
 * statement outside the caller's transaction.
 */
import type { EntityManager } from '@mikro-orm/core';

/** Runs `sql` on `em` (in its transaction, if any) and returns its rows typed as `T`. */
export async function runSql<T extends object>(em: EntityManager, sql: string, params: unknown[] = []): Promise<T[]> {
  return (await em.getConnection().execute(sql, params, 'all', em.getTransactionContext())) as T[];
}

/** A timestamp read by raw SQL as a Date, whichever form the driver gave it (a Date, or text). */
export function toDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value);
}
