/**
 * The citation families of issue 18 end to end over real HTTP: a platform started on a slice of
 * the real corpus answers POST /v1/resolve for references written the way judgments, briefs and
 * commentaries write them (a handful per family, positives and references to nothing), and
 * GET /v1/resolve/coverage reports per source the families it supports.
 */
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { writeCorpusSlice, type SliceSpec } from './fixtures/corpus-slice.js';
import { makeTestDataDir } from './helpers/pglite-template.js';

const only = (ids: string[]): SliceSpec['keep'] => (r) => ids.includes(String(r.source_id));
const DE = ['bgb', 'bgb/812', 'bgb/987', 'bgb/990', 'bgb/626', 'gg', 'gg/2', 'gg/20', 'bgbeg', 'bgbeg/229', 'bgbeg/229/3', 'agg', 'agg/1'];
const FR = ['LEGITEXT000006070721', 'LEGITEXT000006070721/1240', 'LEGITEXT000006070721/1103'];
const EU = ['32008R0593', '32008R0593/6', '31993L0013', '31993L0013/3'];
const IE = ['IE-2018-act-7', 'IE-2018-act-7/60', 'IE-2001-act-50', 'IE-2001-act-50/4'];
const CH = ['cc-2022-491', 'cc-2022-491/5'];
const SLICES: SliceSpec[] = [
  { file: 'legislation/DE-GesetzeImInternet.jsonl.gz', lines: DE.length, keep: only(DE) },
  { file: 'legislation/FR-LegifranceCodes.jsonl.gz', lines: FR.length, keep: only(FR) },
  { file: 'legislation/EU-EUR-Lex.jsonl.gz', lines: EU.length, keep: only(EU) },
  { file: 'legislation/IE-IrishStatuteBook.jsonl.gz', lines: IE.length, keep: only(IE) },
  { file: 'legislation/CH-Fedlex.jsonl.gz', lines: CH.length, keep: only(CH) },
  { file: 'case_law/DE-BGH.jsonl.gz', lines: 1, keep: only(['KORE702602026']) },
  { file: 'case_law/FR-CouncilState.jsonl.gz', lines: 1, keep: only(['CAA_24MA03136_2026-03-02']) },
  { file: 'case_law/EU-CURIA.jsonl.gz', lines: 1, keep: only(['62024CJ0048']) },
];

