import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { LanceDbEngine } from '../../engines/embedded/lancedb-engine.js';
import type { LegalDocument } from '../../domain/legal-document.js';
import { FEEDBACK_WEIGHT, search } from './search.service.js';
import { feedbackQuery } from '../../engines/vector-math.js';
import { ReferenceIndex } from './resolver/reference-index.js';
import type { Embedder } from '../../engines/embedder.js';
import { loadStaticEmbedder } from '../../engines/embedders/static-embedder.js';
import { writeTinyStaticModel } from '../../../test/fixtures/tiny-static-model.js';
import { createLogger, type Logger } from '../../logger.js';

const base = {
  namespace: 'legislation' as const, country: 'XX', language: 'en', date: null, url: null, court: null, court_tier: null,
  jurisdiction: null, chamber: null, ecli: null, case_number: null, decision_type: null, decision_number: null, authority: null,
  document_type: null, status: null, identifier: null, eli_uri: null, effective_date: null, expiry_date: null, granularity: null,
  unit_type: null, unit_number: null, canonical_path: null, parent_source_id: null, summary: null, subdivision: null,
  short_names: [], extra: {},
};
const doc = (source_id: string, title: string, text: string, extra: Partial<LegalDocument> = {}): LegalDocument => ({
  ...base, id: `XX/Acts/${source_id}`, source: 'XX/Acts', source_id, title, text, ...extra,
});

