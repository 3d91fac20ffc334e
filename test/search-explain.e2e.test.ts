/**
 * Search quality on German and hits that explain themselves, end to end on a real corpus slice
 * (the BGB's law of obligations and torts among other German acts, French and EU distractors)
 * with a real (tiny, test-built) static model, so both legs run and fuse:
 *
 * - the compound "Schadensersatz" meets "Ersatz des … Schadens" (§ 823 BGB) through the
 *   corpus vocabulary;
 * - `score_parts` reproduce every hit's fused score from the legs' raw scores and the citation
 *   authority prior (how many of the slice's decisions cite the hit);
 * - `full_metadata` (and `explain: true` on any detail) carries licence and provenance, and
 *   the default hit shape is unchanged.
 */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { LanceDbEngine } from '../src/engines/embedded/lancedb-engine.js';
import { createLogger } from '../src/logger.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { writeCorpusSlice, type SliceSpec } from './fixtures/corpus-slice.js';
import { writeTinyStaticModel } from './fixtures/tiny-static-model.js';
import { makeTestDataDir } from './helpers/pglite-template.js';

const silent = createLogger('silent');
const README_QUERY = 'Schadensersatz bei Verletzung des Eigentums';

function isBgbSlice(sourceId: string): boolean {
  if (sourceId === 'bgb') return true;
  const m = /^bgb\/(\d+)[a-z]?$/.exec(sourceId);
  const n = m ? Number(m[1]) : 0;
  return (n >= 241 && n <= 300) || (n >= 823 && n <= 853);
}

let otherGerman = 0;
const SLICES: SliceSpec[] = [
  // The BGB's obligations and torts, and the first 150 provisions of other German acts.
  { file: 'legislation/DE-GesetzeImInternet.jsonl.gz', lines: 400, keep: (r) => isBgbSlice(String(r.source_id)) || (!String(r.source_id).startsWith('bgb') && otherGerman++ < 150) },
  { file: 'legislation/FR-LegifranceCodes.jsonl.gz', lines: 60 },
  { file: 'legislation/EU-EUR-Lex.jsonl.gz', lines: 40 },
  // Decisions citing BGB provisions (§ 823 among them): the citation authority prior.
  { file: 'case_law/DE-BGH.jsonl.gz', lines: 100 },
];

