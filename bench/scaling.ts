/**
 * `npm run bench:scaling`: how the embedded engine grows with the corpus. Builds a slice of
 * the shared corpus with about `--docs` documents (the leading lines of every document file,
 * the same number from each until the total is reached, so every namespace and many languages
 * are in it), starts the real service on it (EMBEDDER=none unless `--embedder`), and prints
 * the ingest time, the index size on disk, the service's memory while serving and the search
 * latency (keyword leg, concurrency 1 and 4).
 *
 *   npm run bench:scaling -- --docs 10000                 # ~10-20 minutes on 2 cores
 *   npm run bench:scaling -- --docs 0 --data-dir ./data/bench   # the whole shared corpus (reuses --reuse)
 */
import { execFileSync } from 'node:child_process';
import { createReadStream, readdirSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { parseArgs } from 'node:util';
import { positiveNumberOrExit } from '../src/cli/cli-args.js';
import { gzipLines, readRecords, SHARED_CORPUS } from '../test/fixtures/corpus-slice.js';
import { printCalibration, fmt, percentile, postJson, runConcurrent, sleep, startService } from './lib.js';

// The machine's speed beside every figure this benchmark prints (bench/calibrate.ts).
printCalibration();

const { values } = parseArgs({
  options: {
    docs: { type: 'string', default: '10000' },
    'data-dir': { type: 'string' },
    reuse: { type: 'boolean', default: false },
    queries: { type: 'string', default: '200' },
    embedder: { type: 'string', default: 'none' },
  },
});
// --docs 0: the whole corpus.
const wanted = positiveNumberOrExit('docs', values.docs, { integer: true, allowZero: true })!;
const queryCount = positiveNumberOrExit('queries', values.queries, { integer: true })!;
const dataDir = path.resolve(values['data-dir'] ?? `./data/bench-scaling-${wanted || 'full'}`);
if (!values.reuse) await rm(dataDir, { recursive: true, force: true });
await mkdir(dataDir, { recursive: true });

/** Every document file of the shared corpus, by namespace folder. */
function documentFiles(): string[] {
  const root = path.join(SHARED_CORPUS, 'documents');
  return readdirSync(root).flatMap((ns) => readdirSync(path.join(root, ns)).filter((f) => f.endsWith('.jsonl.gz')).map((f) => `${ns}/${f}`));
}

let corpusDir = SHARED_CORPUS;
let sliceDocs = 0;
if (wanted > 0) {
  corpusDir = path.join(dataDir, 'corpus');
  if (!values.reuse) {
    // Round-robin over the files, as water-filling: every file gives the same number of
    // documents, capped by what it holds, until `wanted`. Each file is read twice at most
    // (once to count, once to take), not once per round.
    const files = documentFiles();
    const counts = new Map<string, number>();
    for (const file of files) counts.set(file, await countRecords(file));
    const quota = waterFill([...counts.values()], wanted);
    const taken = new Map<string, Record<string, unknown>[]>();
    for (const [i, file] of files.entries()) {
      if (quota[i] === 0) continue;
      const rows = await readRecords(file, quota[i]);
      taken.set(file, rows);
      sliceDocs += rows.length;
    }
    for (const [file, rows] of taken) {
      if (rows.length === 0) continue;
      await mkdir(path.join(corpusDir, 'documents', path.dirname(file)), { recursive: true });
      await writeFile(path.join(corpusDir, 'documents', file), gzipLines(rows));
    }
    await writeFile(path.join(corpusDir, 'sources.jsonl.gz'), await readFile(path.join(SHARED_CORPUS, 'sources.jsonl.gz')));
    console.log(`bench:scaling: slice of ${sliceDocs} documents from ${taken.size} files in ${corpusDir}`);
  }
}

/** Documents in one file of the shared corpus (non-empty lines). */
async function countRecords(file: string): Promise<number> {
  let n = 0;
  const lines = createInterface({ input: createReadStream(path.join(SHARED_CORPUS, 'documents', file)).pipe(createGunzip()), crlfDelay: Infinity });
  for await (const line of lines) if (line.trim()) n++;
  return n;
}

/** The largest equal share per file (capped by each file's count) that sums to at most `total`, the remainder given to the first files that still hold more. */
function waterFill(counts: number[], total: number): number[] {
  const quota = counts.map(() => 0);
  let left = Math.min(total, counts.reduce((a, b) => a + b, 0));
  while (left > 0) {
    const open = counts.map((c, i) => i).filter((i) => quota[i] < counts[i]);
    const share = Math.max(1, Math.floor(left / open.length));
    for (const i of open) {
      const add = Math.min(share, counts[i] - quota[i], left);
      quota[i] += add;
      left -= add;
      if (left === 0) break;
    }
  }
  return quota;
}

const started = Date.now();
const service = await startService({ DATA_DIR: path.join(dataDir, 'data'), CORPUS_DIR: corpusDir, EMBEDDER: values.embedder! }, (line) => {
  if (/ingest (finished|interrupted)|ingest: \d+ files/.test(line)) console.log(`  service: ${line.slice(25)}`);
});
process.on('exit', () => service.child.kill('SIGTERM'));
// Polls /ready, tolerating a refused or reset connection while the machine is loaded.
for (;;) {
  if (service.child.exitCode !== null) throw new Error(`service exited:\n${service.logs.slice(-20).join('\n')}`);
  const ready = await fetch(`${service.url}/ready`).then((r) => r.status === 200, () => false);
  if (ready) break;
  await sleep(2000);
}
const readySeconds = (Date.now() - started) / 1000;
const summaryLine = service.logs.find((l) => l.includes('ingest finished')) ?? '';
const stats = (await (await fetch(`${service.url}/v1/stats`)).json()) as any;
const indexBytes = Number(execFileSync('du', ['-sb', path.join(dataDir, 'data', 'index')]).toString().split('\t')[0]);

const QUERIES = [
  'Schadensersatz unerlaubte Handlung', 'responsabilité civile délictuelle', 'data protection consent',
  'Kündigung Arbeitsverhältnis Frist', "liberté d'expression presse", 'right to a fair trial',
  'Mietvertrag Mängel Minderung', "contrat de travail période d'essai", 'personal data transfer third country',
  'droit de rétractation consommateur', 'Verjährung Ansprüche', 'asylum application refugee status',
  'tax evasion penalty', 'competition law abuse of dominant position', 'copyright infringement damages',
];
const NAMESPACES = ['case_law', 'legislation', 'doctrine'];
const tasks = Array.from({ length: queryCount }, (_, i) => async () => {
  const body = { q: QUERIES[i % QUERIES.length], namespace: NAMESPACES[i % 3], top_k: 10, alpha: 0.7, ...(i % 5 === 0 ? { date_start: '2010-01-01' } : {}) };
  const res = await postJson(`${service.url}/v1/search`, body);
  if (res.status !== 200) throw new Error(`search failed ${res.status}: ${JSON.stringify(res.body)}`);
});
await runConcurrent(tasks.slice(0, 20), 2); // warm-up
const c1 = await runConcurrent(tasks, 1);
const c4 = await runConcurrent(tasks, 4);
const memory = service.memory();
await service.stop();

console.log('\n== bench:scaling summary');
console.log(`documents: ${stats.total_documents}, chunks: ${stats.index.chunks}, vectors: ${stats.index.chunks_with_vectors} (EMBEDDER=${values.embedder})`);
console.log(`ready after ${fmt(readySeconds)} s; ${summaryLine.replace(/^.*?ingest/, 'ingest')}`);
console.log(`index on disk: ${fmt(indexBytes / 2 ** 20)} MiB (${fmt(indexBytes / Math.max(1, stats.total_documents), 0)} bytes/document, ${fmt(indexBytes / Math.max(1, stats.index.chunks), 0)} bytes/chunk)`);
console.log(`memory while serving: RSS ${fmt(memory.rssMiB, 0)} MiB, peak ${fmt(memory.peakMiB, 0)} MiB`);
console.log(`search top_k=10 alpha=0.7, ${tasks.length} queries:`);
console.log(`  concurrency 1: p50 ${fmt(percentile(c1, 50))} ms  p95 ${fmt(percentile(c1, 95))} ms  p99 ${fmt(percentile(c1, 99))} ms`);
console.log(`  concurrency 4: p50 ${fmt(percentile(c4, 50))} ms  p95 ${fmt(percentile(c4, 95))} ms  p99 ${fmt(percentile(c4, 99))} ms`);
