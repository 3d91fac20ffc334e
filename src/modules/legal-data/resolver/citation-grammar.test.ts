/** The citation grammars and identifier parsers on their own: what they understand, and what they refuse. */
import { parseCaseCitation } from './case-citation.js';
import { euActCelex, parseCitation } from './citation-grammar.js';
import { parseIdentifier } from './identifiers.js';
import { cleanReference, unitKey } from './normalise.js';

const citation = (ref: string) => parseCitation(cleanReference(ref));

describe('German citations', () => {
  it.each([
    ['§ 823 Abs. 1 S. 2 BGB', '823', 'BGB', ['Abs. 1', 'S. 2']],
    ['§ 4 Nr. 12 Buchst. a UStG', '4', 'UStG', ['Nr. 12', 'Buchst. a']],
    ['§ 57 Abs 4 Satz 3 SGB XI', '57', 'SGB XI', ['Abs 4', 'Satz 3']],
    ['§ 74 a HGB', '74 a', 'HGB', []],
    ['Art. 1 GG', '1', 'GG', []],
    ['Art. 6 Abs. 1 lit. a DSGVO', '6', 'DSGVO', ['Abs. 1', 'lit. a']],
    ['Paragraf 242 StGB', '242', 'StGB', []],
    ['§ 13 Abs 3a S 1 SGB V', '13', 'SGB V', ['Abs 3a', 'S 1']],
    ['HGB § 74a Abs 1 S 1', '74a', 'HGB', ['Abs 1', 'S 1']],
    ['§ 126 Abs. 3 Satz 1 Nr. 2 der Finanzgerichtsordnung', '126', 'Finanzgerichtsordnung', ['Abs. 3', 'Satz 1', 'Nr. 2']],
    ['§ 823 Abs. 1, 2. Halbsatz BGB', '823', 'BGB', ['Abs. 1', '2. Halbsatz']],
  ])('%s', (ref, unit, act, subUnits) => {
    const c = citation(ref)!;
    expect(c).toMatchObject({ unit, act, subUnits });
  });

  it('reads lists, ranges, ff. and i.V.m. chains (the first provision is the one resolved)', () => {
    expect(citation('§§ 433, 434 BGB')).toMatchObject({ unit: '433', others: ['434'], act: 'BGB' });
    expect(citation('§§ 1 bis 3 BGB')).toMatchObject({ unit: '1', others: ['3'], act: 'BGB' });
    expect(citation('§§ 74 ff. HGB')).toMatchObject({ unit: '74', following: true, act: 'HGB' });
    expect(citation('§ 543 Abs. 2 Satz 1 Nr. 3 a) und b) BGB')).toMatchObject({ unit: '543', act: 'BGB' });
    expect(citation('§ 823 Abs. 1 i.V.m. § 249 BGB')).toMatchObject({ unit: '823', act: 'BGB' });
  });

  it('refuses what is not a citation', () => {
    expect(citation('§')).toBeNull();
    expect(citation('Art.')).toBeNull();
    expect(citation('123')).toBeNull();
  });
});

describe('French citations', () => {
  it.each([
    ['article 1240 du Code civil', '1240', 'Code civil'],
    ['art. L. 1234-1 C. trav.', 'L. 1234-1', 'C. trav.'],
    ['C. civ., art. 1', '1', 'C. civ.'],
    ['article R.\u00a0243-14 du Code de la sécurité sociale', 'R. 243-14', 'Code de la sécurité sociale'],
    ['Article L1253-2 du code du travail', 'L1253-2', 'code du travail'],
    ['article 1er du Code civil', '1er', 'Code civil'],
    ["article 2 de la loi modifiée du 10 août 1915 concernant les sociétés commerciales", '2', 'loi modifiée du 10 août 1915 concernant les sociétés commerciales'],
  ])('%s', (ref, unit, act) => {
    expect(citation(ref)).toMatchObject({ unit, act });
  });

  it('reads `articles … et …` lists and the article key spellings agree', () => {
    expect(citation('articles L. 1152-3 et L. 1153-4 du Code du travail')).toMatchObject({ unit: 'L. 1152-3', others: ['L. 1153-4'], act: 'Code du travail' });
    expect(unitKey('L. 1234-1')).toBe(unitKey('L1234-1'));
    expect(unitKey('1er')).toBe('1');
  });
});

