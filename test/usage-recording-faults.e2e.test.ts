/**
 * Usage rows survive write errors (issue #33 item 2): the service as a whole (startPlatform) on a
 * PostgreSQL cluster of this test's own, stopped while requests are counted, and on a database of
 * the shared server whose usage inserts fail with `disk_full` (53100) while a trigger injects it
 * (the error PostgreSQL raises when its disk is full; making a small filesystem needs mount rights
 * the test does not assume). Every request answered (not 5xx) has exactly one row once the
 * database takes writes again, also when the service stopped during the outage (its batches are
 * spilled to DATA_DIR/usage-spill/ and written by the next start); `/ready` says that recording
 * lags without turning not-ready.
 */
import { randomInt } from 'node:crypto';
import { mkdtemp, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { closeOrm, createOrm } from '../src/db/orm.js';
import { createLogger } from '../src/logger.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { call } from './helpers/http.js';
import { startOwnPostgres, type OwnPostgres } from './helpers/own-servers.js';
import { openTestDatabase, type TestDatabase } from './helpers/test-databases.js';

function env(dataDir: string, databaseUrl: string): Record<string, string> {
  return { DATA_DIR: dataDir, DATABASE_URL: databaseUrl, ALLOW_ANONYMOUS: 'true', RATE_LIMITS: 'false', INGEST_ON_START: 'false', PORT: '0' };
}

/** `n` anonymous billable requests from `ip` (404: no such document, counted); their statuses. */
async function requests(platform: Platform, ip: string, n: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) {
    statuses.push((await call(`${platform.url}/v1/documents/EU/EUR-Lex/r${i}`, 'GET', undefined, { headers: { 'x-forwarded-for': ip } })).status);
  }
  return statuses;
}

async function rowsFrom(databaseUrl: string, ip: string): Promise<number> {
  const orm = await createOrm({ databaseUrl, dataDir: '' });
  try {
    const [{ n }] = await orm.em.fork().getConnection().execute('select count(*) as n from usage_event where client_ip = ?', [ip]);
    return Number(n);
  } finally {
    await closeOrm(orm);
  }
}

/** Waits until the platform has written every usage row it holds (the retry runs on a backoff of at most 30 s). */
async function caughtUp(platform: Platform): Promise<void> {
  for (let i = 0; i < 600; i++) {
    await platform.accounts.usage.flush();
    if (platform.accounts.usage.recordingLag().lag.pending_rows === 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`usage rows still pending: ${JSON.stringify(platform.accounts.usage.recordingLag().lag)}`);
}

const randomIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

describe('usage rows when PostgreSQL stops', () => {
  let postgres: OwnPostgres;
  let platform: Platform | null = null;

  beforeAll(async () => {
    postgres = await startOwnPostgres();
  });

  afterAll(async () => {
    await platform?.stop().catch(() => undefined);
    postgres?.dispose();
  });

  it('keeps every counted request across a stop, and across a service restart during it', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'usage-pg-stop-'));
    platform = await startPlatform(loadConfig(env(dataDir, postgres.url)), createLogger('silent'));
    const ip = randomIp();
    const before = await requests(platform, ip, 5);
    await platform.accounts.usage.flush();

    postgres.stop();
    const during = await requests(platform, ip, 20);
    await platform.accounts.usage.flush();
    const lag = platform.accounts.usage.recordingLag().lag;
    expect(lag).toMatchObject({ lagging: true, dropped_rows: 0 });
    expect(lag.pending_rows).toBe(during.filter((s) => s < 500).length);
    expect(lag.spilled_batches).toBeGreaterThan(0);

    await postgres.start();
    const after = await requests(platform, ip, 5);
    await caughtUp(platform);
    const answered = [...before, ...during, ...after].filter((s) => s < 500).length;
    expect(answered).toBe(30);
    expect(await rowsFrom(postgres.url, ip)).toBe(answered);
    expect(await readdir(path.join(dataDir, 'usage-spill'))).toEqual([]);

    // stopped while the database is down: the last rows are spilled, the next start writes them
    postgres.stop();
    const beforeStop = await requests(platform, ip, 7);
    await platform.stop();
    platform = null;
    expect((await readdir(path.join(dataDir, 'usage-spill'))).length).toBeGreaterThan(0);
    await postgres.start();
    platform = await startPlatform(loadConfig(env(dataDir, postgres.url)), createLogger('silent'));
    await caughtUp(platform);
    expect(await rowsFrom(postgres.url, ip)).toBe(answered + beforeStop.filter((s) => s < 500).length);
    expect(await readdir(path.join(dataDir, 'usage-spill'))).toEqual([]);
  });
});

