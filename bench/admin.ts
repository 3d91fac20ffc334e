/**
 * npm run bench:admin: the admin statistics and the user listing sorted by requests on a
 * PostgreSQL database seeded with 10,000 users and 1,000,000 usage rows over 90 days (through
 * the same insert path as the usage writer, so the triggers keep the running totals). Prints
 * p50/p95 of each over 100 calls (target: p95 ≤ 200 ms). Needs PostgreSQL
 * (TEST_POSTGRES_ADMIN_URL, default postgres://postgres@127.0.0.1:5432/postgres); the database
 * is created and dropped.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { requestContexts } from '../src/context.js';
import { AdminUsersService } from '../src/modules/admin/admin-users.service.js';
import { migrateUp } from '../src/db/orm.js';
import { openTestDatabase } from '../test/helpers/test-databases.js';
import { printCalibration } from './lib.js';

// The machine's speed beside every figure this benchmark prints (bench/calibrate.ts).
printCalibration();

const USERS = 10_000;
const ROWS = 1_000_000;
const RUNS = 100;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function time(label: string, run: () => Promise<unknown>): Promise<void> {
  for (let i = 0; i < 5; i++) await run(); // warm-up
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await run();
    ms.push(performance.now() - start);
  }
  ms.sort((a, b) => a - b);
  console.log(`${label.padEnd(36)} p50 ${percentile(ms, 50).toFixed(1)} ms   p95 ${percentile(ms, 95).toFixed(1)} ms   (${RUNS} calls)`);
}

const db = await openTestDatabase('postgresql');
try {
  const orm = db.orm;
  await migrateUp(orm);
  const sql = (query: string, params: unknown[] = []) => orm.em.fork().getConnection().execute(query, params, 'run');
  let started = performance.now();
  await sql(
    `insert into app_user (id, email, email_lower, email_verified, name, plan, created_at)
     select gen_random_uuid(), 'user' || g || '@example.org', 'user' || g || '@example.org', true, 'User ' || g,
            (array['free', 'professional', 'developer_pro'])[1 + g % 3], now() - (g % 365 || ' days')::interval
       from generate_series(1, ${USERS}) g`,
  );
  // usage skewed towards a few heavy users (as real traffic is), spread over 90 days, in batches of 100,000 rows
  const endpoints = `array['POST /v1/search', 'GET /v1/documents', 'POST /v1/resolve', 'mcp:search', 'mcp:get_document']`;
  for (let done = 0; done < ROWS; done += 100_000) {
    await sql(
      `with u as (select array_agg(id order by created_at) as ids from app_user)
       insert into usage_event (user_id, api_key_id, client_ip, endpoint, status, created_at)
       select u.ids[1 + floor(power(random(), 3) * ${USERS})::int], null, '10.0.0.1', (${endpoints})[1 + (g % 5)], 200,
              now() - (random() * interval '90 days')
         from u, generate_series(1, 100000) g`,
    );
  }
  await sql('analyze');
  console.log(`seeded ${USERS} users and ${ROWS} usage rows in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const counts = (await orm.em.fork().getConnection().execute('select (select count(*) from usage_event) as events, (select count(*) from usage_user_summary) as users')) as any[];
  console.log(`usage_event rows: ${counts[0].events}; users with usage: ${counts[0].users}`);

  const service = new AdminUsersService({ orm, isAdmin: () => false });
  // one context (one unit of work) per measured call, as each HTTP request gets
  const admin = { kind: 'api_key', ip: null, userId: randomUUID(), email: 'admin@example.org', plan: 'free', isAdmin: true, emailVerified: true, seats: 1, keyId: null, billingPeriod: null } as const;
  const ctx = () => requestContexts(orm).forCaller(admin);
  started = performance.now();
  await time('GET /v1/admin/stats', () => service.stats(ctx()));
  await time('GET /v1/admin/users?sort=requests', () => service.users(ctx(), { sort: 'requests' }));
  await time('  … limit=5000', () => service.users(ctx(), { sort: 'requests', limit: 5000 }));
  await time('  … search=user12', () => service.users(ctx(), { sort: 'requests', search: 'user12' }));
} finally {
  await db.dispose();
}
