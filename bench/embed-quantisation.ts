/**
 * `npm run bench:embed-table -- [--model DIR]`: the static embedder's token table held as int8
 * rows with a scale each (the default) against float32 as stored: how far the embeddings move
 * (cosine between the two, for the dev set's queries and corpus passages), the table's size and
 * each process's RSS once loaded, and the query embedding time. Memory and time are measured in
 * one child process per table, so neither sees the other's table or code paths.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { defaultModelDir } from '../src/engines/embedders/create-embedder.js';
import { parseSafetensors } from '../src/engines/embedders/safetensors.js';
import { loadStaticEmbedder } from '../src/engines/embedders/static-embedder.js';
import { readRecords } from '../test/fixtures/corpus-slice.js';
import { printCalibration, fmt, percentile } from './lib.js';

// The machine's speed beside every figure this benchmark prints (bench/calibrate.ts).
printCalibration();

const { values } = parseArgs({
  options: {
    model: { type: 'string' },
    'data-dir': { type: 'string', default: './data' },
    set: { type: 'string', default: '../shared/eval/retrieval-dev.jsonl' },
    child: { type: 'string' },
  },
});
const dir = path.resolve(values.model ?? defaultModelDir(path.resolve(values['data-dir']!)));
const queries = readFileSync(values.set!, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { query: string }).query);
type Table = 'int8' | 'float32';

if (values.child) {
  const table = values.child as Table;
  // Freed ArrayBuffers are released by a background sweeper after a gc: give it time.
  const settledRss = async () => {
    for (let i = 0; i < 3; i++) {
      (globalThis as { gc?: () => void }).gc?.();
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    return process.memoryUsage().rss;
  };
  const before = await settledRss();
  const embedder = await loadStaticEmbedder(dir, { table });
  const loaded = await settledRss();
  for (const q of queries.slice(0, 100)) await embedder.embedQueries([q]); // warm-up
  const times: number[] = [];
  for (let round = 0; round < 3; round++) {
    for (const q of queries) {
      const t = performance.now();
      await embedder.embedQueries([q]);
      times.push(performance.now() - t);
    }
  }
  times.sort((a, b) => a - b);
  console.log(JSON.stringify({ loadedMiB: (loaded - before) / 2 ** 20, p50: percentile(times, 50), p95: percentile(times, 95) }));
} else {
  const passages: string[] = [];
  for (const file of ['legislation/DE-GesetzeImInternet.jsonl.gz', 'legislation/FR-LegifranceCodes.jsonl.gz', 'case_law/CoE-HUDOC.jsonl.gz']) {
    for (const r of await readRecords(file, 150)) passages.push(String(r.text ?? ''));
  }
  const int8 = await loadStaticEmbedder(dir);
  const float32 = await loadStaticEmbedder(dir, { table: 'float32' });
  const { tensors } = parseSafetensors(readFileSync(path.join(dir, 'model.safetensors')));
  const [rows, dim] = [...tensors.values()].find((t) => t.shape.length === 2)!.shape;
  console.log(`model ${int8.id}: ${rows} tokens x ${dim} dims; table float32 ${fmt((rows * dim * 4) / 2 ** 20, 1)} MiB, int8 + row scales ${fmt((rows * dim + rows * 4) / 2 ** 20, 1)} MiB`);
  for (const [label, texts] of [
    ['queries', queries],
    ['passages', passages],
  ] as const) {
    const a = await int8.embedPassages([...texts]);
    const b = await float32.embedPassages([...texts]);
    const cosines = a
      .map((v, i) => {
        let dot = 0;
        for (let d = 0; d < v.length; d++) dot += v[d] * b[i][d];
        return dot;
      })
      .filter((_, i) => b[i].some((x) => x !== 0))
      .sort((x, y) => x - y);
    const mean = cosines.reduce((s, c) => s + c, 0) / cosines.length;
    console.log(`cosine int8 vs float32, ${cosines.length} ${label}: min ${cosines[0].toFixed(6)}, p1 ${percentile(cosines, 1).toFixed(6)}, mean ${mean.toFixed(6)}`);
  }
  for (const table of ['float32', 'int8'] as const) {
    const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', path.resolve('bench/embed-quantisation.ts'), '--model', dir, '--set', values.set!, '--child', table], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`${table}: ${run.stderr}`);
    const r = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { loadedMiB: number; p50: number; p95: number };
    console.log(`${table.padEnd(7)}: RSS +${fmt(r.loadedMiB)} MiB once loaded; query embedding p50 ${fmt(r.p50, 3)} ms, p95 ${fmt(r.p95, 3)} ms (${queries.length * 3} queries)`);
  }
}
