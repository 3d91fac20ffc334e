/**
 * The citator end to end (issue 37, items 1-2): a platform started on a slice of the real corpus
 * (a few BGB and ZPO articles) and decisions written for the test with known citations; its
 * startup ingest builds the citation graph, and the REST doors serve it: cited-by with filters,
 * sort and cursor paging, cites, `cited_by_count` in the document, 404 and 422, and every call
 * billed as a document read; GraphQL's `Document.citedBy`/`cites` agree with REST, and the counts of
 * a list of documents cost one SQL statement (DataLoader).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { graphql } from 'graphql';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { gzipLines, readRecords, writeCorpusSlice } from './fixtures/corpus-slice.js';
import { makeTestDataDir } from './helpers/pglite-template.js';
import { graphqlContext } from '../src/graphql/context.js';
import { buildLegalDataSubgraph } from '../subgraphs/legal-data/index.js';

const ACTS = new Set(['bgb', 'bgb/535', 'bgb/536', 'bgb/543', 'bgb/823', 'zpo', 'zpo/587']);
const BGB_536 = '/v1/documents/DE/GesetzeImInternet/bgb/536';

/** Decisions citing § 536 BGB: id, court, tier, date, text. */
const DECISIONS = [
  { id: 'cit-1', court: 'BGH', tier: 1, date: '2021-03-10', text: 'Die Miete ist nach § 536 Abs. 1 S. 2 BGB gemindert.' },
  { id: 'cit-2', court: 'LG Berlin', tier: 3, date: '2023-06-01', text: 'Ein Mangel liegt vor. Gemäß § 536 BGB ist die Miete gemindert; § 536 BGB gilt auch hier. Die Kündigung nach § 543 BGB ist wirksam.' },
  { id: 'cit-3', court: 'BGH', tier: 1, date: '2024-01-15', text: 'Der Vermieter schuldet nach § 535 BGB die Überlassung; die Minderung folgt aus § 536 Abs. 3 BGB.' },
  { id: 'cit-4', court: 'LG Berlin', tier: 3, date: '2019-11-30', text: 'Die Mieterin beruft sich auf § 536 BGB. Eine Vorschrift § 9999 BGB gibt es nicht.' },
];
// Austrian: its own ZPO, never the German one of the corpus (a doubtful link is no link).
const AUSTRIAN = 'Die Wiederaufnahmsklage ist nach § 587 Abs 4 ZPO unzulässig.';

