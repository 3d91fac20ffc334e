/**
 * The Stripe subscriptions erasures still owe a cancellation, as a durable job queue in the
 * `pending_stripe_cancellation` table. An erasure records them in its own transaction (`owe`),
 * tries them right after the commit (`cancelOwed`), and whatever failed is retried (`retryDue`: at
 * start, then every minute while the service runs) with a growing delay until Stripe confirms, at
 * most MAX_ATTEMPTS times; then the row is marked failed and logged as an error, to be cancelled by
 * hand. A subscription Stripe no longer knows counts as cancelled. The rows outlive the process:
 * a cancellation owed when a process stops is taken up by the next one to start.
 *
 * Several processes may share the database: each attempt leases its row first (`for update skip
 * locked`, next_attempt_at pushed out by LEASE_MS; stripe-cancellations.queries.ts), so one
 * subscription is never cancelled by two processes at once, and a process that dies mid-attempt
 * leaves the row due again when the lease ends.
 *
 * Why not pg-boss 12 or graphile-worker 0.18: both drive their own `pg` (node-postgres) pool, and
 * the default database is embedded PGlite, in this process with no socket. Its socket server
 * (@electric-sql/pglite-socket) serves one client at a time while holding an exclusive lock on
 * the PGlite instance (MikroORM's own queries would wait behind the queue's connection); its
 * newer multiplexer funnels every client into PGlite's one backend session, where one client's
 * open transaction takes in the others' statements and `skip locked` between them means nothing
 * (the package itself says not every use is guaranteed to work). A queue library would run
 * on PostgreSQL only and the embedded default would need a second implementation; one table
 * through MikroORM serves both, with the same migration.
 */
import { backgroundEm } from '../../context.js';
import type { EntityManager, MikroORM } from '@mikro-orm/core';
import type Stripe from 'stripe';
import type { Logger } from '../../logger.js';
import type { SubscriptionCanceller } from '../accounts/account-deletion.service.js';
import { countOwed, leaseDueCancellations, markCancelled, markFailed, oweCancellations, scheduleRetry, type LeasedCancellation } from './stripe-cancellations.queries.js';

/** The longest wait between two attempts. */
const MAX_DELAY_MS = 6 * 3600_000;
/** Attempts before giving up: 1, 2, 4 ... 256 minutes, then every 6 hours, about three days in all. */
export const MAX_ATTEMPTS = 20;
/** How long an attempt holds its row; past it another process may try (Stripe's own timeout is far shorter). */
const LEASE_MS = 5 * 60_000;
/** Rows one sweep takes. */
const SWEEP_BATCH = 100;

export class StripeCancellations implements SubscriptionCanceller {
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<unknown> | null = null;
  private stopped = false;

  constructor(private readonly deps: { orm: MikroORM; stripe: Stripe | null; logger: Pick<Logger, 'warn' | 'info' | 'error'>; now?: () => number }) {}

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }

  /** Records the cancellations owed for an erased account, in the erasure's transaction `tx`. */
  async owe(tx: EntityManager, userId: string, subscriptionIds: string[]): Promise<void> {
    await oweCancellations(tx, userId, subscriptionIds, new Date(this.now()));
  }

  /** Tries these owed cancellations now (right after the erasure committed); failures stay owed. */
  async cancelOwed(subscriptionIds: string[]): Promise<void> {
    await this.attemptLeased(subscriptionIds);
  }

  /** Retries every owed cancellation whose time has come; returns how many are still owed. */
  async retryDue(): Promise<number> {
    await this.attemptLeased();
    return countOwed(backgroundEm(this.deps.orm));
  }

  /** Retries due cancellations now and every `intervalMs` until `stop()`; one sweep at a time. */
  start(intervalMs = 60_000): void {
    if (this.timer || this.stopped) return;
    const sweep = () => {
      this.sweeping ??= this.retryDue()
        .catch((error) => this.deps.logger.warn(`stripe cancellations: retry failed: ${(error as Error).message}`))
        .finally(() => (this.sweeping = null));
    };
    sweep(); // owed by a process that stopped before it could try
    this.timer = setInterval(sweep, intervalMs);
    // the timer alone does not keep the process alive
    this.timer.unref();
  }

  /** Stops the timer and waits for a running sweep, so the database can close after it. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.sweeping;
  }

  /** Leases the due rows (only these subscriptions', when given) and attempts each. */
  private async attemptLeased(only?: string[]): Promise<void> {
    const now = this.now();
    const leased = await leaseDueCancellations(backgroundEm(this.deps.orm), new Date(now), new Date(now + LEASE_MS), SWEEP_BATCH, only);
    for (const row of leased) await this.attempt(row);
  }

  private async attempt(row: LeasedCancellation): Promise<void> {
    const em = backgroundEm(this.deps.orm);
    const { subscription_id: subscriptionId } = row;
    try {
      if (!this.deps.stripe) throw new Error('billing is not configured (STRIPE_SECRET_KEY)');
      await this.deps.stripe.subscriptions.cancel(subscriptionId);
      await markCancelled(em, subscriptionId, new Date(this.now()));
      this.deps.logger.info(`stripe cancellations: ${subscriptionId} cancelled (erased account ${row.user_id})`);
    } catch (error) {
      const stripeError = error as { code?: string; statusCode?: number; message?: string };
      if (stripeError.code === 'resource_missing' || stripeError.statusCode === 404) {
        await markCancelled(em, subscriptionId, new Date(this.now()));
        return;
      }
      // never thrown: the erasure stands; the row says when to try again, or that we gave up
      const message = String(stripeError.message ?? error).slice(0, 500);
      if (row.attempts >= MAX_ATTEMPTS) {
        await markFailed(em, subscriptionId, message, new Date(this.now()));
        this.deps.logger.error(`stripe cancellations: gave up cancelling ${subscriptionId} (erased account ${row.user_id}) after ${row.attempts} attempts: ${message}; cancel it in Stripe by hand`);
        return;
      }
      const next = new Date(this.now() + Math.min(MAX_DELAY_MS, 60_000 * 2 ** Math.min(row.attempts - 1, 10)));
      await scheduleRetry(em, subscriptionId, message, next);
      this.deps.logger.warn(`stripe cancellations: cancelling ${subscriptionId} failed (attempt ${row.attempts}); retried after ${next.toISOString()}`);
    }
  }
}