describe('citation families over POST /v1/resolve', () => {
  let platform: Platform;
  let url: string;

  const resolve = async (reference: string, hint_country?: string) => {
    const res = await fetch(`${url}/v1/resolve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(hint_country ? { reference, hint_country } : { reference }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { resolved: boolean; match_type: string; documents: { id: string }[] };
    return body.resolved ? body.documents[0].id : `(${body.match_type})`;
  };

  beforeAll(async () => {
    const corpus = await writeCorpusSlice(SLICES);
    const dataDir = await makeTestDataDir('resolve-families-');
    platform = await startPlatform(
      loadConfig({ DATA_DIR: dataDir, CORPUS_DIR: corpus.dir, PORT: '0', LOG_LEVEL: 'silent', EMBEDDER: 'none', ALLOW_ANONYMOUS: 'true', RATE_LIMITS: 'off' }),
      createLogger('silent'),
    );
    url = platform.url!;
    await platform.ingestDone;
  }, 120_000);

  afterAll(async () => {
    await platform?.stop();
  });

  it.each([
    // German sub-units, chains and qualifiers
    ['§ 812 I 2 Alt. 2 BGB', null, 'DE/GesetzeImInternet/bgb/812'],
    ['§§ 987, 990 I 1 BGB', null, 'DE/GesetzeImInternet/bgb/987'],
    ['Art. 20 III GG', null, 'DE/GesetzeImInternet/gg/20'],
    ['§ 626 II 1 BGB entsprechend', null, 'DE/GesetzeImInternet/bgb/626'],
    // German long titles
    ['Artikel 2 Absatz 1 des Grundgesetzes für die Bundesrepublik Deutschland', null, 'DE/GesetzeImInternet/gg/2'],
    ['§ 1 des Allgemeinen Gleichbehandlungsgesetzes', null, 'DE/GesetzeImInternet/agg/1'],
    // nested articles
    ['Art. 229 § 3 EGBGB', null, 'DE/GesetzeImInternet/bgbeg/229/3'],
    // French forms
    ['art. 1240 al. 1er C. civ.', 'FR', 'FR/LegifranceCodes/LEGITEXT000006070721/1240'],
    ['articles 1103 et suivants du Code civil', null, 'FR/LegifranceCodes/LEGITEXT000006070721/1103'],
    // court decisions
    ['BGH, Urteil vom 3. Februar 2026 – VIa ZR 566/22', null, 'DE/BGH/KORE702602026'],
    ['CAA Marseille, 2 mars 2026, n° 24MA03136', 'FR', 'FR/CouncilState/CAA_24MA03136_2026-03-02'],
    ['EuGH, Urteil vom 12. Februar 2026 – C-48/24', null, 'EU/CURIA/62024CJ0048'],
    // EU acts by name and numbering
    ['Art. 6 Rom I-VO', null, 'EU/EUR-Lex/32008R0593/6'],
    ['Art. 3 Abs. 1 RL 93/13/EWG', null, 'EU/EUR-Lex/31993L0013/3'],
    // identifiers
    ['SR 235.1', null, 'CH/Fedlex/cc-2022-491'],
    ['https://www.irishstatutebook.ie/eli/2018/act/7/section/60/enacted/en/html', null, 'IE/IrishStatuteBook/IE-2018-act-7/60'],
    // common-law short titles
    ['DPA 2018, s. 60', 'IE', 'IE/IrishStatuteBook/IE-2018-act-7/60'],
    ['Theft and Fraud Offences Act 2001, s 4', 'IE', 'IE/IrishStatuteBook/IE-2001-act-50/4'],
  ])('%s (hint %s) -> %s', async (reference, hint, id) => {
    expect(await resolve(reference, hint ?? undefined)).toBe(id);
  });

  it.each([
    ['Art. 229 § 99 EGBGB'],
    ['§ 9999 I 1 BGB'],
    ['BGH, Urteil vom 4. Februar 2026 – VIa ZR 566/22'],
    ['CAA Lyon, 2 mars 2026, n° 24MA03136'],
    ['Art. 6 Rom III-VO'],
    ['SR 220'],
    ['s. 999 of the Data Protection Act 2018'],
  ])('%s resolves to nothing', async (reference) => {
    expect(await resolve(reference)).toBe('(none)');
  });

  it('coverage reports the citation families per source', async () => {
    const res = await fetch(`${url}/v1/resolve/coverage`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { sources: { source: string; citation_families?: string[] }[] };
    const families = (source: string) => body.sources.find((s) => s.source === source)?.citation_families ?? [];
    expect(families('DE/GesetzeImInternet')).toEqual(expect.arrayContaining(['de_subunits', 'de_act_names', 'nested_articles']));
    expect(families('FR/LegifranceCodes')).toContain('fr_forms');
    expect(families('EU/EUR-Lex')).toContain('eu_acts');
    expect(families('IE/IrishStatuteBook')).toEqual(expect.arrayContaining(['identifiers', 'short_titles']));
    expect(families('DE/BGH')).toContain('court_decisions');
    // The GraphQL supergraph reports the same families.
    const graph = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ resolveCoverage { sources { source citation_families } } }' }),
    });
    const data = (await graph.json()) as { data: { resolveCoverage: { sources: { source: string; citation_families: string[] | null }[] } } };
    const fromGraph = new Map(data.data.resolveCoverage.sources.map((s) => [s.source, s.citation_families]));
    for (const source of body.sources) expect([source.source, fromGraph.get(source.source)]).toEqual([source.source, source.citation_families ?? null]);
    expect(fromGraph.get('FR/LegifranceCodes')).toContain('fr_forms');
  });
});
