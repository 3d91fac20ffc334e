/**
 * The README's example search, over HTTP, on a real slice of the shared corpus large enough
 * to be honest: the whole BGB, StGB, HGB, ZPO and Grundgesetz (about 5,000 articles, every
 * § of the BGB's law of damages among them), with the platform's settings but for the
 * embedder (none, as the other end-to-end tests: the keyword leg answers). The ingest counts
 * the compound vocabulary from the corpus first and splits the articles' compounds with it.
 */
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { writeCorpusSlice } from './fixtures/corpus-slice.js';
import { makeTestDataDir } from './helpers/pglite-template.js';

const MAJOR_LAWS = /^(bgb|stgb|hgb|zpo|gg)(\/|$)/;
/** The request of the README's "Try it" (README.md, "Getting started"). */
const README_REQUEST = { q: 'Schadensersatz bei Verletzung des Eigentums', namespace: 'legislation', country: ['DE'], top_k: 3 };

describe("the README's example search on the BGB, StGB, HGB, ZPO and GG", () => {
  let platform: Platform;
  let corpusDir: string;
  let dataDir: string;
  const search = async (body: object) => {
    const res = await fetch(`${platform.url}/v1/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(res.status).toBe(200);
    return ((await res.json()) as { hits: { source: string; source_id: string; title: string }[] }).hits;
  };
  const rankOf823 = (hits: { source: string; source_id: string }[]) =>
    hits.findIndex((h) => h.source === 'DE/GesetzeImInternet' && h.source_id === 'bgb/823') + 1;

  beforeAll(async () => {
    const slice = await writeCorpusSlice([{ file: 'legislation/DE-GesetzeImInternet.jsonl.gz', lines: 100_000, keep: (r) => MAJOR_LAWS.test(String(r.source_id)) }]);
    corpusDir = slice.dir;
    expect(slice.records.get('legislation/DE-GesetzeImInternet.jsonl.gz')?.length).toBeGreaterThan(4_000);
    dataDir = await makeTestDataDir('readme-example-data-');
    platform = await startPlatform(
      loadConfig({ DATA_DIR: dataDir, CORPUS_DIR: corpusDir, PORT: '0', EMBEDDER: 'none', ALLOW_ANONYMOUS: 'true', RATE_LIMITS: 'off' }),
      createLogger('silent'),
    );
    await platform.ingestDone;
  }, 300_000);

  afterAll(async () => {
    await platform?.stop();
    for (const dir of [corpusDir, dataDir]) if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('counted the compound vocabulary from the corpus before writing, and stored it beside the index', async () => {
    const stored = JSON.parse(await readFile(path.join(dataDir, 'index', 'compound-vocabulary.json'), 'utf8'));
    expect(stored.origin).toBe('corpus');
    expect(stored.chunkCount).toBeGreaterThan(4_000); // the documents counted
  });

  it('answers with three articles of the BGB on damages', async () => {
    const hits = await search(README_REQUEST);
    expect(hits).toHaveLength(3);
    for (const h of hits) {
      expect(h.source_id).toMatch(/^bgb\//);
      expect(h.title).toMatch(/schaden|ersatz/i);
    }
  });

  // Keyword-only, BM25 alone put § 823 21st: §§ 280, 282, 249... repeat "Schadensersatz" and
  // (Pflicht)verletzung, while § 823 says "Ersatz des … Schadens", "verletzt" and "Eigentum".
  // The compound split ("Schadensersatz" -> Schaden + Ersatz) and the coverage of the question
  // bring it up: a passage holding a term of each of its three concepts scores by all of them,
  // German verb forms included ("Verletzung" is covered by "verletzt"); the others lose a third.
  it('ranks § 823 BGB in the top 3, a passage holding every concept of the question', async () => {
    const res = await fetch(`${platform.url}/v1/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...README_REQUEST, explain: true }) });
    const hits = ((await res.json()) as { hits: { source: string; source_id: string; score_parts: { keyword_coverage: { complete: boolean } } }[] }).hits;
    expect(rankOf823(hits)).toBeGreaterThan(0);
    expect(hits[rankOf823(hits) - 1].score_parts.keyword_coverage.complete).toBe(true);
  });
});
