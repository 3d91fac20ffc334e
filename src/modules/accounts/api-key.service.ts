/**
 * API keys: `sk-` + 40 random base62 characters (~238 bits). Only the SHA-256 is stored; the full
 * key is returned once, at creation. At most 10 active keys per account; revoked keys stay listed
 * (`revoked: true`). Revocation is checked on every request (no cache), and `last_used_at` is
 * written at most once a minute per key. Plain CRUD goes through the entity; the per-request
 * lookup and the last_used_at write are raw SQL (see there why).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { type EntityManager, LockMode, type MikroORM } from '@mikro-orm/core';
import { type AccountCaller, backgroundEm, type RequestContext, requireAccount } from '../../context.js';
import { DomainError, NotFoundError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { parseInput } from '../../validation.js';
import type { CounterStore } from '../usage/counter-store.js';
import { budgetHolderOf, operationLimit } from '../usage/operation-limits.js';
import { throttleOperation } from '../usage/throttle.js';
import { createKeyBodySchema, renameKeyBodySchema, type ApiKeyRecord, type CreatedApiKey, type KeyRevocation } from './account.schema.js';
import type { AccountsService } from './accounts.service.js';
import { sha256 } from './hashing.js';
import { ApiKeyEntity, type ApiKey } from './api-key.entity.js';
import { findKeyCaller, touchApiKey } from './api-key.queries.js';
import { UserEntity } from './user.entity.js';

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

const iso = (value: string | Date | null | undefined) => (value === null || value === undefined ? null : new Date(value).toISOString());

function record(key: ApiKey): ApiKeyRecord {
  return {
    id: key.id,
    name: key.name,
    key_prefix: key.key_prefix,
    created_at: iso(key.created_at)!,
    // The spec types last_used_at as a timestamp, never null (clients parse it as one): a key not
    // used yet reports its creation time, as the service these clients were written for did.
    last_used_at: iso(key.last_used_at ?? key.created_at)!,
    revoked: key.revoked_at !== null && key.revoked_at !== undefined,
  };
}

/** Beside the spec's fields of a key made before the account proved its address. */
const UNPROVEN_KEY_NOTICE = {
  ends_when_email_verified: true as const,
  warning:
    'Your e-mail address is not verified yet: this key will be revoked when it is (by the verification link or a password reset), ' +
    'since keys made before the address is proven could belong to someone else. Verify the address, then create the keys you keep.',
};

/**
 * Whether the caller's credential still stands inside the key-creation transaction (the account
 * row locked): an API key not revoked since, a session or OAuth token issued after the account's
 * last sign-out-everything (`sessions_valid_after`).
 */
