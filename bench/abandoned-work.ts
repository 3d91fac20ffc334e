/**
 * `npm run bench:abandoned`: how long a search waits behind abandoned work (issue #33 item 5).
 * Before, a burst of GraphQL resolves that all answered `match_type: "timeout"` left their
 * engine work running, and another account's next search took 39-97 s.
 *
 * Starts the service (`src/main.ts`, its own OS process, keyword search, RESOLVE_TIMEOUT_MS
 * small so every resolve of the burst times out) on a corpus slice (CORPUS_DIR to use another),
 * then measures one search (the "later search"):
 *
 * - without a burst: BENCH_RUNS searches one after the other;
 * - after a burst: BENCH_RUNS times, BENCH_CLIENTS concurrent GraphQL operations of 5 aliased
 *   resolves each (the alias bound) plus BENCH_CLIENTS REST searches whose client leaves after
 *   10 ms; once every burst request has been answered or abandoned, the later search is sent.
 *
 * Compare ENGINE_CALLS_PER_REQUEST values by setting it in the environment (passed to the
 * service). The figures are latencies on this machine: read them beside the calibration.
 */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_SLICES, writeCorpusSlice } from '../test/fixtures/corpus-slice.js';
import { fmt, percentile, postJson, printCalibration, startService, waitReady } from './lib.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 20);
const RESOLVE_TIMEOUT_MS = process.env.RESOLVE_TIMEOUT_MS ?? '20';
const ALIASES = 5;
const LATER = { q: 'responsabilité du fait des choses dommage', namespace: 'legislation', top_k: 10 };

printCalibration();
const corpusDir = process.env.CORPUS_DIR ?? (await writeCorpusSlice(DEFAULT_SLICES)).dir;
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-abandoned-'));
const service = await startService({
  DATA_DIR: dataDir,
  CORPUS_DIR: corpusDir,
  INGEST_ON_START: 'true',
  EMBEDDER: 'none',
  RESOLVE_TIMEOUT_MS,
});
let round = 0;
try {
  await waitReady(service.url, 600_000);
  console.log(`corpus ${corpusDir}; RESOLVE_TIMEOUT_MS ${RESOLVE_TIMEOUT_MS}; ENGINE_CALLS_PER_REQUEST ${process.env.ENGINE_CALLS_PER_REQUEST ?? '(default)'}; ${CLIENTS} clients x (1 GraphQL operation of ${ALIASES} resolves + 1 abandoned REST search)`);
  const later = async () => {
    const answer = await postJson(`${service.url}/v1/search`, LATER, 600_000);
    if (answer.status !== 200) throw new Error(`later search answered ${answer.status}`);
    return answer.ms;
  };
  await later(); // warm-up

  const quiet: number[] = [];
  for (let i = 0; i < RUNS; i++) quiet.push(await later());

  const afterBurst: number[] = [];
  const timeouts = { resolves: 0, timedOut: 0, abandoned: 0 };
  for (let i = 0; i < RUNS; i++) {
    await Promise.all(Array.from({ length: CLIENTS }, (_, client) => [graphqlBurst(client), abandonedSearch(client)]).flat());
    afterBurst.push(await later());
  }
  const line = (name: string, ms: number[]) => {
    const sorted = [...ms].sort((a, b) => a - b);
    console.log(`${name.padEnd(28)} p50 ${fmt(percentile(sorted, 50)).padStart(8)} ms   max ${fmt(sorted.at(-1)!).padStart(8)} ms   (${ms.length} searches)`);
  };
  line('later search, no burst', quiet);
  line('later search, after burst', afterBurst);
  console.log(`burst: ${timeouts.timedOut}/${timeouts.resolves} resolves answered match_type "timeout"; ${timeouts.abandoned} REST searches abandoned by their client`);

  /** One GraphQL operation of ALIASES resolves no identifier resolves (each goes to the title search). */
  async function graphqlBurst(client: number): Promise<void> {
    const n = ++round;
    const aliases = Array.from({ length: ALIASES }, (_, a) => `r${a}: resolve(input: { reference: "code civil responsabilité des personnes ${n} ${client} ${a}" }) { match_type }`);
    const answer = await postJson(`${service.url}/graphql`, { query: `{ ${aliases.join(' ')} }` }, 600_000);
    for (const r of Object.values((answer.body?.data ?? {}) as Record<string, { match_type: string }>)) {
      timeouts.resolves++;
      if (r.match_type === 'timeout') timeouts.timedOut++;
    }
  }

  /** A REST search whose client leaves after 10 ms. */
  async function abandonedSearch(client: number): Promise<void> {
    try {
      await fetch(`${service.url}/v1/search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ q: `dommage causé par le fait des choses ${client}`, namespace: 'legislation', top_k: 50, result_detail: 'full_text' }),
        signal: AbortSignal.timeout(10),
      }).then((r) => r.text());
    } catch {
      timeouts.abandoned++;
    }
  }
} finally {
  await service.stop();
}
