/**
 * `npm run bench:vector-memory`: the same service on the same index with its vectors held in
 * memory (SEARCH_VECTOR_MEMORY=true, src/engines/embedded/lancedb-vector-memory.ts) and without,
 * alternately, in one run: the before/after of issue 38's first lever on one machine. For each
 * service: the eval questions (retrieval-dev + retrieval-dev-2 with their namespace and country)
 * split in two halves, the first at 1 client and the second at 8, with latency, throughput, the
 * service's processor time per query by thread (bench/lib.ts threadCpuSeconds) and its RSS.
 *
 *   npm run bench:vector-memory                       # ./data/bench (an indexed full corpus: run `npm run bench` first)
 *   npm run bench:vector-memory -- --rounds 3 --data-dir DIR
 *
 * Each service is measured once it is idle (its processor time still for 2 s), after a warm-up
 * with other questions and, with memory, once the vectors are held.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { positiveNumberOrExit } from '../src/cli/cli-args.js';
import { fmt, percentile, postJson, printCalibration, runConcurrent, startService, threadCpuSeconds, waitForVectorsHeld, waitIdle, waitReady, type RunningService } from './lib.js';

printCalibration();

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string', default: './data/bench' },
    rounds: { type: 'string', default: '2' },
  },
});
const rounds = positiveNumberOrExit('rounds', values.rounds, { integer: true })!;
const questions = ['../shared/eval/retrieval-dev.jsonl', '../shared/eval/retrieval-dev-2.jsonl']
  .flatMap((file) => readFileSync(file, 'utf8').split('\n').filter(Boolean))
  .map((line) => JSON.parse(line) as { query: string; namespace: string; country?: string })
  .map((e) => ({ q: e.query, namespace: e.namespace, ...(e.country ? { country: [e.country] } : {}), top_k: 10, alpha: 0.7 }));
const half = Math.floor(questions.length / 2);

interface Pass {
  p50: number;
  p95: number;
  perSecond: number;
  cpuMs: number;
  threads: Record<'main' | 'lancedb' | 'v8' | 'other', number>;
}
const results: { memory: boolean; rssMiB: number; c1: Pass; c8: Pass }[] = [];

for (let round = 1; round <= rounds; round++) {
  for (const memory of [true, false]) {
    const service = await startService({ DATA_DIR: values['data-dir']!, SEARCH_VECTOR_MEMORY: String(memory) });
    try {
      await waitReady(service.url, 10 * 60_000, () => undefined);
      const search = (body: Record<string, unknown>) => async () => {
        const res = await postJson(`${service.url}/v1/search`, body);
        if (res.status !== 200) throw new Error(`search answered ${res.status}`);
      };
      // Warm-up with questions the passes do not ask (the service keeps returned passages).
      await runConcurrent(questions.slice(0, 60).map((q) => search({ ...q, q: `${q.q} (2)` })), 2);
      if (memory && !/passage vectors held in memory/.test((await waitForVectorsHeld(service, search(questions[0]!))) ?? '')) {
        throw new Error('the vectors were not held in memory within 3 minutes (is the index built with its HNSW index?)');
      }
      await waitIdle(service);
      const c1 = await pass(service, questions.slice(0, half).map(search), 1);
      const c8 = await pass(service, questions.slice(half).map(search), 8);
      results.push({ memory, rssMiB: service.memory().rssMiB, c1, c8 });
      console.log(`round ${round}, vectors ${memory ? 'in memory' : 'read from the index'}: ${line(c1, 1)} | ${line(c8, 8)} | RSS ${fmt(service.memory().rssMiB, 0)} MiB`);
    } finally {
      await service.stop();
    }
  }
}

console.log('\nmean of the rounds (processor per query: all threads, then main / LanceDB / V8 helpers):');
for (const memory of [false, true]) {
  const runs = results.filter((r) => r.memory === memory);
  const mean = (f: (r: (typeof runs)[number]) => number) => runs.reduce((s, r) => s + f(r), 0) / runs.length;
  console.log(
    `  vectors ${memory ? 'in memory      ' : 'from the index '}` +
      ` c1 p50 ${fmt(mean((r) => r.c1.p50))} ms, ${fmt(mean((r) => r.c1.cpuMs), 1)} ms cpu (${fmt(mean((r) => r.c1.threads.main), 1)} / ${fmt(mean((r) => r.c1.threads.lancedb), 1)} / ${fmt(mean((r) => r.c1.threads.v8), 1)})` +
      ` · c8 ${fmt(mean((r) => r.c8.perSecond), 0)} req/s p95 ${fmt(mean((r) => r.c8.p95))} ms, ${fmt(mean((r) => r.c8.cpuMs), 1)} ms cpu (${fmt(mean((r) => r.c8.threads.main), 1)} / ${fmt(mean((r) => r.c8.threads.lancedb), 1)} / ${fmt(mean((r) => r.c8.threads.v8), 1)})` +
      ` · RSS ${fmt(mean((r) => r.rssMiB), 0)} MiB`,
  );
}

function line(p: Pass, clients: number): string {
  return `c${clients} p50 ${fmt(p.p50)} p95 ${fmt(p.p95)} ms, ${fmt(p.perSecond, 0)} req/s, ${fmt(p.cpuMs, 1)} ms cpu/query (main ${fmt(p.threads.main, 1)}, LanceDB ${fmt(p.threads.lancedb, 1)}, V8 ${fmt(p.threads.v8, 1)})`;
}

async function pass(service: RunningService, tasks: (() => Promise<void>)[], clients: number): Promise<Pass> {
  const pid = service.child.pid!;
  const before = threadCpuSeconds(pid);
  const cpu = service.cpuSeconds();
  const started = performance.now();
  const latencies = await runConcurrent(tasks, clients);
  const seconds = (performance.now() - started) / 1000;
  const after = threadCpuSeconds(pid);
  const perQuery = (k: keyof typeof before) => ((after[k] - before[k]) * 1000) / tasks.length;
  return {
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    perSecond: tasks.length / seconds,
    cpuMs: ((service.cpuSeconds() - cpu) * 1000) / tasks.length,
    threads: { main: perQuery('main'), lancedb: perQuery('lancedb'), v8: perQuery('v8'), other: perQuery('other') },
  };
}