describe('search explained, and German compounds', () => {
  let platform: Platform;

  const search = async (body: Record<string, unknown>) => {
    const res = await fetch(`${platform.url}/v1/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ namespace: 'legislation', ...body }),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { alpha: number; hits: Record<string, any>[] };
  };

  beforeAll(async () => {
    const corpus = await writeCorpusSlice(SLICES);
    const dataDir = await makeTestDataDir('explain-data-');
    const model = await writeTinyStaticModel(await mkdtemp(path.join(os.tmpdir(), 'tiny-model-')), { dimension: 16 });
    platform = await startPlatform(
      // VECTOR_TIMEOUT_MS 0: these tests check rankings, and a vector leg past its 2 s budget on a
      // loaded machine would answer keyword-only (degraded), ranking differently
      loadConfig({ DATA_DIR: dataDir, CORPUS_DIR: corpus.dir, PORT: '0', ALLOW_ANONYMOUS: 'true', RATE_LIMITS: 'off', EMBEDDER: `static:${model.dir}`, VECTOR_TIMEOUT_MS: '0' }),
      silent,
    );
    await platform.ingestDone;
    await (platform.engine as LanceDbEngine).vocabularyReady();
  }, 300_000);

  afterAll(async () => {
    await platform?.stop();
  });

  it('finds "Ersatz des … Schadens" (§ 823 BGB) for the compound "Schadensersatz" by keywords', async () => {
    // § 823 never uses the word "Schadensersatz" (its title says "Schadensersatzpflicht"): only
    // the split into the corpus words "Schaden" + "Ersatz" lets the keyword leg find it.
    const { hits } = await search({ q: 'Schadensersatz', country: ['DE'], top_k: 100, alpha: 0, explain: true });
    const hit = hits.find((h) => h.source_id === 'bgb/823');
    expect(hit).toBeDefined();
    expect(hit!.score_parts.keyword_score).toBeGreaterThan(0);
  });

  it('score_parts reproduce every fused score from the raw scores', async () => {
    const alphasWithCitedHits: number[] = [];
    for (const alpha of [0, 0.5, 0.7, 1]) {
      const { hits } = await search({ q: 'Haftung und Schadensersatz aus Vertrag bei Verletzung des Eigentums', top_k: 20, alpha, explain: true });
      expect(hits.length).toBeGreaterThan(3);
      for (const hit of hits) {
        const p = hit.score_parts;
        expect(p.alpha).toBe(alpha);
        const keywordNormalized = p.keyword_score === null ? 0 : p.keyword_score / p.keyword_best;
        const span = p.semantic_scale.high - p.semantic_scale.low;
        const semanticNormalized = p.semantic_score === null ? 0 : Math.min(1, Math.max(0, (p.semantic_score - p.semantic_scale.low) / span));
        expect(p.keyword_normalized).toBeCloseTo(keywordNormalized, 9);
        expect(p.semantic_normalized).toBeCloseTo(semanticNormalized, 9);
        const section = p.section_context;
        const keyword = section && p.keyword_score !== null ? (1 - section.weight) * keywordNormalized + section.weight * section.keyword : keywordNormalized;
        const semantic = section && p.semantic_score !== null ? (1 - section.weight) * semanticNormalized + section.weight * section.semantic : semanticNormalized;
        expect(p.keyword).toBeCloseTo(keyword, 9);
        expect(p.semantic).toBeCloseTo(semantic, 9);
        const authority = p.citation_authority;
        expect(authority).toEqual({ cited_by: expect.any(Number), boost: expect.any(Number), weight: 0.1, saturation: 50 });
        expect(authority.boost).toBeCloseTo(authority.weight * Math.min(1, Math.log1p(authority.cited_by) / Math.log1p(authority.saturation)), 9);
        expect(hit.score).toBeCloseTo(alpha * semantic + (1 - alpha) * keyword + authority.boost, 5);
        expect(p.fused).toBeCloseTo(hit.score, 5);
      }
      if (hits.some((h) => h.score_parts.citation_authority.cited_by > 0)) alphasWithCitedHits.push(alpha);
      // The legs really contributed: some hit was found by each leg that ran.
      if (alpha < 1) expect(hits.some((h) => h.score_parts.keyword_score !== null)).toBe(true);
      if (alpha > 0) expect(hits.some((h) => h.score_parts.semantic_score !== null)).toBe(true);
      if (alpha === 0) expect(hits.every((h) => h.score_parts.semantic_score === null)).toBe(true);
      // Relevance feedback: with both legs, the vector leg's query moved towards the keyword
      // leg's best hits (the same for every hit of the answer); alone, each leg is its own.
      const feedback = hits[0].score_parts.semantic_feedback;
      if (alpha > 0 && alpha < 1) {
        expect(feedback).toEqual({ weight: 0.5, documents: expect.any(Array) });
        expect(feedback.documents.length).toBeGreaterThan(0);
        expect(hits.every((h) => JSON.stringify(h.score_parts.semantic_feedback) === JSON.stringify(feedback))).toBe(true);
      } else {
        expect(hits.every((h) => h.score_parts.semantic_feedback === null)).toBe(true);
      }
    }
    // The prior really contributed: some hit is cited by the slice's decisions.
    expect(alphasWithCitedHits.length).toBeGreaterThan(0);
  });

  it('says whether the keyword passage holds every concept of the question, and scales the others', async () => {
    const { hits } = await search({ q: README_QUERY, country: ['DE'], top_k: 50, alpha: 0, explain: true });
    const found = hits.filter((h) => h.score_parts.keyword_score !== null);
    expect(found.length).toBeGreaterThan(10);
    for (const h of found) {
      const coverage = h.score_parts.keyword_coverage;
      expect(coverage.concepts).toBe(3); // Schadensersatz, Verletzung, Eigentum
      expect(coverage.factor).toBeCloseTo(coverage.complete ? 1 : 2 / 3, 12);
    }
    // § 823 speaks of all three ("Ersatz des … Schadens", "verletzt", "Eigentum").
    expect(found.find((h) => h.source_id === 'bgb/823')!.score_parts.keyword_coverage.complete).toBe(true);
    expect(found.some((h) => !h.score_parts.keyword_coverage.complete)).toBe(true);
    // A document holding every concept is found by each concept's words alone (the injury by
    // the noun or by the verb's participle, § 823's "verletzt").
    const complete = found.filter((h) => h.score_parts.keyword_coverage.complete).map((h) => h.id);
    for (const words of [['Schadensersatz'], ['Verletzung', 'verletzt'], ['Eigentum']]) {
      const ids = new Set<string>();
      for (const word of words) {
        const alone = await search({ q: word, country: ['DE'], top_k: 100, alpha: 0, explain: true });
        for (const h of alone.hits) ids.add(h.id);
        expect(alone.hits.every((h) => h.score_parts.keyword_coverage === null)).toBe(true); // one concept
      }
      expect(complete.filter((id) => !ids.has(id))).toEqual([]);
    }
  });

  it('says how many of the corpus\'s decisions cite a hit, counted as strictly as /v1/resolve finds citations', async () => {
    const { hits } = await search({ q: README_QUERY, country: ['DE'], top_k: 50, alpha: 0, explain: true });
    const tort = hits.find((h) => h.source_id === 'bgb/823')!;
    // Each of the slice's decisions citing § 823 BGB, as the resolver reads its citations.
    const decisions = await (await fetch(`${platform.url}/v1/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ q: '823 BGB', namespace: 'case_law', country: ['DE'], top_k: 100, alpha: 0, result_detail: 'full_text' }),
    })).json() as { hits: { text: string }[] };
    let citing = 0;
    for (const decision of decisions.hits) {
      const found = await Promise.all(
        [...decision.text.matchAll(/§\s*823(?:\s+Abs\.\s*\d+)?\s+BGB/g)].map(async ([reference]) => {
          const res = await fetch(`${platform.url}/v1/resolve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ reference }) });
          return ((await res.json()) as { documents: { source_id: string }[] }).documents.some((d) => d.source_id === 'bgb/823');
        }),
      );
      if (found.some(Boolean)) citing += 1;
    }
    expect(citing).toBeGreaterThan(0);
    expect(tort.score_parts.citation_authority.cited_by).toBe(citing);
    expect(tort.score_parts.citation_authority.boost).toBeGreaterThan(0);
    // A provision no decision of the slice cites gets no boost.
    const uncited = hits.find((h) => h.score_parts.citation_authority.cited_by === 0)!;
    expect(uncited.score_parts.citation_authority.boost).toBe(0);
  });

  it('says when a hit is a cited provision, and the section context it drew on', async () => {
    const { hits } = await search({ q: 'Haftung nach § 823 BGB', country: ['DE'], top_k: 10, explain: true });
    expect(hits[0].source_id).toBe('bgb/823');
    expect(hits[0].score_parts.cited_provision).toBe(true);
    expect(hits[0].score_parts.section_context).toEqual(expect.objectContaining({ weight: 0.3 }));
    expect(hits.slice(1).every((h) => h.score_parts.cited_provision === false)).toBe(true);
  });

  it('full_metadata and explain carry licence and provenance; the default shape stays as it was', async () => {
    const full = await search({ q: README_QUERY, country: ['DE'], top_k: 3, result_detail: 'full_metadata' });
    const hit = full.hits[0];
    // The catalogue's licence of DE/GesetzeImInternet, as GET /v1/discover/countries/DE/sources lists it.
    const listed = (await (await fetch(`${platform.url}/v1/discover/countries/DE/sources`)).json()) as any;
    const source = listed.sources.find((s: any) => s.source === 'DE/GesetzeImInternet');
    expect(hit.license).toEqual({ id: source.license_id, name: source.license_name, url: source.license_url, commercial_use: source.commercial_use });
    expect(hit.license.id).toEqual(expect.any(String));
    expect(hit.provenance.url).toMatch(/^https:\/\/www\.gesetze-im-internet\.de\//);
    expect(hit.provenance).toHaveProperty('retrieved_at');
    expect(hit.provenance.source_url).toBe(source.url);
    expect(hit.score_parts.fused).toBeCloseTo(hit.score, 5);

    const explained = await search({ q: README_QUERY, country: ['DE'], top_k: 3, explain: true });
    expect(explained.hits[0]).toEqual(expect.objectContaining({ snippet: expect.any(String), license: hit.license, provenance: hit.provenance }));
    expect(explained.hits[0]).not.toHaveProperty('text');

    const plain = await search({ q: README_QUERY, country: ['DE'], top_k: 3 });
    for (const h of plain.hits) {
      expect(h).not.toHaveProperty('score_parts');
      expect(h).not.toHaveProperty('license');
      expect(h).not.toHaveProperty('provenance');
      expect(h).toHaveProperty('snippet');
    }
  });

  it('rejects a non-boolean explain with 422', async () => {
    const res = await fetch(`${platform.url}/v1/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ q: 'x', explain: 'maybe' }),
    });
    expect(res.status).toBe(422);
  });
});
