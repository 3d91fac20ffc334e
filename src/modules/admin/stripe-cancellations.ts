/**
 * The Stripe subscriptions erasures still owe a cancellation. An erasure records them in its own
 * transaction (`owe`), tries them right after the commit (`cancelOwed`), and whatever failed is
 * retried later (`retryDue`, every minute in the running service) with a growing delay, until
 * Stripe confirms. A subscription Stripe no longer knows counts as cancelled.
 */
import { backgroundEm } from '../../context.js';
import type { EntityManager, MikroORM } from '@mikro-orm/core';
import type Stripe from 'stripe';
import type { Logger } from '../../logger.js';
import type { SubscriptionCanceller } from '../accounts/account-deletion.service.js';
import { PendingStripeCancellationEntity } from './admin.entities.js';

const MAX_DELAY_MS = 6 * 3600_000;

export class StripeCancellations implements SubscriptionCanceller {
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly deps: { orm: MikroORM; stripe: Stripe | null; logger: Pick<Logger, 'warn' | 'info'>; now?: () => number }) {}

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }

  async owe(tx: EntityManager, userId: string, subscriptionIds: string[]): Promise<void> {
    const at = new Date(this.now());
    for (const subscription_id of subscriptionIds) {
      await tx.upsert(PendingStripeCancellationEntity, { subscription_id, user_id: userId, attempts: 0, next_attempt_at: at, created_at: at, last_error: null, completed_at: null });
    }
  }

  async cancelOwed(subscriptionIds: string[]): Promise<void> {
    for (const id of subscriptionIds) await this.attempt(id);
  }

  /** Retries every owed cancellation whose time has come; returns how many are still owed. */
  async retryDue(): Promise<number> {
    const em = backgroundEm(this.deps.orm);
    const due = await em.find(PendingStripeCancellationEntity, { completed_at: null, next_attempt_at: { $lte: new Date(this.now()) } }, { orderBy: { next_attempt_at: 'asc' }, limit: 100 });
    for (const row of due) await this.attempt(row.subscription_id);
    return em.fork().count(PendingStripeCancellationEntity, { completed_at: null });
  }

  /** Retries due cancellations every `intervalMs` until `stop()`. */
  start(intervalMs = 60_000): void {
    this.timer ??= setInterval(() => {
      this.retryDue().catch((error) => this.deps.logger.warn(`stripe cancellations: retry failed: ${(error as Error).message}`));
    }, intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async attempt(subscriptionId: string): Promise<void> {
    const em = backgroundEm(this.deps.orm);
    const row = await em.findOne(PendingStripeCancellationEntity, { subscription_id: subscriptionId, completed_at: null });
    if (!row) return;
    row.attempts += 1;
    try {
      if (!this.deps.stripe) throw new Error('billing is not configured (STRIPE_SECRET_KEY)');
      await this.deps.stripe.subscriptions.cancel(subscriptionId);
      row.completed_at = new Date(this.now());
      row.last_error = null;
      this.deps.logger.info(`stripe cancellations: ${subscriptionId} cancelled (erased account ${row.user_id})`);
    } catch (error) {
      const stripeError = error as { code?: string; statusCode?: number; message?: string };
      if (stripeError.code === 'resource_missing' || stripeError.statusCode === 404) {
        row.completed_at = new Date(this.now());
        row.last_error = null;
      } else {
        // never thrown: the erasure stands; the row says when to try again
        row.last_error = String(stripeError.message ?? error).slice(0, 500);
        row.next_attempt_at = new Date(this.now() + Math.min(MAX_DELAY_MS, 60_000 * 2 ** Math.min(row.attempts - 1, 10)));
        this.deps.logger.warn(`stripe cancellations: cancelling ${subscriptionId} failed (attempt ${row.attempts}); retried after ${row.next_attempt_at.toISOString()}`);
      }
    }
    await em.flush();
  }
}
