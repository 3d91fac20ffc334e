/**
 * The durable queue of the Stripe cancellations erasures owe (src/modules/admin/stripe-cancellations.ts)
 * against the Stripe stand-in: a cancellation owed when the service stops is made by the next
 * one to start on the same embedded database; on PostgreSQL, two processes sweeping at once call
 * Stripe once per subscription; a cancellation that keeps failing is given up after MAX_ATTEMPTS.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { loadConfig } from '../src/config.js';
import { migrateUp } from '../src/db/orm.js';
import { createLogger } from '../src/logger.js';
import { MAX_ATTEMPTS, StripeCancellations } from '../src/modules/admin/stripe-cancellations.js';
import { createStripeClient } from '../src/modules/billing/stripe-client.js';
import { startPlatform } from '../src/platform.js';
import { startLocalStripe, type LocalStripe } from './helpers/stripe-server.js';
import { openTestDatabase, type TestDatabase } from './helpers/test-databases.js';
import { makeTestDataDir } from './helpers/pglite-template.js';

function activeSubscription(stripe: LocalStripe, id: string): void {
  stripe.subscriptions.set(id, { id, object: 'subscription', status: 'active', customer: `cus_${id}`, items: { object: 'list', data: [] } });
}

function stripeEnv(stripe: LocalStripe): Record<string, string> {
  return { STRIPE_SECRET_KEY: 'sk_test_cancellations', STRIPE_API_BASE: stripe.url, STRIPE_TIMEOUT_MS: '2000', STRIPE_MAX_NETWORK_RETRIES: '0' };
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('owed Stripe cancellations', () => {
  let stripe: LocalStripe;

  beforeAll(async () => {
    stripe = await startLocalStripe();
  });

  afterAll(async () => {
    await stripe?.stop();
  });

  it('survive a restart: owed when the service stops, made by the next one on the same embedded database', async () => {
    const dataDir = await makeTestDataDir('cancellations-restart-');
    const config = () => loadConfig({ DATA_DIR: dataDir, PORT: '0', EMBEDDER: 'none', INGEST_ON_START: 'false', ...stripeEnv(stripe) });
    activeSubscription(stripe, 'sub_restart_1');

    const first = await startPlatform(config(), createLogger('silent'));
    // owed in a transaction, as an erasure does, and never tried: the service stops first
    await first.orm.em.fork().transactional((tx) => first.admin.cancellations.owe(tx, randomUUID(), ['sub_restart_1']));
    await first.stop();
    expect(stripe.subscriptions.get('sub_restart_1')!.status).toBe('active');

    const second = await startPlatform(config(), createLogger('silent'));
    try {
      await until(() => stripe.subscriptions.get('sub_restart_1')!.status === 'canceled');
      await until(async () => (await second.admin.cancellations.retryDue()) === 0);
      const [row] = (await second.orm.em.fork().getConnection().execute('select attempts, completed_at, failed_at from pending_stripe_cancellation where subscription_id = ?', ['sub_restart_1'])) as any[];
      expect(row).toMatchObject({ attempts: 1, failed_at: null });
      expect(row.completed_at).not.toBeNull();
    } finally {
      await second.stop();
    }
  }, 180_000);

  describe('on PostgreSQL', () => {
    let db: TestDatabase;
    const stripeClient = () => createStripeClient(loadConfig({ DATA_DIR: os.tmpdir(), ...stripeEnv(stripe) }).billing.stripe!);
    const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

    beforeAll(async () => {
      db = await openTestDatabase('postgresql');
      await migrateUp(db.orm);
    }, 120_000);

    afterAll(async () => {
      await db?.dispose();
    });

    it('is swept by several processes at once, each subscription cancelled by exactly one of them', async () => {
      const ids = Array.from({ length: 6 }, (_, i) => `sub_shared_${i}`);
      ids.forEach((id) => activeSubscription(stripe, id));
      const processes = [0, 1, 2].map(() => new StripeCancellations({ orm: db.orm, stripe: stripeClient(), logger: silent }));
      await db.orm.em.fork().transactional((tx) => processes[0]!.owe(tx, randomUUID(), ids));
      const before = stripe.requests.length;

      const owed = await Promise.all(processes.map((p) => p.retryDue()));
      expect(owed).toContain(0);
      const cancels = stripe.requests.slice(before).filter((r) => r.method === 'DELETE').map((r) => r.path);
      expect(cancels.sort()).toEqual(ids.map((id) => `/v1/subscriptions/${id}`).sort());
      expect(ids.map((id) => stripe.subscriptions.get(id)!.status)).toEqual(ids.map(() => 'canceled'));
    });

    it(`retries with a growing delay and gives up after ${MAX_ATTEMPTS} attempts, logged as an error and no longer owed`, async () => {
      activeSubscription(stripe, 'sub_failing');
      let clock = Date.parse('2026-11-27T12:00:00Z');
      const errors: string[] = [];
      const cancellations = new StripeCancellations({ orm: db.orm, stripe: stripeClient(), logger: { ...silent, error: (message: string) => void errors.push(message) }, now: () => clock });
      await db.orm.em.fork().transactional((tx) => cancellations.owe(tx, randomUUID(), ['sub_failing']));
      stripe.failNext(MAX_ATTEMPTS, 500, '/v1/subscriptions/sub_failing');

      const select = async () =>
        ((await db.orm.em.fork().getConnection().execute('select attempts, next_attempt_at, failed_at, last_error from pending_stripe_cancellation where subscription_id = ?', ['sub_failing'])) as any[])[0];
      const delays: number[] = [];
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        await cancellations.retryDue();
        const row = await select();
        expect(row.attempts).toBe(attempt);
        if (attempt < MAX_ATTEMPTS) {
          // not due before its time
          delays.push(new Date(row.next_attempt_at).getTime() - clock);
          await cancellations.retryDue();
          expect((await select()).attempts).toBe(attempt);
          clock = new Date(row.next_attempt_at).getTime();
        }
      }
      expect(delays.slice(0, 4)).toEqual([60_000, 120_000, 240_000, 480_000]);
      expect(Math.max(...delays)).toBe(6 * 3600_000);
      const row = await select();
      expect(row.failed_at).not.toBeNull();
      expect(row.last_error).toBeTruthy();
      expect(errors).toEqual([expect.stringMatching(/gave up cancelling sub_failing .* after 20 attempts/)]);
      // given up: no longer owed, never tried again
      clock += 24 * 3600_000;
      const requests = stripe.requests.length;
      const owedRows = await db.orm.em.fork().getConnection().execute("select count(*) as n from pending_stripe_cancellation where completed_at is null and failed_at is null and subscription_id = 'sub_failing'");
      expect(Number((owedRows as any[])[0].n)).toBe(0);
      await cancellations.retryDue();
      expect(stripe.requests.length).toBe(requests);
      expect(stripe.subscriptions.get('sub_failing')!.status).toBe('active');
    });
  });
});
