/**
 * Automatic persisted queries (APQ) for the gateway: a client sends
 * `extensions.persistedQuery.sha256Hash` alone; the first time it gets PERSISTED_QUERY_NOT_FOUND,
 * sends the hash with the full query (Apollo Server checks that the hash is the query's SHA-256,
 * else 400), and from then on the hash alone is enough, by POST or by GET.
 *
 * Apollo Server runs the protocol; this module gives it the store, bounded either way:
 *
 * - in memory (no REDIS_URL): least recently used first out, at most `maxBytes` of query text,
 *   each entry at most `ttlSeconds` old;
 * - in Redis (REDIS_URL): every process of the service knows a hash another one registered. Each
 *   entry expires after `ttlSeconds`; a budget key counts the bytes registered in the current TTL
 *   window (it expires with the window), and a registration over `maxBytes` is not stored. Every
 *   entry dies within one window after the one it was stored in, so at most `2 × maxBytes` of
 *   query text is held. A refused registration costs the client nothing but the saving: the
 *   hash stays unknown and it sends the full query again.
 *
 * Apollo stores a query only after it parsed and validated (operation bounds included), so the
 * store never holds a document the gateway would refuse. A Redis that fails or is slow (over
 * `timeoutMs`) reads as "not found": the client falls back to the full query, never a 500.
 */
import type { ApolloServerOptions } from '@apollo/server';
import type { GraphQLFormattedError } from 'graphql';
import type { Redis } from 'ioredis';
import type { PersistedQuerySettings } from '../config.js';
import type { Logger } from '../logger.js';

/** Apollo's KeyValueCache as its persistedQueries option takes it (get, set with a TTL in seconds, delete). */
export type PersistedQueryCache = NonNullable<Exclude<ApolloServerOptions<object>['persistedQueries'], false | undefined>['cache']>;

/** Key prefix of the Redis store (the budget key and every query). */
export const PERSISTED_QUERY_REDIS_PREFIX = 'lsp:apq:';

/** Apollo Server's `persistedQueries` option: false when off, else the store described above. */
export function persistedQueryOptions(
  settings: PersistedQuerySettings,
  redis: { client: Redis; timeoutMs: number; prefix?: string; logger?: Logger } | null,
): ApolloServerOptions<object>['persistedQueries'] {
  if (settings.maxBytes <= 0) return false;
  const cache = redis
    ? new RedisPersistedQueryCache(redis.client, settings, redis.timeoutMs, redis.prefix ?? PERSISTED_QUERY_REDIS_PREFIX, redis.logger)
    : new MemoryPersistedQueryCache(settings);
  // The TTL is the store's own (both enforce it); Apollo passes this one to set().
  return { cache, ttl: settings.ttlSeconds };
}

/** `extensions.code` of a query sent with a hash that is not its SHA-256 (Apollo gives it none, so it would read INTERNAL_SERVER_ERROR). */
export const HASH_MISMATCH_CODE = 'PERSISTED_QUERY_HASH_MISMATCH';

/** Apollo's message for that refusal (its HTTP status is already 400). */
const HASH_MISMATCH_MESSAGE = 'provided sha does not match query';

/** `formatted` with HASH_MISMATCH_CODE when it is Apollo's hash-mismatch refusal; unchanged otherwise. */
export function withPersistedQueryErrorCode(formatted: GraphQLFormattedError): GraphQLFormattedError {
  if (formatted.message !== HASH_MISMATCH_MESSAGE || formatted.extensions?.code !== 'INTERNAL_SERVER_ERROR') return formatted;
  return { ...formatted, extensions: { ...formatted.extensions, code: HASH_MISMATCH_CODE } };
}

/** Bounded in-process store: a Map kept in use order (the first key is the least recently used). */
export class MemoryPersistedQueryCache implements PersistedQueryCache {
  private readonly entries = new Map<string, { query: string; bytes: number; expiresAt: number }>();
  private bytes = 0;

  constructor(
    private readonly settings: PersistedQuerySettings,
    private readonly now: () => number = Date.now,
  ) {}

  async get(key: string): Promise<string | undefined> {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.remove(key);
    if (entry.expiresAt <= this.now()) return undefined;
    this.entries.set(key, entry); // now the most recently used
    this.bytes += entry.bytes;
    return entry.query;
  }

  async set(key: string, query: string): Promise<void> {
    this.remove(key);
    const bytes = Buffer.byteLength(query);
    if (bytes > this.settings.maxBytes) return;
    this.entries.set(key, { query, bytes, expiresAt: this.now() + this.settings.ttlSeconds * 1000 });
    this.bytes += bytes;
    for (const [oldest] of this.entries) {
      if (this.bytes <= this.settings.maxBytes) break;
      this.remove(oldest);
    }
  }

  async delete(key: string): Promise<boolean> {
    return this.remove(key);
  }

  /** Bytes of query text (UTF-8) held now: what the bound counts. */
  heldBytes(): number {
    return this.bytes;
  }

  private remove(key: string): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
    return true;
  }
}

/**
 * Adds `bytes` to the window's budget (the key expires with the window) and stores the query
 * only when the budget allows it, in one atomic step. Returns 1 when stored.
 */
const REGISTER_SCRIPT = `
local used = redis.call('INCRBY', KEYS[1], ARGV[1])
if used == tonumber(ARGV[1]) then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
if used > tonumber(ARGV[3]) then return 0 end
redis.call('SET', KEYS[2], ARGV[4], 'EX', ARGV[2])
return 1
`;

/** The store shared by every process through Redis (see the module comment for its bound). */
export class RedisPersistedQueryCache implements PersistedQueryCache {
  constructor(
    private readonly redis: Redis,
    private readonly settings: PersistedQuerySettings,
    private readonly timeoutMs: number,
    private readonly prefix: string = PERSISTED_QUERY_REDIS_PREFIX,
    private readonly logger?: Logger,
  ) {}

  async get(key: string): Promise<string | undefined> {
    try {
      return (await this.withDeadline(this.redis.get(this.queryKey(key)))) ?? undefined;
    } catch (error) {
      this.logger?.warn(`graphql: persisted query store unavailable (${error instanceof Error ? error.message : String(error)}); the client will send the full query`);
      return undefined;
    }
  }

  async set(key: string, query: string): Promise<void> {
    const bytes = Buffer.byteLength(query);
    await this.withDeadline(
      this.redis.eval(REGISTER_SCRIPT, 2, this.budgetKey(), this.queryKey(key), bytes, this.settings.ttlSeconds, this.settings.maxBytes, query),
    );
  }

  async delete(key: string): Promise<boolean> {
    return (await this.withDeadline(this.redis.del(this.queryKey(key)))) > 0;
  }

  private queryKey(key: string): string {
    return `${this.prefix}q:${key}`;
  }

  private budgetKey(): string {
    return `${this.prefix}budget`;
  }

  private withDeadline<T>(work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer from Redis within ${this.timeoutMs} ms`)), this.timeoutMs);
    });
    return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
  }
}
