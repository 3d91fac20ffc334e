/**
 * Data access of `password_reset`, the table of one-time tokens (see one-time-tokens.ts).
 */
import type { EntityManager } from '@mikro-orm/core';
import { sqlRows } from '../../util/raw-sql.js';

/**
 * Marks the live, unused token with this hash used and returns its user id; null when there is
 * none. Raw SQL: one conditional `update … returning` is what makes the use single (an entity
 * read then write would let two concurrent uses both pass).
 */
export async function markOneTimeTokenUsed(em: EntityManager, tokenHash: string, now: Date): Promise<string | null> {
  const rows = await sqlRows<{ user_id: string }>(
    em,
    'update password_reset set used_at = ? where token_hash = ? and used_at is null and expires_at > ? returning user_id',
    [now, tokenHash, now],
  );
  return rows[0]?.user_id ?? null;
}
