import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { LanceDbEngine } from '../../engines/embedded/lancedb-engine.js';
import type { LegalDocument } from './legal-document.js';
import { search } from './search.service.js';
import { ReferenceIndex } from './resolver/reference-index.js';

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

  it('takes places from the reference index in memory, asking the engine only for documents the index does not hold', async () => {
    const index = await ReferenceIndex.build(engine.scanMetadata());
    expect(index.placesOf(['XX/Acts/tenancy/1', 'XX/Acts/tenancy', 'XX/Acts/missing'])).toEqual({
      places: new Map([['XX/Acts/tenancy/1', { parentId: 'XX/Acts/tenancy', section: 'XX/Acts/tenancy | Tenancy Act > Part 1' }]]),
      unknown: ['XX/Acts/missing'],
    });
    const asked: string[][] = [];
    const counting = Object.assign(Object.create(engine) as LanceDbEngine, {
      documentPlaces: (ids: string[]) => {
        asked.push(ids);
        return engine.documentPlaces(ids);
      },
    });
    const request = { q: 'deposit', namespace: 'legislation', alpha: 0, top_k: 10 };
    const fromEngine = await search({ engine, embedder: null }, request);
    const fromMemory = await search({ engine: counting, embedder: null, places: (ids) => index.placesOf(ids) }, request);
    expect(fromMemory.hits).toEqual(fromEngine.hits);
    expect(fromMemory.hits.map((h) => h.source_id)).not.toContain('tenancy');
    expect(asked).toEqual([]);
    // An index built before the articles were written knows none of them: the engine answers for those.
    const empty = await ReferenceIndex.build((async function* () {})());
    const late = await search({ engine: counting, embedder: null, places: (ids) => empty.placesOf(ids) }, request);
    expect(late.hits).toEqual(fromEngine.hits);
    expect(asked.flat().sort()).toEqual(fromEngine.hits.map((h) => h.id).concat('XX/Acts/tenancy').sort());
  });

  it('keeps an act found without any of its articles (by its short name)', async () => {
    const response = await search({ engine, embedder: null }, { q: 'TenA', namespace: 'legislation', alpha: 0, top_k: 10 });
    expect(response.hits.map((h) => h.source_id)).toEqual(['tenancy']);
  });
});
