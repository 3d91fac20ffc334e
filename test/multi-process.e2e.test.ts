/**
 * Several service processes on one PostgreSQL database, one Redis and one search engine: two
 * real OS processes (`src/main.ts`, as `npm start` runs it) on a fresh PostgreSQL database,
 * Redis and a local Elasticsearch-protocol server (test/helpers/elasticsearch-server.ts), each
 * with its own DATA_DIR. One ingest runs at a time (a PostgreSQL advisory lock): the second
 * process starts while the first one's startup ingest runs, says so and serves meanwhile. Once
 * the index is built both give the same answers (search hits and scores, statistics, a document
 * by address), and the plan limits are counted once across both through Redis.
 *
 * The Elasticsearch server holds the ingest's writes until the second process has found the lock
 * taken, so the two ingests overlap however fast or loaded the machine is.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { closeOrm, createOrm, type Orm } from '../src/db/orm.js';
import { INGEST_LOCK_KEY, withIngestLock } from '../src/ingest-lock.js';
import { writeCorpusSlice } from './fixtures/corpus-slice.js';
import { writeTinyStaticModel } from './fixtures/tiny-static-model.js';
import { FakeElasticsearch } from './helpers/elasticsearch-server.js';
import { call, cookieFrom } from './helpers/http.js';
import { spendFreeMinuteAcross } from './helpers/shared-limits.js';
import { spawnService, type ServiceProcess } from './helpers/service-process.js';
import { TEST_POSTGRES_ADMIN_URL } from './helpers/test-databases.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const WAITING = /^ingest: another process is ingesting/;
const FINISHED = /^ingest finished in /;
/** Generous: two services, their ingest children and tsx compile on a loaded machine. */
const START_TIMEOUT_MS = 180_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function admin(sql: string): Promise<void> {
  const orm = await createOrm({ databaseUrl: TEST_POSTGRES_ADMIN_URL, dataDir: '' });
  try {
    await orm.em.getConnection().execute(sql, [], 'run');
  } finally {
    await closeOrm(orm);
  }
}