describe('usage rows when the database disk is full', () => {
  let database: TestDatabase;
  let platform: Platform;
  let databaseUrl: string;

  beforeAll(async () => {
    database = await openTestDatabase('postgresql');
    databaseUrl = database.orm.config.get('clientUrl')!;
    platform = await startPlatform(loadConfig(env(await mkdtemp(path.join(os.tmpdir(), 'usage-disk-full-')), databaseUrl)), createLogger('silent'));
  });

  afterAll(async () => {
    await platform?.stop();
    await database?.dispose();
  });

  const sql = (statement: string) => database.orm.em.fork().getConnection().execute(statement, [], 'run');

  it('counts every request answered while inserts fail with disk_full, and /ready says recording lags while staying ready', async () => {
    const ip = randomIp();
    const before = await requests(platform, ip, 3);
    // written before the disk fills (on a busy machine the 200 ms batch may not have gone yet)
    await platform.accounts.usage.flush();
    await sql(`create function usage_disk_full() returns trigger language plpgsql as $$
      begin raise exception 'could not extend file: No space left on device' using errcode = 'disk_full'; end $$`);
    await sql('create trigger usage_disk_full before insert on usage_event for each statement execute function usage_disk_full()');

    const during = await requests(platform, ip, 40);
    await platform.accounts.usage.flush();
    const ready = await call(`${platform.url}/ready`, 'GET');
    expect(ready.status).toBe(200);
    expect(ready.body.usage_recording).toMatchObject({ lagging: true, pending_rows: 40, dropped_rows: 0 });
    expect(ready.body.usage_recording.spilled_batches).toBeGreaterThan(0);

    await sql('drop trigger usage_disk_full on usage_event');
    await caughtUp(platform);
    expect(await rowsFrom(databaseUrl, ip)).toBe([...before, ...during].filter((s) => s < 500).length);
    expect(before.concat(during).every((s) => s === 404)).toBe(true);
    const recovered = await call(`${platform.url}/ready`, 'GET');
    expect(recovered.body.usage_recording).toMatchObject({ lagging: false, pending_rows: 0, spilled_batches: 0 });
  });

  it('shows the analytics events not written yet in /ready as analytics_recording, and writes them once the database takes them', async () => {
    const ip = randomIp();
    const country = `Q${String(randomInt(1e6)).replace(/\d/g, (d) => 'ABCDEFGHIJ'[Number(d)]!)}`;
    // a search filtered by a country records the filter (the answer's hits do not matter here)
    const search = () => call(`${platform.url}/v1/search`, 'POST', { q: 'Vertrag', country: [country] }, { headers: { 'x-forwarded-for': ip } });
    await sql(`create function analytics_disk_full() returns trigger language plpgsql as $$
      begin raise exception 'could not extend file: No space left on device' using errcode = 'disk_full'; end $$`);
    await sql('create trigger analytics_disk_full before insert on analytics_account_day for each statement execute function analytics_disk_full()');
    for (let i = 0; i < 3; i++) expect((await search()).status).toBe(200);
    await platform.analytics.recorder.flush();
    const ready = await call(`${platform.url}/ready`, 'GET');
    expect(ready.status).toBe(200); // a short lag keeps the process ready, as for the usage rows
    expect(ready.body.analytics_recording).toMatchObject({ lagging: true, pending_rows: 3, dropped_rows: 0 });
    expect(ready.body.analytics_recording.spilled_batches).toBeGreaterThan(0);

    await sql('drop trigger analytics_disk_full on analytics_account_day');
    await platform.analytics.recorder.flush();
    const recovered = await call(`${platform.url}/ready`, 'GET');
    expect(recovered.body.analytics_recording).toMatchObject({ lagging: false, pending_rows: 0, spilled_batches: 0 });
    const [row] = await database.orm.em.fork().getConnection().execute(`select sum(searches)::int as n from analytics_account_day where kind = 'country' and scope = ?`, [country]);
    expect(row.n).toBe(3);
  });
});
