/**
 * `npm run bench:resolve`: runs the resolver's development sets against POST /v1/resolve (one
 * request per case, null hints left out, 10 s timeout) and scores them as ../shared/eval/FORMAT.md
 * says: resolution rate with and without hint, wrong-answer rate, negative false-resolution rate,
 * per country and per kind, and latency p50/p95 per match_type; then per citation family
 * (bench/resolve-families.jsonl carries a `family` field; the dev set is grouped by kind):
 * resolved-correct %, wrong %, false resolutions of references to nothing %, ambiguous answers
 * and p50/p95 time per resolution (the service's own `elapsed_ms` and the round trip).
 * Sets: `--set a.jsonl,b.jsonl` (default: the dev set and the family set). Uses a running
 * service (--url) or starts one on DATA_DIR (--data-dir, default ./data/resolver).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { positiveNumberOrExit } from '../src/cli/cli-args.js';
import { printCalibration, fmt, percentile, postJson, runConcurrent, startService, waitReady } from './lib.js';

// The machine's speed beside every figure this benchmark prints (bench/calibrate.ts).
printCalibration();

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    'data-dir': { type: 'string', default: './data/resolver' },
    set: { type: 'string', default: '../shared/eval/resolve-dev.jsonl,bench/resolve-families.jsonl' },
    errors: { type: 'boolean', default: false },
    concurrency: { type: 'string', default: '1' },
  },
});
const concurrency = positiveNumberOrExit('concurrency', values.concurrency, { integer: true })!;

interface Expected { source: string; source_id: string }
interface Case {
  id: string;
  reference: string;
  hint_country: string | null;
  hint_type: string | null;
  expected: Expected[];
  kind: string;
  country: string | null;
  origin: string;
  /** Citation family (bench/resolve-families.jsonl). */
  family?: string;
  /** The set the case comes from (file name). */
  set: string;
}
type Outcome = 'correct' | 'wrong' | 'unresolved';
interface Scored { c: Case; outcome: Outcome; matchType: string; ms: number; serviceMs: number; top: string }

const setFiles = values.set!.split(',').filter(Boolean);
const cases: Case[] = setFiles.flatMap((file) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => ({ ...JSON.parse(l), set: path.basename(file, '.jsonl') })),
);

let url = values.url;
let stop = async () => {};
if (!url) {
  const service = await startService({ DATA_DIR: path.resolve(values['data-dir']!) });
  console.log(`resolve: service on ${service.url}, waiting for /ready (the index is built on first start)`);
  await waitReady(service.url, 60 * 60_000);
  url = service.url;
  stop = service.stop;
}

/** Scores one answer exactly as FORMAT.md says. */
function score(c: Case, body: any): Outcome {
  const top = body?.resolved === true ? body.documents?.[0] : undefined;
  if (!top) return 'unresolved';
  if (c.expected.length === 0) return 'wrong';
  return c.expected.some((e) => e.source === top.source && e.source_id === top.source_id) ? 'correct' : 'wrong';
}

const results: Scored[] = [];
await runConcurrent(
  cases.map((c) => async () => {
    const body: Record<string, string> = { reference: c.reference };
    if (c.hint_country !== null) body.hint_country = c.hint_country;
    if (c.hint_type !== null) body.hint_type = c.hint_type;
    let outcome: Outcome = 'unresolved';
    let matchType = 'request_failed';
    let ms = 0;
    let serviceMs = 0;
    let top = '';
    try {
      const res = await postJson(`${url}/v1/resolve`, body, 10_000);
      ms = res.ms;
      if (res.status === 200) {
        outcome = score(c, res.body);
        matchType = res.body.match_type;
        serviceMs = Number(res.body.elapsed_ms ?? 0);
        top = res.body.documents?.[0]?.id ?? '';
      } else matchType = `http_${res.status}`;
    } catch {
      matchType = 'request_failed';
    }
    results.push({ c, outcome, matchType, ms, serviceMs, top });
  }),
  concurrency,
);
await stop();

const pct = (n: number, d: number) => (d ? `${fmt((100 * n) / d)}%` : 'n/a');
const count = (rows: Scored[], o: Outcome) => rows.filter((r) => r.outcome === o).length;
for (const set of [...new Set(results.map((r) => r.c.set))]) {
  const rows = results.filter((r) => r.c.set === set);
  const pos = rows.filter((r) => r.c.expected.length > 0);
  const h = pos.filter((r) => r.c.hint_country !== null);
  const u = pos.filter((r) => r.c.hint_country === null && r.c.hint_type === null);
  const neg = rows.filter((r) => r.c.expected.length === 0);
  console.log(
    `set ${set} (${rows.length}): resolve hint=${pct(count(h, 'correct'), h.length)} nohint=${pct(count(u, 'correct'), u.length)} ` +
      `correct=${pct(count(pos, 'correct'), pos.length)} wrong=${pct(count(rows, 'wrong'), rows.length)} negfalse=${pct(count(neg, 'wrong'), neg.length)}`,
  );
}
const positives = results.filter((r) => r.c.expected.length > 0);
const hinted = positives.filter((r) => r.c.hint_country !== null);
const unhinted = positives.filter((r) => r.c.hint_country === null && r.c.hint_type === null);
const negatives = results.filter((r) => r.c.expected.length === 0);

