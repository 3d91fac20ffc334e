/**
 * Raw SQL on an entity manager, inside its transaction when it has one. Query modules
 * (`*.queries.ts`) use these for the statements the ORM does not express cleanly (locks,
 * aggregates, bulk statements across tables, jsonb filters); the caller passes the entity
 * manager or transaction the statement belongs to, and these never fork or begin one.
 */
import type { EntityManager } from '@mikro-orm/core';

/** Runs a query and returns its rows, typed by the caller. */
export function sqlRows<Row>(em: EntityManager, sql: string, params: readonly unknown[] = []): Promise<Row[]> {
  return em.getConnection().execute(sql, [...params], 'all', em.getTransactionContext()) as Promise<Row[]>;
}

/** Runs a statement whose rows are not needed (insert, update, delete). */
export async function sqlRun(em: EntityManager, sql: string, params: readonly unknown[] = []): Promise<void> {
  await em.getConnection().execute(sql, [...params], 'run', em.getTransactionContext());
}

/** `?, ?, ?` for a list of parameters (an `in (...)` list). */
export function placeholders(values: readonly unknown[]): string {
  return values.map(() => '?').join(', ');
}

/** A timestamp read by raw SQL as a Date, whichever form the driver gave it (a Date, or text). */
export function toDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value);
}