describe('citator REST doors on a slice of the real corpus', () => {
  let platform: Platform;
  let url: string;

  const get = async (route: string) => {
    const res = await fetch(`${url}${route}`);
    return { status: res.status, body: (await res.json()) as any };
  };
  const documentsCalls = async () => {
    await platform.accounts.usage.flush();
    const [row] = (await platform.orm.em.getConnection().execute(`select count(*) as n from usage_event where endpoint = 'documents'`, [], 'all')) as { n: string }[];
    return Number(row.n);
  };

  beforeAll(async () => {
    const corpus = await writeCorpusSlice([{ file: 'legislation/DE-GesetzeImInternet.jsonl.gz', lines: ACTS.size, keep: (r) => ACTS.has(String(r.source_id)) }]);
    const [bgh] = await readRecords('case_law/DE-BGH.jsonl.gz', 1);
    const [ogh] = await readRecords('case_law/AT-OGH.jsonl.gz', 1);
    const decisions = DECISIONS.map((d) => ({ ...bgh, source_id: d.id, ecli: null, court: d.court, court_tier: d.tier, date: d.date, text: d.text }));
    await mkdir(path.join(corpus.dir, 'documents', 'case_law'), { recursive: true });
    await writeFile(path.join(corpus.dir, 'documents', 'case_law', 'DE-BGH.jsonl.gz'), gzipLines(decisions));
    await writeFile(path.join(corpus.dir, 'documents', 'case_law', 'AT-OGH.jsonl.gz'), gzipLines([{ ...ogh, source_id: 'at-1', ecli: null, text: AUSTRIAN }]));
    const dataDir = await makeTestDataDir('citator-e2e-');
    platform = await startPlatform(loadConfig({ DATA_DIR: dataDir, CORPUS_DIR: corpus.dir, PORT: '0', LOG_LEVEL: 'silent', EMBEDDER: 'none', ALLOW_ANONYMOUS: 'true', RATE_LIMITS: 'off' }), createLogger('silent'));
    url = platform.url!;
    await platform.ingestDone;
  });

  afterAll(async () => {
    await platform?.stop();
  });

  it('lists the citing decisions newest first, with the passage, the citation highlighted and the pinpoint', async () => {
    const res = await get(`${BGB_536}/cited-by`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ cited_by_count: 4, total: 4, next_cursor: null });
    expect(res.body.items.map((i: any) => i.document.id)).toEqual(['DE/BGH/cit-3', 'DE/BGH/cit-2', 'DE/BGH/cit-1', 'DE/BGH/cit-4']);
    const [first, second, third] = res.body.items;
    expect(first).toMatchObject({ document: { court: 'BGH', court_tier: 1, date: '2024-01-15', country: 'DE', namespace: 'case_law' }, pinpoint: 'Abs. 3', citation: '§ 536 Abs. 3 BGB', occurrences: 1 });
    expect(first.snippet.slice(first.highlight.start, first.highlight.end)).toBe('§ 536 Abs. 3');
    expect(first.snippet).toBe(DECISIONS[2].text);
    // cited twice: one item, its first citation, and how often
    expect(second).toMatchObject({ pinpoint: '', citation: '§ 536 BGB', occurrences: 2, start: DECISIONS[1].text.indexOf('§ 536') });
    expect(third).toMatchObject({ pinpoint: 'Abs. 1 S. 2', start: DECISIONS[0].text.indexOf('§ 536'), end: DECISIONS[0].text.indexOf(' BGB') });
  });

  it('pages with a cursor and sorts by court tier', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: any } = await get(`${BGB_536}/cited-by?sort=court_tier&limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.body.items.map((i: any) => i.document.id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(['DE/BGH/cit-3', 'DE/BGH/cit-1', 'DE/BGH/cit-2', 'DE/BGH/cit-4']);
    const first = await get(`${BGB_536}/cited-by?limit=1`);
    const next = await get(`${BGB_536}/cited-by?limit=1&cursor=${first.body.next_cursor}`);
    expect([first.body.items[0].document.id, next.body.items[0].document.id]).toEqual(['DE/BGH/cit-3', 'DE/BGH/cit-2']);
  });

  it('filters by court, tier, date range, country and namespace', async () => {
    const ids = async (query: string) => {
      const res = await get(`${BGB_536}/cited-by?${query}`);
      expect(res.status).toBe(200);
      expect(res.body.cited_by_count).toBe(4);
      expect(res.body.total).toBe(res.body.items.length);
      return res.body.items.map((i: any) => i.document.id);
    };
    expect(await ids('court=LG%20Berlin')).toEqual(['DE/BGH/cit-2', 'DE/BGH/cit-4']);
    expect(await ids('court_tier=1')).toEqual(['DE/BGH/cit-3', 'DE/BGH/cit-1']);
    expect(await ids('date_start=2021-03-10&date_end=2023-06-01')).toEqual(['DE/BGH/cit-2', 'DE/BGH/cit-1']);
    expect(await ids('country=de&court_tier=3&date_end=2020-12-31')).toEqual(['DE/BGH/cit-4']);
    expect(await ids('country=AT')).toEqual([]);
    expect(await ids('namespace=doctrine')).toEqual([]);
  });

  it('refuses bad filters with a located 422 and an unknown document with 404', async () => {
    for (const [query, loc] of [
      ['court_tier=7', 'court_tier'],
      ['date_start=2024-13-01', 'date_start'],
      ['sort=popularity', 'sort'],
      ['limit=0', 'limit'],
      ['namespace=blogs', 'namespace'],
      ['cursor=not-a-cursor', 'cursor'],
    ]) {
      const res = await get(`${BGB_536}/cited-by?${query}`);
      expect(res.status).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['query', loc]);
    }
    const unknown = await get('/v1/documents/DE/GesetzeImInternet/bgb/99999/cited-by');
    expect(unknown.status).toBe(404);
    expect(typeof unknown.body.detail).toBe('string');
    expect((await get('/v1/documents/DE/GesetzeImInternet/bgb/99999/cites')).status).toBe(404);
  });

  it('rolls an act up with its articles on request: who cites the BGB', async () => {
    const act = '/v1/documents/DE/GesetzeImInternet/bgb/cited-by';
    // no decision names the BGB without an article: the act's own list is empty
    expect((await get(act)).body).toMatchObject({ cited_by_count: 0, total: 0, items: [] });
    const rolled = await get(`${act}?include_articles=true`);
    expect(rolled.body).toMatchObject({ cited_by_count: 4, total: 4, next_cursor: null });
    expect(rolled.body.items.map((i: any) => [i.document.id, i.citation, i.occurrences])).toEqual([
      ['DE/BGH/cit-3', '§ 535 BGB', 2],
      ['DE/BGH/cit-2', '§ 536 BGB', 3],
      ['DE/BGH/cit-1', '§ 536 Abs. 1 S. 2 BGB', 1],
      ['DE/BGH/cit-4', '§ 536 BGB', 1],
    ]);
    // each link carries the cited article's act: the roll-up reads `cited_act_id`, not a list of the act's articles
    const rows = (await platform.orm.em
      .getConnection()
      .execute(`select citing_id, seq, cited_id, cited_act_id from citation_link where citing_id in ('DE/BGH/cit-2', 'DE/BGH/cit-3') order by citing_id, seq`, [], 'all')) as unknown[];
    expect(rows).toEqual([
      { citing_id: 'DE/BGH/cit-2', seq: 0, cited_id: 'DE/GesetzeImInternet/bgb/536', cited_act_id: 'DE/GesetzeImInternet/bgb' },
      { citing_id: 'DE/BGH/cit-2', seq: 1, cited_id: 'DE/GesetzeImInternet/bgb/536', cited_act_id: 'DE/GesetzeImInternet/bgb' },
      { citing_id: 'DE/BGH/cit-2', seq: 2, cited_id: 'DE/GesetzeImInternet/bgb/543', cited_act_id: 'DE/GesetzeImInternet/bgb' },
      { citing_id: 'DE/BGH/cit-3', seq: 0, cited_id: 'DE/GesetzeImInternet/bgb/535', cited_act_id: 'DE/GesetzeImInternet/bgb' },
      { citing_id: 'DE/BGH/cit-3', seq: 1, cited_id: 'DE/GesetzeImInternet/bgb/536', cited_act_id: 'DE/GesetzeImInternet/bgb' },
    ]);
    // filters, sorts and paging work on the rolled-up list as on any other
    const paged = await get(`${act}?include_articles=true&sort=court_tier&court=BGH&limit=1`);
    expect(paged.body).toMatchObject({ cited_by_count: 4, total: 2, items: [{ document: { id: 'DE/BGH/cit-3' } }] });
    const next = await get(`${act}?include_articles=true&sort=court_tier&court=BGH&limit=1&cursor=${paged.body.next_cursor}`);
    expect(next.body).toMatchObject({ items: [{ document: { id: 'DE/BGH/cit-1' } }], next_cursor: null });
    // an article is no act: the flag changes nothing; the act's own count stays its own
    expect((await get(`${BGB_536}/cited-by?include_articles=true`)).body).toEqual((await get(`${BGB_536}/cited-by`)).body);
    expect((await get('/v1/documents/DE/GesetzeImInternet/bgb')).body.cited_by_count).toBe(0);
    expect((await get(`${act}?include_articles=maybe`)).status).toBe(422);
  });

  it('lists what a document cites: links in order of appearance, then the unresolved citations', async () => {
    const res = await get('/v1/documents/DE/BGH/cit-4/cites');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      links: [{ cited: { id: 'DE/GesetzeImInternet/bgb/536', source: 'DE/GesetzeImInternet', source_id: 'bgb/536' }, start: DECISIONS[3].text.indexOf('§ 536'), end: DECISIONS[3].text.indexOf(' BGB.'), pinpoint: '', citation: '§ 536 BGB', carried: false }],
      unresolved: [{ start: DECISIONS[3].text.indexOf('§ 9999'), end: DECISIONS[3].text.indexOf(' BGB gibt'), citation: '§ 9999 BGB', reason: 'unit_not_in_corpus' }],
    });
    const cit2 = await get('/v1/documents/DE/BGH/cit-2/cites');
    expect(cit2.body.links.map((l: any) => l.cited.source_id)).toEqual(['bgb/536', 'bgb/536', 'bgb/543']);
  });

  it('links no doubtful citation: the Austrian ZPO is not the German one', async () => {
    expect((await get('/v1/documents/DE/GesetzeImInternet/zpo/587/cited-by')).body).toMatchObject({ cited_by_count: 0, total: 0, items: [] });
    expect((await get('/v1/documents/AT/OGH/at-1/cites')).body).toEqual({
      links: [],
      unresolved: [{ start: AUSTRIAN.indexOf('§ 587'), end: AUSTRIAN.indexOf(' ZPO'), citation: '§ 587 Abs 4 ZPO', reason: 'foreign_act' }],
    });
  });

  it('counts the citing documents in the document response, and bills every call as a document read', async () => {
    const before = await documentsCalls();
    expect((await get(BGB_536)).body.cited_by_count).toBe(4);
    expect((await get('/v1/documents/DE/GesetzeImInternet/bgb/543')).body.cited_by_count).toBe(1);
    expect((await get('/v1/documents/DE/GesetzeImInternet/bgb/823')).body.cited_by_count).toBe(0);
    await get(`${BGB_536}/cited-by`);
    await get('/v1/documents/DE/BGH/cit-1/cites');
    await get(`${BGB_536}/cited-by?court_tier=9`);
    expect(await documentsCalls()).toBe(before + 6);
  });

  it('answers the same through GraphQL, Document.citedBy and Document.cites', async () => {
    const gql = async (query: string) => {
      const res = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
      return (await res.json()) as any;
    };
    const rest = await get(`${BGB_536}/cited-by?court_tier=1&limit=1`);
    const answer = await gql(`{ document(source: "DE/GesetzeImInternet", sourceId: "bgb/536") {
      cited_by_count
      citedBy(courtTier: 1, first: 1) { cited_by_count total next_cursor items { document { id court court_tier date } snippet highlight { start end } pinpoint citation start end occurrences } }
    } }`);
    expect(answer.errors).toBeUndefined();
    expect(answer.data.document.cited_by_count).toBe(4);
    const { document: restDocument, ...restItem } = rest.body.items[0];
    const { document: gqlDocument, ...gqlItem } = answer.data.document.citedBy.items[0];
    expect(gqlItem).toEqual(restItem);
    expect(gqlDocument).toEqual({ id: restDocument.id, court: restDocument.court, court_tier: restDocument.court_tier, date: restDocument.date });
    expect(answer.data.document.citedBy).toMatchObject({ cited_by_count: 4, total: 2, next_cursor: rest.body.next_cursor });
    const cites = await gql(`{ document(source: "DE/BGH", sourceId: "cit-4") { cites { links { cited { id source source_id } start end pinpoint citation carried } unresolved { start end citation reason } } } }`);
    expect(cites.data.document.cites).toEqual((await get('/v1/documents/DE/BGH/cit-4/cites')).body);
    const refused = await gql(`{ document(source: "DE/GesetzeImInternet", sourceId: "bgb/536") { citedBy(courtTier: 7) { total } } }`);
    expect(refused.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('counts the citing documents of a list of documents in one SQL statement (DataLoader)', async () => {
    const schema = await buildLegalDataSubgraph(platform.legalData);
    const source = `query Entities($representations: [_Any!]!) { _entities(representations: $representations) { ... on Document { id cited_by_count } } }`;
    const counted = async (ids: string[]) => {
      let result: any;
      // only the citator's statements: the usage recorder may flush its buffer meanwhile, on the same connection
      const connection = platform.orm.em.getConnection();
      const original = connection.execute;
      let statements = 0;
      connection.execute = function (this: unknown, ...args: Parameters<typeof original>) {
        if (/citation_link|citing_document/.test(String(args[0]))) statements++;
        return original.apply(this, args);
      } as typeof original;
      try {
        const contextValue = graphqlContext(platform.contexts.anonymous());
        result = await graphql({ schema, source, variableValues: { representations: ids.map((id) => ({ __typename: 'Document', id })) }, contextValue });
      } finally {
        connection.execute = original;
      }
      expect(result.errors).toBeUndefined();
      return { counts: result.data._entities.map((e: any) => e.cited_by_count), statements };
    };
    const acts = ['bgb/536', 'bgb/543', 'bgb/535', 'bgb/823', 'zpo/587'].map((id) => `DE/GesetzeImInternet/${id}`);
    const two = await counted(acts.slice(0, 2));
    const five = await counted(acts);
    expect(two.counts).toEqual([4, 1]);
    expect(five.counts).toEqual([4, 1, 1, 0, 0]);
    // the same statements for 2 documents as for 5: the counts are one batched query, never one per document
    expect(five.statements).toBe(two.statements);
    expect(five.statements).toBe(1);
  });

  it('counts the citing documents per year through GraphQL (the document page timeline), with the filters, unbilled', async () => {
    const gql = async (args: string) => {
      const res = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: `{ document(source: "DE/GesetzeImInternet", sourceId: "bgb/536") { citedByPerYear${args} { year count } } }` }) });
      return (await res.json()) as any;
    };
    const before = await documentsCalls();
    const all = await gql('');
    expect(all.errors).toBeUndefined();
    expect(all.data.document.citedByPerYear).toEqual([
      { year: 2019, count: 1 },
      { year: 2021, count: 1 },
      { year: 2023, count: 1 },
      { year: 2024, count: 1 },
    ]);
    expect((await gql('(courtTier: 1)')).data.document.citedByPerYear).toEqual([
      { year: 2021, count: 1 },
      { year: 2024, count: 1 },
    ]);
    expect((await gql('(dateStart: "2022-01-01", court: "LG Berlin")')).data.document.citedByPerYear).toEqual([{ year: 2023, count: 1 }]);
    const refused = await gql('(dateStart: "yesterday")');
    expect(refused.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    // the GraphQL `document` read is billed; the timeline adds nothing to it
    expect(await documentsCalls()).toBe(before + 4);
  });
});
