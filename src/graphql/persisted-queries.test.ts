/**
 * Automatic persisted queries through the gateway, over real HTTP (src/graphql/persisted-queries.ts):
 * the hash alone is unknown, then registered with its query, then enough by POST and by GET
 * (never for a mutation); a wrong hash is refused; the store is bounded; with Redis a second
 * gateway (another process in production) knows a hash the first one registered.
 */
import express from 'express';
import { Redis } from 'ioredis';
import { createHash, randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GRAPHQL_LIMIT_DEFAULTS, type PersistedQuerySettings } from '../config.js';
import { mountGraphql } from './gateway.js';
import { MemoryPersistedQueryCache, RedisPersistedQueryCache } from './persisted-queries.js';
import { type GraphqlServices, schemaOnlyServices } from './subgraphs.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

interface Answer {
  status: number;
  body: { data?: unknown; errors?: { message: string; extensions?: { code?: string } }[] };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const persisted = (query: string) => ({ persistedQuery: { version: 1, sha256Hash: sha256(query) } });
const codes = (answer: Answer) => (answer.body.errors ?? []).map((e) => e.extensions?.code);

/** Schema-only services whose key revocation (the `revokeKey` mutation) is counted, then refused. */
function countingServices(): { services: GraphqlServices; revocations: () => number } {
  const services = schemaOnlyServices();
  let revocations = 0;
  const apiKeys = {
    ...services.accounts.apiKeys,
    revoke: async () => {
      revocations += 1;
      throw new Error('not in this test');
    },
  } as unknown as GraphqlServices['accounts']['apiKeys'];
  return { services: { ...services, accounts: { ...services.accounts, apiKeys } }, revocations: () => revocations };
}

/** A gateway on a loopback port; `redis` shares its persisted queries. */
async function serveGateway(options: { redis?: { client: Redis; prefix: string }; persistedQueries?: PersistedQuerySettings; services?: GraphqlServices } = {}) {
  const app = express();
  const settings = { introspection: true, limits: GRAPHQL_LIMIT_DEFAULTS, persistedQueries: options.persistedQueries };
  const redis = options.redis ? { client: options.redis.client, prefix: options.redis.prefix, timeoutMs: 1000 } : null;
  const door = await mountGraphql(app, { services: options.services ?? schemaOnlyServices(), subgraphUrls: {}, settings, redis });
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  const answer = async (res: Response): Promise<Answer> => ({ status: res.status, body: (await res.json()) as Answer['body'] });
  return {
    post: async (body: unknown) => answer(await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })),
    /** GET with the parameters as Apollo's clients send them; `preflight` adds the header CSRF prevention asks of a GET. */
    get: async (params: Record<string, unknown>, preflight = true) => {
      const query = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
      return answer(await fetch(`${url}?${query}`, { headers: preflight ? { 'apollo-require-preflight': 'true' } : {} }));
    },
    async stop() {
      await door.stop();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

type Gateway = Awaited<ReturnType<typeof serveGateway>>;

const QUERY = 'query Typename { __typename }';

describe('automatic persisted queries through the gateway, kept in memory', () => {
  let gateway: Gateway;
  let counting: ReturnType<typeof countingServices>;
  beforeAll(async () => {
    counting = countingServices();
    gateway = await serveGateway({ services: counting.services });
  });
  afterAll(() => gateway.stop());

  it('answers PERSISTED_QUERY_NOT_FOUND to an unknown hash, registers it with the query, then runs the hash alone by POST and GET', async () => {
    const query = `query Unknown${randomUUID().replaceAll('-', '')} { __typename }`;
    const first = await gateway.post({ extensions: persisted(query) });
    expect(codes(first)).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
    expect(first.body.data).toBeUndefined();

    expect(await gateway.post({ query, extensions: persisted(query) })).toEqual({ status: 200, body: { data: { __typename: 'Query' } } });
    expect(await gateway.post({ extensions: persisted(query) })).toEqual({ status: 200, body: { data: { __typename: 'Query' } } });
    expect(await gateway.get({ extensions: persisted(query) })).toEqual({ status: 200, body: { data: { __typename: 'Query' } } });
  });

  it('refuses a query sent with a hash that is not its own, and does not register it', async () => {
    const wrong = { persistedQuery: { version: 1, sha256Hash: sha256('query Other { __typename }') } };
    const refused = await gateway.post({ query: QUERY, extensions: wrong });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([expect.objectContaining({ message: 'provided sha does not match query', extensions: expect.objectContaining({ code: 'PERSISTED_QUERY_HASH_MISMATCH' }) })]);
    expect(codes(await gateway.post({ extensions: wrong }))).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
  });

  it('keeps a GET by hash behind CSRF prevention: without a preflight header it is refused', async () => {
    await gateway.post({ query: QUERY, extensions: persisted(QUERY) });
    const simple = await gateway.get({ extensions: persisted(QUERY) }, false);
    expect(simple.status).toBe(400);
    expect(simple.body.errors?.[0]?.message).toMatch(/CSRF/);
  });

  it('never runs a mutation from a GET, by hash or by text', async () => {
    const mutation = 'mutation Revoke { revokeKey(id: "k1") { status } }';
    await gateway.post({ query: mutation, extensions: persisted(mutation) });
    expect(counting.revocations()).toBe(1); // registered by POST, which runs it

    const byHash = await gateway.get({ extensions: persisted(mutation) });
    const byText = await gateway.get({ query: mutation });
    expect([byHash.status, byText.status]).toEqual([405, 405]);
    expect(byHash.body.errors?.[0]?.message).toBe('GET requests only support query operations, not mutation operations');
    expect(counting.revocations()).toBe(1);
  });

  it('does not register a query the gateway refuses (over a bound)', async () => {
    const tooDeep = `query Deep { ${'... on Query { '.repeat(20)}__typename${' }'.repeat(20)} }`;
    expect(codes(await gateway.post({ query: tooDeep, extensions: persisted(tooDeep) }))).toContain('GRAPHQL_TOO_DEEP');
    expect(codes(await gateway.post({ extensions: persisted(tooDeep) }))).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
  });
});

describe('automatic persisted queries turned off (GRAPHQL_PERSISTED_QUERIES_MAX_BYTES=0)', () => {
  it('answers PERSISTED_QUERY_NOT_SUPPORTED, and plain queries still run', async () => {
    const gateway = await serveGateway({ persistedQueries: { maxBytes: 0, ttlSeconds: 60 } });
    try {
      expect(codes(await gateway.post({ query: QUERY, extensions: persisted(QUERY) }))).toEqual(['PERSISTED_QUERY_NOT_SUPPORTED']);
      expect(await gateway.post({ query: QUERY })).toEqual({ status: 200, body: { data: { __typename: 'Query' } } });
    } finally {
      await gateway.stop();
    }
  });
});

describe('automatic persisted queries shared through Redis', () => {
  let client: Redis;
  let prefix: string;
  let first: Gateway;
  let second: Gateway;
  beforeAll(async () => {
    client = new Redis(REDIS_URL);
    prefix = `lsp-test:${randomUUID()}:apq:`;
    first = await serveGateway({ redis: { client, prefix } });
    second = await serveGateway({ redis: { client, prefix } });
  });
  afterAll(async () => {
    await Promise.all([first.stop(), second.stop()]);
    const keys = await client.keys(`${prefix}*`);
    if (keys.length > 0) await client.del(...keys);
    client.disconnect();
  });

  it('lets a second gateway run by hash a query the first one registered, with the TTL on the key', async () => {
    const query = `query Shared${randomUUID().replaceAll('-', '')} { __typename }`;
    expect(codes(await second.post({ extensions: persisted(query) }))).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
    expect((await first.post({ query, extensions: persisted(query) })).body).toEqual({ data: { __typename: 'Query' } });
    // Apollo writes the registration without waiting for it: wait until it is in Redis
    const keys = async () => client.keys(`${prefix}q:*${sha256(query)}`);
    for (let tries = 0; tries < 100 && (await keys()).length === 0; tries++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await second.post({ extensions: persisted(query) })).toEqual({ status: 200, body: { data: { __typename: 'Query' } } });
    expect(await second.get({ extensions: persisted(query) })).toEqual({ status: 200, body: { data: { __typename: 'Query' } } });
    const ttl = await client.ttl((await keys())[0]!);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(24 * 3600);
  });

  it('refuses a wrong hash through Redis too', async () => {
    const refused = await first.post({ query: QUERY, extensions: { persistedQuery: { version: 1, sha256Hash: sha256('query X { __typename }') } } });
    expect(refused.status).toBe(400);
    expect(codes(refused)).toEqual(['PERSISTED_QUERY_HASH_MISMATCH']);
  });
});

describe('the stores are bounded', () => {
  it('in memory: the least recently used query goes first once the bytes are over the bound, and an entry expires', async () => {
    let now = 0;
    const cache = new MemoryPersistedQueryCache({ maxBytes: 30, ttlSeconds: 60 }, () => now);
    await cache.set('a', 'a'.repeat(10));
    await cache.set('b', 'b'.repeat(10));
    await cache.set('c', 'c'.repeat(10));
    expect(await cache.get('a')).toBe('a'.repeat(10)); // a is now the most recently used
    await cache.set('d', 'd'.repeat(10));
    expect([await cache.get('a'), await cache.get('b'), await cache.get('c'), await cache.get('d')]).toEqual(['a'.repeat(10), undefined, 'c'.repeat(10), 'd'.repeat(10)]);
    expect(cache.heldBytes()).toBe(30);
    await cache.set('huge', 'x'.repeat(31));
    expect(await cache.get('huge')).toBeUndefined();
    now = 60_001;
    expect(await cache.get('a')).toBeUndefined();
    expect(cache.heldBytes()).toBe(20);
  });

  it('in Redis: registrations over the bytes of one TTL window are not stored, and each key expires', async () => {
    const client = new Redis(REDIS_URL);
    const prefix = `lsp-test:${randomUUID()}:apq:`;
    try {
      const cache = new RedisPersistedQueryCache(client, { maxBytes: 25, ttlSeconds: 120 }, 1000, prefix);
      await cache.set('a', 'a'.repeat(10));
      await cache.set('b', 'b'.repeat(10));
      await cache.set('c', 'c'.repeat(10)); // 30 bytes registered in this window: over 25
      expect([await cache.get('a'), await cache.get('b'), await cache.get('c')]).toEqual(['a'.repeat(10), 'b'.repeat(10), undefined]);
      const ttls = await Promise.all([`${prefix}q:a`, `${prefix}budget`].map((key) => client.ttl(key)));
      for (const ttl of ttls) expect(ttl).toBeGreaterThan(100);
      expect(await cache.delete('a')).toBe(true);
      expect(await cache.get('a')).toBeUndefined();
    } finally {
      const keys = await client.keys(`${prefix}*`);
      if (keys.length > 0) await client.del(...keys);
      client.disconnect();
    }
  });

  it('in Redis: a Redis that does not answer reads as not found (the client sends the full query), never an error', async () => {
    const client = new Redis('redis://127.0.0.1:1', { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    client.on('error', () => {});
    const cache = new RedisPersistedQueryCache(client, { maxBytes: 100, ttlSeconds: 60 }, 200);
    try {
      expect(await cache.get('a')).toBeUndefined();
    } finally {
      client.disconnect();
    }
  });
});
