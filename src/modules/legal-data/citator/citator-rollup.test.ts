/**
 * An act rolled up with its articles (`include_articles`) read through the links' `cited_act_id`
 * (one index lookup, no list of the act's articles), on PostgreSQL and PGlite: the act's own
 * citations and its articles' together, each citing document once, and for a document that is not
 * an act (an article, a decision) the same answer as without the roll-up.
 */
import { openMigratedTestDatabase, TEST_BACKENDS, type TestDatabase } from '../../../../test/helpers/test-databases.js';
import type { CitingDocumentGraph } from './citation-graph.js';
import { replaceCitationGraphs } from './citation-graph.store.js';
import { citedByPage, citedByPages } from './citator.queries.js';
import { citedByQuerySchema } from './citator.schema.js';

const BGB = 'DE/GII/bgb';
const ZPO = 'DE/GII/zpo';

/** A decision citing `cited` ([cited id, its act]) in order, one link per entry. */
function decision(id: string, date: string, cited: [string, string][]): CitingDocumentGraph {
  return {
    document: { id, source: 'DE/BGH', source_id: id.split('/').pop()!, namespace: 'case_law', country: 'DE', language: 'de', court: 'BGH', court_tier: 1, date, title: id, checksum: 'x' },
    links: cited.map(([citedId, act], seq) => ({
      seq,
      cited_id: citedId,
      cited_source: citedId.split('/').slice(0, 2).join('/'),
      cited_source_id: citedId.split('/').slice(2).join('/'),
      cited_act_id: act,
      start: seq * 10,
      end: seq * 10 + 5,
      pinpoint: '',
      citation: `cites ${citedId}`,
      carried: false,
      snippet: `passage ${seq}`,
      highlight_start: 0,
      highlight_end: 7,
    })),
    unresolved: [],
  };
}

describe.each(TEST_BACKENDS)('cited-by roll-up of an act on %s', (backend) => {
  let db: TestDatabase;
  const query = (input: object = {}) => citedByQuerySchema.parse(input);
  const citing = (answer: Awaited<ReturnType<typeof citedByPage>>) => answer.items.map((i) => [i.document.id, i.citation, i.occurrences]);

  beforeAll(async () => {
    db = await openMigratedTestDatabase(backend);
    await replaceCitationGraphs(db.orm.em, [
      // the act by name, then one of its articles
      decision('DE/BGH/d1', '2024-01-01', [[BGB, BGB], [`${BGB}/1`, BGB]]),
      decision('DE/BGH/d2', '2023-01-01', [[`${BGB}/2`, BGB]]),
      decision('DE/BGH/d3', '2022-01-01', [[`${ZPO}/5`, ZPO], [`${BGB}/2`, BGB], [`${BGB}/1`, BGB]]),
      // a decision citing a decision: its own act
      decision('DE/BGH/d4', '2021-01-01', [['DE/BGH/d1', 'DE/BGH/d1']]),
    ]);
  });

  afterAll(async () => {
    await db?.dispose();
  });

  it("lists the act's own citations and its articles' together, each citing document once, exactly counted", async () => {
    const rolled = await citedByPage(db.orm.em.fork(), BGB, true, query());
    expect(rolled).toMatchObject({ cited_by_count: 3, total: 3, next_cursor: null });
    expect(citing(rolled)).toEqual([
      ['DE/BGH/d1', `cites ${BGB}`, 2],
      ['DE/BGH/d2', `cites ${BGB}/2`, 1],
      ['DE/BGH/d3', `cites ${BGB}/2`, 2],
    ]);
    const own = await citedByPage(db.orm.em.fork(), BGB, false, query());
    expect(citing(own)).toEqual([['DE/BGH/d1', `cites ${BGB}`, 1]]);
    expect(own.cited_by_count).toBe(1);
  });

  it('pages the rolled-up list by keyset, with filters', async () => {
    const first = await citedByPage(db.orm.em.fork(), BGB, true, query({ limit: 2, date_end: '2023-12-31' }));
    expect(first).toMatchObject({ cited_by_count: 3, total: 2 });
    expect(citing(first)).toEqual([['DE/BGH/d2', `cites ${BGB}/2`, 1], ['DE/BGH/d3', `cites ${BGB}/2`, 2]]);
    expect(first.next_cursor).toBeNull();
    const one = await citedByPage(db.orm.em.fork(), BGB, true, query({ limit: 1 }));
    const next = await citedByPage(db.orm.em.fork(), BGB, true, query({ limit: 1, cursor: one.next_cursor }));
    expect([...citing(one), ...citing(next)].map(([id]) => id)).toEqual(['DE/BGH/d1', 'DE/BGH/d2']);
  });

  it('changes nothing for an article or a decision', async () => {
    for (const id of [`${BGB}/1`, `${ZPO}/5`, 'DE/BGH/d1']) {
      expect(await citedByPage(db.orm.em.fork(), id, true, query())).toEqual(await citedByPage(db.orm.em.fork(), id, false, query()));
    }
    expect(citing(await citedByPage(db.orm.em.fork(), `${BGB}/1`, true, query()))).toEqual([
      ['DE/BGH/d1', `cites ${BGB}/1`, 1],
      ['DE/BGH/d3', `cites ${BGB}/1`, 1],
    ]);
  });

  it('answers a batch of asks, rolled up or not, in one call', async () => {
    const pages = await citedByPages(db.orm.em.fork(), [{ root: BGB, rollUp: true }, { root: ZPO, rollUp: true }, { root: `${BGB}/2`, rollUp: false }], query());
    expect(citing(pages.get(BGB)!).map(([id]) => id)).toEqual(['DE/BGH/d1', 'DE/BGH/d2', 'DE/BGH/d3']);
    expect(citing(pages.get(ZPO)!)).toEqual([['DE/BGH/d3', `cites ${ZPO}/5`, 1]]);
    expect(citing(pages.get(`${BGB}/2`)!)).toEqual([['DE/BGH/d2', `cites ${BGB}/2`, 1], ['DE/BGH/d3', `cites ${BGB}/2`, 1]]);
  });
});
