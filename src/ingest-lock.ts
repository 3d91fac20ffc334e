/**
 * One ingest at a time across every service process sharing one PostgreSQL database (and so
 * one ingest bookkeeping and one shared search engine): a PostgreSQL session advisory lock,
 * held on one pooled connection for the whole ingest. PostgreSQL releases it by itself when
 * that connection ends (a crashed or killed process never leaves it behind). Processes that do
 * not get it serve while another ingests, and try again every `retryMs` (their ingest then
 * finds the files done and only refreshes their statistics).
 *
 * With embedded PGlite (no DATABASE_URL), DATA_DIR's lock file (data-dir-lock.ts) already
 * makes the process the only one: no advisory lock is needed.
 */
import type { MikroORM } from '@mikro-orm/core';
import { sql, type Kysely } from 'kysely';
import type { Logger } from './logger.js';

/** The advisory lock's key: one bigint for "the ingest" of this platform. */
export const INGEST_LOCK_KEY = 7_461_201_116_901_001n;

type Orm = { em: { getConnection(): { getClient<T = unknown>(): Kysely<T> } } };

/**
 * Runs `fn` while holding the ingest lock. Returns `{ ran: true, value }`, or `{ ran: false }`
 * at once when another process holds it.
 */
export async function withIngestLock<T>(orm: MikroORM, shared: boolean, fn: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }> {
  if (!shared) return { ran: true, value: await fn() };
  const kysely = (orm as unknown as Orm).em.getConnection().getClient();
  // One connection for the lock and its release: session advisory locks belong to a connection.
  return kysely.connection().execute(async (connection) => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${INGEST_LOCK_KEY.toString()}::bigint) as locked`.execute(connection);
    if (!rows[0]?.locked) return { ran: false as const };
    try {
      return { ran: true as const, value: await fn() };
    } finally {
      await sql`select pg_advisory_unlock(${INGEST_LOCK_KEY.toString()}::bigint)`.execute(connection);
    }
  });
}

/** How often a process that found another one ingesting tries again (its run then only refreshes). */
export const INGEST_LOCK_RETRY_MS = 30_000;

/**
 * Runs the startup ingest under the lock when the database is `shared`. A process that finds
 * another one ingesting serves meanwhile and tries again every INGEST_LOCK_RETRY_MS in the
 * background until `signal` aborts; it resolves with null at once. `ingest` learns whether it
 * runs after waiting (another process may have written the whole index meanwhile).
 */
export async function oneIngestAtATime<T>(
  options: { orm: MikroORM; shared: boolean; signal: AbortSignal; logger: Logger },
  ingest: (afterWaiting: boolean) => Promise<T | null>,
): Promise<T | null> {
  const { orm, shared, signal, logger } = options;
  if (!shared) return ingest(false);
  const attempt = (afterWaiting: boolean) => withIngestLock(orm, true, () => ingest(afterWaiting));
  const first = await attempt(false).catch((error: Error) => {
    logger.error('ingest: could not take the ingest lock; serving the existing index', error);
    return { ran: true as const, value: null };
  });
  if (first.ran) return first.value;
  logger.info(`ingest: another process is ingesting into the shared database and engine; serving meanwhile, trying again every ${INGEST_LOCK_RETRY_MS / 1000} s`);
  void (async () => {
    while (!signal.aborted) {
      await new Promise((resolve) => setTimeout(resolve, INGEST_LOCK_RETRY_MS).unref());
      if (signal.aborted || (await attempt(true).catch(() => ({ ran: false }))).ran) return;
    }
  })();
  return null;
}
