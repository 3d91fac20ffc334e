/**
 * Auth + limits overhead per billable request (`npm run bench:auth`): the latency an API key,
 * the plan limiter and usage counting add to a billable call, with both counter stores.
 *
 * Runs the platform in process on a small corpus slice in its own DATA_DIR
 * (data/accounts-bench, rebuilt when missing), signs up an administrator (counted, never
 * limited) with an API key, then measures sequentially over real HTTP:
 *   - open:      GET /v1/documents/... as an anonymous caller with ALLOW_ANONYMOUS=true and
 *                RATE_LIMITS=off (the guard still counts it, but nothing is looked up);
 *   - key:       the same request with `Authorization: Bearer sk-...` (key lookup + limiter + count);
 * and in process, without HTTP:
 *   - work:      the document read alone (engine.getDocuments),
 *   - guarded:   legalData.getDocument with the API key's context (authenticate + limiter + count + work).
 * Added latency = p50(key) - p50(open) over HTTP, and p50(guarded incl. authenticate) - p50(work).
 */
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { callerContext } from '../src/context.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { writeCorpusSlice } from '../test/fixtures/corpus-slice.js';
import { fmt, percentile } from './lib.js';

const DATA_DIR = path.resolve(process.env.BENCH_DATA_DIR ?? 'data/accounts-bench');
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const N = Number(process.env.BENCH_REQUESTS ?? 2000);
const WARMUP = 200;

async function timeEach(n: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < WARMUP; i++) await fn(i);
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b);
}

async function measure(store: 'memory' | 'redis'): Promise<Record<string, number>> {
  const corpusDir = path.join(DATA_DIR, 'corpus');
  if (!existsSync(corpusDir)) {
    await mkdir(DATA_DIR, { recursive: true });
    await writeCorpusSlice([{ file: 'legislation/EU-EUR-Lex.jsonl.gz', lines: 100 }], { dir: corpusDir });
  }
  const dataDir = path.join(DATA_DIR, `service-${store}`);
  await rm(path.join(dataDir, 'pglite'), { recursive: true, force: true }); // fresh accounts each run
  const config = loadConfig({
    DATA_DIR: dataDir,
    CORPUS_DIR: corpusDir,
    PORT: '0',
    EMBEDDER: 'none',
    ALLOW_ANONYMOUS: 'true',
    RATE_LIMITS: 'off',
    ADMIN_EMAILS: 'bench@example.org',
    ...(store === 'redis' ? { REDIS_URL } : {}),
  });
  const platform: Platform = await startPlatform(config, createLogger('warn'));
  try {
    await platform.ingestDone;
    const url = platform.url!;
    const email = 'bench@example.org';
    const password = 'bench passphrase 1234';
    const json = { 'content-type': 'application/json' };
    await fetch(`${url}/auth/register`, { method: 'POST', headers: json, body: JSON.stringify({ email, password, accept_terms: true, acknowledge_privacy: true }) });
    const login = await fetch(`${url}/auth/login`, { method: 'POST', headers: json, body: JSON.stringify({ email, password }) });
    const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
    const key = ((await (await fetch(`${url}/v1/keys`, { method: 'POST', headers: { ...json, cookie }, body: '{}' })).json()) as { key: string }).key;

    const docs = (await (await fetch(`${url}/v1/search`, { method: 'POST', headers: { ...json, authorization: `Bearer ${key}` }, body: JSON.stringify({ q: 'regulation', namespace: 'legislation', top_k: 1 }) })).json()) as {
      hits: { source: string; source_id: string; id: string }[];
    };
    const doc = docs.hits[0]!;
    const route = `${url}/v1/documents/${doc.source}/${doc.source_id}`;
    const get = async (headers: Record<string, string>) => {
      const res = await fetch(route, { headers });
      if (res.status !== 200) throw new Error(`GET ${route}: ${res.status}`);
      await res.arrayBuffer();
    };

    const open = await timeEach(N, () => get({}));
    const keyed = await timeEach(N, () => get({ authorization: `Bearer ${key}` }));
    const work = await timeEach(N, () => platform.engine.getDocuments([doc.id]));
    const guarded = await timeEach(N, async () => {
      const caller = await platform.accounts.authenticator.authenticate({ authorization: `Bearer ${key}`, cookie: undefined, ip: '127.0.0.1' });
      await platform.legalData.getDocument(callerContext(caller), doc.source, doc.source_id);
    });
    await platform.accounts.usage.flush();
    return {
      open_p50: percentile(open, 50),
      key_p50: percentile(keyed, 50),
      key_p95: percentile(keyed, 95),
      work_p50: percentile(work, 50),
      guarded_p50: percentile(guarded, 50),
      guarded_p95: percentile(guarded, 95),
    };
  } finally {
    await platform.stop();
  }
}

console.log(`auth-overhead: ${N} sequential requests per variant after ${WARMUP} warm-up, DATA_DIR ${DATA_DIR}`);
for (const store of ['memory', 'redis'] as const) {
  const r = await measure(store);
  console.log(
    `  ${store.padEnd(6)} HTTP: open p50 ${fmt(r.open_p50!, 2)} ms, API key p50 ${fmt(r.key_p50!, 2)} ms (p95 ${fmt(r.key_p95!, 2)}) -> added p50 ${fmt(r.key_p50! - r.open_p50!, 2)} ms`,
  );
  console.log(
    `  ${store.padEnd(6)} in process: work p50 ${fmt(r.work_p50!, 3)} ms, authenticate + limiter + count + work p50 ${fmt(r.guarded_p50!, 3)} ms (p95 ${fmt(r.guarded_p95!, 3)}) -> added p50 ${fmt(r.guarded_p50! - r.work_p50!, 3)} ms`,
  );
}
process.exit(0);
