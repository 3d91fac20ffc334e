/**
 * The per-caller operation limits (issue #35 item 8) on the real counter stores: two limiters on
 * one Redis (as two server processes are) count one budget per account and operation; another
 * account, another operation and an anonymous caller's IP have budgets of their own; a Redis that
 * does not answer refuses with 503 rather than letting calls through uncounted.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { type AccountCaller, contextsWithoutDatabase, type RequestContext } from '../../context.js';
import { DomainError } from '../../errors.js';
import { MemoryCounterStore } from './counter-store.js';
import { OPERATION_LIMITS, OperationLimiter } from './operation-limits.js';
import { REDIS_RETRY_AFTER_SECONDS, RedisCounterStore } from './redis-counter-store.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** About counting, not deadlines: a loaded machine's first command may pass the 250 ms default. */
const UNHURRIED_MS = 10_000;

function accountContext(userId: string): RequestContext {
  const caller: AccountCaller = {
    kind: 'user', ip: '127.0.0.1', userId, email: `${userId}@example.org`, plan: 'free', isAdmin: false,
    emailVerified: true, seats: 1, keyId: null, billingPeriod: null,
  };
  return contextsWithoutDatabase.forCaller(caller);
}

/** The DomainError a call ends with (fails the test when it succeeds or throws something else). */
async function refusal(call: Promise<unknown>): Promise<DomainError> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe('operation limits', () => {
  const clients: Redis[] = [];
  afterAll(() => {
    for (const client of clients) client.disconnect();
  });

  it('counts one budget per account and operation across two limiters on one Redis (two processes)', async () => {
    const prefix = `lsp-test:${randomUUID()}:`;
    const [a, b] = [0, 1].map(() => {
      const client = new Redis(REDIS_URL);
      clients.push(client);
      return new OperationLimiter(new RedisCounterStore(client, prefix, UNHURRIED_MS));
    }) as [OperationLimiter, OperationLimiter];
    const { limit, durationSeconds } = OPERATION_LIMITS.team_invite;
    const owner = accountContext(randomUUID());
    for (let i = 0; i < limit; i++) await (i % 2 ? a : b).check(owner, 'team_invite');
    for (const limiter of [a, b]) {
      const refused = await refusal(limiter.check(owner, 'team_invite'));
      expect(refused.code).toBe('rate_limited');
      expect(refused.message).toBe(`Too many requests: at most ${limit} team_invite requests per ${durationSeconds} seconds`);
      expect(refused.details?.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      // counted in 1 s buckets: at most one bucket past the window
      expect(refused.details?.retryAfterSeconds).toBeLessThanOrEqual(durationSeconds + 1);
    }
    // another account, and another operation of the same account, are not affected
    await a.check(accountContext(randomUUID()), 'team_invite');
    await b.check(owner, 'team_join_link_rotate');
  });

  it('keys an anonymous caller by its client IP', async () => {
    const limiter = new OperationLimiter(new MemoryCounterStore());
    const { limit } = OPERATION_LIMITS.billing_checkout;
    const fromOneAddress = () => contextsWithoutDatabase.anonymous('192.0.2.7');
    for (let i = 0; i < limit; i++) await limiter.check(fromOneAddress(), 'billing_checkout');
    expect((await refusal(limiter.check(fromOneAddress(), 'billing_checkout'))).code).toBe('rate_limited');
    await limiter.check(contextsWithoutDatabase.anonymous('192.0.2.8'), 'billing_checkout');
    // an account calling from the same address has its own budget
    await limiter.check(accountContext(randomUUID()), 'billing_checkout');
  });

  it('refuses with 503 and Retry-After when Redis does not answer, counting nothing', async () => {
    // a port nobody listens on: taken free, then closed
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    // the client as the service makes it (accounts.module.ts): nothing queued while disconnected
    const client = new Redis(`redis://127.0.0.1:${port}`, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false });
    client.on('error', () => undefined);
    clients.push(client);
    const limiter = new OperationLimiter(new RedisCounterStore(client, `lsp-test:${randomUUID()}:`, 250));
    const refused = await refusal(limiter.check(accountContext(randomUUID()), 'admin_erase_user'));
    expect(refused.code).toBe('unavailable');
    expect(refused.details?.retryAfterSeconds).toBe(REDIS_RETRY_AFTER_SECONDS);
  });
});