async function credentialStands(tx: EntityManager, caller: AccountCaller, validAfter: Date | string | null | undefined): Promise<boolean> {
  if (caller.keyId) return (await tx.count(ApiKeyEntity, { id: caller.keyId, revoked_at: null })) === 1;
  if (!validAfter || caller.credentialIssuedAtMs === undefined) return true;
  return caller.credentialIssuedAtMs >= new Date(validAfter).getTime();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class ApiKeyService {
  /** key id -> when this process last wrote its last_used_at. */
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly deps: { orm: MikroORM; accounts: Pick<AccountsService, 'callerFromRow'>; counters: CounterStore; logger: Pick<Logger, 'error'> },
  ) {}

  /** Every key of the caller, newest first; revoked keys stay listed with `revoked: true`. */
  async list(ctx: RequestContext): Promise<ApiKeyRecord[]> {
    const caller = requireAccount(ctx);
    const keys = await ctx.em.find(ApiKeyEntity, { user_id: caller.userId }, { orderBy: { created_at: 'desc', id: 'asc' } });
    return keys.map(record);
  }

  /**
   * Creates a key (409 past MAX_ACTIVE_KEYS active keys; revoked ones do not count); the only time
   * the full key is returned. An account that has not proven its address may create keys (the
   * spec's register, login, POST /v1/keys flow; deployments without a mail relay cannot verify),
   * but such a key is revoked when the address is proven (email-proof.ts): the answer says so.
   */
  async create(ctx: RequestContext, input: unknown): Promise<CreatedApiKey> {
    // limited per caller across doors and processes (operation-limits.ts)
    await throttleOperation(this.deps.counters, budgetHolderOf(ctx), operationLimit('create_key'));
    const caller = requireAccount(ctx);
    const body = parseInput(createKeyBodySchema, input ?? {});
    const key = generateApiKey();
    const created = await ctx.em.transactional(async (tx) => {
      // the account row is the lock that serialises concurrent creations for one account
      const owner = await tx.findOne(UserEntity, { id: caller.userId }, { lockMode: LockMode.PESSIMISTIC_WRITE, fields: ['id', 'email_verified', 'sessions_valid_after'] });
      if (!owner) throw new DomainError('unauthorized', 'Account no longer exists');
      // The request was authenticated before this lock: a proof of the address (or a reset) that
      // committed in between ended its credential, which must not leave a new key behind.
      if (!(await credentialStands(tx, caller, owner.sessions_valid_after))) {
        throw new DomainError('unauthorized', 'Your sign-in was ended (the e-mail address was proven or the password reset); sign in again');
      }
      const active = await tx.count(ApiKeyEntity, { user_id: caller.userId, revoked_at: null });
      if (active >= MAX_ACTIVE_KEYS) {
        throw new DomainError(
          'conflict',
          `API key limit reached: an account can have at most ${MAX_ACTIVE_KEYS} active keys; revoke one before creating another`,
        );
      }
      const row = tx.create(ApiKeyEntity, {
        id: randomUUID(),
        user_id: caller.userId,
        name: body.name,
        key_hash: sha256(key),
        key_prefix: keyPrefix(key),
        created_at: new Date(),
        last_used_at: null,
        revoked_at: null,
      });
      await tx.persist(row).flush();
      return { row, proven: Boolean(owner.email_verified) };
    });
    return { ...record(created.row), key, ...(created.proven ? {} : UNPROVEN_KEY_NOTICE) };
  }

  /**
   * Revokes one of the caller's keys at once (it stays listed as revoked); revoking it again
   * answers the same. Another account's key id is 404, as an unknown one.
   */
  async revoke(ctx: RequestContext, keyId: string): Promise<KeyRevocation> {
    const caller = requireAccount(ctx);
    if (!UUID.test(keyId)) throw new NotFoundError('API key not found');
    await ctx.em.transactional(async (tx) => {
      const key = await tx.findOne(ApiKeyEntity, { id: keyId, user_id: caller.userId });
      if (!key) throw new NotFoundError('API key not found');
      key.revoked_at ??= new Date();
    });
    return { status: 'revoked', id: keyId };
  }

  /**
   * Renames one of the caller's keys (revoked ones too: they stay listed); the answer is its
   * listing item. Another account's key id is 404, as an unknown one; a bad name 422.
   */
  async rename(ctx: RequestContext, keyId: string, input: unknown): Promise<ApiKeyRecord> {
    await throttleOperation(this.deps.counters, budgetHolderOf(ctx), operationLimit('rename_key'));
    const caller = requireAccount(ctx);
    const { name } = parseInput(renameKeyBodySchema, input ?? {});
    if (!UUID.test(keyId)) throw new NotFoundError('API key not found');
    return ctx.em.transactional(async (tx) => {
      const key = await tx.findOne(ApiKeyEntity, { id: keyId, user_id: caller.userId });
      if (!key) throw new NotFoundError('API key not found');
      key.name = name;
      await tx.flush();
      return record(key);
    });
  }

  /**
   * The caller an API key stands for, or null when it is unknown or revoked. One raw join on
   * purpose (findKeyCaller): this runs on every request with a key (measured by
   * `npm run bench:auth`), and fetching only the columns a caller needs costs less than loading
   * two entities.
   */
  async authenticate(key: string, ip: string | null): Promise<AccountCaller | null> {
    // authentication decides who the caller is: it runs before the request's context exists
    const row = await findKeyCaller(backgroundEm(this.deps.orm), sha256(key));
    if (!row) return null;
    this.touch(row.key_id, row.last_used_at);
    return this.deps.accounts.callerFromRow(row, { kind: 'api_key', ip, keyId: row.key_id });
  }

  /**
   * Keeps last_used_at current without a write per request: at most one write a minute per key,
   * fire-and-forget raw SQL (no entity manager or unit of work on the request path).
   */
  private touch(keyId: string, lastUsed: string | Date | null): void {
    const now = Date.now();
    const stored = lastUsed ? new Date(lastUsed).getTime() : 0;
    const written = Math.max(stored, this.touched.get(keyId) ?? 0);
    if (now - written < LAST_USED_EVERY_MS) return;
    this.touched.set(keyId, now);
    if (this.touched.size > 10_000) this.touched.clear();
    // fire and forget: it may outlive the request, so not the request's unit of work
    void touchApiKey(backgroundEm(this.deps.orm), keyId, new Date(now)).catch((error) => this.deps.logger.error('api keys: could not update last_used_at', error));
  }
}
