/**
 * The citator's billing and batching (issue 37 leftovers): a platform on a slice of the real
 * corpus (a few BGB articles) and 60 decisions written for the test citing § 280 BGB.
 *
 * - One billed read per document page: within one request, a document billed as read comes with
 *   one `cites` and one `citedBy` of it unbilled (docs/citator.md, "Billing"); counted exactly in
 *   `usage_event` over real HTTP, for a session (the dashboard) and an API key; REST's
 *   `cited-by` and `cites` alone still bill one read each; a second `citedBy` of the same
 *   document in one operation bills another read.
 * - A GraphQL list of 50 documents asking `citedBy(first: 5)` and `cites` costs a bounded number
 *   of SQL statements (DataLoader), whatever the list's length, with the answers REST gives one by one.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { graphql } from 'graphql';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { graphqlContext } from '../src/graphql/context.js';
import { buildLegalDataSubgraph } from '../subgraphs/legal-data/index.js';
import { DocumentViewDocument } from '../src/dashboard/gql/graphql.js';
import { gzipLines, readRecords, writeCorpusSlice } from './fixtures/corpus-slice.js';
import { makeTestDataDir } from './helpers/pglite-template.js';
import { call, cookieFrom } from './helpers/http.js';

const ACTS = ['bgb', 'bgb/280', 'bgb/286', 'bgb/536', 'bgb/823'];
const PASSWORD = 'correct horse battery staple 42';
/** 60 decisions citing § 280 BGB (the odd ones § 286 BGB too), two courts, dated by their index. */
const DECISIONS = Array.from({ length: 60 }, (_, i) => ({
  id: `bill-${String(i).padStart(2, '0')}`,
  court: i % 2 ? 'BGH' : 'LG Köln',
  tier: i % 2 ? 1 : 3,
  date: `20${10 + (i % 10)}-0${1 + (i % 9)}-15`,
  text: i % 2 ? `Der Schuldner haftet nach § 280 Abs. 1 BGB und § 286 Abs. 2 Nr. 1 BGB.` : `Der Schuldner haftet nach § 280 BGB.`,
}));

