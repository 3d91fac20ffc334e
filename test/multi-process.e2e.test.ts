/**
 * Several service processes on one PostgreSQL database, one Redis and one search engine (two
 * platform instances in this process, sharing DATA_DIR's index as they would share an
 * Elasticsearch cluster): one ingest runs at a time (a PostgreSQL advisory lock), the other
 * serves meanwhile, and once the index is built both give the same answers. That the rate
 * limits are shared through Redis is proven by usage-limits.redis.e2e.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { closeOrm, createOrm } from '../src/db/orm.js';
import { INGEST_LOCK_KEY, withIngestLock } from '../src/ingest-lock.js';
import { createLogger, type Logger } from '../src/logger.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { writeCorpusSlice } from './fixtures/corpus-slice.js';
import { TEST_POSTGRES_ADMIN_URL } from './helpers/test-databases.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function admin(sql: string): Promise<void> {
  const orm = await createOrm({ databaseUrl: TEST_POSTGRES_ADMIN_URL, dataDir: '' });
  try {
    await orm.em.getConnection().execute(sql, [], 'run');
  } finally {
    await closeOrm(orm);
  }
}

describe('two service processes on one PostgreSQL, Redis and engine', () => {
  const database = `lsp_test_${randomBytes(6).toString('hex')}`;
  const platforms: Platform[] = [];
  const logs: string[][] = [[], []];
  let summaries: (Awaited<Platform['ingestDone']>)[] = [];

  beforeAll(async () => {
    await admin(`create database "${database}"`);
    const url = new URL(TEST_POSTGRES_ADMIN_URL);
    url.pathname = `/${database}`;
    const corpus = await writeCorpusSlice([
      { file: 'legislation/DE-GesetzeImInternet.jsonl.gz', lines: 150 },
      { file: 'legislation/FR-LegifranceCodes.jsonl.gz', lines: 150 },
      { file: 'case_law/DE-BGH.jsonl.gz', lines: 20 },
    ]);
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'multi-process-'));
    for (let i = 0; i < 2; i++) {
      const logger = { ...createLogger('silent'), info: (m: string) => logs[i].push(m) } as Logger;
      const config = loadConfig({
        DATA_DIR: dataDir, CORPUS_DIR: corpus.dir, DATABASE_URL: url.toString(), REDIS_URL, EMBEDDER: 'none',
        ALLOW_ANONYMOUS: 'true', RATE_LIMITS: 'off', PORT: '0', SESSION_SECRET: 'one secret shared by both processes, 32+ chars',
      });
      // the second starts while the first one's ingest runs
      platforms.push(await startPlatform(config, logger));
    }
    summaries = await Promise.all(platforms.map((p) => p.ingestDone));
  });

  afterAll(async () => {
    for (const platform of platforms) await platform.stop();
    await admin(`drop database if exists "${database}" with (force)`);
  });

  it('runs one ingest; the other process serves meanwhile and says why', async () => {
    const ran = summaries.filter((s) => s !== null);
    expect(ran.length).toBe(1);
    expect(ran[0]!.documents.indexed).toBeGreaterThan(200);
    const waited = logs.findIndex((l) => l.some((m) => /another process is ingesting/.test(m)));
    expect(waited).toBeGreaterThanOrEqual(0);
    expect(summaries[waited]).toBeNull();
    // it served while waiting: its health and search answer
    expect((await fetch(`${platforms[waited].url}/health`)).status).toBe(200);
  });

  it('gives the same answers from both processes', async () => {
    // the process that waited refreshes its statistics as its retried ingest would
    await Promise.all(platforms.map((p) => p.legalData.refreshCatalog()));
    await new Promise((r) => setTimeout(r, 2500)); // the index's read-consistency interval
    for (const body of [
      { q: 'Schadensersatz unerlaubte Handlung', namespace: 'legislation' },
      { q: 'responsabilité contrat', namespace: 'legislation', country: ['FR'] },
      { q: 'Revision Urteil', namespace: 'case_law' },
    ]) {
      const answers = await Promise.all(
        platforms.map(async (p) => {
          const res = await fetch(`${p.url}/v1/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...body, top_k: 5 }) });
          expect(res.status).toBe(200);
          const json = (await res.json()) as any;
          return json.hits.map((h: any) => [h.id, h.score]);
        }),
      );
      expect(answers[0].length).toBeGreaterThan(0);
      expect(answers[1]).toEqual(answers[0]);
    }
    const stats = await Promise.all(platforms.map(async (p) => ((await (await fetch(`${p.url}/v1/stats`)).json()) as any).total_documents));
    expect(stats[1]).toBe(stats[0]);
  });

  it('holds the lock for one holder only, and frees it when the holder ends', async () => {
    const orms = [platforms[0].orm, platforms[1].orm];
    let inner: unknown = 'not run';
    const outer = await withIngestLock(orms[0], true, async () => {
      inner = await withIngestLock(orms[1], true, async () => 'ran twice');
      return 'held';
    });
    expect(outer).toEqual({ ran: true, value: 'held' });
    expect(inner).toEqual({ ran: false });
    expect(await withIngestLock(orms[1], true, async () => 'free again')).toEqual({ ran: true, value: 'free again' });
    const held = await orms[0].em.fork().getConnection().execute(`select count(*)::int as n from pg_locks where locktype = 'advisory' and objid = ${Number(INGEST_LOCK_KEY & 0xffffffffn)}`);
    expect(held[0].n).toBe(0);
  });
});
