/**
 * The admin services' rules on a real database (PostgreSQL and PGlite): the plan override, the
 * feedback report transitions, the user listing, and an account's erasure. The pure rules:
 * admin-rules.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { type AccountCaller, contextsWithoutDatabase, requestContexts, type RequestContext, type RequestContexts } from '../../context.js';
import { DomainError } from '../../errors.js';
import { createLogger } from '../../logger.js';
import { openMigratedTestDatabase, TEST_BACKENDS, type TestDatabase } from '../../../test/helpers/test-databases.js';
import { AccountDeletionService, emailHash } from '../accounts/account-deletion.service.js';
import { UserEntity } from '../accounts/user.entity.js';
import { MemoryCounterStore } from '../usage/counter-store.js';
import { UsageRecorder } from '../usage/usage-recorder.js';
import { UsageService } from '../usage/usage.service.js';
import { AdminAuditEntryEntity, PlanOverrideEntity, UserDeletionLogEntity } from './admin.entities.js';
import { AdminUsersService } from './admin-users.service.js';
import { FeedbackAdminService } from './feedback-admin.service.js';
import { FeedbackReportEntity } from './feedback-report.entity.js';
import { PlanOverrideService } from './plan-override.service.js';
import { OperationLimiter } from '../usage/operation-limits.js';

/** The contexts of the database under test (set once it is migrated). */
let contexts: RequestContexts = contextsWithoutDatabase;

function adminContext(overrides: Partial<AccountCaller> = {}): RequestContext {
  return contexts.forCaller({ kind: 'user', ip: null, userId: randomUUID(), email: 'boss@example.org', plan: 'free', isAdmin: true, emailVerified: true, seats: 1, keyId: null, billingPeriod: null, ...overrides });
}

/** The code of the domain error `run` fails with (thrown at once or rejected). */
async function rejection(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return 'no error';
  } catch (error) {
    return error instanceof DomainError ? error.code : `no DomainError: ${String(error)}`;
  }
}

