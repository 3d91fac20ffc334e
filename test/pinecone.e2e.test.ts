/**
 * The Pinecone vector leg at the HTTP level: the real client (@pinecone-database/pinecone)
 * talks to a local server in Pinecone's data-plane format (test/helpers/pinecone-server.ts),
 * over the embedded engine as the base. Checks what goes over the wire (batch sizes within
 * Pinecone's limits, small metadata, the filter expression of every filter kind, namespaces,
 * deletion of a document's old passages on re-ingest, retries) and what comes back (exact
 * cosine rescoring, passages from the base engine). Then a real service over HTTP, on a
 * corpus slice, answers from the keyword leg with `degraded: ["vector"]` when the vector
 * server is too slow or fails.
 */
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { loadConfig } from '../src/config.js';
import { VocabularyCounter } from '../src/engines/compounds.js';
import { LanceDbEngine } from '../src/engines/embedded/lancedb-engine.js';
import { VOCABULARY_FILE } from '../src/engines/embedded/lancedb-vocabulary.js';
import { dateNumber, pineconeFilter } from '../src/engines/pinecone/pinecone-filters.js';
import { PineconeVectorIndex } from '../src/engines/pinecone/pinecone-vector-index.js';
import { withVectorIndex } from '../src/engines/pinecone/with-vector-index.js';
import type { DocumentInput, EngineFilters } from '../src/engines/search-engine.js';
import { createLogger, type Logger } from '../src/logger.js';
import type { LegalDocument } from '../src/domain/legal-document.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { writeCorpusSlice } from './fixtures/corpus-slice.js';
import { writeTinyStaticModel } from './fixtures/tiny-static-model.js';
import { makeDocument } from './fixtures/legal-document.js';
import { startLocalPinecone, type LocalPinecone } from './helpers/pinecone-server.js';
import { makeTestDataDir } from './helpers/pglite-template.js';

function makeDoc(partial: Partial<LegalDocument> & Pick<LegalDocument, 'source' | 'source_id'>): LegalDocument {
  return makeDocument({ namespace: 'case_law', summary: 'A long summary that must never reach Pinecone. '.repeat(20), ...partial });
}

/** A deterministic unit-free vector: mostly `axis`, a little of the others. */
function vectorOf(dimension: number, axis: number, seed = 1): Float32Array {
  const v = new Float32Array(dimension);
  for (let i = 0; i < dimension; i++) v[i] = ((Math.sin(seed * 7.3 + i * 1.7) + 1) / 20) * (i === axis % dimension ? 0 : 1);
  v[axis % dimension] = 1;
  return v;
}

function inputOf(doc: LegalDocument, dimension: number, chunks: number, axis: number, hash = 'h1'): DocumentInput {
  return {
    document: doc,
    contentHash: hash,
    chunks: Array.from({ length: chunks }, (_, n) => ({ content: `${doc.source_id} passage ${n}`, vector: vectorOf(dimension, axis, n + 1) })),
  };
}

const silent = createLogger('silent');
const ALLOWED_METADATA = ['doc_id', 'country', 'source', 'language', 'court', 'court_tier', 'jurisdiction', 'date'];

async function openIndex(server: LocalPinecone, options: Partial<ConstructorParameters<typeof PineconeVectorIndex>[1]> = {}, logger: Logger = silent) {
  const base = new LanceDbEngine(await mkdtemp(path.join(os.tmpdir(), 'pinecone-base-')));
  const engine = new PineconeVectorIndex(base, { apiKey: 'pc-test-key', host: server.url, retryBaseMs: 10, logger, ...options });
  await engine.open();
  return engine;
}

