/**
 * `npm run bench:citator [-- --show]`: the citator's quality on the labelled set
 * (bench/citator-labels.jsonl; how it was labelled: docs/resolver.md, "Citator: the labelled
 * set"). Builds the reference index in process from the real corpus (SHARED_CORPUS_DIR,
 * default ../shared/corpus), as the service builds it from the engine's metadata, then links
 * every labelled document twice:
 *
 * - baseline (issue 37, item 0): each citation resolved alone, without a hint, as
 *   `POST /v1/resolve` would (the in-text scan of the search, `findCitations`, unbounded);
 * - citator: `linkCitations`, in context (the document's country and language, the act carried
 *   from the preceding citation, lists and ranges split, foreign acts never bent onto home ones).
 *
 * Prints precision of the links kept (target >= 99%), recall of the references that have a
 * target in the corpus (target >= 90%), per country and overall, and with --show the wrong links
 * and the missed references. Figures beside the machine's calibration (bench/calibrate.ts).
 */
import { createReadStream, existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { createGunzip } from 'node:zlib';
import type { DocumentMetadata } from '../src/domain/legal-document.js';
import { linkCitations } from '../src/modules/legal-data/citator/link-citations.js';
import { findCitations } from '../src/modules/legal-data/resolver/citations-in-text.js';
import { ReferenceIndex } from '../src/modules/legal-data/resolver/reference-index.js';
import { addScore, emptyScore, formatScore, scoreDocument, type LabelledDocument, type Score, type ScoredLink } from './citator-score.js';
import { printCalibration } from './lib.js';

printCalibration();

const { values } = parseArgs({ options: { show: { type: 'boolean', default: false }, labels: { type: 'string', default: 'bench/citator-labels.jsonl' } } });
const corpus = path.resolve(process.env.SHARED_CORPUS_DIR ?? '../shared/corpus', 'documents');
const labelled: LabelledDocument[] = readFileSync(values.labels!, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const wanted = new Set(labelled.map((d) => `${d.source}/${d.source_id}`));
const texts = new Map<string, string>();

/** Every corpus file's rows as metadata batches (text dropped), keeping the labelled documents' texts. */
async function* metadata(): AsyncIterable<DocumentMetadata[]> {
  for (const namespace of readdirSync(corpus)) {
    const dir = path.join(corpus, namespace);
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.jsonl.gz'))) {
      let batch: DocumentMetadata[] = [];
      for await (const line of createInterface({ input: createReadStream(path.join(dir, file)).pipe(createGunzip()) })) {
        if (!line) continue;
        const row = JSON.parse(line);
        const id = `${row.source}/${row.source_id}`;
        if (wanted.has(id)) texts.set(id, row.text);
        delete row.text;
        batch.push({ id, ...row });
        if (batch.length === 5000) yield batch, (batch = []);
      }
      yield batch;
    }
  }
}

if (!existsSync(corpus)) throw new Error(`no corpus at ${corpus} (set SHARED_CORPUS_DIR)`);
const t0 = performance.now();
const index = await ReferenceIndex.build(metadata());
console.log(`index built in ${((performance.now() - t0) / 1000).toFixed(1)} s (${index.docs.size} documents, ${index.acts.size} acts)`);
console.log(`labelled set: ${labelled.length} documents, ${labelled.reduce((n, d) => n + d.references.length, 0)} references`);

type Linker = (doc: LabelledDocument, text: string) => ScoredLink[];
const baseline: Linker = (_doc, text) =>
  findCitations(index, text, { budgetMs: Infinity, maxAnchors: Infinity }).map((c) => ({ start: c.start, end: c.end, target: c.doc.id }));
const citator: Linker = (doc, text) =>
  linkCitations(index, { text, country: doc.country, language: doc.language, namespace: doc.namespace }).links.map((l) => ({
    start: l.start,
    end: l.end,
    target: l.target.id,
  }));

for (const [name, linker] of [['baseline (each citation alone, no hint)', baseline], ['citator (in context)', citator]] as const) {
  const byCountry = new Map<string, Score>();
  const total = emptyScore();
  const started = performance.now();
  for (const doc of labelled) {
    const text = texts.get(`${doc.source}/${doc.source_id}`);
    if (text === undefined) throw new Error(`${doc.source}/${doc.source_id} is not in the corpus`);
    const score = emptyScore();
    const links = linker(doc, text);
    const wrong = scoreDocument(doc, links, score);
    if (!byCountry.has(doc.country)) byCountry.set(doc.country, emptyScore());
    addScore(byCountry.get(doc.country)!, score);
    addScore(total, score);
    if (values.show) showDetails(doc, text, links, wrong);
  }
  const ms = performance.now() - started;
  console.log(`\n${name}: ${ms.toFixed(0)} ms for ${labelled.length} documents`);
  for (const [country, score] of [...byCountry].sort()) console.log(formatScore(country, score));
  console.log(formatScore('all', total));
}

function showDetails(doc: LabelledDocument, text: string, links: ScoredLink[], wrong: ScoredLink[]): void {
  const around = (start: number, end: number) => JSON.stringify(text.slice(Math.max(0, start - 20), end + 40).replace(/\s+/g, ' '));
  for (const l of wrong) console.log(`  WRONG ${doc.source_id} ${l.start} ${around(l.start, l.end)} -> ${l.target}`);
  for (const r of doc.references.filter((r) => r.target)) {
    if (!links.some((l) => l.start < r.end && r.start < l.end)) console.log(`  MISSED ${doc.source_id} ${r.start} ${around(r.start, r.end)} (${r.target!.source_id})`);
  }
}
