/**
 * The reference resolver end to end over real HTTP: a platform started on a slice of the real
 * corpus (the BGB, the Code civil's first articles, the GDPR in two languages, BGH decisions)
 * answers POST /v1/resolve, GET /v1/resolve/coverage and the GraphQL `resolve` query; a tiny
 * budget times out; the cache is dropped when the index changes.
 */
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { ReferenceResolver } from '../src/modules/legal-data/resolver/resolve.service.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { writeCorpusSlice, type SliceSpec } from './fixtures/corpus-slice.js';
import { makeTestDataDir } from './helpers/pglite-template.js';

const GDPR = ['32016R0679', '32016R0679/6', '32016R0679/17', '32016R0679-de', '32016R0679-de/6', '32016R0679-de/17'];
const SLICES: SliceSpec[] = [
  { file: 'legislation/DE-GesetzeImInternet.jsonl.gz', lines: 6, keep: (r) => ['bgb', 'bgb/823', 'bgb/433', 'bgb/434', 'bgb/249', 'bgb/241'].includes(String(r.source_id)) },
  { file: 'legislation/FR-LegifranceCodes.jsonl.gz', lines: 5, keep: (r) => String(r.source_id).startsWith('LEGITEXT000006069414') },
  { file: 'legislation/EU-EUR-Lex.jsonl.gz', lines: GDPR.length, keep: (r) => GDPR.includes(String(r.source_id)) },
  { file: 'case_law/DE-BGH.jsonl.gz', lines: 6 },
];