describe('Pinecone vector leg over HTTP (real client, local data-plane server)', () => {
  const DIM = 8;
  let server: LocalPinecone;
  let engine: PineconeVectorIndex;

  const BGH = makeDoc({ source: 'DE/BGH', source_id: 'VI-ZR-1-20', language: 'de', date: '2020-05-12', court: 'Bundesgerichtshof', court_tier: 1, jurisdiction: 'civil' });
  const OLG = makeDoc({ source: 'DE/OLG', source_id: 'u-2019', language: 'de', date: '2019-03-01', court: 'OLG München', court_tier: 2, jurisdiction: 'civil' });
  const CASS = makeDoc({ source: 'FR/CASS', source_id: 'c-2021', country: 'FR', language: 'fr', date: '2021-11-30', court: 'Cour de cassation', court_tier: 1, jurisdiction: 'criminal' });
  const UNDATED = makeDoc({ source: 'FR/CASS', source_id: 'undated', country: 'FR', language: 'fr' });
  const LAW = makeDoc({ source: 'DE/GesetzeImInternet', source_id: 'bgb/823', namespace: 'legislation', language: 'de', date: '2002-01-02' });
  const ALL = [BGH, OLG, CASS, UNDATED];

  beforeAll(async () => {
    server = await startLocalPinecone({ dimension: DIM, apiKey: 'pc-test-key' });
    engine = await openIndex(server);
    await engine.setVectorModel('test-model', DIM);
    await engine.upsertDocuments([...ALL.map((d, i) => inputOf(d, DIM, 2, i)), inputOf(LAW, DIM, 3, 5)]);
  });

  afterAll(async () => {
    await engine?.close();
    await server?.stop();
  });

  it('sends the API key, one namespace per corpus namespace, and only the metadata the filters need', () => {
    const upserts = server.requestsTo('/vectors/upsert');
    expect(upserts.length).toBe(2);
    expect(upserts.every((r) => r.apiKey === 'pc-test-key')).toBe(true);
    expect(upserts.map((r) => r.body.namespace).sort()).toEqual(['case_law', 'legislation']);
    expect(server.namespaces.get('case_law')!.size).toBe(8);
    expect([...server.namespaces.get('legislation')!.keys()].sort()).toEqual(['DE/GesetzeImInternet/bgb/823#0', 'DE/GesetzeImInternet/bgb/823#1', 'DE/GesetzeImInternet/bgb/823#2']);
    for (const r of upserts.flatMap((u) => u.body.vectors)) {
      expect(Object.keys(r.metadata).every((k) => ALLOWED_METADATA.includes(k))).toBe(true);
      expect(Buffer.byteLength(JSON.stringify(r.metadata))).toBeLessThan(300);
      expect(Object.values(r.metadata)).not.toContain(null);
    }
    const bgh = server.namespaces.get('case_law')!.get(`${BGH.id}#1`)!;
    expect(bgh.metadata).toEqual({ doc_id: BGH.id, country: 'DE', source: 'DE/BGH', language: 'de', court: 'Bundesgerichtshof', court_tier: 1, jurisdiction: 'civil', date: 20200512 });
    // absent values are left out (Pinecone has no null)
    expect(server.namespaces.get('case_law')!.get(`${UNDATED.id}#0`)!.metadata).toEqual({ doc_id: UNDATED.id, country: 'FR', source: 'FR/CASS', language: 'fr' });
  });

  it('keeps every upsert within 1,000 records and 2 MB, splitting by count and by size', async () => {
    server.requests.length = 0;
    const many = makeDoc({ source: 'DE/BGH', source_id: 'many' });
    await engine.upsertDocuments([inputOf(many, DIM, 2500, 3)]);
    const sizes = server.requestsTo('/vectors/upsert').map((r) => r.body.vectors.length);
    expect(sizes).toEqual([1000, 1000, 500]);
    await engine.deleteDocuments([many.id]);
    expect([...server.namespaces.get('case_law')!.keys()].some((id) => id.startsWith(many.id))).toBe(false);

    // Large vectors: the 2 MB request size limits the batch before the count does.
    const big = await startLocalPinecone({ dimension: 1536 });
    const bigIndex = await openIndex(big);
    await bigIndex.setVectorModel('big', 1536);
    const doc = makeDoc({ source: 'DE/BGH', source_id: 'big' });
    await bigIndex.upsertDocuments([inputOf(doc, 1536, 400, 7)]);
    const requests = big.requestsTo('/vectors/upsert');
    expect(requests.length).toBeGreaterThan(1);
    expect(requests.every((r) => r.bytes <= 2 * 1024 * 1024 && r.body.vectors.length <= 1000)).toBe(true);
    expect(requests.reduce((n, r) => n + r.body.vectors.length, 0)).toBe(400);
    expect(big.namespaces.get('case_law')!.size).toBe(400);
    await bigIndex.close();
    await big.stop();
  });

  it('translates every filter kind to Pinecone filter expressions, and they select what the embedded engine selects', async () => {
    const cases: { filters: Omit<EngineFilters, 'namespace'>; expected: unknown; ids: string[] }[] = [
      { filters: {}, expected: undefined, ids: [BGH.id, OLG.id, CASS.id, UNDATED.id] },
      { filters: { countries: ['FR'] }, expected: { country: { $in: ['FR'] } }, ids: [CASS.id, UNDATED.id] },
      { filters: { sources: ['DE/OLG', 'FR/CASS'] }, expected: { source: { $in: ['DE/OLG', 'FR/CASS'] } }, ids: [OLG.id, CASS.id, UNDATED.id] },
      { filters: { court: 'Bundesgerichtshof' }, expected: { court: { $eq: 'Bundesgerichtshof' } }, ids: [BGH.id] },
      { filters: { courtTier: 1 }, expected: { court_tier: { $eq: 1 } }, ids: [BGH.id, CASS.id] },
      { filters: { jurisdiction: 'criminal' }, expected: { jurisdiction: { $eq: 'criminal' } }, ids: [CASS.id] },
      { filters: { language: 'de' }, expected: { language: { $eq: 'de' } }, ids: [BGH.id, OLG.id] },
      { filters: { dateStart: '2020-01-01' }, expected: { date: { $gte: 20200101 } }, ids: [BGH.id, CASS.id] },
      { filters: { dateEnd: '2020-05-12' }, expected: { date: { $lte: 20200512 } }, ids: [BGH.id, OLG.id] },
      {
        filters: { countries: ['DE'], courtTier: 2, dateStart: '2019-01-01', dateEnd: '2019-12-31' },
        expected: { $and: [{ country: { $in: ['DE'] } }, { court_tier: { $eq: 2 } }, { date: { $gte: 20190101, $lte: 20191231 } }] },
        ids: [OLG.id],
      },
    ];
    for (const c of cases) {
      server.requests.length = 0;
      const hits = await engine.vectorSearch(vectorOf(DIM, 0), { namespace: 'case_law', ...c.filters }, 10);
      const [query] = server.requestsTo('/query');
      expect(query.body.namespace).toBe('case_law');
      expect(query.body.filter).toEqual(c.expected);
      expect(query.body.includeValues).toBe(true);
      expect(hits.map((h) => h.docId).sort()).toEqual([...c.ids].sort());
    }
    // the legislation namespace is its own Pinecone namespace
    const law = await engine.vectorSearch(vectorOf(DIM, 5), { namespace: 'legislation' }, 10);
    expect(law.map((h) => h.docId)).toEqual([LAW.id]);
    expect(() => pineconeFilter({ namespace: 'case_law', courtTier: 1.5 })).toThrow(/integer/);
    expect([dateNumber('2019'), dateNumber('2019-03'), dateNumber('2019-03-01')]).toEqual([20190000, 20190300, 20190301]);
  });

  it('rescores candidates with their exact cosine, one best passage per document, text from the base engine', async () => {
    const query = vectorOf(DIM, 2, 5);
    const hits = await engine.vectorSearch(query, { namespace: 'case_law' }, 2);
    expect(hits.length).toBe(2);
    expect(hits[0].docId).toBe(CASS.id); // CASS's passages lie along axis 2
    const stored = [...server.namespaces.get('case_law')!.values()].filter((r) => r.metadata.doc_id === CASS.id);
    const cos = (a: ArrayLike<number>, b: ArrayLike<number>) => {
      let d = 0, na = 0, nb = 0;
      for (let i = 0; i < a.length; i++) [d, na, nb] = [d + a[i] * b[i], na + a[i] ** 2, nb + b[i] ** 2];
      return d / Math.sqrt(na * nb);
    };
    const best = stored.map((r) => ({ id: r.id, score: cos(query, r.values) })).sort((a, b) => b.score - a.score)[0];
    expect(hits[0].score).toBeCloseTo(best.score, 6);
    expect(hits[0].passage).toBe(`c-2021 passage ${best.id.split('#')[1]}`);
    expect(hits[0].score).toBeGreaterThan(hits[1].score);
  });

  it('deletes a document\'s old passages on re-ingest (before the new ones), and on delete', async () => {
    server.requests.length = 0;
    await engine.upsertDocuments([inputOf(BGH, DIM, 1, 0, 'h2')]);
    const paths = server.requests.map((r) => r.path);
    expect(paths).toEqual(['/vectors/delete', '/vectors/upsert']);
    expect(server.requests[0].body).toEqual({ filter: { doc_id: { $in: [BGH.id] } }, namespace: 'case_law' });
    expect([...server.namespaces.get('case_law')!.keys()].filter((id) => id.startsWith(BGH.id))).toEqual([`${BGH.id}#0`]);
    expect((await engine.contentHashes([BGH.id])).get(BGH.id)).toBe('h2');
    // the base engine keeps no copy of the vectors; the vector count is Pinecone's
    expect(await engine.countChunks()).toEqual({ total: 10, withVectors: 10 });

    server.requests.length = 0;
    await engine.deleteDocuments([OLG.id]);
    expect(server.requestsTo('/vectors/delete').map((r) => r.body)).toEqual([{ filter: { doc_id: { $in: [OLG.id] } }, namespace: 'case_law' }]);
    expect([...server.namespaces.get('case_law')!.keys()].some((id) => id.startsWith(OLG.id))).toBe(false);
    expect((await engine.getDocuments([OLG.id])).size).toBe(0);
  });

  it('retries a write that failed with 503 or 429, and gives up on a 400', async () => {
    const warnings: string[] = [];
    const logger = { ...silent, warn: (m: string) => warnings.push(m) } as Logger;
    const retrying = new PineconeVectorIndex(engine.base, { apiKey: 'pc-test-key', host: server.url, retryBaseMs: 5, logger });
    server.requests.length = 0;
    server.failures.set('/vectors/upsert', { status: 503, count: 1 });
    server.failures.set('/vectors/delete', { status: 429, count: 1 });
    await retrying.upsertDocuments([inputOf(UNDATED, DIM, 2, 3, 'h3')]);
    expect(server.requests.map((r) => r.path)).toEqual(['/vectors/delete', '/vectors/delete', '/vectors/upsert', '/vectors/upsert']);
    // the client retries a 5xx itself; the index retries what the client does not (429)
    expect(warnings.some((w) => /delete failed .*429/.test(w))).toBe(true);
    server.failures.set('/vectors/upsert', { status: 400, count: 1 });
    await expect(retrying.upsertDocuments([inputOf(UNDATED, DIM, 2, 3, 'h4')])).rejects.toThrow();
  });

  it('drops every vector when the model changes, and replaceVectors refills the namespaces', async () => {
    server.requests.length = 0;
    async function* vectors() {
      const all = new Map<string, Float32Array>();
      for await (const chunks of engine.scanChunks(100)) for (const c of chunks) all.set(c.chunkId, vectorOf(DIM, 1, c.chunkId.length));
      yield all;
    }
    const metadataOf = () => new Map([...server.namespaces].flatMap(([ns, records]) => [...records].map(([id, r]) => [`${ns} ${id}`, r.metadata])));
    const before = metadataOf();
    expect(before.size).toBeGreaterThan(0);
    await engine.replaceVectors('model-2', vectors());
    expect(server.requestsTo('/vectors/delete').map((r) => r.body.deleteAll)).toEqual([true, true, true]);
    // Each refilled passage carries its document's filter metadata, read batch by batch from the base engine
    // (and the passages an earlier failed write left without a vector now have theirs).
    const after = metadataOf();
    for (const [key, metadata] of before) expect([key, after.get(key)]).toEqual([key, metadata]);
    expect(after.get('case_law FR/CASS/undated#0')).toEqual({ doc_id: 'FR/CASS/undated', country: 'FR', source: 'FR/CASS', language: 'fr' });
    expect(await engine.vectorModel()).toBe('model-2');
    const { total, withVectors } = await engine.countChunks();
    expect(withVectors).toBe(total);
    for (const r of server.namespaces.get('case_law')!.values()) expect(r.values[1]).toBeCloseTo(1, 5);
    await engine.setVectorModel(null, null);
    expect((await engine.countChunks()).withVectors).toBe(0);
  });

  it('sends nothing to Pinecone for documents without vectors while no model is set (EMBEDDER=none)', async () => {
    expect(await engine.vectorModel()).toBeNull();
    server.requests.length = 0;
    const plain = makeDoc({ source: 'DE/BGH', source_id: 'plain' });
    await engine.upsertDocuments([{ document: plain, contentHash: 'p', chunks: [{ content: 'no vector here' }] }]);
    expect(server.requests).toEqual([]);
    expect((await engine.keywordSearch('vector', { namespace: 'case_law' }, 5)).map((h) => h.docId)).toEqual([plain.id]);
  });

  it('is what withVectorIndex puts in front of an engine when Pinecone is configured (once)', async () => {
    const baseDir = await mkdtemp(path.join(os.tmpdir(), 'pinecone-wrap-'));
    const base = new LanceDbEngine(baseDir);
    const config = loadConfig({ PINECONE_HOST: server.url, PINECONE_API_KEY: 'k', EMBEDDER: 'none' });
    const wrapped = withVectorIndex(base, config);
    expect(wrapped).toBeInstanceOf(PineconeVectorIndex);
    expect(withVectorIndex(wrapped, config)).toBe(wrapped);
    // the keyword index stays the base engine's, its index-time compound splitting included
    await wrapped.open();
    expect(await wrapped.needsCompoundVocabulary!()).toBe(true);
    const counter = new VocabularyCounter();
    counter.add(['schaden', 'ersatz'], 'de');
    await wrapped.setCompoundVocabulary!(counter.finish(1, 'corpus'));
    // stored beside the base engine's index as counted from the corpus
    expect(JSON.parse(await readFile(path.join(baseDir, VOCABULARY_FILE), 'utf8'))).toMatchObject({ origin: 'corpus' });
    await wrapped.close();
    expect(withVectorIndex(base, loadConfig({ EMBEDDER: 'none' }))).toBe(base);
    expect(() => loadConfig({ PINECONE_HOST: server.url })).toThrow(/PINECONE_API_KEY/);
  });
});

