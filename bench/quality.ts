/**
 * `npm run bench:quality`: runs ../shared/eval/retrieval-dev.jsonl and retrieval-dev-2.jsonl
 * (`--set a.jsonl,b.jsonl`) against POST /v1/search (top_k 100, each case's namespace and
 * country) for several alphas and prints nDCG@10, Recall@10, Recall@100 and MRR@10, overall
 * and per origin, then the targets for the default alpha 0.7 against keyword-only
 * (alpha 0): nDCG@10 ≥ 1.10 × keyword overall, no origin below keyword by more than 2%,
 * Recall@100 ≥ 0.45. Uses a running service (--url) or starts one on DATA_DIR.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { positiveNumberOrExit, unitNumbersOrExit } from '../src/cli/cli-args.js';
import { printCalibration, fmt, postJson, runConcurrent, startService, waitReady } from './lib.js';
import { loadCases, mean, scoreCase, ZERO_METRICS, type Metrics } from './retrieval-metrics.js';

// The machine's speed beside every figure this benchmark prints (bench/calibrate.ts).
printCalibration();

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    'data-dir': { type: 'string', default: './data/bench' },
    alphas: { type: 'string', default: '0,0.5,0.7,1' },
    set: { type: 'string', default: '../shared/eval/retrieval-dev.jsonl,../shared/eval/retrieval-dev-2.jsonl' },
    embedder: { type: 'string' },
    limit: { type: 'string' },
  },
});

const cases = loadCases(values.set!, positiveNumberOrExit('limit', values.limit, { integer: true }));
const alphas = unitNumbersOrExit('alphas', values.alphas!);

let url = values.url;
let stop = async () => {};
if (!url) {
  const service = await startService({ DATA_DIR: path.resolve(values['data-dir']!), ...(values.embedder ? { EMBEDDER: values.embedder } : {}) });
  console.log(`quality: service on ${service.url}, waiting for /ready (the index is built on first start)`);
  await waitReady(service.url, 60 * 60_000);
  url = service.url;
  stop = service.stop;
}

const table: string[] = [];
/** nDCG@10 and Recall@100 per alpha and slice ('all' and each origin), for the targets below. */
const figures = new Map<number, Map<string, { ndcg10: number; recall100: number }>>();
let failures = 0;
for (const alpha of alphas) {
  const byOrigin = new Map<string, Metrics[]>();
  const all: Metrics[] = [];
  const tasks = cases.map((c) => async () => {
    let metrics: Metrics = ZERO_METRICS;
    try {
      const res = await postJson(`${url}/v1/search`, { q: c.query, namespace: c.namespace, country: [c.country], top_k: 100, alpha }, 15_000);
      if (res.status === 200) metrics = scoreCase(c, res.body.hits);
      else failures += 1;
    } catch {
      failures += 1;
    }
    all.push(metrics);
    if (!byOrigin.has(c.origin)) byOrigin.set(c.origin, []);
    byOrigin.get(c.origin)!.push(metrics);
  });
  const started = Date.now();
  await runConcurrent(tasks, 4);
  const line = (label: string, rows: Metrics[]) =>
    `${label.padEnd(22)} ${String(rows.length).padStart(4)}  ${fmt(mean(rows, 'ndcg10'), 3)}   ${fmt(mean(rows, 'recall10'), 3)}     ${fmt(mean(rows, 'recall100'), 3)}      ${fmt(mean(rows, 'mrr10'), 3)}`;
  table.push(`alpha=${alpha}  (${fmt((Date.now() - started) / 1000)} s)`);
  table.push(`${'slice'.padEnd(22)} ${'n'.padStart(4)}  nDCG@10 Recall@10 Recall@100 MRR@10`);
  table.push(line('all', all));
  for (const [origin, rows] of [...byOrigin].sort()) table.push(line(origin, rows));
  figures.set(alpha, new Map([['all', all] as const, ...[...byOrigin].sort()].map(([k, rows]) => [k, { ndcg10: mean(rows, 'ndcg10'), recall100: mean(rows, 'recall100') }])));
  console.log(`quality alpha=${alpha} ndcg10=${fmt(mean(all, 'ndcg10'), 3)} recall10=${fmt(mean(all, 'recall10'), 3)} recall100=${fmt(mean(all, 'recall100'), 3)}`);
}
await stop();
console.log('\n' + table.join('\n'));
const keyword = figures.get(0);
const hybrid = figures.get(0.7);
if (keyword && hybrid) {
  console.log('\ntargets at alpha 0.7 against keyword-only (alpha 0):');
  const all = hybrid.get('all')!;
  const ratio = all.ndcg10 / keyword.get('all')!.ndcg10;
  console.log(`  nDCG@10 ${fmt(all.ndcg10, 3)} = ${fmt(ratio, 3)} × keyword (target ≥ 1.10): ${ratio >= 1.1 ? 'met' : 'MISSED'}`);
  for (const [slice, f] of hybrid) {
    if (slice === 'all') continue;
    const r = f.ndcg10 / Math.max(keyword.get(slice)!.ndcg10, 1e-9);
    console.log(`  ${slice.padEnd(22)} ${fmt(f.ndcg10, 3)} vs ${fmt(keyword.get(slice)!.ndcg10, 3)} = ${fmt((r - 1) * 100, 1)}% (target ≥ -2%): ${r >= 0.98 ? 'met' : 'MISSED'}`);
  }
  console.log(`  Recall@100 ${fmt(all.recall100, 3)} (target ≥ 0.45): ${all.recall100 >= 0.45 ? 'met' : 'MISSED'}`);
}
if (failures) console.log(`\n${failures} requests failed (scored 0)`);
