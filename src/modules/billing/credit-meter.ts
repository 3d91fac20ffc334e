/**
 * Extra credits on the request path. The ledger (`credit_ledger`) is the truth: grants (+),
 * consumption (−), refunds (−), the balance is their sum. Reading that sum per request would
 * cost a query each time, so the meter keeps each account's balance in memory once loaded, and
 * a draw is a check-and-decrement with no `await` between the two: however many requests run
 * concurrently in this process, the balance never goes below zero (no overspend at all, which is
 * stricter than the "at most the requests in flight" the issue allows). Consumption is written
 * to the ledger in batches (one row per account per flush, every 200 ms); a grant or refund
 * (webhook) flushes, then reloads the account's balance from the ledger.
 *
 * Several processes on one database each hold their own copy: each can draw what it loaded, so
 * across N processes the overspend is bounded by what the other processes drew since their last
 * reload. Run one process per account's traffic, or keep them in step by reloading (`refresh`).
 */
import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import type { Logger } from '../../logger.js';

export const MICRO_USD = 1_000_000;

export class CreditMeter {
  private readonly balances = new Map<string, number>();
  private readonly loading = new Map<string, Promise<void>>();
  private pending = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly orm: MikroORM,
    private readonly logger: Pick<Logger, 'error'>,
    /** Called after every successful draw with the balance left (auto top-up watches it). */
    private readonly onDrawn: (userId: string, balanceMicro: number) => void = () => undefined,
    private readonly flushDelayMs = 200,
  ) {}

  /** Draws `priceMicro` from the account's credits; false (nothing drawn) when the balance is short. */
  async draw(userId: string, priceMicro: number): Promise<boolean> {
    if (!this.balances.has(userId)) await this.load(userId);
    // check and decrement in one synchronous step: no interleaving between concurrent draws
    const balance = this.balances.get(userId) ?? 0;
    if (balance < priceMicro) return false;
    this.balances.set(userId, balance - priceMicro);
    this.pending.set(userId, (this.pending.get(userId) ?? 0) + priceMicro);
    this.timer ??= setTimeout(() => void this.flush(), this.flushDelayMs);
    this.onDrawn(userId, balance - priceMicro);
    return true;
  }

  /** Gives back a draw whose request failed on the server's side (not counted, not charged). */
  giveBack(userId: string, priceMicro: number): void {
    const pending = this.pending.get(userId) ?? 0;
    const back = Math.min(pending, priceMicro);
    if (back <= 0) return;
    this.pending.set(userId, pending - back);
    this.balances.set(userId, (this.balances.get(userId) ?? 0) + back);
  }

  /** The account's balance in micro-dollars, as this process sees it (loaded on first use). */
  async balance(userId: string): Promise<number> {
    if (!this.balances.has(userId)) await this.load(userId);
    return this.balances.get(userId) ?? 0;
  }

  /** After a grant or refund was written: consumption first, then the balance from the ledger. */
  async refresh(userId: string): Promise<void> {
    this.balances.delete(userId);
    await this.load(userId);
  }

  private load(userId: string): Promise<void> {
    let loading = this.loading.get(userId);
    if (!loading) {
      loading = (async () => {
        await this.flush();
        const [row] = (await this.orm.em
          .fork()
          .getConnection()
          .execute('select coalesce(sum(amount_micro_usd), 0) as balance from credit_ledger where user_id = ?', [userId])) as { balance: string | number }[];
        // draws made while loading are in `pending` and not yet in the sum
        this.balances.set(userId, Math.max(0, Number(row?.balance ?? 0) - (this.pending.get(userId) ?? 0)));
      })().finally(() => this.loading.delete(userId));
      this.loading.set(userId, loading);
    }
    return loading;
  }

  /** Writes the pending consumption: one ledger row per account. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = [...this.pending].filter(([, amount]) => amount > 0);
    this.pending = new Map();
    this.writing = this.writing.then(async () => {
      if (batch.length === 0) return;
      const now = new Date();
      const values = batch.map(() => `(?, ?, 'consumption', ?, null, null, ?)`).join(', ');
      try {
        await this.orm.em
          .fork()
          .getConnection()
          .execute(
            `insert into credit_ledger (id, user_id, kind, amount_micro_usd, reference, note, created_at) values ${values}`,
            batch.flatMap(([userId, amount]) => [randomUUID(), userId, -amount, now]),
            'run',
          );
      } catch (error) {
        // keep the consumption for the next flush rather than lose it
        for (const [userId, amount] of batch) this.pending.set(userId, (this.pending.get(userId) ?? 0) + amount);
        this.logger.error(`credits: could not record consumption of ${batch.length} account(s)`, error);
      }
    });
    return this.writing;
  }

  close(): Promise<void> {
    return this.flush();
  }
}