describe('EU, Swiss and Irish citations', () => {
  it.each([
    ['Article 6(1)(a) GDPR', '6', 'GDPR', ['(1)', '(a)']],
    ['article 6, paragraphe 1, point a) du RGPD', '6', 'RGPD', ['paragraphe 1', 'point a)']],
    ['Art. 41 OR', '41', 'OR', []],
    ['section 5 of the Act of 1933', '5', 'Act of 1933', []],
    ['Freedom of Information Act 2014, s. 11', '11', 'Freedom of Information Act 2014', []],
  ])('%s', (ref, unit, act, subUnits) => {
    expect(citation(ref)).toMatchObject({ unit, act, subUnits });
  });

  it('turns EU act numbers into CELEX numbers', () => {
    expect(citation('Regulation (EU) 2016/679, Art. 6')).toMatchObject({ unit: '6', celex: ['32016R0679'] });
    expect(euActCelex('Directive 95/46/EC')).toEqual(['31995L0046']);
    expect(euActCelex('Regulation (EC) No 1986/2006')[0]).toBe('32006R1986');
    expect(euActCelex('Richtlinie 77/388/EWG')).toEqual(['31977L0388']);
    expect(euActCelex('the law of the sea')).toEqual([]);
  });
});

describe('identifiers', () => {
  it.each([
    ['ECLI:DE:BGH:2026:280126BVIIZB14.23.0', 'ecli', 'ECLI:DE:BGH:2026:280126BVIIZB14.23.0'],
    ['ecli: eu : c : 2026 : 246', 'ecli', 'ECLI:EU:C:2026:246'],
    ['CELEX:32016R0679', 'celex', '32016R0679'],
    ['32016r0679', 'celex', '32016R0679'],
    ['LEGIARTI000006419280', 'legifrance', 'LEGIARTI000006419280'],
    ['NOR: JUSC1234567A', 'nor', 'JUSC1234567A'],
    ['Lawless v. Ireland, no. 332/57', 'echr_application', '332/57'],
    ['C-311/18', 'cjeu_case', 'C-311/18'],
    ['VI ZR 174/22', 'case_number', 'VIZR174/22'],
    ['n° 21-12.345', 'case_number', '21-12.345'],
    ['https://fedlex.data.admin.ch/eli/cc/1999/404', 'eli', 'https://fedlex.data.admin.ch/eli/cc/1999/404'],
  ])('%s', (ref, kind, value) => {
    expect(parseIdentifier(cleanReference(ref))).toMatchObject({ kind, value });
  });

  it('leaves citations and free text alone', () => {
    expect(parseIdentifier('§ 823 BGB')).toBeNull();
    expect(parseIdentifier('Regulation (EC) No 261/2004')).toBeNull();
    expect(parseIdentifier('hello world')).toBeNull();
  });
});

describe('court decision citations', () => {
  it('reads court, date and file number', () => {
    expect(parseCaseCitation('BGH, Urteil vom 03.02.2026 – VIa ZR 566/22'.replace('–', '-'))).toEqual({
      court: 'BGH',
      decisionType: 'Urteil',
      date: '2026-02-03',
      caseNumber: 'VIa ZR 566/22',
    });
    expect(parseCaseCitation('BVerfG, Beschl. v. 13.5.2024, 1 BvR 1078/24')).toMatchObject({ court: 'BVerfG', date: '2024-05-13', caseNumber: '1 BvR 1078/24' });
    expect(parseCaseCitation('Cass. civ. 1re, 12 juillet 2023, n° 22-17.030')).toMatchObject({ date: '2023-07-12', caseNumber: '22-17.030' });
  });

  it('refuses an impossible date or a citation without file number', () => {
    expect(parseCaseCitation('BGH, Urteil vom 45.13.2020 – XII ZR 1/19')).toBeNull();
    expect(parseCaseCitation('BGH, Urteil vom 01.01.2020')).toBeNull();
  });
});
