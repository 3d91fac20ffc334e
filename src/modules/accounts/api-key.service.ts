/**
 * API keys: `sk-` + 40 random base62 characters (~238 bits). Only the SHA-256 is stored; the full
 * key is returned once, at creation. At most 10 active keys per account; revocation is checked
 * on every request (no cache), and `last_used_at` is written at most once a minute per key.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import type { AccountCaller, RequestContext } from '../../context.js';
import { DomainError, NotFoundError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { parseInput } from '../../validation.js';
import type { CounterStore } from '../usage/counter-store.js';
import { CREATE_KEY_LIMIT, throttleOperation } from '../usage/throttle.js';
import { requireAccount } from '../usage/usage.service.js';
import { createKeyBodySchema, type ApiKeyRecord, type CreatedApiKey } from './account.schema.js';
import { sha256, type AccountsService, type CallerRow } from './accounts.service.js';

export const MAX_ACTIVE_KEYS = 10;
export const KEY_RANDOM_LENGTH = 40;
const LAST_USED_EVERY_MS = 60_000;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A new key: `sk-` + base62 characters drawn without modulo bias. */
export function generateApiKey(): string {
  let out = 'sk-';
  while (out.length < 3 + KEY_RANDOM_LENGTH) {
    for (const byte of randomBytes(64)) {
      if (byte < 248 && out.length < 3 + KEY_RANDOM_LENGTH) out += BASE62[byte % 62];
    }
  }
  return out;
}

/** `sk-AbCd...wXyZ`: the first and last four characters of the random part. */
export function keyPrefix(key: string): string {
  return `sk-${key.slice(3, 7)}...${key.slice(-4)}`;
}

interface KeyRow {
  id: string;
  name: string;
  key_prefix: string;
  created_at: string | Date;
  last_used_at: string | Date | null;
}

const iso = (value: string | Date | null) => (value === null ? null : new Date(value).toISOString());

function record(row: KeyRow): ApiKeyRecord {
  return { id: row.id, name: row.name, key_prefix: row.key_prefix, created_at: iso(row.created_at)!, last_used_at: iso(row.last_used_at) };
}

export class ApiKeyService {
  /** key id -> when this process last wrote its last_used_at. */
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly deps: { orm: MikroORM; accounts: AccountsService; counters: CounterStore; logger: Pick<Logger, 'error'> },
  ) {}

  /** The caller's active keys, newest first. */
  async list(ctx: RequestContext): Promise<ApiKeyRecord[]> {
    const caller = requireAccount(ctx);
    const rows = (await this.deps.orm.em
      .fork()
      .getConnection()
      .execute(
        'select id, name, key_prefix, created_at, last_used_at from api_key where user_id = ? and revoked_at is null order by created_at desc, id',
        [caller.userId],
      )) as KeyRow[];
    return rows.map(record);
  }

  /** Creates a key (409 past MAX_ACTIVE_KEYS); the only time the full key is returned. */
  async create(ctx: RequestContext, input: unknown): Promise<CreatedApiKey> {
    const caller = requireAccount(ctx);
    // limited per account across doors and processes (the GraphQL directive alone was per process)
    await throttleOperation(this.deps.counters, caller.userId, CREATE_KEY_LIMIT);
    const body = parseInput(createKeyBodySchema, input ?? {});
    const key = generateApiKey();
    const row: KeyRow = { id: randomUUID(), name: body.name, key_prefix: keyPrefix(key), created_at: new Date(), last_used_at: null };
    await this.deps.orm.em.fork().transactional(async (tx) => {
      const connection = tx.getConnection();
      const trx = tx.getTransactionContext();
      // the account row is the lock that serialises concurrent creations for one account
      const owner = await connection.execute('select id from app_user where id = ? for update', [caller.userId], 'all', trx);
      if ((owner as unknown[]).length === 0) throw new DomainError('unauthorized', 'Account no longer exists');
      const [{ active }] = (await connection.execute(
        'select count(*) as active from api_key where user_id = ? and revoked_at is null',
        [caller.userId],
        'all',
        trx,
      )) as { active: string | number }[] as [{ active: string | number }];
      if (Number(active) >= MAX_ACTIVE_KEYS) {
        throw new DomainError(
          'conflict',
          `API key limit reached: an account can have at most ${MAX_ACTIVE_KEYS} active keys; revoke one before creating another`,
        );
      }
      await connection.execute(
        'insert into api_key (id, user_id, name, key_hash, key_prefix, created_at, last_used_at, revoked_at) values (?, ?, ?, ?, ?, ?, null, null)',
        [row.id, caller.userId, row.name, sha256(key), row.key_prefix, row.created_at],
        'run',
        trx,
      );
    });
    return { ...record(row), key };
  }

  /** Revokes one of the caller's keys at once; another account's key id is 404, as an unknown one. */
  async revoke(ctx: RequestContext, keyId: string): Promise<void> {
    const caller = requireAccount(ctx);
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(keyId);
    const result = uuid
      ? ((await this.deps.orm.em
          .fork()
          .getConnection()
          .execute('update api_key set revoked_at = ? where id = ? and user_id = ? and revoked_at is null', [new Date(), keyId, caller.userId], 'run')) as {
          affectedRows: number;
        })
      : { affectedRows: 0 };
    if (result.affectedRows === 0) throw new NotFoundError('API key not found');
  }

  /** The caller an API key stands for, or null when it is unknown or revoked. */
  async authenticate(key: string, ip: string | null): Promise<AccountCaller | null> {
    const [row] = (await this.deps.orm.em
      .fork()
      .getConnection()
      .execute(
        `select k.id as key_id, k.last_used_at, u.id, u.email, u.email_verified, u.plan, u.billing_period_start, u.billing_period_end
           from api_key k join app_user u on u.id = k.user_id
          where k.key_hash = ? and k.revoked_at is null`,
        [sha256(key)],
      )) as (CallerRow & { key_id: string; last_used_at: string | Date | null })[];
    if (!row) return null;
    this.touch(row.key_id, row.last_used_at);
    return this.deps.accounts.callerFromRow(row, { kind: 'api_key', ip, keyId: row.key_id });
  }

  /** Keeps last_used_at current without a write per request: at most one write a minute per key. */
  private touch(keyId: string, lastUsed: string | Date | null): void {
    const now = Date.now();
    const stored = lastUsed ? new Date(lastUsed).getTime() : 0;
    const written = Math.max(stored, this.touched.get(keyId) ?? 0);
    if (now - written < LAST_USED_EVERY_MS) return;
    this.touched.set(keyId, now);
    if (this.touched.size > 10_000) this.touched.clear();
    void this.deps.orm.em
      .fork()
      .getConnection()
      .execute('update api_key set last_used_at = ? where id = ?', [new Date(now), keyId], 'run')
      .catch((error) => this.deps.logger.error('api keys: could not update last_used_at', error));
  }
}
