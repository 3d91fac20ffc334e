/**
 * The citator's three doors on one graph (issue 37, items 2-4): a platform started on a slice of
 * the real corpus (a few BGB articles) and 60 decisions written for the test, each citing
 * § 280 BGB from a passage with known words, courts, tiers and dates (ties and undated ones
 * included). REST, GraphQL and the MCP tools (the SDK's own client) answer the same items and
 * counts (an act rolled up with its articles too); every sort (date, court tier, relevance of the citing passage) pages with a cursor
 * without a duplicate or a gap; search hits with full_metadata carry `cited_by_count` from one
 * batched statement; a GraphQL list of 60+ documents costs one counting statement.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { graphql } from 'graphql';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { graphqlContext } from '../src/graphql/context.js';
import { buildLegalDataSubgraph } from '../subgraphs/legal-data/index.js';
import { gzipLines, readRecords, writeCorpusSlice } from './fixtures/corpus-slice.js';
import { makeTestDataDir } from './helpers/pglite-template.js';
import { call, cookieFrom } from './helpers/http.js';

const ACTS = new Set(['bgb', 'bgb/280', 'bgb/286', 'bgb/536', 'bgb/823']);
const BGB_280 = '/v1/documents/DE/GesetzeImInternet/bgb/280';
const PASSWORD = 'correct horse battery staple 42';
const COURTS: { court: string; tier: number | null }[] = [
  { court: 'BGH', tier: 1 },
  { court: 'OLG München', tier: 2 },
  { court: 'LG Köln', tier: 3 },
  { court: 'AG Bonn', tier: null },
];
/** Words around each citation, and how many words of RELEVANCE_Q each holds. */
const PASSAGES = [
  { words: 'wegen Verzug mit der Mietsache', relevance: 2 },
  { words: 'wegen Verzug', relevance: 1 },
  { words: 'bei Schäden an der Mietsache', relevance: 1 },
  { words: 'aus dem Vertrag', relevance: 0 },
  { words: 'nach Treu und Glauben', relevance: 0 },
];
const RELEVANCE_Q = 'Verzug Mietsache';
/** Separates two citations of one decision far enough for each to have its own passage. */
const FILLER = 'Die Parteien streiten über die Kosten des Rechtsstreits. '.repeat(8);

interface Decision {
  id: string;
  court: string;
  tier: number | null;
  date: string | null;
  text: string;
  /** Relevance of its best passage to RELEVANCE_Q. */
  relevance: number;
}

/** 60 decisions citing § 280 BGB: four courts, six dates (many ties), some undated; the last cites it twice, its second passage the relevant one. */
const DECISIONS: Decision[] = Array.from({ length: 60 }, (_, i) => {
  const { court, tier } = COURTS[i % COURTS.length]!;
  const date = i % 13 === 0 ? null : `20${10 + (i % 6)}-06-01`;
  const id = `gen-${String(i).padStart(2, '0')}`;
  if (i === 59) {
    const text = `Der Beklagte haftet aus dem Vertrag nach § 280 Abs. 1 BGB. ${FILLER}Er haftet auch wegen Verzug mit der Mietsache nach § 280 Abs. 2 BGB.`;
    return { id, court, tier, date, text, relevance: 2 };
  }
  const passage = PASSAGES[i % PASSAGES.length]!;
  return { id, court, tier, date, text: `Der Beklagte haftet ${passage.words} nach § 280 Abs. 1 BGB.`, relevance: passage.relevance };
});

const NO_TIER = 9;
const byDate = (a: Decision, b: Decision) => (a.date ?? '') < (b.date ?? '') ? 1 : (a.date ?? '') > (b.date ?? '') ? -1 : a.id < b.id ? -1 : 1;
const byTier = (a: Decision, b: Decision) => (a.tier ?? NO_TIER) - (b.tier ?? NO_TIER) || byDate(a, b);
const byRelevance = (a: Decision, b: Decision) => b.relevance - a.relevance || byTier(a, b);
const ids = (list: Decision[]) => list.map((d) => `DE/BGH/${d.id}`);