describe.each(TEST_BACKENDS)('admin services on %s', (backend) => {
  let db: TestDatabase;

  async function createUser(email = `u-${randomUUID()}@example.org`, plan = 'free'): Promise<string> {
    const em = db.orm.em.fork();
    const user = em.create(UserEntity, { id: randomUUID(), email, email_lower: email.toLowerCase(), email_verified: true, plan, created_at: new Date() });
    await em.flush();
    return user.id;
  }

  beforeAll(async () => {
    db = await openMigratedTestDatabase(backend);
    contexts = requestContexts(db.orm);
  });
  afterAll(async () => {
    await db?.dispose();
  });

  describe('plan override', () => {
    const service = () => new PlanOverrideService({ orm: db.orm, limits: new OperationLimiter(new MemoryCounterStore()) });

    it("wins over the subscription's plan until removed, and each change is audited", async () => {
      const userId = await createUser();
      const admin = adminContext();
      const set = await service().set(admin, { user_id: userId }, { plan: 'professional', reason: 'partner' });
      expect(set).toMatchObject({ user_id: userId, plan: 'professional', subscription_plan: 'free', override: { plan: 'professional', reason: 'partner', set_by_user_id: (admin.caller as AccountCaller).userId } });
      expect(await db.orm.em.fork().findOne(PlanOverrideEntity, { user_id: userId })).toMatchObject({ plan: 'professional' });

      const removed = await service().set(admin, { user_id: userId }, { plan: null });
      expect(removed).toEqual({ user_id: userId, plan: 'free', subscription_plan: 'free', override: null });
      expect(await db.orm.em.fork().findOne(PlanOverrideEntity, { user_id: userId })).toBeNull();

      const audit = await db.orm.em.fork().find(AdminAuditEntryEntity, { target_id: userId, action: 'user.plan_override' }, { orderBy: { created_at: 'asc' } });
      expect(audit).toHaveLength(2);
      expect(audit[1]!.before).toMatchObject({ override: { plan: 'professional', reason: 'partner' }, subscription_plan: 'free' });
      expect(audit[1]!.after).toEqual({ override: null });
    });

    it('refuses an unknown user (404), a plan outside the catalogue (422) and a non-administrator (403)', async () => {
      expect(await rejection(() => service().set(adminContext(), { user_id: randomUUID() }, { plan: 'professional' }))).toBe('not_found');
      const userId = await createUser();
      expect(await rejection(() => service().set(adminContext(), { user_id: userId }, { plan: 'platinum' }))).toBe('validation_failed');
      expect(await rejection(() => service().set(adminContext({ isAdmin: false }), { user_id: userId }, { plan: 'professional' }))).toBe('forbidden');
    });
  });

  describe('feedback reports', () => {
    const service = () => new FeedbackAdminService({ orm: db.orm, limits: new OperationLimiter(new MemoryCounterStore()) });

    async function createReport(): Promise<string> {
      const em = db.orm.em.fork();
      const report = em.create(FeedbackReportEntity, {
        id: randomUUID(),
        user_id: null,
        api_key_id: null,
        source: 'DE/BGH',
        source_id: null,
        issue_type: 'other',
        description: 'Something is off here.',
        status: 'open',
        channel: 'rest',
        created_at: new Date(),
      });
      await em.flush();
      return report.id;
    }

    it('moves an open report to forwarded and then resolved, and a closed one no more (409)', async () => {
      const reportId = await createReport();
      const forwarded = await service().markForwarded(adminContext(), { report_id: reportId }, { url: 'https://tracker.example.org/7' });
      expect(forwarded).toMatchObject({ status: 'forwarded', forwarded_url: 'https://tracker.example.org/7' });
      expect(forwarded.updated_at).not.toBeNull();
      const resolved = await service().update(adminContext(), { report_id: reportId }, { status: 'resolved', note: 'fixed upstream' });
      expect(resolved).toMatchObject({ status: 'resolved', status_note: 'fixed upstream', forwarded_url: 'https://tracker.example.org/7' });
      expect(await rejection(() => service().update(adminContext(), { report_id: reportId }, { status: 'dismissed' }))).toBe('conflict');
      expect(await rejection(() => service().markForwarded(adminContext(), { report_id: reportId }, { url: 'https://tracker.example.org/8' }))).toBe('conflict');
    });

    it("never sets 'open' by hand (422) and answers 404 for an unknown report", async () => {
      const reportId = await createReport();
      expect(await rejection(() => service().update(adminContext(), { report_id: reportId }, { status: 'open' }))).toBe('validation_failed');
      expect(await rejection(() => service().update(adminContext(), { report_id: randomUUID() }, { status: 'resolved' }))).toBe('not_found');
    });
  });

  describe('user listing', () => {
    it("finds a user by a part of the address, with the override's plan and the request totals", async () => {
      const marker = randomUUID().slice(0, 8);
      const userId = await createUser(`list_${marker}@example.org`);
      await new PlanOverrideService({ orm: db.orm, limits: new OperationLimiter(new MemoryCounterStore()) }).set(adminContext(), { user_id: userId }, { plan: 'professional' });
      const users = new AdminUsersService({ orm: db.orm, isAdmin: () => false });
      const page = await users.users(adminContext(), { search: `list_${marker}`, sort: 'email' });
      expect(page.total).toBe(1);
      expect(page.users[0]).toMatchObject({ id: userId, plan: 'professional', subscription_plan: 'free', requests_total: 0, requests_period: 0 });
      // `_` is literal: the same search with another character in its place finds nothing
      expect((await users.users(adminContext(), { search: `listx${marker}` })).total).toBe(0);
      expect(await users.requestTotals(adminContext(), [userId])).toEqual(new Map());
      expect(await rejection(() => users.userEndpoints(adminContext(), { user_id: randomUUID() }))).toBe('not_found');
    });
  });

  describe('erasure', () => {
    it('logs the deletion, deletes the account and its override, keeps its usage rows anonymised', async () => {
      const email = `gone-${randomUUID()}@example.org`;
      const userId = await createUser(email);
      const admin = adminContext();
      await new PlanOverrideService({ orm: db.orm, limits: new OperationLimiter(new MemoryCounterStore()) }).set(admin, { user_id: userId }, { plan: 'professional' });
      await db.orm.em.fork().getConnection().execute("insert into usage_event (user_id, endpoint, status, created_at) values (?, 'search', 200, ?)", [userId, new Date()], 'run');
      const usage = new UsageService({ orm: db.orm, store: new MemoryCounterStore(), recorder: new UsageRecorder(db.orm, createLogger('silent')), settings: { allowAnonymous: false, rateLimits: true } });
      const deletion = new AccountDeletionService({ orm: db.orm, usage });
      const actor = admin.caller as AccountCaller;

      expect(await deletion.erase(adminContext(), { userId, actor: { userId: actor.userId, email: actor.email }, reason: 'requested by mail' })).toBe(true);

      const em = db.orm.em.fork();
      expect(await em.findOne(UserEntity, { id: userId })).toBeNull();
      expect(await em.findOne(PlanOverrideEntity, { user_id: userId })).toBeNull();
      const log = await em.findOne(UserDeletionLogEntity, { user_id: userId });
      expect(log).toMatchObject({ email_hash: emailHash(email), actor_user_id: actor.userId, actor_email: actor.email, reason: 'requested by mail' });
      const count = async (where: string, params: unknown[] = []) =>
        Number(((await em.getConnection().execute(`select count(*) as n from usage_event where ${where}`, params)) as { n: string | number }[])[0]!.n);
      expect(await count('user_id = ?', [userId])).toBe(0);
      expect(await count('user_id is null and api_key_id is null')).toBe(1);
      expect(await deletion.erase(adminContext(), { userId, actor: null, reason: null })).toBe(false);
    });
  });
});
