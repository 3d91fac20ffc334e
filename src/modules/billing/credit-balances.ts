/**
 * Where the credit meter keeps each account's spendable balance (micro-dollars) between ledger
 * reads. In one process a Map; with REDIS_URL one Redis key per account that every process draws
 * from with one atomic script, so N processes together never draw more than the balance (the
 * per-process copies they had before could each spend it once). The ledger stays the truth: a key
 * is set from it when missing (SET NX: the first loader wins, the others keep its value) and
 * expires after a day, so any drift (a crash between a grant's commit and its `add`) is read
 * again from the ledger.
 */
import type { Redis } from 'ioredis';

export type DrawResult = { drawn: true; left: number } | { drawn: false; loaded: boolean };

export interface CreditBalances {
  /** Check and decrement in one atomic step; `loaded: false` when the balance is not known yet. */
  tryDraw(userId: string, priceMicro: number): Promise<DrawResult>;
  /** Sets the balance read from the ledger unless another loader did first. */
  setIfAbsent(userId: string, balanceMicro: number): Promise<void>;
  /** Applies a grant (+) or refund (−) to a known balance, never below zero; an unknown one is read from the ledger later. */
  add(userId: string, deltaMicro: number): Promise<void>;
  /** The known balance, or null. */
  peek(userId: string): Promise<number | null>;
  /** Forgets the balance (the next use reads the ledger). */
  drop(userId: string): Promise<void>;
}

export class MemoryCreditBalances implements CreditBalances {
  private readonly balances = new Map<string, number>();

  async tryDraw(userId: string, priceMicro: number): Promise<DrawResult> {
    // no await between the check and the decrement: concurrent draws cannot interleave
    const balance = this.balances.get(userId);
    if (balance === undefined) return { drawn: false, loaded: false };
    if (balance < priceMicro) return { drawn: false, loaded: true };
    this.balances.set(userId, balance - priceMicro);
    return { drawn: true, left: balance - priceMicro };
  }

  async setIfAbsent(userId: string, balanceMicro: number): Promise<void> {
    if (!this.balances.has(userId)) this.balances.set(userId, balanceMicro);
  }

  async add(userId: string, deltaMicro: number): Promise<void> {
    const balance = this.balances.get(userId);
    if (balance !== undefined) this.balances.set(userId, Math.max(0, balance + deltaMicro));
  }

  async peek(userId: string): Promise<number | null> {
    return this.balances.get(userId) ?? null;
  }

  async drop(userId: string): Promise<void> {
    this.balances.delete(userId);
  }
}

/** KEYS[1] = balance key, ARGV[1] = price: -1 not loaded, -2 short, else the balance left. */
const DRAW_SCRIPT = `
local balance = redis.call('GET', KEYS[1])
if not balance then return -1 end
balance = tonumber(balance)
local price = tonumber(ARGV[1])
if balance < price then return -2 end
return redis.call('DECRBY', KEYS[1], price)
`;

/** KEYS[1] = balance key, ARGV[1] = delta: the new balance (floored at zero), or -1 when unknown. */
const ADD_SCRIPT = `
local balance = redis.call('GET', KEYS[1])
if not balance then return -1 end
local next = math.max(0, tonumber(balance) + tonumber(ARGV[1]))
redis.call('SET', KEYS[1], next, 'KEEPTTL')
return next
`;

type RedisWithCreditScripts = Redis & {
  creditDraw(key: string, price: number): Promise<number>;
  creditAdd(key: string, delta: number): Promise<number>;
};

/** A day: long enough never to matter on the request path, short enough to bound any drift. */
const BALANCE_TTL_SECONDS = 86_400;

export class RedisCreditBalances implements CreditBalances {
  private readonly redis: RedisWithCreditScripts;

  constructor(
    redis: Redis,
    private readonly prefix = 'lsp:credits:',
  ) {
    redis.defineCommand('creditDraw', { numberOfKeys: 1, lua: DRAW_SCRIPT });
    redis.defineCommand('creditAdd', { numberOfKeys: 1, lua: ADD_SCRIPT });
    this.redis = redis as RedisWithCreditScripts;
  }

  private key(userId: string): string {
    return `${this.prefix}${userId}`;
  }

  async tryDraw(userId: string, priceMicro: number): Promise<DrawResult> {
    const out = Number(await this.redis.creditDraw(this.key(userId), priceMicro));
    if (out === -1) return { drawn: false, loaded: false };
    if (out === -2) return { drawn: false, loaded: true };
    return { drawn: true, left: out };
  }

  async setIfAbsent(userId: string, balanceMicro: number): Promise<void> {
    await this.redis.set(this.key(userId), String(balanceMicro), 'EX', BALANCE_TTL_SECONDS, 'NX');
  }

  async add(userId: string, deltaMicro: number): Promise<void> {
    await this.redis.creditAdd(this.key(userId), deltaMicro);
  }

  async peek(userId: string): Promise<number | null> {
    const value = await this.redis.get(this.key(userId));
    return value === null ? null : Number(value);
  }

  async drop(userId: string): Promise<void> {
    await this.redis.del(this.key(userId));
  }
}
