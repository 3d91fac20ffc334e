/**
 * The engine contract: the same cases against every SearchEngine implementation.
 *
 * - `embedded` (LanceDB in a temp directory): always.
 * - `elasticsearch (local protocol server)`: always; the real client and engine against
 *   test/helpers/elasticsearch-server.ts. Filters, documents, writes, collapse, kNN cosine are
 *   exact there; its text scoring is a stand-in (not BM25), so only cases that hold for any
 *   sensible scoring are asserted, for every engine.
 * - `elasticsearch (live)`: when ELASTICSEARCH_URL points at a cluster (optionally
 *   ELASTICSEARCH_API_KEY or ELASTICSEARCH_USERNAME / ELASTICSEARCH_PASSWORD); the indexes
 *   live under a unique prefix and are deleted afterwards. Skipped otherwise (printed).
 *
 *   ELASTICSEARCH_URL=http://localhost:9200 npm run test:jest -- test/engine-contract.test.ts
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { LanceDbEngine } from '../src/engines/embedded/lancedb-engine.js';
import { ElasticsearchEngine } from '../src/engines/elasticsearch/elasticsearch-engine.js';
import type { Embedder } from '../src/engines/embedder.js';
import { loadStaticEmbedder } from '../src/engines/embedders/static-embedder.js';
import type { DocumentHit, DocumentInput, EngineFilters, SearchEngine } from '../src/engines/search-engine.js';
import type { LegalDocument } from '../src/domain/legal-document.js';
import { search } from '../src/modules/legal-data/search.service.js';
import { writeTinyStaticModel } from './fixtures/tiny-static-model.js';
import { FakeElasticsearch } from './helpers/elasticsearch-server.js';
import { makeDocument as makeDoc } from './fixtures/legal-document.js';

interface EngineUnderTest {
  engine: SearchEngine;
  cleanup(): Promise<void>;
}

const liveUrl = process.env.ELASTICSEARCH_URL;

const ENGINES: [string, () => Promise<EngineUnderTest>][] = [
  [
    'embedded',
    async () => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'contract-lance-'));
      const engine = new LanceDbEngine(dir);
      return { engine, cleanup: async () => { await engine.close(); await rm(dir, { recursive: true, force: true }); } };
    },
  ],
  [
    'elasticsearch (local protocol server)',
    async () => {
      const es = await new FakeElasticsearch().start();
      const engine = new ElasticsearchEngine({ node: es.url, indexPrefix: 'contract-', vectors: true });
      return { engine, cleanup: async () => { await engine.close(); await es.stop(); } };
    },
  ],
];
if (liveUrl) {
  ENGINES.push([
    `elasticsearch (live, ${liveUrl})`,
    async () => {
      const prefix = `contract-${Date.now()}-`;
      const engine = new ElasticsearchEngine({
        node: liveUrl,
        apiKey: process.env.ELASTICSEARCH_API_KEY,
        username: process.env.ELASTICSEARCH_USERNAME,
        password: process.env.ELASTICSEARCH_PASSWORD,
        indexPrefix: prefix,
        vectors: true,
      });
      return {
        engine,
        cleanup: async () => {
          // By name: clusters refuse wildcard deletes (action.destructive_requires_name).
          const indices = Object.keys(await engine.client.indices.get({ index: `${prefix}*` }));
          if (indices.length > 0) await engine.client.indices.delete({ index: indices });
          await engine.close();
        },
      };
    },
  ]);
} else {
  // eslint-disable-next-line no-console
  console.log('engine contract: ELASTICSEARCH_URL is not set, the live Elasticsearch run is skipped (embedded and the local protocol server run)');
}


// Every text holds `lex2024` (a term every analyser keeps as is) and a word the tiny model knows.
const BGB_823 = makeDoc({
  source: 'DE/GesetzeImInternet', source_id: 'bgb/823', title: '§ 823 BGB Schadensersatzpflicht',
  text: 'lex2024 Wer fahrlässig verletzt, ist zum Schadensersatz verpflichtet. Haftung.',
  language: 'de', date: '2002-01-02', canonical_path: 'BGB > Buch 2 > Abschnitt 8 > § 823', short_names: ['BGB'],
  parent_source_id: 'bgb', granularity: 'article', extra: { note: 'it\'s "quoted"', n: 1 },
});
const CODE_CIVIL = makeDoc({
  source: 'FR/LegifranceCodes', source_id: 'LEGIARTI000032041571', title: 'Article 1240 - Code civil',
  text: "lex2024 Tout fait quelconque de l'homme qui cause un dommage oblige à le réparer: responsabilite, contrat.",
  language: 'fr', date: '2016-10-01', short_names: ['C. civ.'], summary: 'Responsabilité délictuelle.',
});
const GDPR = makeDoc({
  source: 'EU/EUR-Lex', source_id: '32016R0679', title: 'General Data Protection Regulation',
  text: 'lex2024 Regulation on the protection of natural persons with regard to the processing of personal data.',
  language: 'en', date: '2016-04-27', short_names: ['GDPR', 'DSGVO'],
});
const BGH = makeDoc({
  source: 'DE/BGH', source_id: 'VI ZR 1/20', namespace: 'case_law', title: 'BGH, Urteil vom 12.01.2021 – VI ZR 1/20',
  text: 'lex2024 Der Kläger verlangt Schadensersatz wegen einer Verletzung des Vertrags. Haftung.',
  language: 'de', date: '2021-01-12', court: 'Bundesgerichtshof', court_tier: 1, jurisdiction: 'civil',
});
const PARIS = makeDoc({
  source: 'FR/CA', source_id: "it's/42", namespace: 'case_law', title: "Cour d'appel de Paris, 3 mars 2019",
  text: "lex2024 La cour condamne la société au paiement de dommages et intérêts pour rupture du contrat.",
  language: 'fr', date: '2019-03-03', court: "Cour d'appel de Paris", court_tier: 2, jurisdiction: 'commercial',
});
const ECHR = makeDoc({
  source: 'CoE/HUDOC', source_id: '001-1', namespace: 'case_law', title: 'Case of X v. Y',
  text: 'lex2024 The court finds a violation of privacy and data protection under Article 8.',
  language: 'en', date: null, court: 'European Court of Human Rights', court_tier: 1, jurisdiction: 'human rights',
});
const ALL = [BGB_823, CODE_CIVIL, GDPR, BGH, PARIS, ECHR];

const caseLaw: EngineFilters = { namespace: 'case_law' };
const ids = (hits: { docId: string }[]) => hits.map((h) => h.docId);
const sorted = (list: string[]) => [...list].sort();

describe.each(ENGINES)('engine contract: %s', (_name, make) => {
  let subject: EngineUnderTest;
  let engine: SearchEngine;
  let embedder: Embedder;
  let modelDir: string;

  async function inputs(docs: LegalDocument[], chunksOf: (d: LegalDocument) => string[] = (d) => [d.text], hash = 'h1'): Promise<DocumentInput[]> {
    const out: DocumentInput[] = [];
    for (const d of docs) {
      const chunks = chunksOf(d);
      const vectors = await embedder.embedPassages(chunks.map((c) => `${d.title}\n${c}`));
      out.push({ document: d, contentHash: hash, chunks: chunks.map((content, i) => ({ content, vector: vectors[i] })) });
    }
    return out;
  }

  beforeAll(async () => {
    modelDir = await mkdtemp(path.join(os.tmpdir(), 'contract-model-'));
    embedder = await loadStaticEmbedder((await writeTinyStaticModel(modelDir, { dimension: 16 })).dir);
    subject = await make();
    engine = subject.engine;
    await engine.open();
    await engine.setVectorModel(embedder.id, embedder.dimension);
    // Two passages for the GDPR: collapse must give one hit per document.
    await engine.upsertDocuments(await inputs(ALL, (d) => (d === GDPR ? [d.text, 'lex2024 Article 17: right to erasure of personal data.'] : [d.text])));
    await engine.optimize();
  });
  afterAll(async () => {
    await subject?.cleanup();
    await rm(modelDir, { recursive: true, force: true });
  });

  const FILTER_CASES: [string, EngineFilters, LegalDocument[]][] = [
    ['namespace legislation', { namespace: 'legislation' }, [BGB_823, CODE_CIVIL, GDPR]],
    ['namespace case_law', caseLaw, [BGH, PARIS, ECHR]],
    ['one country', { ...caseLaw, countries: ['FR'] }, [PARIS]],
    ['several countries', { ...caseLaw, countries: ['DE', 'CoE'] }, [BGH, ECHR]],
    ['source', { ...caseLaw, sources: ['FR/CA'] }, [PARIS]],
    ['court', { ...caseLaw, court: 'Bundesgerichtshof' }, [BGH]],
    ['court with a quote', { ...caseLaw, court: "Cour d'appel de Paris" }, [PARIS]],
    ['court tier', { ...caseLaw, courtTier: 1 }, [BGH, ECHR]],
    ['jurisdiction', { ...caseLaw, jurisdiction: 'commercial' }, [PARIS]],
    ['language', { ...caseLaw, language: 'en' }, [ECHR]],
    ['date from (undated documents excluded)', { ...caseLaw, dateStart: '2020-01-01' }, [BGH]],
    ['date until', { ...caseLaw, dateEnd: '2020-01-01' }, [PARIS]],
    ['date range, bounds inclusive', { ...caseLaw, dateStart: '2019-03-03', dateEnd: '2019-03-03' }, [PARIS]],
    ['conditions ANDed', { ...caseLaw, countries: ['FR'], courtTier: 1 }, []],
    ['everything at once', { namespace: 'case_law', countries: ['DE'], sources: ['DE/BGH'], court: 'Bundesgerichtshof', courtTier: 1, jurisdiction: 'civil', language: 'de', dateStart: '2021-01-01', dateEnd: '2021-12-31' }, [BGH]],
  ];

  it.each(FILTER_CASES)('filters (%s): the keyword leg, the vector leg and named documents agree', async (_label, filters, expected) => {
    const want = sorted(expected.map((d) => d.id));
    expect(sorted(ids(await engine.keywordSearch('lex2024', filters, 10)))).toEqual(want);
    const [vector] = await embedder.embedQueries(['contract damages liability']);
    expect(sorted(ids(await engine.vectorSearch(vector, filters, 10)))).toEqual(want);
    expect(sorted(ids(await engine.documentsMatching(ALL.map((d) => d.id), filters)))).toEqual(want);
  });

  /** A hit's passage, read through `passages` when the engine deferred it (empty passage, `chunkId`). */
  async function withPassages(hits: DocumentHit[]): Promise<DocumentHit[]> {
    const deferred = hits.filter((h) => !h.passage && h.chunkId).map((h) => h.chunkId!);
    if (deferred.length === 0) return hits;
    expect(engine.passages).toBeDefined();
    const texts = await engine.passages!(deferred);
    return hits.map((h) => (!h.passage && h.chunkId ? { ...h, passage: texts.get(h.chunkId) ?? '' } : h));
  }

  it('limits: at most `limit` documents, one hit per document with its passage, none for 0', async () => {
    const legislation: EngineFilters = { namespace: 'legislation' };
    const two = await engine.keywordSearch('lex2024', legislation, 2);
    expect(two).toHaveLength(2);
    expect(await engine.keywordSearch('lex2024', legislation, 0)).toEqual([]);
    const all = await withPassages(await engine.keywordSearch('lex2024', legislation, 10));
    expect(new Set(ids(all)).size).toBe(all.length);
    for (const h of all) {
      expect(h.score).toBeGreaterThan(0);
      expect(ALL.find((d) => d.id === h.docId)!.text === h.passage || h.passage.includes('erasure')).toBe(true);
    }
    for (let i = 1; i < all.length; i++) expect(all[i - 1].score).toBeGreaterThanOrEqual(all[i].score);
    // the GDPR's second passage is the one found for "erasure"
    expect((await withPassages(await engine.keywordSearch('erasure', legislation, 5))).map(({ docId, passage }) => ({ docId, passage }))).toEqual([
      { docId: GDPR.id, passage: 'lex2024 Article 17: right to erasure of personal data.' },
    ]);
    const [vector] = await embedder.embedQueries(['personal data protection']);
    const v = await engine.vectorSearch(vector, legislation, 1);
    expect(v).toHaveLength(1);
    expect(v[0].score).toBeGreaterThan(-1);
    expect(v[0].score).toBeLessThanOrEqual(1 + 1e-6);
    expect(await engine.vectorSearch(vector, legislation, 0)).toEqual([]);
    expect(await engine.vectorSearch(new Float32Array(embedder.dimension), legislation, 5)).toEqual([]);
  });

  it('alpha 0 and 1 through the search service reproduce the keyword and the vector leg', async () => {
    const deps = { engine, embedder };
    // (Articles with a section get section context in the fusion: BGB § 823 is left out here.)
    for (const [q, namespace, country] of [['Schadensersatz Haftung lex2024', 'case_law', undefined], ['data protection lex2024', 'legislation', ['EU', 'FR']]] as const) {
      const filters: EngineFilters = { namespace, countries: country ? [...country] : undefined };
      const keyword = await search(deps, { q, alpha: 0, namespace, top_k: 3, country });
      expect(keyword.hits.map((h) => h.id)).toEqual(ids(await engine.keywordSearch(q, filters, 50)).slice(0, 3));
      expect(keyword.hits[0].score).toBeCloseTo(1, 6);
      const semantic = await search(deps, { q, alpha: 1, namespace, top_k: 3, country });
      const [vector] = await embedder.embedQueries([q]);
      expect(semantic.hits.map((h) => h.id)).toEqual(ids(await engine.vectorSearch(vector, filters, 50)).slice(0, 3));
    }
  });

  it('documents by address: full, without text, their place in the act; unknown ids absent', async () => {
    const docs = await engine.getDocuments([BGB_823.id, PARIS.id, 'XX/none/1']);
    expect(docs).toEqual(new Map([[BGB_823.id, BGB_823], [PARIS.id, PARIS]]));
    const light = (await engine.getDocumentsWithoutText([CODE_CIVIL.id])).get(CODE_CIVIL.id)!;
    expect(light).not.toHaveProperty('text');
    expect(light).not.toHaveProperty('extra');
    const { text: _t, extra: _e, ...withoutText } = CODE_CIVIL;
    expect(light).toEqual(withoutText);
    expect(await engine.documentPlaces([BGB_823.id, PARIS.id, 'XX/none/1'])).toEqual(
      new Map([[BGB_823.id, { parentId: 'DE/GesetzeImInternet/bgb', section: 'DE/GesetzeImInternet/bgb | BGB > Buch 2 > Abschnitt 8' }]]),
    );
    const scanned = [];
    for await (const batch of engine.scanMetadata()) scanned.push(...batch);
    expect(sorted(scanned.map((m) => m.id))).toEqual(sorted(ALL.map((d) => d.id)));
    expect(scanned.find((m) => m.id === BGH.id)).toMatchObject({ court: 'Bundesgerichtshof', court_tier: 1, date: '2021-01-12' });
    expect(await engine.countDocuments()).toBe(ALL.length);
    expect(await engine.countChunks()).toEqual({ total: ALL.length + 1, withVectors: ALL.length + 1 });
    expect(await engine.vectorModel()).toBe(embedder.id);
  });

  it('re-ingest replaces the passages (hash recorded), delete removes the document and its passages', async () => {
    const doc = makeDoc({ source: 'IE/Statute', source_id: 'act/1', title: 'Statute', text: 'lex2024 law uniqueoldword law', language: 'en' });
    await engine.upsertDocuments(await inputs([doc], () => ['lex2024 law first passage', 'uniqueoldword law', 'third passage law']));
    await engine.optimize();
    expect(await engine.contentHashes([doc.id, GDPR.id])).toEqual(new Map([[doc.id, 'h1'], [GDPR.id, 'h1']]));
    expect(ids(await engine.keywordSearch('uniqueoldword', { namespace: 'legislation' }, 5))).toEqual([doc.id]);
    const before = await engine.countChunks();

    await engine.upsertDocuments(await inputs([{ ...doc, title: 'Statute (amended)' }], () => ['lex2024 law new passage'], 'h2'));
    await engine.optimize();
    expect(await engine.keywordSearch('uniqueoldword', { namespace: 'legislation' }, 5)).toEqual([]);
    expect(await engine.countChunks()).toEqual({ total: before.total - 2, withVectors: before.withVectors - 2 });
    expect(await engine.contentHashes([doc.id])).toEqual(new Map([[doc.id, 'h2']]));
    expect((await engine.getDocuments([doc.id])).get(doc.id)?.title).toBe('Statute (amended)');

    await engine.deleteDocuments([doc.id]);
    await engine.optimize();
    expect(await engine.getDocuments([doc.id])).toEqual(new Map());
    expect(ids(await engine.keywordSearch('lex2024', { namespace: 'legislation' }, 10))).not.toContain(doc.id);
    expect(await engine.contentHashes([doc.id])).toEqual(new Map());
    expect(await engine.countDocuments()).toBe(ALL.length);
    expect(await engine.countChunks()).toEqual({ total: ALL.length + 1, withVectors: ALL.length + 1 });
  });
});