function databaseUrl(name: string): string {
  const url = new URL(TEST_POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

describe('two service processes (OS processes) on one PostgreSQL, Redis and Elasticsearch', () => {
  const database = `lsp_test_${randomBytes(6).toString('hex')}`;
  let created = false;
  let es: FakeElasticsearch;
  const services: ServiceProcess[] = [];
  const indexPrefix = `multi-${randomBytes(3).toString('hex')}-`;
  let letWritesGo: () => void = () => undefined;
  // a client IP of its own per run (X-Forwarded-For is trusted from loopback): Redis outlives the
  // run, and registrations are counted per IP there
  const clientIp = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

  /** A fresh Free account with an API key, registered on one process and signed in on the other. */
  async function freeAccount(): Promise<{ key: string; cookie: string }> {
    const [a, b] = services.map((s) => s.url);
    const email = `multi-${randomBytes(4).toString('hex')}@example.org`;
    const password = 'a sturdy passphrase 42';
    const registered = await call(`${a}/auth/register`, 'POST', { email, password, accept_terms: true, acknowledge_privacy: true }, { headers: { 'x-forwarded-for': clientIp } });
    expect(registered.status).toBeLessThan(300);
    const cookie = cookieFrom((await call(`${b}/auth/login`, 'POST', { email, password }, { headers: { 'x-forwarded-for': clientIp } })).headers, 'session')!;
    const key = (await call(`${a}/v1/keys`, 'POST', {}, { cookie })).body.key as string;
    expect(key).toEqual(expect.any(String));
    return { key, cookie };
  }

  beforeAll(async () => {
    es = await new FakeElasticsearch().start();
    const writesGo = new Promise<void>((resolve) => (letWritesGo = resolve));
    es.hold = (request) => (request.path.endsWith('/_bulk') ? writesGo : undefined);
    await admin(`create database "${database}"`);
    created = true;
    const corpus = await writeCorpusSlice([
      { file: 'legislation/DE-GesetzeImInternet.jsonl.gz', lines: 150 },
      { file: 'legislation/FR-LegifranceCodes.jsonl.gz', lines: 150 },
      { file: 'case_law/DE-BGH.jsonl.gz', lines: 20 },
    ]);
    const model = await writeTinyStaticModel(await mkdtemp(path.join(os.tmpdir(), 'multi-process-model-')), { dimension: 16 });
    const env = async (): Promise<Record<string, string>> => ({
      DATA_DIR: await mkdtemp(path.join(os.tmpdir(), 'multi-process-data-')),
      CORPUS_DIR: corpus.dir,
      DATABASE_URL: databaseUrl(database),
      REDIS_URL,
      SEARCH_ENGINE: 'elasticsearch',
      VECTOR_ENGINE: 'elasticsearch',
      ELASTICSEARCH_URL: es.url,
      ELASTICSEARCH_INDEX_PREFIX: indexPrefix,
      EMBEDDER: `static:${model.dir}`,
      SESSION_SECRET: 'one secret shared by both processes, 32+ chars',
    });
    const shared = await env();
    services.push(await spawnService(shared));
    await services[0]!.ready(START_TIMEOUT_MS);
    // the second starts while the first one's ingest runs (its writes are held)
    services.push(await spawnService({ ...shared, DATA_DIR: (await env()).DATA_DIR }));
    await services[1]!.ready(START_TIMEOUT_MS);
  }, 2 * START_TIMEOUT_MS + 30_000);

  afterAll(async () => {
    letWritesGo();
    await Promise.all(services.map((s) => s.stop()));
    await es?.stop();
    if (created) await admin(`drop database if exists "${database}" with (force)`);
  }, 60_000);

  const ingestOf = (s: ServiceProcess) => s.messages().filter((m) => FINISHED.test(m));

  it('runs one ingest: the other process says another one is ingesting, serves meanwhile, and later only finds the files done', async () => {
    // whichever took the lock, the other logs that it waits
    const waiting = await Promise.any(services.map(async (s, i) => (await s.waitForMessage(WAITING, START_TIMEOUT_MS), i)));
    const waiter = services[waiting]!;
    const ingester = services[1 - waiting]!;
    expect(ingester.messages().some((m) => WAITING.test(m))).toBe(false);
    // it serves while the other ingests (the ingest's writes are still held)
    expect(ingestOf(ingester)).toEqual([]);
    expect((await fetch(`${waiter.url}/health`)).status).toBe(200);
    const { key } = await freeAccount();
    const meanwhile = await call(`${waiter.url}/v1/search`, 'POST', { q: 'Schadensersatz', top_k: 3 }, { key });
    expect(meanwhile.status).toBe(200);

    letWritesGo();
    const first = await ingester.waitForMessage(FINISHED, START_TIMEOUT_MS);
    expect(first).toMatch(/files 3 indexed \/ 0 unchanged \/ 3 total; documents [\d,]+ written/);
    expect(Number(/documents ([\d,]+) written/.exec(first)![1]!.replaceAll(',', ''))).toBeGreaterThan(200);
    // the waiter tries again every 30 s; once the first is done its ingest finds nothing to write
    const retried = await waiter.waitForMessage(FINISHED, START_TIMEOUT_MS);
    expect(retried).toMatch(/files 0 indexed \/ 3 unchanged \/ 3 total; documents 0 written/);
    expect(ingestOf(ingester)).toHaveLength(1);
    // and then reads the statistics anew: its index is complete (the comparisons below need that)
    for (const s of services) {
      const deadline = Date.now() + 30_000;
      while (!(await call(`${s.url}/v1/stats`, 'GET')).body.index.ready && Date.now() < deadline) await sleep(200);
      expect((await call(`${s.url}/v1/stats`, 'GET')).body.index.ready).toBe(true);
    }
  }, 2 * START_TIMEOUT_MS);

  it('gives the same answers from both processes: search hits and scores, statistics, a document by address', async () => {
    const { key } = await freeAccount();
    const answers = async (method: string, route: string, body?: unknown) =>
      Promise.all(
        services.map(async (s) => {
          const res = await call(`${s.url}${route}`, method, body, { key });
          expect(res.status).toBe(200);
          return res.body;
        }),
      );
    let address = '';
    for (const body of [
      { q: 'Schadensersatz unerlaubte Handlung', namespace: 'legislation' },
      { q: 'responsabilité contrat', namespace: 'legislation', country: ['FR'] },
      { q: 'Revision Urteil', namespace: 'case_law' },
    ]) {
      const [a, b] = await answers('POST', '/v1/search', { ...body, top_k: 5 });
      const hits = (r: any) => r.hits.map((h: any) => [h.id, h.score]);
      expect(hits(a).length).toBeGreaterThan(0);
      expect(hits(b)).toEqual(hits(a));
      address ||= a.hits[0].id;
    }
    const [statsA, statsB] = await answers('GET', '/v1/stats');
    expect(statsA.total_documents).toBeGreaterThan(200);
    expect(statsB.total_documents).toBe(statsA.total_documents);
    expect(statsA.total_documents).toBe(es.documents(`${indexPrefix}documents`).size);
    const [docA, docB] = await answers('GET', `/v1/documents/${address}`);
    expect(docA.id).toBe(address);
    expect(docB).toEqual(docA);
  });

  it('counts the plan limits once across both processes: the request over the limit is refused on either', async () => {
    const [a, b] = services.map((s) => s.url);
    const { key, cookie } = await freeAccount();
    // the Free plan allows 10 requests a minute: alternately on both processes
    await spendFreeMinuteAcross(a, b, key);
    // each process writes its usage rows in batches (every 200 ms): both report all ten once written
    let counts: number[] = [];
    for (let attempt = 0; attempt < 50; attempt++) {
      counts = await Promise.all([a, b].map(async (url) => (await call(`${url}/v1/usage/me`, 'GET', undefined, { cookie })).body.requests_today as number));
      if (counts.every((n) => n === 10)) break;
      await sleep(200);
    }
    expect(counts).toEqual([10, 10]);
  });
});

describe('the ingest lock (withIngestLock) on PostgreSQL', () => {
  const database = `lsp_test_${randomBytes(6).toString('hex')}`;
  const orms: Orm[] = [];

  beforeAll(async () => {
    await admin(`create database "${database}"`);
    for (let i = 0; i < 2; i++) orms.push(await createOrm({ databaseUrl: databaseUrl(database), dataDir: '' }));
  });

  afterAll(async () => {
    for (const orm of orms) await closeOrm(orm);
    await admin(`drop database if exists "${database}" with (force)`);
  });

  it('holds the lock for one holder only, and frees it when the holder ends', async () => {
    let inner: unknown = 'not run';
    const outer = await withIngestLock(orms[0]!, true, async () => {
      inner = await withIngestLock(orms[1]!, true, async () => 'ran twice');
      return 'held';
    });
    expect(outer).toEqual({ ran: true, value: 'held' });
    expect(inner).toEqual({ ran: false });
    expect(await withIngestLock(orms[1]!, true, async () => 'free again')).toEqual({ ran: true, value: 'free again' });
    const held = await orms[0]!.em.fork().getConnection().execute(`select count(*)::int as n from pg_locks where locktype = 'advisory' and objid = ${Number(INGEST_LOCK_KEY & 0xffffffffn)} and database = (select oid from pg_database where datname = current_database())`);
    expect(held[0].n).toBe(0);
  });
});
