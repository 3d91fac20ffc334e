import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipLines, readRecords, writeCorpusSlice } from '../../../../test/fixtures/corpus-slice.js';
import { openMigratedTestDatabase, TEST_BACKENDS, type TestDatabase } from '../../../../test/helpers/test-databases.js';
import { createLogger } from '../../../logger.js';
import { listDocumentFiles } from '../corpus/corpus-reader.js';
import { referenceIndexOfCorpus } from '../training/citation-pairs.js';
import { createCitationGraphStore } from '../citator/citation-graph.store.js';
import { graphFingerprints, updateCitationGraph } from './citation-graph-phase.js';

const logger = createLogger('silent');
const RENT = 'Die Miete ist nach § 536 Abs. 1 BGB gemindert. Eine Vorschrift § 9999 BGB gibt es nicht.';
const NOTICE = 'Eine Minderung gemäß § 536 BGB scheidet aus. Die Kündigung nach §§ 543, 535 Abs. 2 BGB ist wirksam.';
// An Austrian decision citing its own ZPO: the German ZPO of the corpus is never its target.
const AUSTRIAN = 'Die Wiederaufnahmsklage ist nach § 587 Abs 4 ZPO unzulässig.';

describe.each(TEST_BACKENDS)('citation graph at ingest on %s', (backend) => {
  let corpus: string;
  let db: TestDatabase;
  let decision: Record<string, unknown>;

  /** Writes the decisions file, runs the phase on the corpus as it is, and returns what it did. */
  async function ingestGraph(decisions: Record<string, unknown>[], legislation = true) {
    await writeFile(path.join(corpus, 'documents', 'case_law', 'DE-Test.jsonl.gz'), gzipLines(decisions));
    const files = await listDocumentFiles(corpus);
    // Only the decisions' file changes between runs: the acts' files keep their hash.
    const hashes = new Map(files.map((f) => [f.relativePath, f.relativePath.endsWith('DE-Test.jsonl.gz') ? JSON.stringify(decisions.map((d) => d.text)) : f.relativePath]));
    return updateCitationGraph(files, () => referenceIndexOfCorpus(files), graphFingerprints(hashes, legislation), createCitationGraphStore(db.orm), { logger, legislation });
  }

  const rows = (sql: string) => db.orm.em.getConnection().execute(sql, [], 'all') as Promise<Record<string, unknown>[]>;

  beforeAll(async () => {
    const keep = new Set(['bgb', 'bgb/535', 'bgb/536', 'bgb/543', 'zpo', 'zpo/587']);
    ({ dir: corpus } = await writeCorpusSlice([{ file: 'legislation/DE-GesetzeImInternet.jsonl.gz', lines: keep.size, keep: (r) => keep.has(String(r.source_id)) }]));
    [decision] = await readRecords('case_law/DE-BGH.jsonl.gz', 1);
    const [austrian] = await readRecords('case_law/AT-OGH.jsonl.gz', 1);
    await mkdir(path.join(corpus, 'documents', 'case_law'), { recursive: true });
    await writeFile(path.join(corpus, 'documents', 'case_law', 'AT-Test.jsonl.gz'), gzipLines([{ ...austrian, source_id: 'at-1', ecli: null, text: AUSTRIAN }]));
    db = await openMigratedTestDatabase(backend);
  });

  afterAll(async () => {
    await db?.dispose();
    await rm(corpus, { recursive: true, force: true });
  });

  it('stores every sure link with its offsets, pinpoint and citation, and the rest as text with the reason', async () => {
    const outcome = await ingestGraph([
      { ...decision, source_id: 'test-1', ecli: null, text: RENT },
      { ...decision, source_id: 'test-2', ecli: null, text: NOTICE },
    ]);
    // the decisions and two articles of the slice (§ 536 and § 543 BGB cite articles the slice lacks)
    expect(outcome).toMatchObject({ relinked: 5, removed: 0, documents: 5, links: 4, unresolved: 5 });
    const links = await rows('select citing_id, seq, cited_id, start, "end", pinpoint, citation, snippet, highlight_start, highlight_end from citation_link order by citing_id, seq');
    const at = (text: string, unit: string) => ({ start: text.indexOf(unit), end: text.indexOf(unit) + unit.length });
    expect(links).toEqual([
      { citing_id: 'DE/BGH/test-1', seq: 0, cited_id: 'DE/GesetzeImInternet/bgb/536', ...at(RENT, '§ 536 Abs. 1'), pinpoint: 'Abs. 1', citation: '§ 536 Abs. 1 BGB', snippet: RENT, highlight_start: RENT.indexOf('§ 536'), highlight_end: at(RENT, '§ 536 Abs. 1').end },
      expect.objectContaining({ citing_id: 'DE/BGH/test-2', seq: 0, cited_id: 'DE/GesetzeImInternet/bgb/536', ...at(NOTICE, '§ 536'), pinpoint: '', citation: '§ 536 BGB' }),
      expect.objectContaining({ citing_id: 'DE/BGH/test-2', seq: 1, cited_id: 'DE/GesetzeImInternet/bgb/543', ...at(NOTICE, '§§ 543'), pinpoint: '', citation: '§§ 543, 535 Abs. 2 BGB' }),
      expect.objectContaining({ citing_id: 'DE/BGH/test-2', seq: 2, cited_id: 'DE/GesetzeImInternet/bgb/535', ...at(NOTICE, '535 Abs. 2'), pinpoint: 'Abs. 2', citation: '§§ 543, 535 Abs. 2 BGB' }),
    ]);
    const unresolved = await rows(`select citing_id, seq, start, "end", citation, reason from unresolved_citation where citing_id not like 'DE/GesetzeImInternet/%' order by citing_id, seq`);
    expect(unresolved).toEqual([
      { citing_id: 'AT/OGH/at-1', seq: 0, ...at(AUSTRIAN, '§ 587 Abs 4'), citation: '§ 587 Abs 4 ZPO', reason: 'foreign_act' },
      { citing_id: 'DE/BGH/test-1', seq: 1, ...at(RENT, '§ 9999'), citation: '§ 9999 BGB', reason: 'unit_not_in_corpus' },
    ]);
    // an article's bare units are its own act's: § 543 BGB cites §§ 536b and 536d BGB, which the slice lacks
    expect(await rows(`select citing_id, citation, reason from unresolved_citation where citing_id like 'DE/GesetzeImInternet/%' order by citing_id, seq`)).toEqual([
      { citing_id: 'DE/GesetzeImInternet/bgb/536', citation: '§ 555b', reason: 'unit_not_in_corpus' },
      { citing_id: 'DE/GesetzeImInternet/bgb/543', citation: '§§ 536b und 536d', reason: 'unit_not_in_corpus' },
      { citing_id: 'DE/GesetzeImInternet/bgb/543', citation: '§§ 536b und 536d', reason: 'unit_not_in_corpus' },
    ]);
  });

  it('skips the phase when the corpus files are those it was built from', async () => {
    expect(
      await ingestGraph([
        { ...decision, source_id: 'test-1', ecli: null, text: RENT },
        { ...decision, source_id: 'test-2', ecli: null, text: NOTICE },
      ]),
    ).toBeNull();
  });

  it('relinks a changed document only, and drops the documents that left the corpus', async () => {
    const untouched = await rows(`select xmin::text as version, citing_id, seq from citation_link where citing_id <> 'DE/BGH/test-1' order by citing_id, seq`);
    // the articles' rows too: a decision's change relinks no legislation
    const articles = `select xmin::text as version, citing_id, seq from unresolved_citation where citing_id like 'DE/GesetzeImInternet/%' union all select xmin::text, id, 0 from citing_document where namespace = 'legislation' order by 2, 3, 1`;
    const articleRows = await rows(articles);
    expect(articleRows).toHaveLength(5);
    const changed = 'Die Miete ist nach § 536 BGB gemindert; § 535 BGB bleibt.';
    const outcome = await ingestGraph([
      { ...decision, source_id: 'test-1', ecli: null, text: changed },
      { ...decision, source_id: 'test-2', ecli: null, text: NOTICE },
    ]);
    expect(outcome).toMatchObject({ relinked: 1, removed: 0, documents: 5, links: 5, unresolved: 4 });
    // The other documents' rows are the very rows written before (same row version), not rewritten.
    expect(await rows(`select xmin::text as version, citing_id, seq from citation_link where citing_id <> 'DE/BGH/test-1' order by citing_id, seq`)).toEqual(untouched);
    expect(await rows(articles)).toEqual(articleRows);
    expect(await rows(`select cited_id, pinpoint from citation_link where citing_id = 'DE/BGH/test-1' order by seq`)).toEqual([
      { cited_id: 'DE/GesetzeImInternet/bgb/536', pinpoint: '' },
      { cited_id: 'DE/GesetzeImInternet/bgb/535', pinpoint: '' },
    ]);
    const gone = await ingestGraph([{ ...decision, source_id: 'test-2', ecli: null, text: NOTICE }]);
    expect(gone).toMatchObject({ relinked: 0, removed: 1, documents: 4, links: 3, unresolved: 4 });
  });

  it('drops the articles\' rows when the legislation is switched off (CITATOR_LINK_LEGISLATION), and links them again when on', async () => {
    const decisions = [{ ...decision, source_id: 'test-2', ecli: null, text: NOTICE }];
    expect(await ingestGraph(decisions, false)).toMatchObject({ relinked: 0, removed: 2, documents: 2, links: 3, unresolved: 1 });
    expect(await rows(`select id from citing_document where namespace = 'legislation'`)).toEqual([]);
    expect(await ingestGraph(decisions, true)).toMatchObject({ relinked: 2, removed: 0, documents: 4, links: 3, unresolved: 4 });
  });

  it('links anew a graph written by the previous version (its links backfilled with their cited id as their act)', async () => {
    // what the migration leaves of a version 1 graph: every link's act its cited id, the old checkpoints and state
    await rows(`update citation_link set cited_act_id = cited_id`);
    await rows(`update citing_document set checksum = 'version 1'`);
    await createCitationGraphStore(db.orm).setCitationGraphState({ corpus: 'version 1' });
    expect(graphFingerprints(new Map(), false).corpus).toMatch(/\+v2$/);
    const decisions = [{ ...decision, source_id: 'test-2', ecli: null, text: NOTICE }];
    expect(await ingestGraph(decisions, true)).toMatchObject({ relinked: 4, removed: 0, documents: 4, links: 3, unresolved: 4 });
    expect(await rows(`select cited_id, cited_act_id from citation_link order by citing_id, seq`)).toEqual([
      { cited_id: 'DE/GesetzeImInternet/bgb/536', cited_act_id: 'DE/GesetzeImInternet/bgb' },
      { cited_id: 'DE/GesetzeImInternet/bgb/543', cited_act_id: 'DE/GesetzeImInternet/bgb' },
      { cited_id: 'DE/GesetzeImInternet/bgb/535', cited_act_id: 'DE/GesetzeImInternet/bgb' },
    ]);
  });
});