describe('search: nested documents', () => {
  let dir: string;
  let engine: LanceDbEngine;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'search-nested-'));
    engine = new LanceDbEngine(dir);
    await engine.open();
    const docs = [
      // The act's text is its articles' text: it matches the same words as its article.
      doc('tenancy', 'Tenancy Act', 'Article 1 The landlord returns the deposit. Article 2 Rent is paid monthly.', { granularity: 'act', short_names: ['TenA'] }),
      doc('tenancy/1', 'Tenancy Act – Article 1', 'The landlord returns the deposit.', {
        granularity: 'article',
        parent_source_id: 'tenancy',
        canonical_path: 'Tenancy Act > Part 1 > Article 1',
      }),
      doc('tenancy/2', 'Tenancy Act – Article 2', 'Rent is paid monthly.', { granularity: 'article', parent_source_id: 'tenancy' }),
      // An act without articles in the index stays a result.
      doc('housing', 'Housing Act', 'A deposit guarantee fund helps tenants.', { granularity: 'act' }),
    ];
    await engine.upsertDocuments(docs.map((d) => ({ document: d, contentHash: d.id, chunks: [{ content: d.text }] })));
    await engine.optimize();
  });
  afterAll(async () => {
    await engine.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('drops an act when one of its own articles is found, keeps acts whose articles are not', async () => {
    const response = await search({ engine, embedder: null }, { q: 'deposit', namespace: 'legislation', alpha: 0, top_k: 10 });
    const ids = response.hits.map((h) => h.source_id);
    expect(ids).toContain('tenancy/1');
    expect(ids).toContain('housing');
    expect(ids).not.toContain('tenancy');
    expect(await engine.documentPlaces(['XX/Acts/tenancy/1', 'XX/Acts/tenancy', 'XX/Acts/missing'])).toEqual(
      new Map([['XX/Acts/tenancy/1', { parentId: 'XX/Acts/tenancy', section: 'XX/Acts/tenancy | Tenancy Act > Part 1' }]]),
    );
  });

  it('gives the documents a query names that pass the filters, with their first passage', async () => {
    expect(await engine.documentsMatching(['XX/Acts/tenancy/1', 'XX/Acts/missing'], { namespace: 'legislation' })).toEqual([
      { docId: 'XX/Acts/tenancy/1', score: 0, passage: 'The landlord returns the deposit.' },
    ]);
    expect(await engine.documentsMatching(['XX/Acts/tenancy/1'], { namespace: 'legislation', countries: ['YY'] })).toEqual([]);
    expect(await engine.documentsMatching(['XX/Acts/tenancy/1'], { namespace: 'case_law' })).toEqual([]);
  });

  it('knows no section for an article whose path names none', async () => {
    expect(await engine.documentPlaces(['XX/Acts/tenancy/2'])).toEqual(new Map([['XX/Acts/tenancy/2', { parentId: 'XX/Acts/tenancy', section: null }]]));
  });

  it('takes places and hit metadata from the reference index in memory, asking the engine only for documents the index does not hold', async () => {
    const index = await ReferenceIndex.build(engine.scanMetadata());
    expect(index.placesOf(['XX/Acts/tenancy/1', 'XX/Acts/tenancy', 'XX/Acts/missing'])).toEqual({
      places: new Map([['XX/Acts/tenancy/1', { parentId: 'XX/Acts/tenancy', section: 'XX/Acts/tenancy | Tenancy Act > Part 1' }]]),
      unknown: ['XX/Acts/missing'],
    });
    const asked: string[][] = [];
    const metadataAsked: string[][] = [];
    const counting = Object.assign(Object.create(engine) as LanceDbEngine, {
      documentPlaces: (ids: string[]) => {
        asked.push(ids);
        return engine.documentPlaces(ids);
      },
      getDocumentsWithoutText: (ids: string[]) => {
        metadataAsked.push(ids);
        return engine.getDocumentsWithoutText(ids);
      },
    });
    const request = { q: 'deposit', namespace: 'legislation', alpha: 0, top_k: 10 };
    const fromEngine = await search({ engine, embedder: null }, request);
    const memory = { places: (ids: string[]) => index.placesOf(ids), metadata: (ids: string[]) => index.metadataOf(ids) };
    const fromMemory = await search({ engine: counting, embedder: null, ...memory }, request);
    expect(fromMemory.hits).toEqual(fromEngine.hits);
    expect(fromMemory.hits.map((h) => h.source_id)).not.toContain('tenancy');
    expect(fromMemory.hits.find((h) => h.source_id === 'tenancy/1')).toMatchObject({ title: 'Tenancy Act – Article 1', canonical_path: 'Tenancy Act > Part 1 > Article 1' });
    expect([asked, metadataAsked]).toEqual([[], []]);
    // A summary is not in memory: summary_only hits still read their documents.
    await search({ engine: counting, embedder: null, ...memory }, { ...request, result_detail: 'summary_only' });
    expect(metadataAsked).toHaveLength(1);
    metadataAsked.length = 0;
    // An index built before the articles were written knows none of them: the engine answers for those.
    const empty = await ReferenceIndex.build((async function* () {})());
    const late = await search({ engine: counting, embedder: null, places: (ids) => empty.placesOf(ids), metadata: (ids) => empty.metadataOf(ids) }, request);
    expect(late.hits).toEqual(fromEngine.hits);
    expect(asked.flat().sort()).toEqual(fromEngine.hits.map((h) => h.id).concat('XX/Acts/tenancy').sort());
    expect(metadataAsked.flat().sort()).toEqual(fromEngine.hits.map((h) => h.id).sort());
  });

  it('keeps the metadata it holds in memory when the engine fails to give the rest', async () => {
    const index = await ReferenceIndex.build(engine.scanMetadata());
    const request = { q: 'deposit landlord', namespace: 'legislation', alpha: 0, top_k: 10 };
    const failing = Object.assign(Object.create(engine) as LanceDbEngine, {
      getDocumentsWithoutText: () => Promise.reject(new Error('engine unavailable')),
    });
    const all = (await search({ engine, embedder: null }, request)).hits;
    expect(all.length).toBeGreaterThanOrEqual(2);
    const [first, ...rest] = all.map((h) => h.id);
    // Memory knows only the first hit: the engine is asked for the others and fails.
    const metadata = (ids: string[]) => {
      const known = index.metadataOf(ids.filter((id) => id === first));
      return { found: known.found, unknown: ids.filter((id) => id !== first) };
    };
    const warnings: string[] = [];
    const logger = { ...createLogger('silent'), warn: (message: string) => void warnings.push(message) } as unknown as Logger;
    const hits = (await search({ engine: failing, embedder: null, metadata, logger }, request)).hits;
    expect(warnings).toEqual([`search: reading the metadata of ${rest.length} hits failed (engine unavailable); those shown as text_unavailable`]);
    expect(hits.map((h) => h.id)).toEqual(all.map((h) => h.id));
    expect(hits[0]).toEqual(all[0]);
    expect(hits[0].text_unavailable).toBeUndefined();
    for (const hit of hits.slice(1)) expect(hit).toMatchObject({ id: rest[hits.indexOf(hit) - 1], text_unavailable: true });
  });

  it('keeps an act found without any of its articles (by its short name)', async () => {
    const response = await search({ engine, embedder: null }, { q: 'TenA', namespace: 'legislation', alpha: 0, top_k: 10 });
    expect(response.hits.map((h) => h.source_id)).toEqual(['tenancy']);
  });
});

