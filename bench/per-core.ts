/**
 * `npm run bench:per-core`: searches per second per core on an indexed DATA_DIR, and what one
 * more core buys. The eval questions (both development sets, with their namespace and country
 * filters, top_k 10, alpha 0.7) at 8 clients against:
 *
 *   - one process pinned to one core (`taskset`: the engine sizes its thread pools to it);
 *   - one process on two cores;
 *   - two processes, each pinned to its own core and serving its own copy of DATA_DIR (one
 *     writer per DATA_DIR: the embedded engine's lock), the clients split between them.
 *
 * Each setting runs with the vectors held in memory (`SEARCH_VECTOR_MEMORY=true`, today's
 * default) and, with `--before`, without them (the vector leg as it was before issue 38:
 * HNSW with LanceDB's refinement, feedback reading its vectors). The services start with
 * `INGEST_ON_START=false`: the index is taken as it is.
 *
 *   npm run bench:per-core -- --data-dir ./data/bench --before
 *   npm run bench:per-core -- --data-dir ./data/bench-scaling-10000/data --cores 2
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { positiveNumberOrExit } from '../src/cli/cli-args.js';
import { fmt, percentile, postJson, printCalibration, runConcurrent, startService, waitForVectorsHeld, waitIdle, type RunningService } from './lib.js';

// The machine's speed beside every figure this benchmark prints (bench/calibrate.ts).
printCalibration();

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string', default: './data/bench' },
    before: { type: 'boolean', default: false },
    clients: { type: 'string', default: '8' },
  },
});
const dataDir = path.resolve(values['data-dir']!);
if (!existsSync(path.join(dataDir, 'index'))) {
  console.error(`bench:per-core: no index in ${dataDir} (build one with npm run bench or npm run bench:scaling)`);
  process.exit(2);
}
const clients = positiveNumberOrExit('clients', values.clients, { integer: true })!;
if (os.availableParallelism() < 2) {
  console.error('bench:per-core: needs at least two cores');
  process.exit(2);
}

const questions = ['retrieval-dev.jsonl', 'retrieval-dev-2.jsonl'].flatMap((f) =>
  readFileSync(`../shared/eval/${f}`, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { query: string; namespace?: string; country?: string }),
);
// Warm-up queries unlike the measured ones (the service keeps the passages it returned).
const warmUp = ['Schadensersatz unerlaubte Handlung', 'responsabilité civile délictuelle', 'data protection consent', 'Kündigung Arbeitsverhältnis Frist', "liberté d'expression presse", 'right to a fair trial', 'Mietvertrag Mängel Minderung', 'tax evasion penalty'];

interface Setting {
  name: string;
  /** One entry per process: the cores it is pinned to, or null for all. */
  processes: (string | null)[];
}
const settings: Setting[] = [
  { name: '1 process, 1 core', processes: ['0'] },
  { name: '1 process, 2 cores', processes: [null] },
  { name: '2 processes, 1 core each', processes: ['0', '1'] },
];

// The second process's own copy (reflinked where the file system can).
const copyDir = `${dataDir}-per-core-copy`;
console.log(`bench:per-core: ${dataDir}, ${questions.length} questions at ${clients} clients per setting${values.before ? ', with and without the vectors in memory' : ''}`);
console.log(`  copying the index for the second process to ${copyDir} ...`);
await rm(copyDir, { recursive: true, force: true });
execFileSync('cp', ['-a', '--reflink=auto', dataDir, copyDir]);

const rows: string[] = [];
try {
  for (const vectorMemory of values.before ? ['false', 'true'] : ['true']) {
    for (const setting of settings) rows.push(await measure(setting, vectorMemory));
  }
} finally {
  await rm(copyDir, { recursive: true, force: true });
}
console.log('\n== bench:per-core summary (eval questions with their filters, top_k 10, alpha 0.7)');
console.log('| setting | vectors in memory | req/s | req/s per core | p50 / p95 ms | processor per query ms | RSS MiB (each process) |');
console.log('|---|---|---|---|---|---|---|');
for (const row of rows) console.log(row);

async function measure(setting: Setting, vectorMemory: string): Promise<string> {
  const services: RunningService[] = [];
  try {
    for (const [i, cpus] of setting.processes.entries()) {
      const env = { DATA_DIR: i === 0 ? dataDir : copyDir, INGEST_ON_START: 'false', SEARCH_VECTOR_MEMORY: vectorMemory };
      services.push(await startService(env, undefined, cpus ? { cpus } : {}));
    }
    for (const service of services) {
      const search = () => postJson(`${service.url}/v1/search`, { q: warmUp[0], top_k: 10 });
      if (vectorMemory === 'true') await waitForVectorsHeld(service, search);
      await runConcurrent(warmUp.map((q) => () => postJson(`${service.url}/v1/search`, { q, top_k: 10, alpha: 0.7 })), 2);
      await waitIdle(service);
    }
    const cpuBefore = services.map((s) => s.cpuSeconds());
    let failures = 0;
    const tasks = questions.map((e, i) => async () => {
      // Client i of the run goes to process i mod n: each process gets its share of the clients.
      const service = services[i % services.length];
      const res = await postJson(`${service.url}/v1/search`, { q: e.query, namespace: e.namespace, ...(e.country ? { country: [e.country] } : {}), top_k: 10, alpha: 0.7 });
      if (res.status !== 200) failures++;
    });
    const started = performance.now();
    const latencies = await runConcurrent(tasks, clients);
    const seconds = (performance.now() - started) / 1000;
    const cpu = services.reduce((sum, s, i) => sum + s.cpuSeconds() - cpuBefore[i], 0);
    const cores = setting.processes.reduce((n, cpus) => n + (cpus ? cpus.split(',').length : os.availableParallelism()), 0);
    const rate = questions.length / seconds;
    const rss = services.map((s) => fmt(s.memory().rssMiB, 0)).join(' + ');
    const line = `| ${setting.name} | ${vectorMemory === 'true' ? 'yes' : 'no'} | ${fmt(rate)} | ${fmt(rate / cores)} | ${fmt(percentile(latencies, 50))} / ${fmt(percentile(latencies, 95))} | ${fmt((cpu * 1000) / questions.length)} | ${rss} |`;
    console.log(`  ${setting.name}, vectors in memory ${vectorMemory}: ${fmt(rate)} req/s, p50 ${fmt(percentile(latencies, 50))} ms, ${failures} failed`);
    if (failures > 0) throw new Error(`${failures} searches failed in "${setting.name}"`);
    return line;
  } finally {
    for (const service of services) await service.stop();
  }
}
