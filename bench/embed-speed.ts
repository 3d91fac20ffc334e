/**
 * `npm run bench:embed -- --model DIR`: how long embedding one query takes with a static
 * model (the time the vector leg adds before its search), p50 / p95 over the dev set's
 * queries, and passage embedding throughput.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { defaultModelDir } from '../src/engines/embedders/create-embedder.js';
import { loadStaticEmbedder } from '../src/engines/embedders/static-embedder.js';
import { printCalibration, fmt, percentile } from './lib.js';

// The machine's speed beside every figure this benchmark prints (bench/calibrate.ts).
printCalibration();

const { values } = parseArgs({
  options: {
    model: { type: 'string' },
    'data-dir': { type: 'string', default: './data' },
    set: { type: 'string', default: '../shared/eval/retrieval-dev.jsonl' },
  },
});
const dir = path.resolve(values.model ?? defaultModelDir(path.resolve(values['data-dir']!)));
const started = performance.now();
const embedder = await loadStaticEmbedder(dir);
console.log(`model ${embedder.id} (${embedder.dimension} dims) loaded in ${fmt(performance.now() - started)} ms`);
const queries = readFileSync(values.set!, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { query: string }).query);
for (const q of queries.slice(0, 50)) await embedder.embedQueries([q]); // warm-up
const times: number[] = [];
for (const q of queries) {
  const t = performance.now();
  await embedder.embedQueries([q]);
  times.push(performance.now() - t);
}
times.sort((a, b) => a - b);
console.log(`query embedding: p50 ${fmt(percentile(times, 50), 3)} ms, p95 ${fmt(percentile(times, 95), 3)} ms over ${times.length} queries`);
const passages = queries.map((q) => `${q} ${q} ${q} ${q} ${q}`);
const t = performance.now();
await embedder.embedPassages(passages);
console.log(`passage embedding: ${fmt(passages.length / ((performance.now() - t) / 1000))} passages/s`);
