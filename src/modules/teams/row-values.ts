/**
 * Running typed raw SQL on the entity manager (or transaction) a caller passes, and the value
 * normalisation the teams query modules share: PostgreSQL and PGlite may hand a timestamp back
 * as a Date or a string and a `count(*)` as a bigint string, so rows are normalised here once.
 */
import type { EntityManager } from '@mikro-orm/core';

/** Runs `sql` on `em`, inside its transaction when it is one, and returns the rows as `Row`. */
export function selectRows<Row>(em: EntityManager, sql: string, params: readonly unknown[] = []): Promise<Row[]> {
  return em.getConnection().execute(sql, [...params], 'all', em.getTransactionContext()) as Promise<Row[]>;
}

/** A timestamp column as a Date. */
export function asDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value);
}

/** A nullable timestamp column as a Date or null. */
export function asDateOrNull(value: Date | string | null | undefined): Date | null {
  return value === null || value === undefined ? null : asDate(value);
}

/** A `count(*)` (a bigint, given back as a string by the driver) as a number. */
export function asCount(value: number | string | null | undefined): number {
  return Number(value ?? 0);
}
