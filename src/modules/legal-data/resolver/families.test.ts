/**
 * The citation families of issue 18 over a reference index built from real corpus records:
 * German sub-units and chains, German long titles, nested articles, French forms, court
 * decisions by court/date/number, EU acts by name and numbering, identifiers in every spelling,
 * common-law short titles. Each family resolves its positives and refuses its negatives.
 */
import { readRecords } from '../../../../test/fixtures/corpus-slice.js';
import { referenceIndexOf } from '../../../../test/fixtures/reference-index.js';
import { buildCoverage } from './coverage.js';
import { cleanReference } from './normalise.js';
import type { ReferenceIndex } from './reference-index.js';
import { emptyParsed, resolveCaseCitation, resolveIdentifier, resolveLegislation, type ResolveHints } from './resolver.js';

const pick = (ids: string[]) => (r: Record<string, unknown>) => ids.includes(String(r.source_id));
const SLICES: [string, string[]][] = [
  ['legislation/DE-GesetzeImInternet.jsonl.gz', ['bgb', 'bgb/812', 'bgb/987', 'bgb/990', 'bgb/626', 'gg', 'gg/2', 'gg/20', 'bgbeg', 'bgbeg/3', 'bgbeg/229', 'bgbeg/229/3', 'bgbeg/229/6', 'agg', 'agg/1']],
  ['legislation/FR-LegifranceCodes.jsonl.gz', ['LEGITEXT000006070721', 'LEGITEXT000006070721/1240', 'LEGITEXT000006070721/1103', 'LEGITEXT000006069583', 'LEGITEXT000006069583/L80_A']],
  ['legislation/EU-EUR-Lex.jsonl.gz', ['32008R0593', '32008R0593/6', '31993L0013', '31993L0013/3', '32004R0261']],
  ['legislation/IE-IrishStatuteBook.jsonl.gz', ['IE-2018-act-7', 'IE-2018-act-7/60', 'IE-2001-act-50', 'IE-2001-act-50/4']],
  ['legislation/CH-Fedlex.jsonl.gz', ['cc-2022-491', 'cc-2022-491/5']],
  ['case_law/DE-BGH.jsonl.gz', ['KORE702602026']],
  ['case_law/FR-CASS.jsonl.gz', ['JURITEXT000053402940']],
  ['case_law/FR-CouncilState.jsonl.gz', ['CAA_24MA03136_2026-03-02']],
  ['case_law/EU-CURIA.jsonl.gz', ['62024CJ0048']],
];

let index: ReferenceIndex;

beforeAll(async () => {
  const rows: Record<string, unknown>[] = [];
  for (const [file, ids] of SLICES) rows.push(...(await readRecords(file, ids.length, pick(ids))));
  index = await referenceIndexOf(rows);
}, 120_000);

/** The top document's source id, or null when the reference does not resolve. */
function resolve(reference: string, hints: ResolveHints = { country: null, type: null }): string | null {
  const ref = cleanReference(reference);
  const parsed = emptyParsed();
  const out = resolveIdentifier(index, ref, hints, parsed) ?? resolveCaseCitation(index, ref, hints, parsed) ?? resolveLegislation(index, ref, hints, parsed);
  if (!out || out.matchType === 'none' || out.matchType === 'ambiguous' || !out.candidates.length) return null;
  return out.candidates[0].doc.source_id;
}

describe('German sub-units and chains', () => {
  it.each([
    ['§ 812 I 2 Alt. 2 BGB', 'bgb/812'],
    ['Art. 20 III GG', 'gg/20'],
    ['§§ 987, 990 I 1 BGB', 'bgb/987'],
    ['§ 626 II 1 BGB entsprechend', 'bgb/626'],
    ['§ 812 BGB a.F.', 'bgb/812'],
    ['Art. 2 I i.V.m. Art. 20 III GG', 'gg/2'],
  ])('%s -> %s', (ref, id) => expect(resolve(ref)).toBe(id));
  it('a paragraph the act lacks is nothing', () => expect(resolve('§ 9999 I 1 BGB')).toBeNull());
});

describe('German act names written out', () => {
  it.each([
    ['§ 626 des Bürgerlichen Gesetzbuches', 'bgb/626'],
    ['Artikel 2 Absatz 1 des Grundgesetzes für die Bundesrepublik Deutschland', 'gg/2'],
    ['§ 1 des Allgemeinen Gleichbehandlungsgesetzes', 'agg/1'],
  ])('%s -> %s', (ref, id) => expect(resolve(ref)).toBe(id));
  it('an act not in the corpus is nothing', () => expect(resolve('§ 3 des Ladenöffnungsgesetzes')).toBeNull());
});

