/**
 * The Elasticsearch engine's requests at the HTTP level: the real client against a local
 * server that answers in Elasticsearch's documented formats (test/helpers/elasticsearch-server.ts).
 * Proves the mapping, the bulk bodies, the query DSL of every filter, the retries of failed
 * items only, the alias switch of a rebuild and the 503 when Elasticsearch is down. Ranking
 * quality is the contract suite's business (test/engine-contract.test.ts, against a real cluster).
 */
import { FakeElasticsearch } from '../../../test/helpers/elasticsearch-server.js';
import { DomainError } from '../../errors.js';
import type { LegalDocument } from '../../domain/legal-document.js';
import type { DocumentInput, EngineFilters } from '../search-engine.js';
import { BulkWriteError, ElasticsearchEngine } from './elasticsearch-engine.js';
import { ES_MAPPING_VERSION } from './es-mapping.js';
import { makeDocument as makeDoc } from '../../../test/fixtures/legal-document.js';

const BGB_823 = makeDoc({
  source: 'DE/GesetzeImInternet',
  source_id: 'bgb/823',
  title: '§ 823 BGB – Schadensersatzpflicht',
  text: 'Wer vorsätzlich oder fahrlässig das Leben, den Körper, die Gesundheit verletzt, ist zum Ersatz des Schadens verpflichtet.',
  language: 'de',
  date: '2002-01-02',
  canonical_path: 'BGB > Buch 2 > Abschnitt 8 > § 823',
  short_names: ['BGB'],
  parent_source_id: 'bgb',
  extra: { note: 'x' },
});
const PARIS = makeDoc({
  source: 'FR/CA',
  source_id: "it's/42",
  namespace: 'case_law',
  title: "Cour d'appel de Paris, 3 mars 2019",
  text: "La cour d'appel condamne la société au paiement de dommages et intérêts.",
  language: 'fr',
  date: '2019-03-03',
  court: "Cour d'appel de Paris",
  court_tier: 2,
  jurisdiction: 'commercial',
});
const POLISH = makeDoc({ source: 'PL/Sejm', source_id: 'u/1', title: 'Ustawa', text: 'Ustawa o ochronie danych osobowych.', language: 'pl' });

const input = (doc: LegalDocument, chunks: string[], hash = 'h1'): DocumentInput => ({ document: doc, contentHash: hash, chunks: chunks.map((content) => ({ content })) });

