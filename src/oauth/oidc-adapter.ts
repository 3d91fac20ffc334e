/**
 * oidc-provider's storage adapter over the relational store: every model (clients, grants,
 * authorization codes, refresh tokens, sessions, interactions, ...) is a row of `oauth_model`
 * keyed by (model, id), so the authorization server's state survives restarts and is shared by
 * every process on the same database. Rows past `expires_at` are never returned, and are deleted
 * now and then on writes.
 */
import type { MikroORM } from '@mikro-orm/core';
import { type Adapter, type AdapterPayload, errors } from 'oidc-provider';
import { findNul } from '../validation.js';
import type { Logger } from '../logger.js';

/** How often one process deletes expired rows (on a write, never on a read). */
const PRUNE_EVERY_MS = 10 * 60_000;

interface PayloadRow {
  payload: AdapterPayload;
}

/**
 * Ends every sign-in of `accountId` at the authorization server: deletes its oidc-provider
 * `Session` rows, so no browser is "signed in as" that account at the consent page any more and
 * no client is authorised silently from such a session. Grants, and the tokens issued under them,
 * are kept: signing out of a browser does not disconnect the user's agents.
 */
export async function endAccountSessions(orm: MikroORM, accountId: string): Promise<void> {
  await orm.em
    .fork()
    .getConnection()
    .execute(`delete from oauth_model where model = 'Session' and payload->>'accountId' = ?`, [accountId], 'run');
}

/** One adapter per oidc-provider model; `OidcAdapter.factory(orm, logger)` gives the factory oidc-provider takes. */
export class OidcAdapter implements Adapter {
  constructor(
    private readonly model: string,
    private readonly orm: MikroORM,
    private readonly logger: Pick<Logger, 'error'>,
    /** Shared by the adapters of one factory: when they last deleted expired rows. */
    private readonly pruning: { last: number },
  ) {}

  /** The `adapter` option of the oidc-provider configuration. */
  static factory(orm: MikroORM, logger: Pick<Logger, 'error'>): (model: string) => Adapter {
    const pruning = { last: 0 };
    return (model) => new OidcAdapter(model, orm, logger, pruning);
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    // PostgreSQL's jsonb cannot hold a NUL character: refuse the client's input as oidc-provider
    // refuses bad input (400 with an OAuth error), never a server error.
    const nul = findNul(payload);
    if (nul) {
      const message = `${nul.join('.')} must not contain the NUL character`;
      throw this.model === 'Client' ? new errors.InvalidClientMetadata(message) : new errors.InvalidRequest(message);
    }
    const expiresAt = typeof expiresIn === 'number' ? new Date(Date.now() + expiresIn * 1000) : null;
    await this.execute(
      `insert into oauth_model (model, id, payload, grant_id, user_code, uid, expires_at, consumed_at)
       values (?, ?, ?::jsonb, ?, ?, ?, ?, null)
       on conflict (model, id) do update
         set payload = excluded.payload, grant_id = excluded.grant_id, user_code = excluded.user_code,
             uid = excluded.uid, expires_at = excluded.expires_at, consumed_at = null`,
      [this.model, id, JSON.stringify(payload), payload.grantId ?? null, payload.userCode ?? null, payload.uid ?? null, expiresAt],
      'run',
    );
    this.pruneNowAndThen();
  }

  find(id: string): Promise<AdapterPayload | undefined> {
    return this.findOne('id = ?', id);
  }

  findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.findOne('uid = ?', uid);
  }

  findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.findOne('user_code = ?', userCode);
  }

  /** Marks a single-use model (authorization code, rotated refresh token) consumed; oidc-provider reads `payload.consumed`. */
  async consume(id: string): Promise<void> {
    const now = new Date();
    await this.execute(
      `update oauth_model set consumed_at = ?, payload = payload || jsonb_build_object('consumed', ?::bigint)
        where model = ? and id = ?`,
      [now, Math.floor(now.getTime() / 1000), this.model, id],
      'run',
    );
  }

  async destroy(id: string): Promise<void> {
    await this.execute('delete from oauth_model where model = ? and id = ?', [this.model, id], 'run');
  }

  /** Revokes everything issued under a grant (codes, access and refresh tokens) of this model. */
  async revokeByGrantId(grantId: string): Promise<void> {
    await this.execute('delete from oauth_model where model = ? and grant_id = ?', [this.model, grantId], 'run');
  }

  private async findOne(where: string, value: string): Promise<AdapterPayload | undefined> {
    const rows = (await this.execute(
      `select payload from oauth_model where model = ? and ${where} and (expires_at is null or expires_at > ?) limit 1`,
      [this.model, value, new Date()],
      'all',
    )) as PayloadRow[];
    return rows[0]?.payload;
  }

  private execute(sql: string, params: unknown[], method: 'all' | 'run'): Promise<unknown> {
    return this.orm.em.fork().getConnection().execute(sql, params, method);
  }

  private pruneNowAndThen(): void {
    const now = Date.now();
    if (now - this.pruning.last < PRUNE_EVERY_MS) return;
    this.pruning.last = now;
    this.execute('delete from oauth_model where expires_at < ?', [new Date(now)], 'run').catch((error) =>
      this.logger.error('oauth: could not delete expired authorization-server rows', error),
    );
  }
}
