/**
 * The per-minute window's Retry-After (issue #34 item 11): at most 60 seconds, and a client that
 * waits exactly that long finds its slot free. A clock the test sets replaces waiting: the ten
 * requests land just after a second starts, where 1-second buckets held them for up to 61 s.
 */
import { randomUUID } from 'node:crypto';
import { requestContexts, type RequestContext } from '../../context.js';
import { openMigratedTestDatabase, type TestDatabase } from '../../../test/helpers/test-databases.js';
import { DomainError } from '../../errors.js';
import { createLogger } from '../../logger.js';
import { MemoryCounterStore } from './counter-store.js';
import { UsageRecorder } from './usage-recorder.js';
import { UsageService } from './usage.service.js';

describe('per-minute window', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openMigratedTestDatabase('pglite');
  });
  afterAll(async () => {
    await db?.dispose();
  });

  it('answers a full minute with a Retry-After of at most 60 s, after which the request is served', async () => {
    let now = Math.floor(Date.now() / 1000) * 1000 + 1; // 1 ms into a second
    const usage = new UsageService({
      orm: db.orm,
      store: new MemoryCounterStore(),
      recorder: new UsageRecorder(db.orm, createLogger('silent')),
      settings: { allowAnonymous: false, rateLimits: true },
      now: () => now,
    });
    const userId = randomUUID();
    const ctx = (): RequestContext =>
      requestContexts(db.orm).forCaller({ kind: 'api_key', ip: '127.0.0.1', userId, email: 'u@example.org', plan: 'free', isAdmin: false, emailVerified: true, seats: 1, keyId: null, billingPeriod: null });
    for (let i = 0; i < 10; i++) await usage.charge(ctx(), 'documents', async () => 'served');
    now += 5; // the 11th request, 5 ms later and in the same second
    const refused = await usage.charge(ctx(), 'documents', async () => 'served').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DomainError);
    const retryAfter = (refused as DomainError).details!.retryAfterSeconds!;
    expect(retryAfter).toBeGreaterThanOrEqual(59);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const limited = ctx();
    await expect(usage.charge(limited, 'documents', async () => 'served')).rejects.toBeInstanceOf(DomainError);
    expect(limited.rateLimit!.windows[0]!.resetSeconds).toBeLessThanOrEqual(60);

    now += retryAfter * 1000;
    await expect(usage.charge(ctx(), 'documents', async () => 'served')).resolves.toBe('served');
    await usage.flush();
  });
});