describe('ElasticsearchEngine over HTTP (real client, local Elasticsearch-protocol server)', () => {
  let es: FakeElasticsearch;
  let engine: ElasticsearchEngine;

  beforeEach(async () => {
    es = await new FakeElasticsearch().start();
    engine = new ElasticsearchEngine({ node: es.url, indexPrefix: 't-', vectors: true, bulk: { wait: 10, retries: 2 } });
    await engine.open();
  });
  afterEach(async () => {
    await engine.close();
    await es.stop();
  });

  it('creates each index with its explicit mapping behind an alias', async () => {
    const creates = es.requestsTo('PUT', /^\/t-(documents|chunks)-\d+$/);
    expect(creates).toHaveLength(2);
    const docs = creates.find((r) => r.path.startsWith('/t-documents'))!.body as any;
    expect(docs.aliases).toEqual({ 't-documents': { is_write_index: true } });
    expect(docs.settings).toEqual({ number_of_shards: 1, number_of_replicas: 0 });
    expect(docs.mappings.dynamic).toBe('strict');
    const p = docs.mappings.properties;
    for (const f of ['source', 'namespace', 'country', 'court', 'jurisdiction', 'language', 'parent_source_id', 'ecli', 'short_names', 'content_hash']) expect(p[f].type).toBe('keyword');
    for (const f of ['date', 'effective_date', 'expiry_date']) expect(p[f]).toMatchObject({ type: 'date', format: 'strict_date||strict_year_month||strict_year' });
    expect(p.court_tier.type).toBe('integer');
    expect(p.text).toEqual({ type: 'text', index: false });
    expect(p.extra).toEqual({ type: 'object', enabled: false });

    const chunks = creates.find((r) => r.path.startsWith('/t-chunks'))!.body as any;
    const c = chunks.mappings.properties;
    for (const f of ['doc_id', 'namespace', 'country', 'source', 'language', 'court', 'jurisdiction']) expect(c[f].type).toBe('keyword');
    expect(c.date.type).toBe('date');
    expect(c.vector).toEqual({ type: 'dense_vector', similarity: 'cosine', index: true, index_options: { type: 'hnsw' } });
    const search = c.search.properties;
    // The corpus's main languages get Elasticsearch's own analysers, the rest the standard one.
    expect(search.german).toEqual({ type: 'text', analyzer: 'german' });
    expect(search.french).toEqual({ type: 'text', analyzer: 'french' });
    expect(search.english).toEqual({ type: 'text', analyzer: 'english' });
    for (const a of ['spanish', 'portuguese', 'italian', 'swedish', 'greek', 'hungarian', 'danish', 'dutch', 'czech', 'finnish', 'latvian', 'arabic', 'lithuanian', 'cjk']) {
      expect(search[a]).toEqual({ type: 'text', analyzer: a });
    }
    expect(search.std).toEqual({ type: 'text', analyzer: 'standard' });
    expect(es.indices.has('t-meta')).toBe(true);

    // ELASTICSEARCH_SHARDS / ELASTICSEARCH_REPLICAS size the indexes it creates.
    const sized = new ElasticsearchEngine({ node: es.url, indexPrefix: 'sized-', vectors: false, shards: 6, replicas: 2 });
    await sized.open();
    await sized.close();
    const sizedCreates = es.requestsTo('PUT', /^\/sized-(documents|chunks)-\d+$/);
    expect(sizedCreates).toHaveLength(2);
    for (const r of sizedCreates) expect((r.body as any).settings).toEqual({ number_of_shards: 6, number_of_replicas: 2 });

    // A second process (or a restart) finds the aliases and creates nothing.
    const again = new ElasticsearchEngine({ node: es.url, indexPrefix: 't-', vectors: true });
    await again.open();
    await again.close();
    expect(es.requestsTo('PUT', /^\/t-(documents|chunks)-\d+$/)).toHaveLength(2);

    // Two processes starting at once on an empty cluster: one index per alias, both open.
    const [a, b] = [0, 1].map(() => new ElasticsearchEngine({ node: es.url, indexPrefix: 'race-', vectors: false }));
    await Promise.all([a.open(), b.open()]);
    expect(await a.health()).toEqual([{ dependency: 'elasticsearch', ok: true, detail: null }]);
    expect(await b.health()).toEqual([{ dependency: 'elasticsearch', ok: true, detail: null }]);
    expect(es.aliasTargets('race-documents')).toEqual(['race-documents-1']);
    expect(es.aliasTargets('race-chunks')).toEqual(['race-chunks-1']);
    await Promise.all([a.close(), b.close()]);
  });

  it('writes passages then documents through _bulk, each passage in its language sub-field', async () => {
    await engine.upsertDocuments([input(BGB_823, ['Erster Absatz.', 'Zweiter Absatz.']), input(PARIS, [PARIS.text]), input(POLISH, [POLISH.text])]);
    const bulks = es.requestsTo('POST', '/_bulk');
    expect(bulks).toHaveLength(2);
    const [chunkLines, docLines] = bulks.map((r) => r.body as Record<string, any>[]);
    expect(chunkLines[0]).toEqual({ index: { _index: 't-chunks', _id: 'DE/GesetzeImInternet/bgb/823#0' } });
    expect(chunkLines[1]).toMatchObject({
      chunk_id: 'DE/GesetzeImInternet/bgb/823#0',
      doc_id: 'DE/GesetzeImInternet/bgb/823',
      seq: 0,
      namespace: 'legislation',
      country: 'DE',
      source: 'DE/GesetzeImInternet',
      language: 'de',
      date: '2002-01-02',
      court: null,
      court_tier: null,
      content: 'Erster Absatz.',
      // the same text the embedded engine indexes: title, path, short names, then the passage
      search: { german: '§ 823 BGB – Schadensersatzpflicht\nBGB > Buch 2 > Abschnitt 8 > § 823\nBGB\nErster Absatz.' },
    });
    expect(chunkLines[5]).toMatchObject({ search: { french: expect.stringContaining('dommages') }, court_tier: 2, jurisdiction: 'commercial' });
    expect(chunkLines[7]).toMatchObject({ search: { std: expect.stringContaining('ochronie') } });
    // Documents last, with the hash, the mapping version and the passage count.
    expect(docLines[0]).toEqual({ index: { _index: 't-documents', _id: 'DE/GesetzeImInternet/bgb/823' } });
    expect(docLines[1]).toMatchObject({ id: 'DE/GesetzeImInternet/bgb/823', content_hash: 'h1', analysis_version: ES_MAPPING_VERSION, chunk_count: 2, extra: { note: 'x' } });
    expect(Object.keys(docLines[1]).sort()).toEqual(Object.keys({ ...BGB_823, content_hash: 1, analysis_version: 1, chunk_count: 1 }).sort());

    expect(await engine.contentHashes([BGB_823.id, PARIS.id, 'nope'])).toEqual(new Map([[BGB_823.id, 'h1'], [PARIS.id, 'h1']]));
    expect((await engine.getDocuments([PARIS.id])).get(PARIS.id)).toEqual(PARIS);
    const place = await engine.documentPlaces([BGB_823.id, PARIS.id]);
    expect(place).toEqual(new Map([[BGB_823.id, { parentId: 'DE/GesetzeImInternet/bgb', section: 'DE/GesetzeImInternet/bgb | BGB > Buch 2 > Abschnitt 8' }]]));
  });

  it('re-ingest deletes exactly the passages the new version no longer has', async () => {
    await engine.upsertDocuments([input(BGB_823, ['a', 'b', 'c'])]);
    es.requests.length = 0;
    await engine.upsertDocuments([input(BGB_823, ['only one'], 'h2')]);
    const [chunkLines] = es.requestsTo('POST', '/_bulk').map((r) => r.body as Record<string, any>[]);
    expect(chunkLines.filter((l) => 'delete' in l)).toEqual([
      { delete: { _index: 't-chunks', _id: `${BGB_823.id}#1` } },
      { delete: { _index: 't-chunks', _id: `${BGB_823.id}#2` } },
    ]);
    expect([...es.documents('t-chunks').keys()]).toEqual([`${BGB_823.id}#0`]);
    // a document already stored needs no delete_by_query (only fresh ones: crash leftovers)
    expect(es.requestsTo('POST', '/_delete_by_query')).toHaveLength(0);

    await engine.deleteDocuments([BGB_823.id]);
    expect(es.documents('t-chunks').size).toBe(0);
    expect(es.documents('t-documents').size).toBe(0);
  });

  it('retries the items answered 429, and only them; another failure stops the batch before the documents', async () => {
    es.bulkItemFailure = ({ id, attempt }) =>
      id === `${PARIS.id}#0` && attempt === 1 ? { status: 429, error: { type: 'es_rejected_execution_exception', reason: 'rejected execution (queue capacity 200)' } } : null;
    await engine.upsertDocuments([input(BGB_823, ['a', 'b']), input(PARIS, ['c'])]);
    const bulks = es.requestsTo('POST', '/_bulk').map((r) => r.body as Record<string, any>[]);
    expect(bulks).toHaveLength(3); // chunks, the retry, documents
    expect(bulks[0].filter((l) => 'index' in l)).toHaveLength(3);
    expect(bulks[1]).toEqual([{ index: { _index: 't-chunks', _id: `${PARIS.id}#0` } }, expect.objectContaining({ content: 'c' })]);
    expect(es.documents('t-documents').size).toBe(2);

    // A mapping error is not retried: the batch fails and no document row (no hash) is written.
    const other = makeDoc({ source: 'DE/X', source_id: '1', title: 'T', text: 'x' });
    es.bulkItemFailure = ({ id }) => (id === `${other.id}#0` ? { status: 400, error: { type: 'document_parsing_exception', reason: 'failed to parse field [date]' } } : null);
    es.requests.length = 0;
    await expect(engine.upsertDocuments([input(other, ['x'])])).rejects.toBeInstanceOf(BulkWriteError);
    expect(es.requestsTo('POST', '/_bulk')).toHaveLength(1);
    expect(await engine.contentHashes([other.id])).toEqual(new Map());
  });

  it('translates every filter to a bool.filter clause, on both legs', async () => {
    const filters: EngineFilters = {
      namespace: 'case_law',
      countries: ['FR', 'BE'],
      sources: ['FR/CA'],
      court: "Cour d'appel de Paris",
      courtTier: 2,
      jurisdiction: 'commercial',
      language: 'fr',
      dateStart: '2019-01-01',
      dateEnd: '2019-12-31',
    };
    const expected = [
      { term: { namespace: 'case_law' } },
      { terms: { country: ['FR', 'BE'] } },
      { terms: { source: ['FR/CA'] } },
      { term: { court: "Cour d'appel de Paris" } },
      { term: { court_tier: 2 } },
      { term: { jurisdiction: 'commercial' } },
      { term: { language: 'fr' } },
      { range: { date: { format: 'strict_date', gte: '2019-01-01', lte: '2019-12-31' } } },
    ];
    await engine.upsertDocuments([input(PARIS, [PARIS.text]), input(BGB_823, [BGB_823.text])]);
    await engine.setVectorModel('m', 3);
    await engine.upsertDocuments([{ document: PARIS, contentHash: 'v', chunks: [{ content: PARIS.text, vector: new Float32Array([1, 0, 0]) }] }]);
    es.requests.length = 0;

    const hits = await engine.keywordSearch('dommages intérêts', filters, 5);
    expect(hits.map((h) => h.docId)).toEqual([PARIS.id]);
    const kw = es.requestsTo('POST', '/t-chunks/_search')[0].body as any;
    expect(kw.query.bool.filter).toEqual(expected);
    // a language filter searches that language's analysed sub-field
    expect(kw.query.bool.must).toEqual([{ multi_match: { query: 'dommages intérêts', fields: ['search.french'], type: 'best_fields', operator: 'or' } }]);
    expect(kw.collapse).toEqual({ field: 'doc_id' });
    expect(kw.size).toBe(5);

    es.requests.length = 0;
    await engine.keywordSearch('Schaden', { namespace: 'legislation' }, 3);
    const any = es.requestsTo('POST', '/t-chunks/_search')[0].body as any;
    expect(any.query.bool).toEqual({
      must: [{ multi_match: { query: 'Schaden', fields: ['search.*'], type: 'best_fields', operator: 'or' } }],
      filter: [{ term: { namespace: 'legislation' } }],
    });

    es.requests.length = 0;
    const vhits = await engine.vectorSearch(new Float32Array([0.6, 0.8, 0]), filters, 2);
    const knn = (es.requestsTo('POST', '/t-chunks/_search')[0].body as any).knn;
    expect(knn).toMatchObject({ field: 'vector', query_vector: [expect.closeTo(0.6, 6), expect.closeTo(0.8, 6), 0], k: 20 });
    expect(knn.filter.bool.filter).toEqual(expected);
    // Elasticsearch's (1 + cos) / 2 turned back into the cosine
    expect(vhits).toEqual([{ docId: PARIS.id, score: expect.closeTo(0.6, 5), passage: PARIS.text }]);

    // documents named by a query: their first passage, through the same filters
    es.requests.length = 0;
    expect(await engine.documentsMatching([PARIS.id, BGB_823.id], filters)).toEqual([{ docId: PARIS.id, score: 0, passage: PARIS.text }]);
    expect((es.requestsTo('POST', '/t-chunks/_search')[0].body as any).query.bool.filter).toEqual([
      { terms: { doc_id: [PARIS.id, BGB_823.id] } },
      { term: { seq: 0 } },
      ...expected,
    ]);
  });

  it('a rebuild writes new indexes and switches both aliases in one call at the end', async () => {
    await engine.upsertDocuments([input(BGB_823, ['old'])]);
    const [oldDocs] = es.aliasTargets('t-documents');
    const [oldChunks] = es.aliasTargets('t-chunks');
    await engine.beginRebuild();
    await engine.upsertDocuments([input(PARIS, ['new'])]);
    // searches still read the old generation
    expect((await engine.getDocuments([PARIS.id, BGB_823.id])).has(PARIS.id)).toBe(false);
    expect(await engine.contentHashes([BGB_823.id])).toEqual(new Map()); // the ingest sees the new, empty generation
    es.requests.length = 0;
    await engine.finishRebuild();
    const switches = es.requestsTo('POST', '/_aliases');
    expect(switches).toHaveLength(1);
    const [newDocs] = es.aliasTargets('t-documents');
    const [newChunks] = es.aliasTargets('t-chunks');
    expect(switches[0].body).toEqual({
      actions: [
        { remove: { indices: [oldDocs], alias: 't-documents' } },
        { add: { index: newDocs, alias: 't-documents', is_write_index: true } },
        { remove: { indices: [oldChunks], alias: 't-chunks' } },
        { add: { index: newChunks, alias: 't-chunks', is_write_index: true } },
      ],
    });
    expect(es.indices.has(oldDocs)).toBe(false);
    expect(es.indices.has(oldChunks)).toBe(false);
    expect([...(await engine.getDocuments([PARIS.id, BGB_823.id])).keys()]).toEqual([PARIS.id]);

    // replacing the vectors: copy without vectors (_reindex), write the new ones, switch the alias
    await engine.setVectorModel('m1', 2);
    es.requests.length = 0;
    async function* vectors() {
      yield new Map([[`${PARIS.id}#0`, new Float32Array([0, 1])], ['gone/doc#0', new Float32Array([1, 0])]]);
    }
    await engine.replaceVectors('m2', vectors());
    const reindex = es.requestsTo('POST', '/_reindex')[0].body as any;
    expect(reindex.source).toEqual({ index: 't-chunks' });
    expect(reindex.script).toEqual({ lang: 'painless', source: "ctx._source.remove('vector')" });
    const [vectorChunks] = es.aliasTargets('t-chunks');
    expect(reindex.dest).toEqual({ index: vectorChunks });
    expect(es.requestsTo('POST', '/_bulk')[0].body).toEqual([{ update: { _index: vectorChunks, _id: `${PARIS.id}#0` } }, { doc: { vector: [0, 1] } }, { update: { _index: vectorChunks, _id: 'gone/doc#0' } }, { doc: { vector: [1, 0] } }]);
    expect(await engine.vectorModel()).toBe('m2');
    expect(await engine.countChunks()).toEqual({ total: 1, withVectors: 1 });
  });

  it('reindex copies both indexes server-side and switches the aliases; an aborted rebuild changes nothing', async () => {
    await engine.upsertDocuments([input(BGB_823, ['a', 'b'])]);
    const before = [...es.aliasTargets('t-documents'), ...es.aliasTargets('t-chunks')];
    await engine.reindex();
    const reindexes = es.requestsTo('POST', '/_reindex').map((r) => r.body as any);
    const after = [...es.aliasTargets('t-documents'), ...es.aliasTargets('t-chunks')];
    expect(reindexes).toEqual([
      { source: { index: 't-documents' }, dest: { index: after[0] } },
      { source: { index: 't-chunks' }, dest: { index: after[1] } },
    ]);
    expect(after).not.toEqual(before);
    for (const old of before) expect(es.indices.has(old)).toBe(false);
    expect(es.documents('t-chunks').size).toBe(2);
    expect(await engine.contentHashes([BGB_823.id])).toEqual(new Map([[BGB_823.id, 'h1']]));

    await engine.beginRebuild();
    await engine.upsertDocuments([input(PARIS, ['x'])]);
    await engine.abortRebuild();
    expect([...es.aliasTargets('t-documents'), ...es.aliasTargets('t-chunks')]).toEqual(after);
    expect([...es.indices.keys()].sort()).toEqual([...after, 't-meta'].sort());
    expect(await engine.getDocuments([PARIS.id])).toEqual(new Map());
  });

  it('scans metadata and chunks with a point in time', async () => {
    await engine.upsertDocuments([input(BGB_823, ['a', 'b']), input(PARIS, ['c'])]);
    const meta = [];
    for await (const batch of engine.scanMetadata()) meta.push(...batch);
    expect(meta.map((m) => m.id).sort()).toEqual([BGB_823.id, PARIS.id].sort());
    expect(meta.find((m) => m.id === PARIS.id)).toMatchObject({ court_tier: 2, short_names: [] });
    expect(meta[0]).not.toHaveProperty('text');
    const chunks = [];
    for await (const batch of engine.scanChunks(2)) chunks.push(...batch);
    expect(chunks.map((c) => c.chunkId).sort()).toEqual([`${BGB_823.id}#0`, `${BGB_823.id}#1`, `${PARIS.id}#0`]);
    expect(es.requestsTo('DELETE', '/_pit')).toHaveLength(2);
    expect(await engine.countDocuments()).toBe(2);
  });

  it('Elasticsearch down: calls fail with `unavailable` (503) naming it, and health says so', async () => {
    await es.stop();
    const error = await engine.keywordSearch('x', { namespace: 'legislation' }, 5).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('unavailable');
    expect((error as DomainError).message).toMatch(new RegExp(`^Search engine unavailable: Elasticsearch at ${es.url.replace(/\./g, '\\.')} did not answer`));
    expect(await engine.health()).toEqual([{ dependency: 'elasticsearch', ok: false, detail: expect.stringContaining('Elasticsearch at') }]);

    // A service started while Elasticsearch is down opens anyway and sets up once it answers.
    const late = new ElasticsearchEngine({ node: es.url, indexPrefix: 'late-', vectors: false, client: { maxRetries: 0 } });
    await expect(late.open()).resolves.toBeUndefined();
    const port = Number(new URL(es.url).port);
    es = await restartOn(es, port);
    expect(await late.health()).toEqual([{ dependency: 'elasticsearch', ok: true, detail: null }]);
    expect(es.aliasTargets('late-chunks')).toHaveLength(1);
    await late.close();
  });
});

/** A fresh fake server on the same port (Elasticsearch coming back). */
async function restartOn(previous: FakeElasticsearch, port: number): Promise<FakeElasticsearch> {
  const next = new FakeElasticsearch();
  await next.start(port);
  void previous;
  return next;
}
