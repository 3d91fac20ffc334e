/**
 * Data access of the OAuth grants an account gave, in the authorization server's `oauth_model`
 * table (jsonb rows per model, src/oauth/oidc-adapter.ts). Raw SQL: the filters are on payload
 * fields (`accountId`, `clientId`), which entity queries cannot express.
 */
import type { EntityManager } from '@mikro-orm/core';
import { placeholders, sqlRows, sqlRun } from '../../util/raw-sql.js';

/** The fields of a grant's payload the accounts module reads. */
export interface GrantPayload {
  clientId?: string;
  iat?: number;
  exp?: number;
  openid?: { scope?: string };
  resources?: Record<string, string>;
}

/** A live grant with its client's registration (null when the client is gone). */
export interface GrantWithClient {
  id: string;
  payload: GrantPayload;
  client: { client_name?: string; client_uri?: string } | null;
}

/** A grant's id and the client it was given to. */
export interface GrantClient {
  id: string;
  client_id: string | null;
  client_name: string | null;
}

/** Every grant of the account (expired ones too), with its client's id and registered name. */
export function grantClientsOf(em: EntityManager, userId: string): Promise<GrantClient[]> {
  return sqlRows<GrantClient>(
    em,
    `select g.id, g.payload->>'clientId' as client_id, c.payload->>'client_name' as client_name
       from oauth_model g
       left join oauth_model c on c.model = 'Client' and c.id = g.payload->>'clientId'
      where g.model = 'Grant' and g.payload->>'accountId' = ?`,
    [userId],
  );
}

/** The account's grants that have not expired at `now`, each with its client's payload. */
export function liveGrantsOf(em: EntityManager, userId: string, now: Date): Promise<GrantWithClient[]> {
  return sqlRows<GrantWithClient>(
    em,
    `select g.id, g.payload, c.payload as client
       from oauth_model g
       left join oauth_model c on c.model = 'Client' and c.id = g.payload->>'clientId'
      where g.model = 'Grant' and g.payload->>'accountId' = ? and (g.expires_at is null or g.expires_at > ?)`,
    [userId, now],
  );
}

/** The ids of the account's grants to one client. */
export async function grantIdsOf(em: EntityManager, userId: string, clientId: string): Promise<string[]> {
  const rows = await sqlRows<{ id: string }>(em, `select id from oauth_model where model = 'Grant' and payload->>'accountId' = ? and payload->>'clientId' = ?`, [userId, clientId]);
  return rows.map((r) => r.id);
}

/** Deletes the grants and everything issued under them (refresh tokens, authorization codes, stored access tokens). */
export async function deleteGrants(em: EntityManager, grantIds: readonly string[]): Promise<void> {
  if (grantIds.length === 0) return;
  const marks = placeholders(grantIds);
  await sqlRun(em, `delete from oauth_model where grant_id in (${marks})`, grantIds);
  await sqlRun(em, `delete from oauth_model where model = 'Grant' and id in (${marks})`, grantIds);
}