describe('citator doors: REST, GraphQL and MCP on one graph', () => {
  let platform: Platform;
  let url: string;
  let key: { key: string; id: string };
  let mcp: Client;

  const get = async (route: string) => {
    const res = await fetch(`${url}${route}`);
    return { status: res.status, body: (await res.json()) as any };
  };
  const gql = async (query: string, variables?: Record<string, unknown>) => {
    const res = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
    return (await res.json()) as any;
  };
  const tool = async (name: string, args: Record<string, unknown>) => mcp.callTool({ name, arguments: args });
  /** Every page of a cited-by list through REST, following next_cursor. */
  const allPages = async (query: string) => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { status: number; body: any } = await get(`${BGB_280}/cited-by?${query}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.items.map((i: any) => i.document.id));
      cursor = page.body.next_cursor;
      pages++;
    } while (cursor && pages < 100);
    return { seen, pages };
  };
  /** SQL statements run on the platform's connection during `work`, with their text. */
  const statementsDuring = async (work: () => Promise<unknown>) => {
    const connection = platform.orm.em.getConnection();
    const original = connection.execute;
    const sql: string[] = [];
    connection.execute = function (this: unknown, ...args: Parameters<typeof original>) {
      sql.push(String(args[0]));
      return original.apply(this, args);
    } as typeof original;
    try {
      await work();
    } finally {
      connection.execute = original;
    }
    return sql;
  };
  const citatorStatements = (sql: string[]) => sql.filter((s) => /citation_link|citing_document/.test(s));

  beforeAll(async () => {
    const corpus = await writeCorpusSlice([{ file: 'legislation/DE-GesetzeImInternet.jsonl.gz', lines: ACTS.size, keep: (r) => ACTS.has(String(r.source_id)) }]);
    const [bgh] = await readRecords('case_law/DE-BGH.jsonl.gz', 1);
    const records = DECISIONS.map((d) => ({ ...bgh, source_id: d.id, ecli: null, court: d.court, court_tier: d.tier, date: d.date, text: d.text }));
    await mkdir(path.join(corpus.dir, 'documents', 'case_law'), { recursive: true });
    await writeFile(path.join(corpus.dir, 'documents', 'case_law', 'DE-BGH.jsonl.gz'), gzipLines(records));
    const dataDir = await makeTestDataDir('citator-doors-e2e-');
    // the decisions' graph alone: the slice's BGB articles citing each other are test/citator-legislation.e2e.test.ts's
    platform = await startPlatform(
      loadConfig({ DATA_DIR: dataDir, CORPUS_DIR: corpus.dir, PORT: '0', LOG_LEVEL: 'silent', EMBEDDER: 'none', ALLOW_ANONYMOUS: 'true', RATE_LIMITS: 'off', CITATOR_LINK_LEGISLATION: 'false' }),
      createLogger('silent'),
    );
    url = platform.url!;
    await platform.ingestDone;
    await call(`${url}/auth/register`, 'POST', { email: 'citator-agent@example.org', password: PASSWORD, accept_terms: true, acknowledge_privacy: true });
    const cookie = cookieFrom((await call(`${url}/auth/login`, 'POST', { email: 'citator-agent@example.org', password: PASSWORD })).headers, 'session')!;
    const created = await call(`${url}/v1/keys`, 'POST', { name: 'citator' }, { cookie });
    expect(created.status).toBe(200);
    key = { key: created.body.key, id: created.body.id };
    mcp = new Client({ name: 'citator-agent', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key.key}` } } }));
  });

  afterAll(async () => {
    await mcp?.close().catch(() => undefined);
    await platform?.stop();
  });

  it('pages every sort over 60 citing documents without a duplicate or a gap, in the documented order', async () => {
    const expected: [string, Decision[]][] = [
      ['sort=date', [...DECISIONS].sort(byDate)],
      ['sort=court_tier', [...DECISIONS].sort(byTier)],
      [`sort=relevance&q=${encodeURIComponent(RELEVANCE_Q)}`, [...DECISIONS].sort(byRelevance)],
      // relevance without q: the documented fallback, court tier then date
      ['sort=relevance', [...DECISIONS].sort(byTier)],
    ];
    for (const [query, order] of expected) {
      const whole = await get(`${BGB_280}/cited-by?${query}&limit=100`);
      expect([query, whole.body.items.map((i: any) => i.document.id)]).toEqual([query, ids(order)]);
      expect(whole.body).toMatchObject({ cited_by_count: 60, total: 60, next_cursor: null });
      const paged = await allPages(`${query}&limit=7`);
      expect([query, paged.seen]).toEqual([query, ids(order)]);
      expect(paged.pages).toBe(9);
    }
    // a filter pages the same way
    const tierTwo = DECISIONS.filter((d) => d.tier === 2).sort(byRelevance);
    expect((await allPages(`sort=relevance&q=${encodeURIComponent(RELEVANCE_Q)}&court_tier=2&limit=4`)).seen).toEqual(ids(tierTwo));
  });

  it('shows the passage most relevant to q, and the first citation otherwise', async () => {
    const twice = `DE/BGH/${DECISIONS[59]!.id}`;
    const itemOf = async (query: string) => (await get(`${BGB_280}/cited-by?${query}&limit=100`)).body.items.find((i: any) => i.document.id === twice);
    const relevant = await itemOf(`sort=relevance&q=${encodeURIComponent(RELEVANCE_Q)}`);
    expect(relevant).toMatchObject({ pinpoint: 'Abs. 2', occurrences: 2, start: DECISIONS[59]!.text.indexOf('§ 280 Abs. 2') });
    expect(relevant.snippet.slice(relevant.highlight.start, relevant.highlight.end)).toBe('§ 280 Abs. 2');
    expect(relevant.snippet).toContain('Verzug mit der Mietsache');
    expect(await itemOf('sort=date')).toMatchObject({ pinpoint: 'Abs. 1', occurrences: 2, start: DECISIONS[59]!.text.indexOf('§ 280 Abs. 1') });
    // q is literal text: `_` is no LIKE wildcard in the phrase `haftet wegen_verzug` (else the
    // passages `haftet wegen Verzug` would score one more, and the decision saying `haftet auch wegen Verzug` fall behind them)
    const words = ['haftet', 'wegen', 'verzug'];
    const passages = (d: Decision) => d.text.split(FILLER).map((p) => p.toLowerCase());
    const score = (d: Decision) => Math.max(...passages(d).map((p) => words.filter((w) => p.includes(w)).length));
    const literal = [...DECISIONS].sort((a, b) => score(b) - score(a) || byTier(a, b));
    const wildcard = await get(`${BGB_280}/cited-by?sort=relevance&q=${encodeURIComponent('haftet wegen_Verzug')}&limit=100`);
    expect(wildcard.body.items.map((i: any) => i.document.id)).toEqual(ids(literal));
    for (const [query, loc] of [
      [`q=${'x'.repeat(201)}`, 'q'],
      ['q=%20%20', 'q'],
      ['sort=relevance&cursor=' + Buffer.from(JSON.stringify([1, '2020', 'x'])).toString('base64url'), 'cursor'],
    ]) {
      const res = await get(`${BGB_280}/cited-by?${query}`);
      expect([query, res.status, res.body.detail?.[0]?.loc]).toEqual([query, 422, ['query', loc]]);
    }
  });

  it('answers the same items and counts through REST, GraphQL and the MCP tools', async () => {
    const restFirst = await get(`${BGB_280}/cited-by?sort=relevance&q=Verzug&court_tier=1&limit=3`);
    const restNext = await get(`${BGB_280}/cited-by?sort=relevance&q=Verzug&court_tier=1&limit=3&cursor=${restFirst.body.next_cursor}`);
    expect(restFirst.body.items).toHaveLength(3);
    expect(restNext.body.items.length).toBeGreaterThan(0);

    const graph = await gql(
      `query($after: String) { document(source: "DE/GesetzeImInternet", sourceId: "bgb/280") {
        cited_by_count
        citedBy(sort: relevance, q: "Verzug", courtTier: 1, first: 3, after: $after) {
          cited_by_count total next_cursor
          items { document { id source source_id namespace country language court court_tier date title } snippet highlight { start end } pinpoint citation start end occurrences }
        }
      } }`,
    );
    expect(graph.errors).toBeUndefined();
    expect(graph.data.document.cited_by_count).toBe(60);
    expect(graph.data.document.citedBy).toEqual(restFirst.body);
    const graphNext = await gql(
      `query($after: String) { document(source: "DE/GesetzeImInternet", sourceId: "bgb/280") { citedBy(sort: relevance, q: "Verzug", courtTier: 1, first: 3, after: $after) { items { document { id } } next_cursor } } }`,
      { after: restFirst.body.next_cursor },
    );
    expect(graphNext.data.document.citedBy.items.map((i: any) => i.document.id)).toEqual(restNext.body.items.map((i: any) => i.document.id));

    const first = await tool('find_citing_documents', { source: 'DE/GesetzeImInternet', source_id: 'bgb/280', sort: 'relevance', q: 'Verzug', court_tier: 1, limit: 3 });
    expect(first.isError).toBeFalsy();
    expect(first.structuredContent).toEqual(restFirst.body);
    expect(JSON.parse((first.content as { text: string }[])[0]!.text)).toEqual(restFirst.body);
    const next = await tool('find_citing_documents', { source: 'DE/GesetzeImInternet', source_id: 'bgb/280', sort: 'relevance', q: 'Verzug', court_tier: 1, limit: 3, cursor: restFirst.body.next_cursor });
    expect(next.structuredContent).toEqual(restNext.body);

    // an act with its articles (include_articles), the same in the three doors
    const restAct = await get('/v1/documents/DE/GesetzeImInternet/bgb/cited-by?include_articles=true&sort=court_tier&limit=5');
    expect(restAct.body).toMatchObject({ cited_by_count: 60, total: 60 });
    const mcpAct = await tool('find_citing_documents', { source: 'DE/GesetzeImInternet', source_id: 'bgb', include_articles: true, sort: 'court_tier', limit: 5 });
    expect(mcpAct.structuredContent).toEqual(restAct.body);
    const graphAct = await gql(`{ document(source: "DE/GesetzeImInternet", sourceId: "bgb") { citedBy(includeArticles: true, sort: court_tier, first: 5) { cited_by_count total next_cursor items { document { id } citation } } } }`);
    expect(graphAct.data.document.citedBy).toEqual({ ...restAct.body, items: restAct.body.items.map((i: any) => ({ document: { id: i.document.id }, citation: i.citation })) });

    const twice = DECISIONS[59]!.id;
    const restCites = await get(`/v1/documents/DE/BGH/${twice}/cites`);
    expect(restCites.body.links.map((l: any) => [l.cited.source_id, l.pinpoint])).toEqual([
      ['bgb/280', 'Abs. 1'],
      ['bgb/280', 'Abs. 2'],
    ]);
    const mcpCites = await tool('list_citations', { source: 'DE/BGH', source_id: twice });
    expect(mcpCites.structuredContent).toEqual(restCites.body);
    const graphCites = await gql(`{ document(source: "DE/BGH", sourceId: "${twice}") { cites { links { cited { id source source_id } start end pinpoint citation carried } unresolved { start end citation reason } } } }`);
    expect(graphCites.data.document.cites).toEqual(restCites.body);
  });

  it('refuses bad MCP input with a tool error, answers an unknown document as not found, and bills each call as a document read', async () => {
    const billed = async () => {
      await platform.accounts.usage.flush();
      const rows = (await platform.orm.em.fork().getConnection().execute('select endpoint from usage_event where api_key_id = ?', [key.id])) as { endpoint: string }[];
      return rows.filter((r) => r.endpoint === 'documents').length;
    };
    const before = await billed();
    const tools = (await mcp.listTools()).tools.filter((t) => t.name === 'find_citing_documents' || t.name === 'list_citations');
    expect(tools.map((t) => t.name).sort()).toEqual(['find_citing_documents', 'list_citations']);
    expect(Object.keys(tools.find((t) => t.name === 'find_citing_documents')!.inputSchema.properties!)).toEqual(
      expect.arrayContaining(['source', 'source_id', 'namespace', 'country', 'court', 'court_tier', 'date_start', 'date_end', 'sort', 'q', 'limit', 'cursor']),
    );
    // refused by the tool's input schema: no service call, not billed
    for (const args of [{ source: 'DE/GesetzeImInternet', source_id: 'bgb/280', court_tier: 7 }, { source: 'DE', source_id: 'bgb/280' }, { source: 'DE/GesetzeImInternet', source_id: 'bgb/280', sort: 'popularity' }]) {
      const refused = await tool('find_citing_documents', args);
      expect(refused.isError).toBe(true);
    }
    // refused by the service (a cursor of no list): a tool error naming the argument, billed like REST's 422
    const badCursor = await tool('find_citing_documents', { source: 'DE/GesetzeImInternet', source_id: 'bgb/280', cursor: 'not-a-cursor' });
    expect(badCursor.isError).toBe(true);
    expect((badCursor.content as { text: string }[])[0]!.text).toMatch(/^Invalid arguments: cursor:/);
    const unknown = await tool('list_citations', { source: 'DE/GesetzeImInternet', source_id: 'bgb/99999' });
    expect(unknown.isError).toBe(true);
    expect((unknown.content as { text: string }[])[0]!.text).toMatch(/^Not found:/);
    await tool('find_citing_documents', { source: 'DE/GesetzeImInternet', source_id: 'bgb/280' });
    await tool('list_citations', { source: 'DE/BGH', source_id: 'gen-01' });
    expect(await billed()).toBe(before + 4);
  });

  it('counts the citing documents of full_metadata search hits in one batched statement, in every door', async () => {
    const act = (await get(BGB_280)).body;
    const q = String(act.text).split(/\s+/).slice(0, 6).join(' ');
    const search = (detail: string) => call(`${url}/v1/search`, 'POST', { q, namespace: 'legislation', result_detail: detail, alpha: 0, top_k: 10 });
    let full: any;
    const sql = await statementsDuring(async () => {
      full = (await search('full_metadata')).body;
    });
    const hit280 = full.hits.find((h: any) => h.source_id === 'bgb/280');
    expect(hit280.cited_by_count).toBe(60);
    expect(full.hits.length).toBeGreaterThan(1);
    for (const hit of full.hits) expect([hit.id, hit.cited_by_count]).toEqual([hit.id, (await get(`/v1/documents/${hit.id}`)).body.cited_by_count]);
    expect(citatorStatements(sql)).toHaveLength(1);
    // the other details carry no count and cost no statement
    const snippetSql = await statementsDuring(async () => {
      const snippet = (await search('snippet')).body;
      expect(snippet.hits.every((h: any) => !('cited_by_count' in h))).toBe(true);
    });
    expect(citatorStatements(snippetSql)).toHaveLength(0);

    const graph = await gql(`query($q: String!) { search(input: { q: $q, namespace: legislation, resultDetail: full_metadata, alpha: 0 }) { hits { id cited_by_count } } }`, { q });
    expect(graph.errors).toBeUndefined();
    expect(graph.data.search.hits).toEqual(full.hits.map((h: any) => ({ id: h.id, cited_by_count: h.cited_by_count })));
    const viaMcp = await tool('search', { q, namespace: 'legislation', result_detail: 'full_metadata', alpha: 0 });
    expect((viaMcp.structuredContent as any).hits.map((h: any) => [h.id, h.cited_by_count])).toEqual(full.hits.map((h: any) => [h.id, h.cited_by_count]));
  });

  it('costs one counting statement for the cited_by_count of 65 documents in one GraphQL list (DataLoader)', async () => {
    const schema = await buildLegalDataSubgraph(platform.legalData);
    const source = `query Entities($representations: [_Any!]!) { _entities(representations: $representations) { ... on Document { id cited_by_count } } }`;
    const counted = async (documentIds: string[]) => {
      let result: any;
      const sql = await statementsDuring(async () => {
        const contextValue = graphqlContext(platform.contexts.anonymous());
        result = await graphql({ schema, source, variableValues: { representations: documentIds.map((id) => ({ __typename: 'Document', id })) }, contextValue });
      });
      expect(result.errors).toBeUndefined();
      return { counts: result.data._entities.map((e: any) => e.cited_by_count), statements: citatorStatements(sql).length };
    };
    const acts = [...ACTS].map((id) => `DE/GesetzeImInternet/${id}`);
    const everything = [...acts, ...ids(DECISIONS)];
    expect(everything).toHaveLength(65);
    const one = await counted(acts.slice(1, 2));
    const all = await counted(everything);
    expect(one).toEqual({ counts: [60], statements: 1 });
    expect(all.counts).toEqual([0, 60, 0, 0, 0, ...DECISIONS.map(() => 0)]);
    expect(all.statements).toBe(1);
  });
});
