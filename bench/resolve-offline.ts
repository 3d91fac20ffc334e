/**
 * `npm run bench:resolve:offline -- --meta <file.jsonl>`: a quick development loop for the resolver's
 * grammars. Builds the reference index in process from a metadata file (corpus rows without their
 * text, one JSON object per line) and runs stages (a) identifiers and (b) grammars only (no title
 * search, no HTTP) over the same sets as `bench:resolve`, printing per family and the misses.
 * Figures that count are those of `npm run bench:resolve` (the service).
 */
import { createReadStream, readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { createGunzip } from 'node:zlib';
import type { DocumentMetadata } from '../src/domain/legal-document.js';
import { cleanReference } from '../src/modules/legal-data/resolver/normalise.js';
import { ReferenceIndex } from '../src/modules/legal-data/resolver/reference-index.js';
import { emptyParsed, resolveCaseCitation, resolveIdentifier, resolveLegislation } from '../src/modules/legal-data/resolver/resolver.js';
import { printCalibration } from './lib.js';

// The machine's speed beside every figure this benchmark prints (bench/calibrate.ts).
printCalibration();

const { values } = parseArgs({
  options: {
    meta: { type: 'string' },
    set: { type: 'string', default: '../shared/eval/resolve-dev.jsonl,bench/resolve-families.jsonl' },
    errors: { type: 'boolean', default: false },
    show: { type: 'boolean', default: false },
  },
});
if (!values.meta) throw new Error('--meta <metadata .jsonl or .jsonl.gz> is required');

async function* batches(file: string): AsyncIterable<DocumentMetadata[]> {
  const input = createReadStream(file).pipe(file.endsWith('.gz') ? createGunzip() : new (await import('node:stream')).PassThrough());
  let batch: DocumentMetadata[] = [];
  for await (const line of createInterface({ input })) {
    if (!line) continue;
    const row = JSON.parse(line);
    delete row.text;
    batch.push({ id: `${row.source}/${row.source_id}`, ...row });
    if (batch.length === 5000) yield batch, (batch = []);
  }
  yield batch;
}

const t0 = performance.now();
const index = await ReferenceIndex.build(batches(values.meta));
console.log(`index built in ${((performance.now() - t0) / 1000).toFixed(1)} s (${index.docs.size} documents)`);

interface Case { id: string; reference: string; hint_country: string | null; hint_type: 'legislation' | 'case_law' | null; expected: { source: string; source_id: string }[]; kind: string; family?: string; set: string }
const cases: Case[] = values.set!.split(',').flatMap((file) =>
  readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => ({ ...JSON.parse(l), set: path.basename(file, '.jsonl') })),
);
const rows: { c: Case; outcome: string; match: string; top: string; ms: number }[] = [];
for (const c of cases) {
  const hints = { country: c.hint_country, type: c.hint_type };
  const started = performance.now();
  const parsed = emptyParsed();
  const ref = cleanReference(c.reference);
  const out = resolveIdentifier(index, ref, hints, parsed) ?? resolveCaseCitation(index, ref, hints, parsed) ?? resolveLegislation(index, ref, hints, parsed);
  const ms = performance.now() - started;
  const resolved = out && out.matchType !== 'ambiguous' && out.matchType !== 'none' && out.candidates.length > 0;
  const top = resolved ? out.candidates[0].doc : null;
  const outcome = !top ? 'unresolved' : c.expected.some((e) => e.source === top.source && e.source_id === top.source_id) ? 'correct' : 'wrong';
  rows.push({ c, outcome, match: out?.matchType ?? 'none', top: top?.id ?? '', ms });
}
const groups = new Map<string, typeof rows>();
for (const r of rows) {
  const key = `${r.c.set}:${r.c.family ?? r.c.kind}`;
  groups.set(key, [...(groups.get(key) ?? []), r]);
}
const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)}%` : 'n/a');
for (const [name, rs] of [...groups].sort()) {
  const pos = rs.filter((r) => r.c.expected.length);
  const neg = rs.filter((r) => !r.c.expected.length);
  const ms = rs.map((r) => r.ms).sort((a, b) => a - b);
  console.log(
    `${name.padEnd(34)} n=${String(rs.length).padStart(4)} correct=${pct(pos.filter((r) => r.outcome === 'correct').length, pos.length).padStart(6)} ` +
      `wrong=${pct(rs.filter((r) => r.outcome === 'wrong').length, rs.length).padStart(5)} negfalse=${pct(neg.filter((r) => r.outcome === 'wrong').length, neg.length).padStart(5)} ` +
      `ambig=${rs.filter((r) => r.match === 'ambiguous').length} p50=${ms[Math.floor(ms.length / 2)].toFixed(3)}ms p95=${ms[Math.floor(ms.length * 0.95)].toFixed(3)}ms`,
  );
}
if (values.show) for (const r of rows) console.log(`  ${r.match.padEnd(10)} ${JSON.stringify(r.c.reference)} hint=${r.c.hint_country ?? '-'} -> ${r.top}`);
if (values.errors)
  for (const r of rows.filter((x) => x.outcome !== 'correct' && (x.c.expected.length || x.outcome === 'wrong')))
    console.log(`  ${r.outcome.padEnd(10)} ${r.c.family ?? r.c.kind} ${r.c.id} ${JSON.stringify(r.c.reference)} hint=${r.c.hint_country ?? '-'} -> ${r.match} ${r.top} (expected ${r.c.expected[0] ? `${r.c.expected[0].source}/${r.c.expected[0].source_id}` : '[]'})`);