describe('nested articles', () => {
  it('resolves the nested paragraph, not the article', () => {
    expect(resolve('Art. 229 § 3 EGBGB')).toBe('bgbeg/229/3');
    expect(resolve('Artikel 229 § 6 Abs. 1 Satz 2 EGBGB')).toBe('bgbeg/229/6');
    expect(resolve('Art. 229 EGBGB')).toBe('bgbeg/229');
    expect(resolve('Art. 3 EGBGB')).toBe('bgbeg/3');
  });
  it('a nested paragraph that does not exist is nothing, never the parent', () => {
    expect(resolve('Art. 229 § 99 EGBGB')).toBeNull();
    expect(resolve('Art. 3 § 1 EGBGB')).toBeNull();
  });
});

describe('French forms', () => {
  it.each([
    ['art. 1240 al. 1er C. civ.', 'LEGITEXT000006070721/1240'],
    ['articles 1103 et suivants du Code civil', 'LEGITEXT000006070721/1103'],
    ['art. L. 80 A LPF', 'LEGITEXT000006069583/L80_A'],
  ])('%s -> %s', (ref, id) => expect(resolve(ref)).toBe(id));
  it('a code not in the corpus is nothing', () => expect(resolve('art. L. 110-1 C. com.')).toBeNull());
});

describe('court decisions by court, date and number', () => {
  it.each([
    ['BGH, Urteil vom 3. Februar 2026 – VIa ZR 566/22', 'KORE702602026'],
    ['Cass. 1re civ., 21 janvier 2026, n° 24-16.717', 'JURITEXT000053402940'],
    ['CAA Marseille, 2 mars 2026, n° 24MA03136', 'CAA_24MA03136_2026-03-02'],
    ['EuGH, Urteil vom 12. Februar 2026 – C-48/24', '62024CJ0048'],
  ])('%s -> %s', (ref, id) => expect(resolve(ref)).toBe(id));
  it('a date or court that disagrees is nothing', () => {
    expect(resolve('BGH, Urteil vom 4. Februar 2026 – VIa ZR 566/22')).toBeNull();
    expect(resolve('CAA Lyon, 2 mars 2026, n° 24MA03136')).toBeNull();
  });
});

describe('EU acts by name and numbering', () => {
  it.each([
    ['Art. 6 Rom I-VO', '32008R0593/6'],
    ['Art. 3 Abs. 1 RL 93/13/EWG', '31993L0013/3'],
    ['article 3 de la directive 93/13/CEE', '31993L0013/3'],
    ['Verordnung (EG) Nr. 261/2004', '32004R0261'],
    ['CELEX-Nr. 32008R0593', '32008R0593'],
  ])('%s -> %s', (ref, id) => expect(resolve(ref)).toBe(id));
  it('an article the act has no document for is nothing', () => expect(resolve('Art. 7 Fluggastrechte-VO')).toBeNull());
  it('an act not in the corpus is nothing', () => expect(resolve('Art. 6 Rom III-VO')).toBeNull());
});

describe('identifiers in every spelling', () => {
  it.each([
    ['SR 235.1', 'cc-2022-491'],
    ['https://www.fedlex.admin.ch/eli/cc/2022/491/fr#art_5', 'cc-2022-491/5'],
    ['http://www.irishstatutebook.ie/eli/2018/act/7/enacted/en/html', 'IE-2018-act-7'],
    ['https://www.irishstatutebook.ie/eli/2018/act/7/section/60/enacted/en/html', 'IE-2018-act-7/60'],
  ])('%s -> %s', (ref, id) => expect(resolve(ref)).toBe(id));
  it('identifiers of documents not in the corpus are nothing', () => {
    expect(resolve('SR 220')).toBeNull();
    expect(resolve('http://www.irishstatutebook.ie/eli/2014/act/38/enacted/en/html')).toBeNull();
  });
});

describe('common-law short titles', () => {
  it.each([
    ['DPA 2018, s. 60', 'IE-2018-act-7/60'],
    ['section 60 of the 2018 Act', 'IE-2018-act-7/60'],
    ['Theft and Fraud Offences Act 2001, s 4', 'IE-2001-act-50/4'],
  ])('%s -> %s', (ref, id) => expect(resolve(ref, { country: 'IE', type: null })).toBe(id));
  it('a section the act lacks is nothing', () => expect(resolve('s. 999 of the Data Protection Act 2018')).toBeNull());
});

describe('coverage', () => {
  it('reports the citation families per source', () => {
    const report = buildCoverage(index);
    const families = (source: string) => report.sources.find((s) => s.source === source)?.citation_families ?? [];
    expect(families('DE/GesetzeImInternet')).toEqual(expect.arrayContaining(['de_subunits', 'de_act_names', 'nested_articles']));
    expect(families('FR/LegifranceCodes')).toContain('fr_forms');
    expect(families('EU/EUR-Lex')).toContain('eu_acts');
    expect(families('IE/IrishStatuteBook')).toEqual(expect.arrayContaining(['identifiers', 'short_titles']));
    expect(families('DE/BGH')).toContain('court_decisions');
  });
});