describe('citator billing and batching', () => {
  let platform: Platform;
  let url: string;
  let key: { key: string; id: string };
  let cookie: string;
  let userId: string;

  /** `documents` reads counted for the key, or for the session's account (its reads without a key). */
  const billed = async (who: 'key' | 'session') => {
    await platform.accounts.usage.flush();
    const where = who === 'key' ? 'api_key_id = ?' : 'user_id = ? and api_key_id is null';
    const rows = (await platform.orm.em.fork().getConnection().execute(`select count(*) as n from usage_event where endpoint = 'documents' and ${where}`, [who === 'key' ? key.id : userId])) as { n: string | number }[];
    return Number(rows[0]!.n);
  };
  /** How many `documents` reads `work` billed. */
  const billedBy = async (who: 'key' | 'session', work: () => Promise<unknown>) => {
    const before = await billed(who);
    await work();
    return (await billed(who)) - before;
  };
  const gql = async (who: 'key' | 'session', query: string, variables?: Record<string, unknown>) => {
    const auth = who === 'key' ? { authorization: `Bearer ${key.key}` } : { cookie };
    const res = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify({ query, variables }) });
    const body = (await res.json()) as any;
    expect(body.errors).toBeUndefined();
    return body.data;
  };
  const rest = async (route: string) => {
    const res = await call(`${url}${route}`, 'GET', undefined, { key: key.key });
    expect(res.status).toBe(200);
    return res.body;
  };
  /** SQL statements on the citation tables during `work`. */
  const citatorStatementsDuring = async (work: () => Promise<unknown>) => {
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
    return sql.filter((s) => /citation_link|citing_document|unresolved_citation/.test(s));
  };

  beforeAll(async () => {
    const corpus = await writeCorpusSlice([{ file: 'legislation/DE-GesetzeImInternet.jsonl.gz', lines: ACTS.length, keep: (r) => ACTS.includes(String(r.source_id)) }]);
    const [bgh] = await readRecords('case_law/DE-BGH.jsonl.gz', 1);
    const records = DECISIONS.map((d) => ({ ...bgh, source_id: d.id, ecli: null, court: d.court, court_tier: d.tier, date: d.date, text: d.text }));
    await mkdir(path.join(corpus.dir, 'documents', 'case_law'), { recursive: true });
    await writeFile(path.join(corpus.dir, 'documents', 'case_law', 'DE-BGH.jsonl.gz'), gzipLines(records));
    const dataDir = await makeTestDataDir('citator-billing-e2e-');
    // the decisions' graph alone: the slice's BGB articles citing each other are test/citator-legislation.e2e.test.ts's
    platform = await startPlatform(
      loadConfig({ DATA_DIR: dataDir, CORPUS_DIR: corpus.dir, PORT: '0', LOG_LEVEL: 'silent', EMBEDDER: 'none', ALLOW_ANONYMOUS: 'true', RATE_LIMITS: 'off', CITATOR_LINK_LEGISLATION: 'false' }),
      createLogger('silent'),
    );
    url = platform.url!;
    await platform.ingestDone;
    const registered = await call(`${url}/auth/register`, 'POST', { email: 'citator-billing@example.org', password: PASSWORD, accept_terms: true, acknowledge_privacy: true });
    expect(registered.status).toBeLessThan(300);
    cookie = cookieFrom((await call(`${url}/auth/login`, 'POST', { email: 'citator-billing@example.org', password: PASSWORD })).headers, 'session')!;
    const created = await call(`${url}/v1/keys`, 'POST', { name: 'citator-billing' }, { cookie });
    expect(created.status).toBe(200);
    key = { key: created.body.key, id: created.body.id };
    const rows = (await platform.orm.em.fork().getConnection().execute('select id from app_user where email = ?', ['citator-billing@example.org'])) as { id: string }[];
    userId = rows[0]!.id;
  });

  afterAll(async () => {
    await platform?.stop();
  });

  it("bills the dashboard's document page (the document, what it cites, who cites it, the timeline) as one read", async () => {
    let page: any;
    const reads = await billedBy('session', async () => {
      page = await gql('session', DocumentViewDocument.toString(), { source: 'DE/BGH', sourceId: 'bill-01', citedByFirst: 10 });
    });
    expect(reads).toBe(1);
    expect(page.document.cites.links.map((l: any) => [l.cited.source_id, l.pinpoint])).toEqual([
      ['bgb/280', 'Abs. 1'],
      ['bgb/286', 'Abs. 2 Nr. 1'],
    ]);
    const act = await billedBy('session', async () => {
      page = await gql('session', DocumentViewDocument.toString(), { source: 'DE/GesetzeImInternet', sourceId: 'bgb/280', citedByFirst: 10 });
    });
    expect(act).toBe(1);
    expect(page.document.cited_by_count).toBe(60);
    expect(page.document.citedBy).toMatchObject({ cited_by_count: 60, total: 60 });
    expect(page.document.citedBy.items).toHaveLength(10);
    expect(page.document.citedByPerYear.reduce((sum: number, y: any) => sum + y.count, 0)).toBe(60);
  });

  it('bills a document with its cites and citedBy as one read in one operation, with an API key too', async () => {
    const operation = `{ document(source: "DE/BGH", sourceId: "bill-03") { id cited_by_count cites { links { cited { id } } } citedBy(first: 3) { total } citedByPerYear { year count } } }`;
    expect(await billedBy('key', () => gql('key', operation))).toBe(1);
  });

  it('bills a second citedBy of the same document in one operation (an alias) as another read', async () => {
    const operation = `{ document(source: "DE/GesetzeImInternet", sourceId: "bgb/280") {
      first: citedBy(first: 10) { next_cursor items { document { id } } }
      second: citedBy(first: 10, sort: court_tier) { items { document { id } } }
      cites { links { cited { id } } } } }`;
    let data: any;
    expect(await billedBy('key', async () => (data = await gql('key', operation)))).toBe(2);
    expect(data.document.first.items).toHaveLength(10);
    expect(data.document.second.items.map((i: any) => i.document.id)).not.toEqual(data.document.first.items.map((i: any) => i.document.id));
  });

  it("still bills REST's cited-by and cites alone one read each, and a document read before them in another request does not cover them", async () => {
    expect(await billedBy('key', () => rest('/v1/documents/DE/GesetzeImInternet/bgb/280/cited-by?limit=5'))).toBe(1);
    expect(await billedBy('key', () => rest('/v1/documents/DE/BGH/bill-05/cites'))).toBe(1);
    const reads = await billedBy('key', async () => {
      await rest('/v1/documents/DE/BGH/bill-07');
      await rest('/v1/documents/DE/BGH/bill-07/cites');
      await rest('/v1/documents/DE/BGH/bill-07/cited-by');
    });
    expect(reads).toBe(3);
    // a GraphQL operation asking only for the citator of a document still reads (and bills) the document once
    expect(await billedBy('key', () => gql('key', `{ document(source: "DE/BGH", sourceId: "bill-09") { cites { links { pinpoint } } } }`))).toBe(1);
  });

  it('costs a bounded number of statements for citedBy(first: 5) and cites of a list of 50 documents (DataLoader), answering as REST does', async () => {
    const schema = await buildLegalDataSubgraph(platform.legalData);
    const source = `query Entities($representations: [_Any!]!) { _entities(representations: $representations) { ... on Document {
      id cited_by_count
      citedBy(first: 5, sort: court_tier) { cited_by_count total next_cursor items { document { id } pinpoint citation start end occurrences } }
      cites { links { cited { id source source_id } start end pinpoint citation carried } unresolved { start end citation reason } } } } }`;
    const listed = async (documentIds: string[]) => {
      let result: any;
      const sql = await citatorStatementsDuring(async () => {
        result = await graphql({ schema, source, variableValues: { representations: documentIds.map((id) => ({ __typename: 'Document', id })) }, contextValue: graphqlContext(platform.contexts.anonymous()) });
      });
      expect(result.errors).toBeUndefined();
      return { documents: result.data._entities, statements: sql.length };
    };
    const fifty = [...ACTS.map((id) => `DE/GesetzeImInternet/${id}`), ...DECISIONS.slice(0, 45).map((d) => `DE/BGH/${d.id}`)];
    expect(fifty).toHaveLength(50);
    const one = await listed(fifty.slice(1, 2));
    const all = await listed(fifty);
    // the counts (1), citedBy's page and counts (2), cites' links and unresolved (2): per batch, not per document
    expect(one.statements).toBe(5);
    expect(all.statements).toBe(5);
    expect(all.documents[1]).toEqual(one.documents[0]);
    expect(all.documents[1].citedBy).toMatchObject({ cited_by_count: 60, total: 60 });
    expect(all.documents[2].citedBy).toMatchObject({ cited_by_count: 30, total: 30 });
    // each document's answer is REST's for it
    for (const doc of [all.documents[1], all.documents[2], all.documents[0], all.documents[5], all.documents[6], all.documents[49]]) {
      const [country, name, ...rest_] = String(doc.id).split('/');
      const route = `/v1/documents/${country}/${name}/${rest_.join('/')}`;
      const citedBy = await rest(`${route}/cited-by?limit=5&sort=court_tier`);
      expect(doc.citedBy).toEqual({ ...citedBy, items: citedBy.items.map(({ document, snippet: _s, highlight: _h, ...item }: any) => ({ document: { id: document.id }, ...item })) });
      expect(doc.cites).toEqual(await rest(`${route}/cites`));
    }
    expect(all.documents[6].cites.links).toHaveLength(2);
  });
});
