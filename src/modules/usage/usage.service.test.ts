import { randomUUID } from 'node:crypto';
import { type AccountCaller, contextsWithoutDatabase, requestContexts, type RequestContext, type RequestContexts } from '../../context.js';
import { openMigratedTestDatabase, TEST_BACKENDS, type TestDatabase } from '../../../test/helpers/test-databases.js';
import { DomainError, ValidationError } from '../../errors.js';
import { createLogger } from '../../logger.js';
import { MemoryCounterStore } from './counter-store.js';
import { UsageRecorder } from './usage-recorder.js';
import { UsageService } from './usage.service.js';

/** The contexts of the database under test (set once it is migrated). */
let contexts: RequestContexts = contextsWithoutDatabase;

function account(userId: string = randomUUID(), overrides: Partial<AccountCaller> = {}): RequestContext {
  return contexts.forCaller({ kind: 'api_key', ip: '127.0.0.1', userId, email: 'u@example.org', plan: 'free', isAdmin: false, emailVerified: true, seats: 1, keyId: null, billingPeriod: null, ...overrides });
}

describe.each(TEST_BACKENDS)('usage guard on %s', (backend) => {
  let db: TestDatabase;
  const service = (settings = { allowAnonymous: false, rateLimits: true }) =>
    new UsageService({ orm: db.orm, store: new MemoryCounterStore(), recorder: new UsageRecorder(db.orm, createLogger('silent')), settings });
  const insertRows = async (userId: string, n: number, agoMs: number) => {
    for (let i = 0; i < n; i++) {
      await db.orm.em
        .fork()
        .getConnection()
        .execute("insert into usage_event (user_id, endpoint, status, created_at) values (?, 'search', 200, ?)", [userId, new Date(Date.now() - agoMs)], 'run');
    }
  };

  beforeAll(async () => {
    db = await openMigratedTestDatabase(backend);
    contexts = requestContexts(db.orm);
  });
  afterAll(async () => {
    await db?.dispose();
  });

  it('rebuilds in-process counters from the usage rows, so a restart hands out no fresh quota', async () => {
    const userId = randomUUID();
    await insertRows(userId, 20, 2 * 3600_000); // the whole daily quota, two hours ago
    const error = await service()
      .charge(account(userId), 'search', async () => 'served')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('rate_limited');
    expect((error as DomainError).message).toMatch(/20 requests per day/);
    const retry = (error as DomainError).details!.retryAfterSeconds!;
    expect(retry).toBeGreaterThan(21.9 * 3600);
    expect(retry).toBeLessThanOrEqual(22 * 3600 + 60);
  });

  it('counts successes and client errors once, gives server errors back, and refuses anonymous callers', async () => {
    const usage = service();
    const ctx = account();
    await usage.charge(ctx, 'search', async () => 'ok');
    await expect(usage.charge(ctx, 'search', async () => { throw new ValidationError([]); })).rejects.toBeInstanceOf(ValidationError);
    await expect(usage.charge(ctx, 'search', async () => { throw new Error('engine down'); })).rejects.toThrow('engine down');
    expect(ctx.rateLimit!.windows[0]).toMatchObject({ name: 'minute', limit: 10, remaining: 7 });
    const record = await usage.usageOf(ctx);
    expect(record).toMatchObject({ requests_today: 2, requests_in_period: 2 });
    const next = account((ctx.caller as AccountCaller).userId);
    await usage.charge(next, 'search', async () => 'ok');
    expect(next.rateLimit!.windows[0]!.remaining).toBe(7); // the server error's slot was given back
    await usage.flush();
    await expect(usage.charge(contexts.anonymous('10.0.0.1', 'x'), 'search', async () => 'ok')).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('counts but never refuses with RATE_LIMITS=off and for administrators', async () => {
    const off = service({ allowAnonymous: true, rateLimits: false });
    const admin = service();
    const a = account();
    const b = account(randomUUID(), { isAdmin: true });
    for (let i = 0; i < 12; i++) {
      await off.charge(a, 'documents', async () => 'ok');
      await admin.charge(b, 'documents', async () => 'ok');
    }
    expect((await off.usageOf(a)).requests_today).toBe(12);
    expect(await admin.usageOf(b)).toMatchObject({ requests_today: 12, limits_enforced: false });
  });
});
