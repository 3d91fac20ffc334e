/**
 * One unit of work per request (src/context.ts), on PostgreSQL and PGlite:
 *  - a context forks the entity manager once, on first use, and every service call of the
 *    request shares it (its identity map holds what an earlier call loaded);
 *  - a write is one transaction: when a later statement of it fails, what the same request wrote
 *    before it in that transaction is rolled back (an account's erasure whose admin audit entry
 *    fails leaves the account, its override and no deletion log).
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { type AccountCaller, requestContexts, type RequestContexts } from '../src/context.js';
import { createLogger } from '../src/logger.js';
import { AccountDeletionService } from '../src/modules/accounts/account-deletion.service.js';
import { UserEntity } from '../src/modules/accounts/user.entity.js';
import { PlanOverrideEntity, UserDeletionLogEntity } from '../src/modules/admin/admin.entities.js';
import { PlanOverrideService } from '../src/modules/admin/plan-override.service.js';
import { MemoryCounterStore } from '../src/modules/usage/counter-store.js';
import { UsageRecorder } from '../src/modules/usage/usage-recorder.js';
import { UsageService } from '../src/modules/usage/usage.service.js';
import { sqlRun } from '../src/util/raw-sql.js';
import { openMigratedTestDatabase, TEST_BACKENDS, type TestDatabase } from './helpers/test-databases.js';
import { OperationLimiter } from '../src/modules/usage/operation-limits.js';

const admin: AccountCaller = { kind: 'user', ip: null, userId: randomUUID(), email: 'boss@example.org', plan: 'free', isAdmin: true, emailVerified: true, seats: 1, keyId: null, billingPeriod: null };

describe.each(TEST_BACKENDS)('one unit of work per request on %s', (backend) => {
  let db: TestDatabase;
  /** Forks made through `contexts` (the factory every door gets). */
  let forks = 0;
  let contexts: RequestContexts;

  async function createUser(): Promise<string> {
    const em = db.orm.em.fork();
    const email = `uow-${randomUUID()}@example.org`;
    const user = em.create(UserEntity, { id: randomUUID(), email, email_lower: email, email_verified: true, plan: 'free', created_at: new Date() });
    await em.flush();
    return user.id;
  }

  beforeAll(async () => {
    db = await openMigratedTestDatabase(backend);
    contexts = requestContexts({
      em: {
        fork: () => {
          forks += 1;
          return db.orm.em.fork();
        },
      },
    });
  });
  afterAll(async () => {
    await db?.dispose();
  });

  it('forks once per request, on first use, and shares the identity map between service calls', async () => {
    const overrides = new PlanOverrideService({ orm: db.orm, limits: new OperationLimiter(new MemoryCounterStore()) });
    const [first, second] = [await createUser(), await createUser()];
    forks = 0;
    const untouched = contexts.forCaller(admin);
    expect(untouched.requestId).toBeDefined();
    expect(forks).toBe(0);

    const ctx = contexts.forCaller(admin);
    await overrides.set(ctx, { user_id: first }, { plan: 'professional' });
    await overrides.set(ctx, { user_id: second }, { plan: 'developer_pro' });
    expect(forks).toBe(1);
    // the override the first call wrote is managed by the request's entity manager, so a later
    // read of the same request answers from its identity map: the very same object
    const managed = managedWithUserId(ctx.em, first);
    expect(managed).toHaveLength(1);
    expect(managedWithUserId(ctx.em, second)).toHaveLength(1);
    const again = await ctx.em.findOne(PlanOverrideEntity, { user_id: first });
    expect(again).toBe(managed[0]);
    expect(forks).toBe(1);
  });

  it('rolls back what the transaction wrote before a failing write of the same request', async () => {
    const userId = await createUser();
    const ctx = contexts.forCaller(admin);
    await new PlanOverrideService({ orm: db.orm, limits: new OperationLimiter(new MemoryCounterStore()) }).set(ctx, { user_id: userId }, { plan: 'professional' });
    const usage = new UsageService({ orm: db.orm, store: new MemoryCounterStore(), recorder: new UsageRecorder(db.orm, createLogger('silent')), settings: { allowAnonymous: false, rateLimits: true } });
    const deletion = new AccountDeletionService({ orm: db.orm, usage });

    // The erasure writes the deletion log, deletes the override and the account, then (the admin
    // path) writes the audit entry in the same transaction: here that last write breaks a NOT NULL.
    const failingAudit = async (tx: EntityManager) => {
      await sqlRun(tx, 'insert into admin_audit_entry (id) values (null)');
    };
    await expect(deletion.erase(ctx, { userId, actor: { userId: admin.userId, email: admin.email }, reason: 'rollback test' }, failingAudit)).rejects.toThrow();

    const em = db.orm.em.fork();
    expect(await em.findOne(UserEntity, { id: userId })).not.toBeNull();
    expect(await em.findOne(PlanOverrideEntity, { user_id: userId })).toMatchObject({ plan: 'professional' });
    expect(await em.count(UserDeletionLogEntity, { user_id: userId })).toBe(0);

    // the same erasure with a working audit step goes through: the failure above was the audit's alone
    expect(await deletion.erase(contexts.forCaller(admin), { userId, actor: { userId: admin.userId, email: admin.email }, reason: 'second try' })).toBe(true);
    expect(await db.orm.em.fork().count(UserDeletionLogEntity, { user_id: userId })).toBe(1);
  });
});

/** The entities the entity manager's identity map holds for `userId` (by their user_id column). */
function managedWithUserId(em: EntityManager, userId: string): object[] {
  return [...em.getUnitOfWork().getIdentityMap()].filter((entity) => (entity as { user_id?: unknown }).user_id === userId);
}