describe('POST /v1/resolve on a slice of the real corpus', () => {
  let platform: Platform;
  let url: string;
  let records: Map<string, Record<string, unknown>[]>;

  const post = async (route: string, body: unknown) => {
    const res = await fetch(`${url}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  };

  beforeAll(async () => {
    const corpus = await writeCorpusSlice(SLICES);
    records = corpus.records;
    const dataDir = await makeTestDataDir('resolve-e2e-');
    platform = await startPlatform(loadConfig({ DATA_DIR: dataDir, CORPUS_DIR: corpus.dir, PORT: '0', LOG_LEVEL: 'silent', EMBEDDER: 'none', ALLOW_ANONYMOUS: 'true', RATE_LIMITS: 'off' }), createLogger('silent'));
    url = platform.url!;
    await platform.ingestDone;
  });

  afterAll(async () => {
    await platform?.stop();
  });

  it('resolves a German provision with its sub-units in `parsed`', async () => {
    const res = await post('/v1/resolve', { reference: '§ 823 Abs. 1 S. 2 BGB' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      reference: '§ 823 Abs. 1 S. 2 BGB',
      resolved: true,
      match_type: 'pattern',
      documents: [{ id: 'DE/GesetzeImInternet/bgb/823', source: 'DE/GesetzeImInternet', source_id: 'bgb/823', country: 'DE', namespace: 'legislation' }],
      parsed: { country: 'DE', act: 'BGB', unit_type: 'paragraph', unit_number: '823', sub_units: ['Abs. 1', 'S. 2'] },
    });
    expect(res.body.documents[0].confidence).toBeGreaterThan(0.9);
    expect(typeof res.body.elapsed_ms).toBe('number');
  });

  it('resolves identifiers (ECLI, CELEX) and court citations exactly', async () => {
    const bgh = records.get('case_law/DE-BGH.jsonl.gz')!.find((r) => r.ecli && r.case_number && r.date)!;
    const ecli = await post('/v1/resolve', { reference: String(bgh.ecli).toLowerCase(), hint_type: 'case_law' });
    expect(ecli.body).toMatchObject({ resolved: true, match_type: 'exact', documents: [{ id: `DE/BGH/${bgh.source_id}` }], parsed: { identifier_kind: 'ecli' } });
    const celex = await post('/v1/resolve', { reference: 'CELEX:32016R0679' });
    expect(celex.body).toMatchObject({ resolved: true, match_type: 'exact', documents: [{ id: 'EU/EUR-Lex/32016R0679' }] });
    const [y, m, d] = String(bgh.date).split('-');
    const cited = await post('/v1/resolve', { reference: `BGH, Beschluss vom ${d}.${m}.${y} – ${bgh.case_number}`, hint_country: 'DE' });
    expect(cited.body).toMatchObject({ resolved: true, documents: [{ id: `DE/BGH/${bgh.source_id}` }], parsed: { court: 'BGH', date: bgh.date, case_number: bgh.case_number } });
  });

  it('picks the GDPR version in the language of the reference', async () => {
    expect((await post('/v1/resolve', { reference: 'Article 17(1) GDPR' })).body.documents[0].id).toBe('EU/EUR-Lex/32016R0679/17');
    expect((await post('/v1/resolve', { reference: 'Art. 17 Abs. 1 DSGVO' })).body.documents[0].id).toBe('EU/EUR-Lex/32016R0679-de/17');
  });

  it('is strict: a missing article, an unknown act and free text are `none`', async () => {
    for (const reference of ['§ 9999 BGB', '§ 4 Abs. 2 FooBarG', 'the law of the sea', 'ECLI:EU:C:1999:999']) {
      const res = await post('/v1/resolve', { reference });
      expect([reference, res.status, res.body.resolved, res.body.match_type, res.body.documents]).toEqual([reference, 200, false, 'none', []]);
    }
  });

  it('rejects an invalid request with a pydantic-style 422', async () => {
    const res = await post('/v1/resolve', { reference: '', hint_type: 'doctrine' });
    expect(res.status).toBe(422);
    expect(res.body.detail.map((d: { loc: string[] }) => d.loc)).toEqual([
      ['body', 'reference'],
      ['body', 'hint_type'],
    ]);
    expect((await post('/v1/resolve', {})).status).toBe(422);
  });

  it('reports coverage per source with totals', async () => {
    const res = await fetch(`${url}/v1/resolve/coverage`);
    const body = (await res.json()) as any;
    expect(res.status).toBe(200);
    const gii = body.sources.find((s: { source: string }) => s.source === 'DE/GesetzeImInternet');
    expect(gii).toMatchObject({ has_patterns: true, documents: 6 });
    expect(gii.patterns).toBeGreaterThan(0);
    expect(body.totals.documents).toBe([...records.values()].flat().length);
  });

  it('answers the GraphQL resolve query with the same contract', async () => {
    const res = await post('/graphql', {
      query: '{ resolve(input: {reference: "§§ 433, 434 BGB", hintCountry: "DE"}) { resolved match_type documents { id confidence } parsed { unit_number other_units } } }',
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.resolve).toMatchObject({
      resolved: true,
      match_type: 'pattern',
      documents: [{ id: 'DE/GesetzeImInternet/bgb/433' }],
      parsed: { unit_number: '433', other_units: ['434'] },
    });
    const bad = await post('/graphql', { query: '{ resolve(input: {reference: ""}) { resolved } }' });
    expect(bad.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('answers `timeout` with what was parsed when the budget is exhausted', async () => {
    const tiny = new ReferenceResolver({ engine: platform.engine, timeoutMs: 0 });
    await tiny.refresh();
    const res = await tiny.resolve({ reference: '§ 823 BGB' });
    expect(res).toMatchObject({ resolved: false, match_type: 'timeout', documents: [], parsed: { act: 'BGB', unit_number: '823' } });
  });

  it('puts the provision a search query cites first, within the filters', async () => {
    const search = async (body: Record<string, unknown>) => {
      const res = await post('/v1/search', { namespace: 'legislation', top_k: 5, alpha: 0, ...body });
      expect(res.status).toBe(200);
      return (res.body.hits as { source_id: string }[]).map((h) => h.source_id);
    };
    // The words point at § 823 (damages for injured property); the citation names § 433.
    const words = 'Schadensersatz wegen Verletzung des Eigentums';
    expect((await search({ q: words }))[0]).not.toBe('bgb/433');
    expect((await search({ q: `${words}, siehe § 433 Abs. 1 BGB` }))[0]).toBe('bgb/433');
    // Within the filters only, and nothing doubtful: a provision the act lacks adds nothing.
    expect(await search({ q: `${words}, siehe § 433 BGB`, country: ['FR'] })).not.toContain('bgb/433');
    expect(await search({ q: `${words}, siehe § 9999 BGB` })).toEqual(await search({ q: `${words}, siehe BGB` }));
  });

  it('drops cached resolutions when the index changes', async () => {
    const first = await post('/v1/resolve', { reference: '§ 241 BGB' });
    expect(first.body.documents[0].id).toBe('DE/GesetzeImInternet/bgb/241');
    expect((await post('/v1/resolve', { reference: '§ 241 BGB' })).body.resolved).toBe(true);
    await platform.engine.deleteDocuments(['DE/GesetzeImInternet/bgb/241']);
    await platform.legalData.refreshCatalog();
    const after = await post('/v1/resolve', { reference: '§ 241 BGB' });
    expect(after.body).toMatchObject({ resolved: false, match_type: 'none' });
  });
});
