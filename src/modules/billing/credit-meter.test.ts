/**
 * The credit meter as several server processes use it: two meters (two processes) on one
 * database and one real Redis draw from the same balance, and together never draw more than it
 * holds; grants and refunds committed to the ledger reach the shared balance once.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { openMigratedTestDatabase, type TestDatabase } from '../../../test/helpers/test-databases.js';
import { MemoryCreditBalances, RedisCreditBalances } from './credit-balances.js';
import { CreditMeter, MICRO_USD } from './credit-meter.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PRICE = MICRO_USD; // one request costs a dollar here
const silent = { error: () => undefined };

describe('credit meter shared by two processes through Redis', () => {
  let db: TestDatabase;
  const clients: Redis[] = [];
  // a key prefix of this run's own: earlier runs' balances never interfere
  const prefix = `lsp:test:credits:${randomUUID()}:`;

  const userWith = async (dollars: number): Promise<string> => {
    const userId = randomUUID();
    await db.orm.em
      .fork()
      .getConnection()
      .execute(`insert into credit_ledger (id, user_id, kind, amount_micro_usd, reference, note, created_at) values (?, ?, 'grant', ?, ?, null, ?)`, [
        randomUUID(),
        userId,
        dollars * MICRO_USD,
        `grant:test-${randomUUID()}`,
        new Date(),
      ], 'run');
    return userId;
  };
  const serverProcess = (shared = true) => {
    const redis = new Redis(REDIS_URL);
    clients.push(redis);
    return new CreditMeter(db.orm, silent, () => undefined, 50, shared ? new RedisCreditBalances(redis, prefix) : new MemoryCreditBalances());
  };

  beforeAll(async () => {
    db = await openMigratedTestDatabase('pglite');
  });

  afterAll(async () => {
    for (const redis of clients) await redis.quit();
    await db?.dispose();
  });

  it('20 parallel draws split across two processes at a balance of 5 requests draw exactly 5', async () => {
    const userId = await userWith(5);
    const [a, b] = [serverProcess(), serverProcess()];
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).draw(userId, PRICE)));
    expect(results.filter(Boolean)).toHaveLength(5);
    await Promise.all([a.flush(), b.flush()]);
    const [row] = await db.orm.em.fork().getConnection().execute('select sum(amount_micro_usd) as balance from credit_ledger where user_id = ?', [userId]);
    expect(Number(row.balance)).toBe(0);
    expect(await a.balance(userId)).toBe(0);
    expect(await b.balance(userId)).toBe(0);
  });

  it('the same scenario with per-process balances overspends (what the shared store prevents)', async () => {
    const userId = await userWith(5);
    const [a, b] = [serverProcess(false), serverProcess(false)];
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).draw(userId, PRICE)));
    expect(results.filter(Boolean).length).toBeGreaterThan(5);
    await Promise.all([a.flush(), b.flush()]);
  });

  it('a grant or a refund committed elsewhere reaches every process once; refunds stop at zero', async () => {
    const userId = await userWith(2);
    const [a, b] = [serverProcess(), serverProcess()];
    expect(await a.draw(userId, PRICE)).toBe(true);
    await a.adjust(userId, 3 * MICRO_USD); // a grant of $3 committed by the webhook in process A
    expect(await b.balance(userId)).toBe(4 * MICRO_USD);
    const drawn = await Promise.all(Array.from({ length: 6 }, () => b.draw(userId, PRICE)));
    expect(drawn.filter(Boolean)).toHaveLength(4);
    await b.adjust(userId, -10 * MICRO_USD); // a refund larger than what is left
    expect(await a.balance(userId)).toBe(0);
    await Promise.all([a.flush(), b.flush()]);
  });

  it('a request the server failed gives its credit back to the shared balance', async () => {
    const userId = await userWith(1);
    const [a, b] = [serverProcess(), serverProcess()];
    expect(await a.draw(userId, PRICE)).toBe(true);
    expect(await b.draw(userId, PRICE)).toBe(false);
    await a.giveBack(userId, PRICE);
    expect(await b.draw(userId, PRICE)).toBe(true);
    await Promise.all([a.flush(), b.flush()]);
    const [row] = await db.orm.em.fork().getConnection().execute('select sum(amount_micro_usd) as balance from credit_ledger where user_id = ?', [userId]);
    expect(Number(row.balance)).toBe(0);
  });
});
