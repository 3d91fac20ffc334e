/**
 * `npm run bench:stages`: the CPU time (all threads of the process: LanceDB searches on its own
 * native threads) and wall time of each engine call a search makes, one call at a time over the
 * eval questions with their filters, passage cache off. It says which stage costs the most
 * processor per request, which bounds the throughput at 8 clients on 2 cores.
 *
 *   npm run bench:stages -- --data-dir ./data/bench --questions 300
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { positiveNumberOrExit } from '../src/cli/cli-args.js';
import { LanceDbEngine } from '../src/engines/embedded/lancedb-engine.js';
import { loadStaticEmbedder } from '../src/engines/embedders/static-embedder.js';
import { feedbackLeg } from '../src/modules/legal-data/search.service.js';
import { StageTimer } from '../src/util/stage-timer.js';
import { printCalibration } from './lib.js';

// The machine's speed beside every figure this benchmark prints (bench/calibrate.ts).
printCalibration();

const { values } = parseArgs({ options: { 'data-dir': { type: 'string', default: './data/bench' }, questions: { type: 'string', default: '300' } } });
const n = positiveNumberOrExit('questions', values.questions, { integer: true })!;
const dataDir = path.resolve(values['data-dir']!);
const rows = ['retrieval-dev.jsonl', 'retrieval-dev-2.jsonl'].flatMap((f) => readFileSync(`../shared/eval/${f}`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)));
const engine = new LanceDbEngine(path.join(dataDir, 'index'), { passageCacheSize: 0 });
await engine.open();
const embedder = await loadStaticEmbedder(path.join(dataDir, 'models/domain-static'));
const cpu: Record<string, number> = {};
const wall: Record<string, number> = {};
async function timed<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const c = process.cpuUsage();
  const t = performance.now();
  const out = await fn();
  const d = process.cpuUsage(c);
  cpu[name] = (cpu[name] ?? 0) + (d.user + d.system) / 1000;
  wall[name] = (wall[name] ?? 0) + performance.now() - t;
  return out;
}
console.log(`bench:stages: ${dataDir}, ${n} questions after 60 of warm-up; per call, mean:`);
for (const [pass, cases] of [['warm', rows.slice(-60)], ['measure', rows.slice(0, n)]] as const) {
  for (const k of Object.keys(cpu)) delete cpu[k];
  for (const k of Object.keys(wall)) delete wall[k];
  for (const e of cases) {
    const filters = { namespace: e.namespace, countries: e.country ? [e.country] : undefined };
    const kw = await timed('keyword', () => engine.keywordSearch(e.query, filters, 50));
    const [v] = await embedder.embedQueries([e.query]);
    const vs = await timed('vector', () => engine.vectorSearch(v, filters, 50));
    // relevance feedback, as a search runs it: every candidate against the moved query
    await timed('feedback', () => feedbackLeg({ engine, embedder: null }, kw, { hits: vs, vector: v }, new StageTimer()));
    const ids = [...new Set([...kw, ...vs].map((h) => h.docId))];
    await timed('places', () => engine.documentPlaces(ids));
    const top = ids.slice(0, 10);
    await timed('documents', () => engine.getDocumentsWithoutText(top));
    await timed('passages', () => engine.passages!([...kw, ...vs].slice(0, 10).map((h) => h.chunkId!)));
  }
  const notes: Record<string, string> = { places: '  (the engine query; searches take places from the reference index in memory)' };
  if (pass === 'measure') for (const k of Object.keys(cpu)) console.log(`${k.padEnd(13)} cpu ${(cpu[k] / cases.length).toFixed(2)} ms  wall ${(wall[k] / cases.length).toFixed(2)} ms${notes[k] ?? ''}`);
}
await engine.close();
