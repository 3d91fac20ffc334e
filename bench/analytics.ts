/**
 * npm run bench:analytics: partner analytics' sourceUsage on a PostgreSQL database seeded with
 * 1,000 sources × 365 days of per-account day cells (1 to 9 accounts per source and day, so about
 * half the cells fall under the 5-account rule; ~1.8 million rows of analytics_account_day) and
 * the same accounts' grid cells (hits, reads of 3 documents, resolutions: ~4.2 million more).
 * Prints p50/p95 of sourceUsage over 90 days for 50 sources (a different 50 each call) at each
 * granularity, over 50 calls after 5 warm-up (target: p95 ≤ 300 ms), and countryUsage of the
 * one country all 1,000 sources belong to (its figures sum every grid cell of the range). Needs PostgreSQL
 * (TEST_POSTGRES_ADMIN_URL, default postgres://postgres@127.0.0.1:5432/postgres); the database
 * is created and dropped.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { requestContexts } from '../src/context.js';
import { migrateUp } from '../src/db/orm.js';
import { AnalyticsService } from '../src/modules/analytics/analytics.service.js';
import { AnalyticsRecorder } from '../src/modules/analytics/analytics-recorder.js';
import { createLogger } from '../src/logger.js';
import { MemoryCounterStore } from '../src/modules/usage/counter-store.js';
import { OperationLimiter } from '../src/modules/usage/operation-limits.js';
import { openTestDatabase } from '../test/helpers/test-databases.js';
import { percentile, printCalibration } from './lib.js';

// The machine's speed beside every figure this benchmark prints (bench/calibrate.ts).
printCalibration();

const SOURCES = 1000;
const DAYS = 365;
const ACCOUNTS = 2000;
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const LAST_DAY = '2026-11-26';

const sourceName = (s: number) => `BENCH/Source${String(s).padStart(4, '0')}`;

const db = await openTestDatabase('postgresql');
try {
  const orm = db.orm;
  await migrateUp(orm);
  const sql = (query: string, params: unknown[] = []) => orm.em.fork().getConnection().execute(query, params, 'run');
  const admin = { kind: 'api_key', ip: null, userId: randomUUID(), email: 'admin@example.org', plan: 'free', isAdmin: true, emailVerified: true, seats: 1, keyId: null, billingPeriod: null } as const;
  let started = performance.now();
  for (let from = 1; from <= SOURCES; from += 100) {
    // source s on day d has 1 + (7s + 13d) mod 9 accounts, each with a few searches, hits, reads
    await sql(
      `insert into analytics_account_day (kind, scope, item, day, account, searches, hits, documents, resolutions, calls)
       select 'source', 'BENCH/Source' || lpad(s::text, 4, '0'), '', date '${LAST_DAY}' - d, 'acct-' || ((s * 31 + d * 17 + a) % ${ACCOUNTS}),
              1 + (s + d + a) % 4, 1 + (s * d + a) % 9, (s + a) % 3, (d + a) % 2, 0
         from generate_series(${from}, ${from + 99}) s, generate_series(0, ${DAYS - 1}) d, generate_series(1, 9) a
        where a <= 1 + (s * 7 + d * 13) % 9`,
    );
    // the same accounts' grid cells (source, country, detail, day), which hits, documents and
    // resolutions are summed from: hits, reads spread over 3 documents, exact resolutions
    await sql(
      `insert into analytics_account_day (kind, scope, item, day, account, searches, hits, documents, resolutions, calls)
       select 'grid', 'BENCH/Source' || lpad(s::text, 4, '0'), g.item, date '${LAST_DAY}' - d, 'acct-' || ((s * 31 + d * 17 + a) % ${ACCOUNTS}),
              0, case when g.item = 'BENCH|' then 1 + (s * d + a) % 9 else 0 end, case when g.item like 'BENCH|doc:%' then 1 else 0 end,
              case when g.item = 'BENCH|match:exact' then 1 else 0 end, 0
         from generate_series(${from}, ${from + 99}) s, generate_series(0, ${DAYS - 1}) d, generate_series(1, 9) a,
              lateral (values ('BENCH|'), ('BENCH|doc:' || (a % 3)), ('BENCH|match:exact')) g(item)
        where a <= 1 + (s * 7 + d * 13) % 9 and (g.item not like 'BENCH|doc:%' or (s + a) % 3 > 0) and (g.item <> 'BENCH|match:exact' or (d + a) % 2 = 1)`,
    );
  }
  await sql('analyze');
  const [count] = (await orm.em.fork().getConnection().execute('select count(*)::int as n from analytics_account_day')) as { n: number }[];
  console.log(`seeded ${SOURCES} sources × ${DAYS} days: ${count!.n} per-account day cells in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  // what recording adds on the request path: building and queueing one search's event (10 hits of 3 sources)
  const recorder = new AnalyticsRecorder(orm, createLogger('silent'), { delayMs: 60_000, maxBatch: 1_000_000, maxMemoryRows: 1_000_000 });
  const facts = { search: { namespace: 'case_law', countries: ['DE'], hitsBySource: { 'DE/BGH': 5, 'DE/BVerfG': 3, 'EU/CJEU': 2 }, hitsByCountry: { DE: 8, EU: 2 } } };
  const perCall: number[] = [];
  for (let i = 0; i < 20_000; i++) {
    const t = performance.now();
    recorder.counted({ caller: { ...admin, userId: `u${i % 500}` }, endpoint: 'search', door: undefined, status: 200, facts, at: Date.now() });
    perCall.push(performance.now() - t);
  }
  perCall.sort((a, b) => a - b);
  console.log(`recording one counted call on the request path: p50 ${(percentile(perCall, 50) * 1000).toFixed(1)} µs   p95 ${(percentile(perCall, 95) * 1000).toFixed(1)} µs   (20,000 calls)`);
  started = performance.now();
  await recorder.close();
  console.log(`writing those 20,000 events off the request path (one batch): ${(performance.now() - started).toFixed(0)} ms`);

  // the real per-caller limiter: each measured call is another administrator, so none waits for its budget
  const service = new AnalyticsService({ pending: { flush: async () => undefined }, limits: new OperationLimiter(new MemoryCounterStore()) });
  const contexts = requestContexts(orm);
  const from = new Date(Date.parse(`${LAST_DAY}T00:00:00Z`) - 89 * 86_400_000).toISOString().slice(0, 10);
  for (const granularity of ['DAY', 'WEEK', 'MONTH'] as const) {
    // one context (one unit of work) per call, as each request gets; 50 other sources each call
    const run = (i: number) => {
      const first = (i * 50) % SOURCES;
      const sources = Array.from({ length: 50 }, (_, k) => sourceName(1 + ((first + k * 7) % SOURCES)));
      return service.sourceUsage(contexts.forCaller({ ...admin, userId: randomUUID() }), { sources, from, to: LAST_DAY, granularity });
    };
    for (let i = 0; i < 5; i++) await run(1000 + i);
    const ms: number[] = [];
    let periods = 0;
    for (let i = 0; i < RUNS; i++) {
      started = performance.now();
      periods = (await run(i)).periods.length;
      ms.push(performance.now() - started);
    }
    ms.sort((a, b) => a - b);
    console.log(`sourceUsage 50 sources × 90 days, ${granularity.padEnd(5)} p50 ${percentile(ms, 50).toFixed(1)} ms   p95 ${percentile(ms, 95).toFixed(1)} ms   (${RUNS} calls, ${periods} periods each)`);
  }
  // countryUsage reads every grid cell of the country over the range (here: all 1,000 sources)
  const countryMs: number[] = [];
  for (let i = 0; i < 10; i++) {
    started = performance.now();
    await service.countryUsage(contexts.forCaller({ ...admin, userId: randomUUID() }), { countries: ['BENCH'], from, to: LAST_DAY, granularity: 'WEEK' });
    countryMs.push(performance.now() - started);
  }
  countryMs.sort((a, b) => a - b);
  console.log(`countryUsage of the one country of all 1,000 sources × 90 days, WEEK: p50 ${percentile(countryMs, 50).toFixed(1)} ms   max ${countryMs.at(-1)!.toFixed(1)} ms   (10 calls)`);
} finally {
  await db.dispose();
}
