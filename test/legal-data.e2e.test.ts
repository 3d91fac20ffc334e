/**
 * End to end over real HTTP: a platform started on a slice of the real corpus (embedded
 * PGlite + LanceDB in a temp DATA_DIR) ingests in the background, then serves search,
 * documents, discovery, statistics, the manifest and GraphQL.
 */
import { appendFile, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { loadConfig } from '../src/config.js';
import { createLogger, type Logger } from '../src/logger.js';
import { createIndexRecordStore, createIngestStore } from '../src/modules/legal-data/catalog.store.js';
import { recordIndexContents } from '../src/modules/legal-data/index-health.js';
import { citationCountsFile, loadCitationCounts } from '../src/modules/legal-data/ingest/citation-counts.js';
import { ingestCorpus } from '../src/modules/legal-data/ingest/ingest.service.js';
import { search } from '../src/modules/legal-data/search.service.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { writeCorpusSlice } from './fixtures/corpus-slice.js';
import { makeTestDataDir } from './helpers/pglite-template.js';

const silent = createLogger('silent');


describe('legal-data API on a slice of the real corpus', () => {
  let platform: Platform;
  let corpus: { dir: string; records: Map<string, Record<string, unknown>[]> };
  let dataDir: string;
  let url: string;
  const allRecords = () => [...corpus.records.values()].flat();

  const post = async (route: string, body: unknown) => {
    const res = await fetch(`${url}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  };
  const get = async (route: string) => {
    const res = await fetch(`${url}${route}`);
    return { status: res.status, body: (await res.json()) as any };
  };

  beforeAll(async () => {
    corpus = await writeCorpusSlice(undefined, {
      badLines: { 'legislation/EU-EUR-Lex.jsonl.gz': ['{"source": "EU/EUR-Lex", "broken', '{"source":"EU/EUR-Lex","source_id":"x","namespace":"poetry","country":"EU","title":"t","text":"t"}'] },
    });
    dataDir = await makeTestDataDir('e2e-data-');
    const config = loadConfig({ DATA_DIR: dataDir, CORPUS_DIR: corpus.dir, PORT: '0', LOG_LEVEL: 'silent', EMBEDDER: 'none', ALLOW_ANONYMOUS: 'true', RATE_LIMITS: 'off' });
    platform = await startPlatform(config, silent);
    url = platform.url!;
  });

  afterAll(async () => {
    await platform?.stop();
  });

  it('is alive at once and ready (503 with progress, then 200) once the corpus is indexed', async () => {
    expect((await get('/health')).status).toBe(200);
    const early = await get('/ready');
    if (early.status === 503) expect(['starting', 'indexing']).toContain(early.body.status);
    const summary = await platform.ingestDone;
    expect(summary).not.toBeNull();
    expect(summary!.documents.indexed).toBe(allRecords().length);
    const ready = await get('/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ready', stores: { database: true, index: true } });
  });

  it('reports bad lines with file and line number and skips them', async () => {
    const summary = (await platform.ingestDone)!;
    const eu = corpus.records.get('legislation/EU-EUR-Lex.jsonl.gz')!.length;
    expect(summary.badLineCount).toBe(2);
    expect(summary.badLines).toEqual([
      expect.objectContaining({ file: 'documents/legislation/EU-EUR-Lex.jsonl.gz', line: eu + 1, error: expect.stringMatching(/invalid JSON/) }),
      expect.objectContaining({ file: 'documents/legislation/EU-EUR-Lex.jsonl.gz', line: eu + 2, error: expect.stringMatching(/namespace/) }),
    ]);
  });

  it('finds German law by keyword, with the matched passage as snippet and the hit metadata', async () => {
    await platform.ingestDone;
    const res = await post('/v1/search', { q: 'Schadensersatz wegen Pflichtverletzung', namespace: 'legislation', country: ['DE'], top_k: 5 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ query: 'Schadensersatz wegen Pflichtverletzung', alpha: 0.7, namespace: 'legislation' });
    expect(typeof res.body.elapsed_ms).toBe('number');
    expect(res.body.total_hits).toBeGreaterThanOrEqual(res.body.hits.length);
    const hits = res.body.hits;
    expect(hits.length).toBe(5);
    expect(hits.map((h: any) => h.source_id)).toContain('bgb/280');
    const top = hits[0];
    expect(top).toMatchObject({ source: 'DE/GesetzeImInternet', country: 'DE', language: 'de', granularity: expect.any(String) });
    expect(top.id).toBe(`${top.source}/${top.source_id}`);
    expect(top.snippet).toMatch(/[Ss]chadensersatz|[Pp]flichtverletzung/);
    for (let i = 1; i < hits.length; i++) expect(hits[i].score).toBeLessThanOrEqual(hits[i - 1].score);
    const article = hits.find((h: any) => h.source_id === 'bgb/280');
    expect(article).toMatchObject({ unit_type: 'paragraph', unit_number: '280', parent_source_id: 'bgb', canonical_path: expect.stringContaining('§ 280') });
  });

  it('serves the keyword ranking for every alpha while no embedding model is configured', async () => {
    const body = { q: 'Haftung für Schäden', namespace: 'legislation', country: ['DE'], top_k: 10 };
    const keyword = await post('/v1/search', { ...body, alpha: 0 });
    const semantic = await post('/v1/search', { ...body, alpha: 1 });
    expect(keyword.body.hits.length).toBeGreaterThan(0);
    expect(semantic.body.hits.map((h: any) => h.id)).toEqual(keyword.body.hits.map((h: any) => h.id));
    expect(semantic.body.alpha).toBe(1);
  });

  it('refuses a query longer than the bound with a 422', async () => {
    const res = await post('/v1/search', { q: 'Recht '.repeat(700), namespace: 'legislation' });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ type: 'string_too_long', loc: ['body', 'q'], ctx: { max_length: 4000 } });
  });

  it('folds accents and stems French queries', async () => {
    const res = await post('/v1/search', { q: 'DELAIS de prescription', namespace: 'legislation', country: ['FR'], top_k: 10 });
    expect(res.status).toBe(200);
    expect(res.body.hits.length).toBeGreaterThan(0);
    expect(res.body.hits[0].snippet.toLowerCase()).toMatch(/délai|prescri/);
  });

  it('applies every filter', async () => {
    const bySource = await post('/v1/search', { q: 'article', namespace: 'legislation', source: ['EU/EUR-Lex'], top_k: 20 });
    expect(bySource.body.hits.length).toBeGreaterThan(0);
    expect(bySource.body.hits.every((h: any) => h.source === 'EU/EUR-Lex')).toBe(true);

    const caseLaw = await post('/v1/search', { q: 'Urteil', country: ['DE'], top_k: 50 });
    expect(caseLaw.body.hits.length).toBeGreaterThan(0);
    expect(caseLaw.body.hits.every((h: any) => h.country === 'DE' && h.source === 'DE/BGH')).toBe(true);

    const dated = await post('/v1/search', { q: 'Urteil', country: ['DE'], date_start: '2020-01-01', date_end: '2022-12-31', top_k: 50 });
    for (const h of dated.body.hits) expect(h.date >= '2020-01-01' && h.date <= '2022-12-31').toBe(true);

    const court = caseLaw.body.hits[0].court;
    const byCourt = await post('/v1/search', { q: 'Urteil', court, top_k: 50 });
    expect(byCourt.body.hits.length).toBeGreaterThan(0);
    expect(byCourt.body.hits.every((h: any) => h.court === court)).toBe(true);

    const none = await post('/v1/search', { q: 'Urteil', country: ['DE'], court_tier: 3, top_k: 50 });
    expect(none.body.hits.every((h: any) => h.court_tier === 3)).toBe(true);
  });

  it('retries once without the language filter when it finds nothing, keeping the other filters', async () => {
    const res = await post('/v1/search', { q: 'Eigentum', namespace: 'legislation', country: ['DE'], language: 'fr', top_k: 5 });
    expect(res.status).toBe(200);
    expect(res.body.hits.length).toBeGreaterThan(0);
    expect(res.body.hits.every((h: any) => h.country === 'DE' && h.language === 'de')).toBe(true);
    const kept = await post('/v1/search', { q: 'Eigentum', namespace: 'legislation', country: ['DE'], language: 'de', top_k: 5 });
    expect(kept.body.hits.every((h: any) => h.language === 'de')).toBe(true);
  });

  it('shapes hits by result_detail', async () => {
    const base = { q: 'Eigentum', namespace: 'legislation', country: ['DE'], top_k: 3 };
    const summary = await post('/v1/search', { ...base, result_detail: 'summary_only' });
    expect(summary.body.hits[0].summary).toBeTruthy();
    expect(summary.body.hits[0].snippet).toBeUndefined();
    expect(summary.body.hits[0].text).toBeUndefined();

    const full = await post('/v1/search', { ...base, result_detail: 'full_text' });
    const hit = full.body.hits[0];
    expect(hit.text.length).toBe(Math.min(hit.full_text_size, 20_000));
    expect(hit.text_truncated).toBe(hit.full_text_size > 20_000);
    expect(hit.metadata).toBeUndefined();

    const meta = await post('/v1/search', { ...base, result_detail: 'full_metadata' });
    expect(meta.body.hits[0].metadata).toMatchObject({ source: 'DE/GesetzeImInternet', short_names: expect.any(Array) });
    expect(meta.body.hits[0].text).toBeDefined();

    // A long judgment: truncated text with its full size.
    const judgments = await post('/v1/search', { q: 'violation of Article 6 of the Convention', country: ['CoE'], top_k: 20, result_detail: 'full_text' });
    const long = judgments.body.hits.find((h: any) => h.full_text_size > 20_000);
    expect(long).toBeDefined();
    expect(long.text_truncated).toBe(true);
    expect(long.text.length).toBe(20_000);
  });

  it('flags hits whose text cannot be loaded instead of failing the search', async () => {
    const broken = Object.create(platform.engine);
    broken.getDocuments = broken.getDocumentsWithoutText = async () => {
      throw new Error('document store offline');
    };
    const result = await search({ engine: broken, embedder: null }, { q: 'Eigentum', namespace: 'legislation', country: ['DE'], top_k: 3 });
    expect(result.hits.length).toBe(3);
    for (const hit of result.hits) {
      expect(hit).toMatchObject({ text_unavailable: true, source: 'DE/GesetzeImInternet', country: 'DE' });
      expect(hit.id).toBe(`${hit.source}/${hit.source_id}`);
    }
  });

  it('returns full documents, with slashes in source_id, in both URL forms, and 404s', async () => {
    const doc = await get('/v1/documents/DE/GesetzeImInternet/bgb/823');
    expect(doc.status).toBe(200);
    expect(doc.body).toMatchObject({ id: 'DE/GesetzeImInternet/bgb/823', source_id: 'bgb/823', namespace: 'legislation', parent_source_id: 'bgb', short_names: ['BGB'] });
    expect(doc.body.text).toMatch(/Schadensersatz/);
    const viaQuery = await get('/v1/documents/DE/GesetzeImInternet?source_id=bgb%2F823');
    expect(viaQuery.body).toEqual(doc.body);
    const fr = corpus.records.get('legislation/FR-LegifranceCodes.jsonl.gz')!.find((r) => String(r.source_id).includes('/'))!;
    const frDoc = await get(`/v1/documents/FR/LegifranceCodes/${fr.source_id}`);
    expect(frDoc.status).toBe(200);
    expect(frDoc.body.title).toBe(fr.title);
    const missing = await get('/v1/documents/DE/GesetzeImInternet/bgb/99999');
    expect(missing.status).toBe(404);
    expect(typeof missing.body.detail).toBe('string');
  });

  it('discovery counts match the corpus slice', async () => {
    const records = allRecords();
    const expected = new Map<string, { case_law: Set<string>; legislation: Set<string>; doctrine: Set<string>; total: number }>();
    for (const r of records) {
      const c = String(r.country);
      if (!expected.has(c)) expected.set(c, { case_law: new Set(), legislation: new Set(), doctrine: new Set(), total: 0 });
      const e = expected.get(c)!;
      (e as any)[String(r.namespace)].add(String(r.source));
      e.total += 1;
    }
    const countries = await get('/v1/discover/countries');
    expect(countries.status).toBe(200);
    expect(Object.keys(countries.body)).toEqual(['countries']);
    expect(countries.body.countries.map((c: any) => c.code).sort()).toEqual([...expected.keys()].sort());
    for (const c of countries.body.countries) {
      const e = expected.get(c.code)!;
      expect(c).toEqual({ code: c.code, case_law_sources: e.case_law.size, legislation_sources: e.legislation.size, doctrine_sources: e.doctrine.size, total_documents: e.total });
    }

    const de = await get('/v1/discover/countries/de/sources');
    expect(de.body.country).toBe('DE');
    const deSources = new Set(records.filter((r) => r.country === 'DE').map((r) => r.source));
    expect(de.body.sources.map((s: any) => s.source_id).sort()).toEqual([...deSources].sort());
    const gii = de.body.sources.find((s: any) => s.source_id === 'DE/GesetzeImInternet');
    const giiRecords = records.filter((r) => r.source === 'DE/GesetzeImInternet');
    expect(gii.document_count).toBe(giiRecords.length);
    expect(gii.total_documents).toBe(giiRecords.length);
    expect(gii.license_name).toBeTruthy();
    const bgh = de.body.sources.find((s: any) => s.source_id === 'DE/BGH');
    const bghDates = records.filter((r) => r.source === 'DE/BGH' && r.date).map((r) => String(r.date)).sort();
    expect(bgh.date_range).toEqual({ min: bghDates[0], max: bghDates.at(-1) });
    expect(bgh.data_types).toContain('case_law');
    const withEmpty = await get('/v1/discover/countries/DE/sources?include_empty=true');
    expect(withEmpty.body.sources.length).toBeGreaterThan(de.body.sources.length);
    const empty = withEmpty.body.sources.find((s: any) => s.document_count === 0);
    expect(empty).toMatchObject({ document_count: 0, date_range: null });
    expect((await get('/v1/discover/countries/XX/sources')).status).toBe(404);
    // The default is the service's: without options, empty sources stay hidden.
    const viaService = await platform.legalData.sources(platform.contexts.anonymous(), 'DE');
    expect(viaService.sources.map((s) => s.source_id)).toEqual(de.body.sources.map((s: any) => s.source_id));

    const bghRecords = records.filter((r) => r.source === 'DE/BGH');
    const filters = await get('/v1/discover/sources/DE/BGH/filters');
    expect(filters.status).toBe(200);
    expect(filters.body.namespace).toBe('case_law');
    expect(filters.body.total_documents).toBe(bghRecords.length);
    expect(filters.body.courts).toEqual([...new Set(bghRecords.map((r) => r.court).filter(Boolean))].sort());
    const dates = bghRecords.map((r) => r.date).filter(Boolean).sort() as string[];
    expect(filters.body.date_range).toEqual({ min: dates[0], max: dates.at(-1) });
    expect((await get('/v1/discover/sources/DE%2FBGH/filters?namespace=case_law')).body).toEqual(filters.body);
    expect((await get('/v1/discover/sources/DE/Nowhere/filters')).status).toBe(404);

    const courts = await get('/v1/discover/courts?country=DE');
    expect(courts.status).toBe(200);
    const bghCourts = courts.body.filter((c: any) => c.source === 'DE/BGH');
    expect(bghCourts.reduce((n: number, c: any) => n + c.total_documents, 0)).toBe(bghRecords.filter((r) => r.court).length);
  });

  it('serves statistics and the manifest from memory', async () => {
    const total = allRecords().length;
    const stats = await get('/v1/stats');
    expect(stats.status).toBe(200);
    expect(stats.body.total_documents).toBe(total);
    expect(stats.body.index.ready).toBe(true);
    expect(stats.body.index.chunks).toBeGreaterThanOrEqual(total);
    const manifest = await get('/v1/manifest');
    expect(manifest.body).toMatchObject({ api_version: '0.1.0', search: { engine: 'embedded', hybrid: false } });
    // the endpoints the app really mounts, not a hand-kept list
    const documented = Object.entries<any>((await get('/openapi.json')).body.paths).flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`));
    expect([...manifest.body.endpoints].sort()).toEqual([...documented, 'POST /graphql'].sort());
    expect(manifest.body.endpoints).toEqual(expect.arrayContaining(['POST /v1/search', 'GET /v1/billing/plans', 'GET /v1/team', 'GET /v1/admin/stats']));
    expect(manifest.body.collections.reduce((n: number, c: any) => n + c.total_documents, 0)).toBe(total);
  });

  it('answers GraphQL through the gateway from the same services', async () => {
    const res = await post('/graphql', {
      query: 'query($input: SearchInput!) { search(input: $input) { total_hits hits { id source_id title } } stats { total_documents } }',
      variables: { input: { q: 'Eigentum', namespace: 'legislation', country: ['DE'], topK: 2 } },
    });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.search.hits).toHaveLength(2);
    expect(res.body.data.stats.total_documents).toBe(allRecords().length);
  });

  it('keeps the open fields of an answer when a protected field is refused (issue 35, item 6)', async () => {
    const res = await post('/graphql', { query: '{ countries { code } keys { id } }' });
    expect(res.status).toBe(200);
    expect(res.body.data.countries).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'DE' })]));
    expect(res.body.data.keys).toBeNull();
    expect(res.body.errors).toEqual([expect.objectContaining({ path: ['keys'], extensions: expect.objectContaining({ code: 'UNAUTHENTICATED' }) })]);
  });

  it('refuses a value outside an enum at validation, before any field runs (issue 35, item 7)', async () => {
    const res = await post('/graphql', { query: '{ countries { code } filters(source: "DE/BGH", namespace: poetry) { source } }' });
    expect(res.status).toBe(400);
    expect(res.body.data).toBeUndefined(); // not even the open countries: nothing was resolved
    expect(res.body.errors).toEqual([expect.objectContaining({ message: expect.stringContaining('"poetry"'), extensions: expect.objectContaining({ code: 'GRAPHQL_VALIDATION_FAILED' }) })]);
  });

  it('re-ingests idempotently, replaces changed documents and drops removed ones', async () => {
    await platform.ingestDone;
    const deps = { engine: platform.engine, embedder: null, store: createIngestStore(platform.orm), logger: silent };
    // The startup ingest counted the slice's citations; the same files are not counted again.
    const countsFile = citationCountsFile(dataDir);
    expect(await loadCitationCounts(countsFile)).toEqual(expect.any(Map));
    const counted = (await stat(countsFile)).mtimeMs;
    const again = await ingestCorpus(deps, { corpusDir: corpus.dir, citationCountsFile: countsFile });
    expect((await stat(countsFile)).mtimeMs).toBe(counted);
    expect(again.files.skipped).toBe(again.files.total);
    // Counts that cannot be written are only a refinement lost: a warning, the ingest completes.
    const warnings: string[] = [];
    const logger = { ...silent, warn: (message: string) => void warnings.push(message) } as unknown as Logger;
    const unwritable = await ingestCorpus({ ...deps, logger }, { corpusDir: corpus.dir, citationCountsFile: path.join(dataDir, 'no-such-folder', 'citation-counts.json') });
    expect(unwritable.interrupted).toBe(false);
    expect(warnings).toEqual([expect.stringContaining("counting the corpus's citations failed")]);
    expect(again.documents.indexed).toBe(0);
    const before = await platform.engine.countDocuments();

    // Change one document's title, remove another, in one file.
    const file = path.join(corpus.dir, 'documents/case_law/DE-BGH.jsonl.gz');
    const lines = gunzipSync(await readFile(file)).toString().trim().split('\n');
    const changed = JSON.parse(lines[0]);
    changed.title = 'Geänderter Titel zur Prüfung';
    const removed = JSON.parse(lines[1]);
    await writeFile(file, gzipSync([JSON.stringify(changed), ...lines.slice(2)].join('\n') + '\n'));
    const third = await ingestCorpus(deps, { corpusDir: corpus.dir, citationCountsFile: countsFile });
    expect((await stat(countsFile)).mtimeMs).toBeGreaterThan(counted);
    expect(third.files.processed).toBe(1);
    expect(third.documents).toMatchObject({ indexed: 1, deleted: 1, unchanged: lines.length - 2 });
    expect(await platform.engine.countDocuments()).toBe(before - 1);
    const docs = await platform.engine.getDocuments([`DE/BGH/${changed.source_id}`, `DE/BGH/${removed.source_id}`]);
    expect(docs.get(`DE/BGH/${changed.source_id}`)?.title).toBe('Geänderter Titel zur Prüfung');
    expect(docs.has(`DE/BGH/${removed.source_id}`)).toBe(false);
  });

  it('resumes an interrupted ingest without duplicating documents', async () => {
    // A new file of 120 real articles, interrupted after its first batch.
    const extra = corpus.records.get('legislation/FR-LegifranceCodes.jsonl.gz')!.slice(0, 120).map((r) => ({ ...r, source: 'FR/ResumeTest', source_id: `x/${r.source_id}` }));
    await writeFile(path.join(corpus.dir, 'documents/legislation/FR-ResumeTest.jsonl.gz'), gzipSync(extra.map((r) => JSON.stringify(r)).join('\n')));
    const deps = { engine: platform.engine, embedder: null, store: createIngestStore(platform.orm), logger: silent };
    const before = await platform.engine.countDocuments();
    const abort = new AbortController();
    const first = await ingestCorpus(deps, {
      corpusDir: corpus.dir,
      batchSize: 50,
      signal: abort.signal,
      onProgress: (s) => {
        if (s.phase === 'indexing' && s.documents_done >= 50) abort.abort();
      },
    });
    expect(first.interrupted).toBe(true);
    expect(first.documents.indexed).toBe(50);
    const second = await ingestCorpus(deps, { corpusDir: corpus.dir, batchSize: 50 });
    expect(second.interrupted).toBe(false);
    expect(second.documents.indexed).toBe(70);
    expect(await platform.engine.countDocuments()).toBe(before + 120);
    const third = await ingestCorpus(deps, { corpusDir: corpus.dir });
    expect(third.documents.indexed).toBe(0);
    await appendFile(path.join(corpus.dir, 'unrelated.txt'), 'x');
  });

  it('starts again on the same DATA_DIR without re-indexing', async () => {
    // The tests above ran ingestCorpus directly; `npm run ingest` and the startup ingest record
    // what the index then holds (src/cli/ingest.ts, src/platform.ts). Without that record the
    // start would rightly find an index that does not match it and rebuild (docs/reliability.md).
    await recordIndexContents(platform.engine, createIndexRecordStore(platform.orm));
    await platform.stop();
    const config = loadConfig({ DATA_DIR: dataDir, CORPUS_DIR: corpus.dir, PORT: '0', LOG_LEVEL: 'silent', EMBEDDER: 'none', ALLOW_ANONYMOUS: 'true', RATE_LIMITS: 'off' });
    platform = await startPlatform(config, silent);
    url = platform.url!;
    const summary = (await platform.ingestDone)!;
    expect(summary.files.skipped).toBe(summary.files.total);
    expect(summary.documents.indexed).toBe(0);
    expect((await get('/ready')).status).toBe(200);
    expect((await get('/v1/documents/DE/GesetzeImInternet/bgb/823')).status).toBe(200);
  });
});