describe('search: each leg scores the candidates only the other leg found', () => {
  let dir: string;
  let engine: LanceDbEngine;
  let embedder: Embedder;
  const texts: [string, string][] = [
    // both query words, but mostly about data protection: the keyword leg's best
    ['a', 'contract tax personal data processing consent privacy protection controller erasure'],
    // one query word among contract and tax words: the vector leg's best
    ['b', 'contract liability compensation damages indemnity revenue income vat'],
    ['c', 'criminal offence prison theft'],
    ['d', 'personal data processing and consent'],
    ['e', 'income revenue fiscal'],
  ];
  const docs = texts.map(([id, text]) => doc(`law/${id}`, `Law ${id}`, text));
  const filters = { namespace: 'legislation' as const };
  const query = 'contract tax';

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'search-complete-'));
    embedder = await loadStaticEmbedder((await writeTinyStaticModel(path.join(dir, 'model'), { dimension: 16 })).dir);
    engine = new LanceDbEngine(path.join(dir, 'index'));
    await engine.open();
    await engine.setVectorModel(embedder.id, embedder.dimension);
    const vectors = await embedder.embedPassages(docs.map((d) => `${d.title}\n${d.text}`));
    await engine.upsertDocuments(docs.map((d, i) => ({ document: d, contentHash: d.id, chunks: [{ content: d.text, vector: vectors[i] }] })));
    await engine.optimize();
  });
  afterAll(async () => {
    await engine.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('the engine scores given documents exactly as its vector leg does', async () => {
    const [vector] = await embedder.embedQueries([query]);
    const byVector = new Map((await engine.vectorSearch(vector, filters, 50)).map((h) => [h.docId, h.score]));
    const ids = docs.map((d) => d.id);
    // by document (its best chunk), and by the chunk a hit names
    const byDocument = await engine.vectorScores(vector, ids.map((docId) => ({ docId, score: 0, passage: '' })));
    expect(byDocument.map((h) => h.docId).sort()).toEqual([...ids].sort());
    for (const h of byDocument) expect(h.score).toBeCloseTo(byVector.get(h.docId)!, 5);
    const byChunk = await engine.vectorScores(vector, byDocument.slice(0, 2).map((h) => ({ docId: h.docId, score: 0, passage: '', chunkId: h.chunkId })));
    expect(byChunk.map((h) => [h.docId, h.chunkId])).toEqual(byDocument.slice(0, 2).map((h) => [h.docId, h.chunkId]));
    for (const h of byChunk) expect(h.score).toBeCloseTo(byVector.get(h.docId)!, 5);
  });

  it('a document the vector leg left out of its candidates gets its true semantic score, not 0', async () => {
    // Legs that keep only their best hit: the keyword leg's best reaches the fusion through it alone.
    const narrow = Object.assign(Object.create(engine) as LanceDbEngine, {
      keywordSearch: async (q: string, f: typeof filters, limit: number) => (await engine.keywordSearch(q, f, limit)).slice(0, 1),
      vectorSearch: async (v: Float32Array, f: typeof filters, limit: number) => (await engine.vectorSearch(v, f, limit)).slice(0, 1),
    });
    const request = { q: query, namespace: 'legislation', alpha: 0.7, top_k: 10, explain: true };
    // (without relevance feedback, which would move each search's query differently: tested below)
    const full = await search({ engine, embedder, feedbackPassages: 0 }, request);
    const narrowed = await search({ engine: narrow, embedder, feedbackPassages: 0 }, request);
    const parts = (r: typeof full) => new Map(r.hits.map((h) => [h.id, h.score_parts!]));
    const [fullParts, narrowParts] = [parts(full), parts(narrowed)];
    const [kwBest] = await engine.keywordSearch(query, filters, 1);
    const [vBest] = await engine.vectorSearch((await embedder.embedQueries([query]))[0], filters, 1);
    expect(kwBest.docId).not.toBe(vBest.docId);
    const completed = narrowParts.get(kwBest.docId)!;
    expect(completed.semantic_score).not.toBeNull();
    expect(completed.semantic_score).toBeCloseTo(fullParts.get(kwBest.docId)!.semantic_score!, 5);
    expect(completed.fused).toBeCloseTo(fullParts.get(kwBest.docId)!.fused, 5);
    // the vector leg's own best is not completed the other way: the keyword leg did not rank it
    expect(narrowParts.get(vBest.docId)!.keyword_score).toBeNull();
  });

  it('relevance feedback: the vector leg scores every candidate against the query moved towards the keyword leg\'s best passages', async () => {
    const request = { q: query, namespace: 'legislation', alpha: 0.7, top_k: 10, explain: true };
    const [vector] = await embedder.embedQueries([query]);
    const keywordBest = await engine.keywordSearch(query, filters, 50);
    const fed = await search({ engine, embedder, feedbackPassages: 2 }, request);
    const plain = await search({ engine, embedder, feedbackPassages: 0 }, request);

    const feedback = fed.hits[0].score_parts!.semantic_feedback!;
    expect(feedback.weight).toBe(FEEDBACK_WEIGHT);
    expect(feedback.documents).toEqual(keywordBest.slice(0, 2).map((h) => h.docId));
    const moved = feedbackQuery(vector, [...(await engine.passageVectors(keywordBest.slice(0, 2).map((h) => h.chunkId!))).values()], FEEDBACK_WEIGHT);
    // every document of both legs carries its cosine with the moved query: what the engine says of it
    const expected = new Map((await engine.vectorScores(moved, docs.map((d) => ({ docId: d.id, score: 0, passage: '' })))).map((h) => [h.docId, h.score]));
    expect(fed.hits.map((h) => h.id).sort()).toEqual(plain.hits.map((h) => h.id).sort());
    for (const h of fed.hits) {
      expect(h.score_parts!.semantic_feedback).toEqual(feedback);
      expect(h.score_parts!.semantic_score).toBeCloseTo(expected.get(h.id)!, 5);
    }
    // the keyword leg's best passages are nearer the moved query than the question alone
    const plainParts = new Map(plain.hits.map((h) => [h.id, h.score_parts!]));
    for (const id of feedback.documents) expect(expected.get(id)!).toBeGreaterThan(plainParts.get(id)!.semantic_score!);
    expect(plain.hits.every((h) => h.score_parts!.semantic_feedback === null)).toBe(true);
    // alpha 1 runs no keyword leg: nothing to learn from, the vector leg is the model's alone
    const semanticOnly = await search({ engine, embedder, feedbackPassages: 2 }, { ...request, alpha: 1 });
    expect(semanticOnly.hits.every((h) => h.score_parts!.semantic_feedback === null)).toBe(true);
  });

  it('relevance feedback that fails is logged, and the vector leg scores the question alone', async () => {
    const warnings: string[] = [];
    const logger = { ...createLogger('silent'), warn: (message: string) => void warnings.push(message) } as unknown as Logger;
    // An engine whose vector leg carries no vectors, so that the feedback must read them, and fails to.
    const broken = Object.assign(Object.create(engine) as LanceDbEngine, {
      vectorSearch: async (v: Float32Array, f: typeof filters, limit: number) => (await engine.vectorSearch(v, f, limit)).map(({ vector: _, ...h }) => h),
      passageVectors: async () => {
        throw new Error('vectors unreadable');
      },
    });
    const request = { q: query, namespace: 'legislation', alpha: 0.7, top_k: 10, explain: true };
    const answer = await search({ engine: broken, embedder, feedbackPassages: 2, logger }, request);
    const plain = await search({ engine, embedder, feedbackPassages: 0 }, request);
    expect(answer.hits.map((h) => [h.id, h.score])).toEqual(plain.hits.map((h) => [h.id, h.score]));
    expect(answer.hits.every((h) => h.score_parts!.semantic_feedback === null)).toBe(true);
    expect(warnings).toEqual([expect.stringContaining('relevance feedback failed (vectors unreadable)')]);
  });

  it('citation authority: each candidate gains its boost, the ranking follows, and score_parts say so', async () => {
    const request = { q: query, namespace: 'legislation', alpha: 0.7, top_k: 10, explain: true };
    const plain = await search({ engine, embedder }, request);
    expect(plain.hits.every((h) => h.score_parts!.citation_authority === null)).toBe(true);
    // The last hit of the plain ranking is cited by many decisions.
    const last = plain.hits[plain.hits.length - 1].id;
    const authority = { citedBy: (id: string) => (id === last ? 50 : 0), weight: 1, saturation: 50 };
    const boosted = await search({ engine, embedder, authority }, request);
    expect(boosted.hits[0].id).toBe(last);
    const plainScore = new Map(plain.hits.map((h) => [h.id, h.score]));
    for (const h of boosted.hits) {
      const cited = h.id === last;
      expect(h.score_parts!.citation_authority).toEqual({ cited_by: cited ? 50 : 0, boost: cited ? 1 : 0, weight: 1, saturation: 50 });
      expect(h.score).toBeCloseTo(plainScore.get(h.id)! + (cited ? 1 : 0), 5);
    }
  });
});
