/**
 * Extra credits on the request path. The ledger (`credit_ledger`) is the truth: grants (+),
 * consumption (−), refunds (−), the balance is their sum. Reading that sum per request would
 * cost a query each time, so the meter keeps each account's spendable balance in a
 * CreditBalances store once loaded (in process, or in Redis shared by every process), and a draw
 * is one atomic check-and-decrement there: however many requests run concurrently, in one
 * process or several, the balance never goes below zero (no overspend at all, stricter than the
 * "at most the requests in flight" the issue allows). Consumption is written to the ledger in
 * batches (one row per account per flush, every 200 ms); a grant or refund is added to the known
 * balance once its transaction committed (`adjust`), never by re-reading the ledger, which would
 * miss other processes' draws not yet flushed.
 */
import { backgroundEm } from '../../context.js';
import type { MikroORM } from '@mikro-orm/core';
import type { Logger } from '../../logger.js';
import { type CreditBalances, MemoryCreditBalances } from './credit-balances.js';
import { appendConsumption, sumLedger } from './credit-ledger.queries.js';

export const MICRO_USD = 1_000_000;

export class CreditMeter {
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
    private readonly balances: CreditBalances = new MemoryCreditBalances(),
  ) {}

  /** Draws `priceMicro` from the account's credits; false (nothing drawn) when the balance is short. */
  async draw(userId: string, priceMicro: number): Promise<boolean> {
    let result = await this.balances.tryDraw(userId, priceMicro);
    if (!result.drawn && !result.loaded) {
      await this.load(userId);
      result = await this.balances.tryDraw(userId, priceMicro);
    }
    if (!result.drawn) return false;
    this.pending.set(userId, (this.pending.get(userId) ?? 0) + priceMicro);
    this.timer ??= setTimeout(() => void this.flush(), this.flushDelayMs);
    this.onDrawn(userId, result.left);
    return true;
  }

  /** Gives back a draw whose request failed on the server's side (not counted, not charged). */
  async giveBack(userId: string, priceMicro: number): Promise<void> {
    const pending = this.pending.get(userId) ?? 0;
    const back = Math.min(pending, priceMicro);
    if (back <= 0) return;
    this.pending.set(userId, pending - back);
    await this.balances.add(userId, back);
  }

  /** The account's spendable balance in micro-dollars (loaded from the ledger on first use). */
  async balance(userId: string): Promise<number> {
    let known = await this.balances.peek(userId);
    if (known === null) {
      await this.load(userId);
      known = await this.balances.peek(userId);
    }
    return known ?? 0;
  }

  /** After a grant (+) or refund (−) of `deltaMicro` committed to the ledger: the known balance follows. */
  async adjust(userId: string, deltaMicro: number): Promise<void> {
    if (deltaMicro !== 0) await this.balances.add(userId, deltaMicro);
  }

  private load(userId: string): Promise<void> {
    let loading = this.loading.get(userId);
    if (!loading) {
      loading = (async () => {
        await this.flush();
        const ledger = await sumLedger(backgroundEm(this.orm), userId);
        // draws made while loading are in `pending` and not yet in the sum; a balance another
        // process loaded first stands (it has seen every draw since)
        await this.balances.setIfAbsent(userId, Math.max(0, ledger - (this.pending.get(userId) ?? 0)));
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
      try {
        await appendConsumption(backgroundEm(this.orm), batch, new Date());
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
