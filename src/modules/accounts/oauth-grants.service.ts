/**
 * The OAuth clients a user authorised (MCP agents), and revoking them. A user sees one entry per
 * client, named by the client id (several authorisations of one client are one entry); revoking
 * it deletes every grant of the user for that client and everything issued under them (refresh
 * tokens, codes), in one transaction. Access tokens are JWTs that carry their grant id
 * (src/oauth/access-token-verifier.ts), and the per-request account lookup refuses a token whose
 * grant is gone, so the client's access ends at once too.
 *
 * The authorization server keeps its state as jsonb rows of `oauth_model`; the queries are in
 * oauth-grant.queries.ts.
 */
import type { EntityManager, MikroORM } from '@mikro-orm/core';
import { type RequestContext, requireAccount } from '../../context.js';
import { NotFoundError } from '../../errors.js';
import type { OAuthGrantRecord, OAuthGrantRevocation } from './account.schema.js';
import { deleteGrants, grantClientsOf, grantIdsOf, type GrantWithClient, liveGrantsOf } from './oauth-grant.queries.js';

/** An OAuth client whose access ended (for the owner's mail): its id and the name it registered with. */
export interface RevokedClient {
  client_id: string;
  client_name: string | null;
}

/**
 * Deletes every OAuth grant of `userId` and everything issued under them (refresh tokens,
 * authorization codes), in `tx`'s transaction: each client's access ends at once (access tokens
 * carry their grant id, and the per-request check refuses a token whose grant is gone). Returns
 * the clients, one entry each, for the owner's mail. Used when the account's address is proven
 * and at a password reset (src/modules/accounts/email-proof.ts).
 */
export async function revokeAllGrantsOf(tx: EntityManager, userId: string): Promise<RevokedClient[]> {
  const grants = await grantClientsOf(tx, userId);
  if (grants.length === 0) return [];
  await deleteGrants(tx, grants.map((g) => g.id));
  const clients = new Map<string, RevokedClient>();
  for (const grant of grants) {
    if (grant.client_id && !clients.has(grant.client_id)) clients.set(grant.client_id, { client_id: grant.client_id, client_name: grant.client_name });
  }
  return [...clients.values()];
}

const iso = (seconds: number | undefined) => (typeof seconds === 'number' ? new Date(seconds * 1000).toISOString() : null);

export class OAuthGrantService {
  constructor(private readonly deps: { orm: MikroORM }) {}

  /** The clients the caller authorised, most recent first. */
  async list(ctx: RequestContext): Promise<OAuthGrantRecord[]> {
    const caller = requireAccount(ctx);
    const rows = await liveGrantsOf(ctx.em, caller.userId, new Date());
    const byClient = new Map<string, { row: GrantWithClient; scopes: Set<string>; resources: Set<string>; iat: number; exp: number | undefined }>();
    for (const row of rows) {
      const clientId = row.payload.clientId;
      if (!clientId) continue;
      const entry = byClient.get(clientId) ?? { row, scopes: new Set<string>(), resources: new Set<string>(), iat: 0, exp: undefined };
      for (const [resource, scope] of Object.entries(row.payload.resources ?? {})) {
        entry.resources.add(resource);
        for (const s of scope.split(' ').filter(Boolean)) entry.scopes.add(s);
      }
      for (const s of (row.payload.openid?.scope ?? '').split(' ').filter(Boolean)) entry.scopes.add(s);
      entry.iat = Math.max(entry.iat, row.payload.iat ?? 0);
      if (row.payload.exp !== undefined) entry.exp = Math.max(entry.exp ?? 0, row.payload.exp);
      byClient.set(clientId, entry);
    }
    return [...byClient.entries()]
      .sort((a, b) => b[1].iat - a[1].iat || a[0].localeCompare(b[0]))
      .map(([clientId, entry]) => ({
        id: clientId,
        client_id: clientId,
        client_name: entry.row.client?.client_name ?? null,
        client_uri: entry.row.client?.client_uri ?? null,
        scopes: [...entry.scopes].sort(),
        resources: [...entry.resources].sort(),
        authorized_at: iso(entry.iat)!,
        expires_at: iso(entry.exp),
      }));
  }

  /**
   * Revokes the caller's authorisation of `clientId`: its grants and every token and code issued
   * under them, in one transaction; 404 when the caller has none for that client.
   */
  async revoke(ctx: RequestContext, clientId: string): Promise<OAuthGrantRevocation> {
    const caller = requireAccount(ctx);
    await ctx.em.transactional(async (tx) => {
      const grantIds = await grantIdsOf(tx, caller.userId, clientId);
      if (grantIds.length === 0) throw new NotFoundError('No authorisation of this client');
      // refresh tokens, authorization codes and any stored access token of the grants, then the grants
      await deleteGrants(tx, grantIds);
    });
    return { status: 'revoked', id: clientId };
  }
}
