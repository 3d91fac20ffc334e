/**
 * Legislation citing legislation in the citation graph (issue 37, item 1; CITATOR_LINK_LEGISLATION on): a platform started on
 * a slice of the real corpus (BGB §§ 241, 275, 280-283, 286; § 275 and §§ 281-283 cite § 280) and one decision citing § 280 BGB.
 * Its startup ingest links the articles' own citations (`des § 286` in § 280 BGB: the BGB's § 286)
 * beside the decision's; cited-by lists the citing articles with their passages, offsets and
 * pinpoints, filters them by namespace, and the REST and GraphQL doors agree.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { gzipLines, readRecords, writeCorpusSlice } from './fixtures/corpus-slice.js';
import { makeTestDataDir } from './helpers/pglite-template.js';

const ARTICLES = new Set(['bgb', 'bgb/241', 'bgb/275', 'bgb/280', 'bgb/281', 'bgb/282', 'bgb/283', 'bgb/286']);
const DOCS = '/v1/documents/DE/GesetzeImInternet';
const DECISION = 'Der Beklagte haftet nach § 280 Abs. 1 BGB.';

describe('citator: legislation citing legislation', () => {
  let platform: Platform;
  let url: string;
  const texts = new Map<string, string>();

  const get = async (route: string) => {
    const res = await fetch(`${url}${route}`);
    expect(res.status).toBe(200);
    return (await res.json()) as any;
  };
  /** Offsets of the first `unit` after `after` in the article's text. */
  const at = (sourceId: string, unit: string, after = 0) => {
    const start = texts.get(sourceId)!.indexOf(unit, after);
    expect(start).toBeGreaterThan(0);
    return { start, end: start + unit.length };
  };

  beforeAll(async () => {
    const corpus = await writeCorpusSlice([{ file: 'legislation/DE-GesetzeImInternet.jsonl.gz', lines: ARTICLES.size, keep: (r) => ARTICLES.has(String(r.source_id)) }]);
    for (const r of await readRecords('legislation/DE-GesetzeImInternet.jsonl.gz', ARTICLES.size, (r) => ARTICLES.has(String(r.source_id)))) texts.set(String(r.source_id), String(r.text));
    const [bgh] = await readRecords('case_law/DE-BGH.jsonl.gz', 1);
    await mkdir(path.join(corpus.dir, 'documents', 'case_law'), { recursive: true });
    await writeFile(path.join(corpus.dir, 'documents', 'case_law', 'DE-BGH.jsonl.gz'), gzipLines([{ ...bgh, source_id: 'leg-1', ecli: null, date: '2024-05-02', court_tier: 1, text: DECISION }]));
    const dataDir = await makeTestDataDir('citator-legislation-e2e-');
    platform = await startPlatform(loadConfig({ DATA_DIR: dataDir, CORPUS_DIR: corpus.dir, PORT: '0', LOG_LEVEL: 'silent', EMBEDDER: 'none', ALLOW_ANONYMOUS: 'true', RATE_LIMITS: 'off', CITATOR_LINK_LEGISLATION: 'true' }), createLogger('silent'));
    url = platform.url!;
    await platform.ingestDone;
  });

  afterAll(async () => {
    await platform?.stop();
  });

  it('lists the articles citing § 280 BGB beside the decision, with their offsets and pinpoints, and filters them by namespace', async () => {
    const all = await get(`${DOCS}/bgb/280/cited-by?sort=court_tier`);
    expect(all).toMatchObject({ cited_by_count: 5, total: 5, next_cursor: null });
    // the decision (tier 1) first, then the articles (no tier, undated) by id
    const rows = all.items.map((i: any) => [i.document.id, i.document.namespace, i.pinpoint, i.citation, i.start, i.end, i.occurrences]);
    // § 275 Abs. 4: `die §§ 280, 283 bis 285, 311a und 326`, a list: its first unit
    expect(rows[1][3]).toMatch(/^§§ 280, 283/);
    rows[1][3] = 'the list';
    expect(rows).toEqual([
      ['DE/BGH/leg-1', 'case_law', 'Abs. 1', '§ 280 Abs. 1 BGB', DECISION.indexOf('§ 280'), DECISION.indexOf(' BGB'), 1],
      ['DE/GesetzeImInternet/bgb/275', 'legislation', '', 'the list', ...Object.values(at('bgb/275', '§§ 280')), 1],
      ['DE/GesetzeImInternet/bgb/281', 'legislation', 'Abs. 1', '§ 280 Abs. 1', ...Object.values(at('bgb/281', '§ 280 Abs. 1')), 1],
      ['DE/GesetzeImInternet/bgb/282', 'legislation', 'Abs. 1', '§ 280 Abs. 1', ...Object.values(at('bgb/282', '§ 280 Abs. 1')), 1],
      ['DE/GesetzeImInternet/bgb/283', 'legislation', 'Abs. 1', '§ 280 Abs. 1', ...Object.values(at('bgb/283', '§ 280 Abs. 1')), 1],
    ]);
    const item = all.items[2];
    expect(item.snippet.slice(item.highlight.start, item.highlight.end)).toBe('§ 280 Abs. 1');
    const legislation = await get(`${DOCS}/bgb/280/cited-by?namespace=legislation`);
    expect(legislation).toMatchObject({ cited_by_count: 5, total: 4 });
    expect((await get(`${DOCS}/bgb/280/cited-by?namespace=case_law`)).items.map((i: any) => i.document.id)).toEqual(['DE/BGH/leg-1']);
    expect((await get(`${DOCS}/bgb/280`)).cited_by_count).toBe(5);
  });

  it('lists what an article cites: its own act carried, its heading not a citation, units the slice lacks unresolved', async () => {
    const cites = await get(`${DOCS}/bgb/280/cites`);
    expect(cites).toEqual({
      links: [
        { cited: { id: 'DE/GesetzeImInternet/bgb/286', source: 'DE/GesetzeImInternet', source_id: 'bgb/286' }, ...at('bgb/280', '§ 286'), pinpoint: '', citation: '§ 286', carried: true },
        { cited: { id: 'DE/GesetzeImInternet/bgb/281', source: 'DE/GesetzeImInternet', source_id: 'bgb/281' }, ...at('bgb/280', '§ 281'), pinpoint: '', citation: '§ 281', carried: true },
        { cited: { id: 'DE/GesetzeImInternet/bgb/282', source: 'DE/GesetzeImInternet', source_id: 'bgb/282' }, ...at('bgb/280', '§ 282'), pinpoint: '', citation: '§ 282', carried: true },
        { cited: { id: 'DE/GesetzeImInternet/bgb/283', source: 'DE/GesetzeImInternet', source_id: 'bgb/283' }, ...at('bgb/280', '§ 283'), pinpoint: '', citation: '§ 283', carried: true },
      ],
      unresolved: [],
    });
    // § 282's heading names § 241 Abs. 2 (after its own number, which is no citation), and its text again
    const heading = at('bgb/282', '§ 241 Abs. 2');
    expect((await get(`${DOCS}/bgb/282/cites`)).links.map((l: any) => [l.cited.source_id, l.start, l.pinpoint])).toEqual([
      ['bgb/241', heading.start, 'Abs. 2'],
      ['bgb/241', at('bgb/282', '§ 241 Abs. 2', heading.end).start, 'Abs. 2'],
      ['bgb/280', at('bgb/282', '§ 280 Abs. 1').start, 'Abs. 1'],
    ]);
    // §§ 346 bis 348 BGB are not in the slice: kept as text, never linked to another article
    // a range: its two ends, each with the whole citation
    expect((await get(`${DOCS}/bgb/281/cites`)).unresolved).toEqual([
      { ...at('bgb/281', '§§ 346'), citation: '§§ 346 bis 348', reason: 'unit_not_in_corpus' },
      { ...at('bgb/281', '348'), citation: '§§ 346 bis 348', reason: 'unit_not_in_corpus' },
    ]);
    // the act's own text repeats its articles': not linked
    expect((await get(`${DOCS}/bgb/cites`))).toEqual({ links: [], unresolved: [] });
  });

  it('answers the same through GraphQL', async () => {
    const res = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: `{ document(source: "DE/GesetzeImInternet", sourceId: "bgb/280") {
          cited_by_count
          citedBy(namespace: legislation, first: 10) { cited_by_count total next_cursor items { document { id namespace } pinpoint citation start end occurrences } }
          cites { links { cited { id source source_id } start end pinpoint citation carried } unresolved { start end citation reason } }
        } }`,
      }),
    });
    const { data, errors } = (await res.json()) as any;
    expect(errors).toBeUndefined();
    const rest = await get(`${DOCS}/bgb/280/cited-by?namespace=legislation&limit=10`);
    expect(data.document.citedBy).toEqual({ ...rest, items: rest.items.map(({ document, snippet: _s, highlight: _h, ...item }: any) => ({ document: { id: document.id, namespace: document.namespace }, ...item })) });
    expect(data.document.cites).toEqual(await get(`${DOCS}/bgb/280/cites`));
    expect(data.document.cited_by_count).toBe(5);
  });
});