describe('search degrades to the keyword leg when the vector server is slow or fails', () => {
  let server: LocalPinecone;
  let platform: Platform;
  const warnings: string[] = [];

  const search = async (body: Record<string, unknown>) => {
    const res = await fetch(`${platform.url}/v1/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ namespace: 'legislation', top_k: 5, ...body }) });
    return { status: res.status, body: (await res.json()) as any };
  };

  beforeAll(async () => {
    server = await startLocalPinecone({ dimension: 16, apiKey: 'local' });
    const corpus = await writeCorpusSlice([
      { file: 'legislation/DE-GesetzeImInternet.jsonl.gz', lines: 20 },
      { file: 'legislation/FR-LegifranceCodes.jsonl.gz', lines: 10 },
      { file: 'case_law/DE-BGH.jsonl.gz', lines: 4 },
    ]);
    // the synthetic documents are the doctrine namespace's only ones (the tiny model knows only their words)
    const doc = (source_id: string, title: string, text: string) => ({ source: 'XX/Synthetic', source_id, namespace: 'doctrine', country: 'XX', title, text, language: 'en', granularity: 'article' });
    await mkdir(path.join(corpus.dir, 'documents/doctrine'), { recursive: true });
    await writeFile(
      path.join(corpus.dir, 'documents/doctrine/XX-Synthetic.jsonl.gz'),
      gzipSync([doc('contracts/1', 'Article 1', 'A breach of contract obliges the party to pay damages and compensation.'), doc('privacy/1', 'Article 2', 'The controller shall obtain consent before processing personal data.')].map((d) => JSON.stringify(d)).join('\n')),
    );
    const model = await writeTinyStaticModel(await mkdtemp(path.join(os.tmpdir(), 'tiny-model-')), { dimension: 16 });
    const dataDir = await makeTestDataDir('pinecone-platform-');
    const logger = { ...createLogger('silent'), warn: (m: string) => warnings.push(m) } as Logger;
    platform = await startPlatform(
      loadConfig({
        DATA_DIR: dataDir, CORPUS_DIR: corpus.dir, PORT: '0', ALLOW_ANONYMOUS: 'true', RATE_LIMITS: 'off', EMBEDDER: `static:${model.dir}`,
        PINECONE_HOST: server.url, PINECONE_API_KEY: 'local', VECTOR_TIMEOUT_MS: '400',
      }),
      logger,
    );
    await platform.ingestDone;
  });

  afterAll(async () => {
    await platform?.stop();
    await server?.stop();
  });

  it('ingests the passages\' vectors into Pinecone and serves the vector leg from it', async () => {
    expect(server.namespaces.get('legislation')!.size).toBeGreaterThan(10);
    expect(server.namespaces.get('case_law')!.size).toBeGreaterThan(0);
    expect(server.namespaces.get('doctrine')!.size).toBe(2);
    const stats = (await (await fetch(`${platform.url}/v1/stats`)).json()) as any;
    expect(stats.index.chunks_with_vectors).toBe([...server.namespaces.values()].reduce((n, m) => n + m.size, 0));
    server.requests.length = 0;
    const { status, body } = await search({ q: 'liability indemnity', alpha: 1, namespace: 'doctrine' });
    expect(status).toBe(200);
    expect(body.degraded).toBeUndefined();
    expect(body.hits[0].source_id).toBe('contracts/1'); // no shared word: only the vector leg finds it
    expect(server.requestsTo('/query').length).toBeGreaterThan(0);
  });

  it('answers from the keyword leg with degraded: ["vector"] when the vector server times out', async () => {
    const keyword = await search({ q: 'Schadensersatz Vertrag', alpha: 0 });
    expect(keyword.body.hits.length).toBeGreaterThan(0);
    server.delays.set('/query', 1500);
    try {
      const started = Date.now();
      const hybrid = await search({ q: 'Schadensersatz Vertrag', alpha: 0.5 });
      expect(Date.now() - started).toBeLessThan(1400);
      expect(hybrid.status).toBe(200);
      expect(hybrid.body.degraded).toEqual(['vector']);
      expect(hybrid.body.hits.map((h: any) => h.id)).toEqual(keyword.body.hits.map((h: any) => h.id));
      // alpha=1 would skip the keyword leg: it runs instead
      const semantic = await search({ q: 'Schadensersatz Vertrag', alpha: 1 });
      expect(semantic.status).toBe(200);
      expect(semantic.body.degraded).toEqual(['vector']);
      expect(semantic.body.hits.length).toBeGreaterThan(0);
      expect(warnings.some((w) => /vector leg failed .*timed out after 400 ms/.test(w))).toBe(true);
    } finally {
      server.delays.delete('/query');
    }
  });

  it('the vector leg out of its budget aborts its request to Pinecone: the server sees the connection close before it answers', async () => {
    server.delays.set('/query', 3000);
    server.closedBeforeAnswer.length = 0;
    try {
      const hybrid = await search({ q: 'Schadensersatz Vertrag', alpha: 0.5 });
      expect(hybrid.status).toBe(200);
      expect(hybrid.body.degraded).toEqual(['vector']);
      // Before, the query ran on to its answer (3 s later) after its search had been answered.
      for (let waited = 0; waited < 5000 && !server.closedBeforeAnswer.some((r) => r.path === '/query'); waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(server.closedBeforeAnswer.map((r) => r.path)).toContain('/query');
    } finally {
      server.delays.delete('/query');
    }
  });

  it('also when it fails, on REST and GraphQL alike; healthy again afterwards', async () => {
    server.failures.set('/query', { status: 500, count: 1_000 });
    const rest = await search({ q: 'consent personal data', alpha: 0.7, namespace: 'doctrine' });
    expect(rest.status).toBe(200);
    expect(rest.body.degraded).toEqual(['vector']);
    const gql = await fetch(`${platform.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ search(input: { q: "consent personal data", namespace: doctrine, alpha: 0.7 }) { degraded hits { id } } }' }),
    });
    const gqlBody = (await gql.json()) as any;
    expect(gqlBody.errors).toBeUndefined();
    expect(gqlBody.data.search.degraded).toEqual(['vector']);
    server.failures.delete('/query');
    const healthy = await search({ q: 'consent personal data', alpha: 0.7, namespace: 'doctrine' });
    expect(healthy.body.degraded).toBeUndefined();
    expect(healthy.body.hits[0].source_id).toBe('privacy/1');
  });
});
