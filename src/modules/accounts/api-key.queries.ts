/**
 * Data access of `api_key` on the request path. Raw SQL on purpose: both statements run for
 * requests with a key (measured by `npm run bench:auth`), without an entity manager's unit of work.
 */
import type { EntityManager } from '@mikro-orm/core';
import { sqlRows, sqlRun } from '../../util/raw-sql.js';
import type { CallerRow } from './app-user.queries.js';
import { effectivePlanSql } from './effective-plan.js';

/** A live key's caller row: its user's columns, the key's id and when it was last used. */
export interface KeyCallerRow extends CallerRow {
  key_id: string;
  last_used_at: string | Date | null;
}

/** The caller row of the unrevoked key with this hash, in one join; null when there is none. */
export async function findKeyCaller(em: EntityManager, keyHash: string): Promise<KeyCallerRow | null> {
  const [row] = await sqlRows<KeyCallerRow>(
    em,
    `select k.id as key_id, k.last_used_at, u.id, u.email, u.email_verified, ${effectivePlanSql('u')}, u.billing_period_start, u.billing_period_end
       from api_key k join app_user u on u.id = k.user_id
      where k.key_hash = ? and k.revoked_at is null`,
    [keyHash],
  );
  return row ?? null;
}

/** Sets the key's `last_used_at`. */
export function touchApiKey(em: EntityManager, keyId: string, at: Date): Promise<void> {
  return sqlRun(em, 'update api_key set last_used_at = ? where id = ?', [at, keyId]);
}