console.log(
  `all sets: resolve hint=${pct(count(hinted, 'correct'), hinted.length)} nohint=${pct(count(unhinted, 'correct'), unhinted.length)} ` +
    `wrong=${pct(count(results, 'wrong'), results.length)} negfalse=${pct(count(negatives, 'wrong'), negatives.length)}`,
);

function table(title: string, key: (r: Scored) => string) {
  const groups = new Map<string, Scored[]>();
  for (const r of results) groups.set(key(r), [...(groups.get(key(r)) ?? []), r]);
  console.log(`\n${title.padEnd(22)} ${'n'.padStart(5)}  ${'hint'.padStart(7)} ${'nohint'.padStart(7)} ${'wrong'.padStart(7)} ${'negfalse'.padStart(9)}`);
  for (const [name, rows] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
    const pos = rows.filter((r) => r.c.expected.length > 0);
    const h = pos.filter((r) => r.c.hint_country !== null);
    const u = pos.filter((r) => r.c.hint_country === null && r.c.hint_type === null);
    const neg = rows.filter((r) => r.c.expected.length === 0);
    console.log(
      `${name.padEnd(22)} ${String(rows.length).padStart(5)}  ${pct(count(h, 'correct'), h.length).padStart(7)} ${pct(count(u, 'correct'), u.length).padStart(7)} ` +
        `${pct(count(rows, 'wrong'), rows.length).padStart(7)} ${pct(count(neg, 'wrong'), neg.length).padStart(9)}`,
    );
  }
}
table('country', (r) => r.c.country ?? '(none)');
table('kind', (r) => r.c.kind);

console.log(`\n${'match_type'.padEnd(16)} ${'n'.padStart(5)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)}`);
const byType = new Map<string, number[]>();
for (const r of results) byType.set(r.matchType, [...(byType.get(r.matchType) ?? []), r.ms]);
for (const [type, times] of [...byType].sort()) {
  const sorted = [...times].sort((a, b) => a - b);
  console.log(`${type.padEnd(16)} ${String(sorted.length).padStart(5)} ${fmt(percentile(sorted, 50), 2).padStart(8)} ${fmt(percentile(sorted, 95), 2).padStart(8)}`);
}
const all = results.map((r) => r.ms).sort((a, b) => a - b);
console.log(`${'all'.padEnd(16)} ${String(all.length).padStart(5)} ${fmt(percentile(all, 50), 2).padStart(8)} ${fmt(percentile(all, 95), 2).padStart(8)}`);

// Per citation family: correct among positives, wrong among all, false resolutions among
// negatives, ambiguous answers, and the time per resolution (service elapsed_ms, round trip).
console.log(
  `\n${'family'.padEnd(34)} ${'n'.padStart(4)} ${'pos'.padStart(4)} ${'neg'.padStart(4)} ${'correct'.padStart(8)} ${'wrong'.padStart(7)} ` +
    `${'negfalse'.padStart(8)} ${'ambig'.padStart(5)} ${'p50 ms'.padStart(7)} ${'p95 ms'.padStart(7)} ${'rt p50'.padStart(7)} ${'rt p95'.padStart(7)}`,
);
const familyOf = (r: Scored) => (r.c.family ? `${r.c.set}:${r.c.family}` : `${r.c.set}:${r.c.kind}`);
const families = new Map<string, Scored[]>();
for (const r of results) families.set(familyOf(r), [...(families.get(familyOf(r)) ?? []), r]);
for (const [name, rows] of [...families].sort(([a], [b]) => a.localeCompare(b))) {
  const pos = rows.filter((r) => r.c.expected.length > 0);
  const neg = rows.filter((r) => r.c.expected.length === 0);
  const service = rows.map((r) => r.serviceMs).sort((a, b) => a - b);
  const trip = rows.map((r) => r.ms).sort((a, b) => a - b);
  console.log(
    `${name.padEnd(34)} ${String(rows.length).padStart(4)} ${String(pos.length).padStart(4)} ${String(neg.length).padStart(4)} ` +
      `${pct(count(pos, 'correct'), pos.length).padStart(8)} ${pct(count(rows, 'wrong'), rows.length).padStart(7)} ${pct(count(neg, 'wrong'), neg.length).padStart(8)} ` +
      `${String(rows.filter((r) => r.matchType === 'ambiguous').length).padStart(5)} ${fmt(percentile(service, 50), 2).padStart(7)} ${fmt(percentile(service, 95), 2).padStart(7)} ` +
      `${fmt(percentile(trip, 50), 2).padStart(7)} ${fmt(percentile(trip, 95), 2).padStart(7)}`,
  );
}

if (values.errors) {
  console.log('\nnot correct:');
  for (const r of results.filter((x) => x.outcome !== 'correct' && x.c.expected.length > 0 || x.outcome === 'wrong')) {
    const exp = r.c.expected[0] ? `${r.c.expected[0].source}/${r.c.expected[0].source_id}` : '[]';
    console.log(`  ${r.outcome.padEnd(10)} ${r.c.family ?? r.c.kind} ${r.c.id} ${JSON.stringify(r.c.reference)} hint=${r.c.hint_country ?? '-'} -> ${r.matchType} ${r.top} (expected ${exp})`);
  }
}
