/** The citator's in-context linker on small texts, over an index of real corpus records. */
import { readRecords } from '../../../../test/fixtures/corpus-slice.js';
import { referenceIndexOf } from '../../../../test/fixtures/reference-index.js';
import type { ReferenceIndex } from '../resolver/reference-index.js';
import { linkCitations, type CitatorResult } from './link-citations.js';

const DE_IDS = ['bgb', 'bgb/187', 'bgb/188', 'bgb/823', 'zpo', 'zpo/222', 'gkg_2004', 'gkg_2004/66', 'gkg_2004/68', 'vwvg', 'vwvg/5', 'vwvfg', 'vwvfg/5'];
const FR_IDS = ['LEGITEXT000006070721', 'LEGITEXT000006070721/1240', 'LEGITEXT000006070721/815-9', 'LEGITEXT000006070933', 'LEGITEXT000006070933/L761-1'];
const EU_IDS = ['32016R0679', '32016R0679/5', '32016R0679/6', '32016R0679/15', '32016R0679/51'];
const CH_IDS = ['cc-1969-737_757_755', 'cc-1969-737_757_755/5', 'cc-1969-737_757_755/52'];
const pick = (ids: string[]) => (r: Record<string, unknown>) => ids.includes(String(r.source_id));

let index: ReferenceIndex;

beforeAll(async () => {
  const records = [
    ...(await readRecords('legislation/DE-GesetzeImInternet.jsonl.gz', DE_IDS.length, pick(DE_IDS))),
    ...(await readRecords('legislation/FR-LegifranceCodes.jsonl.gz', FR_IDS.length, pick(FR_IDS))),
    ...(await readRecords('legislation/EU-EUR-Lex.jsonl.gz', EU_IDS.length, pick(EU_IDS))),
    ...(await readRecords('legislation/CH-Fedlex.jsonl.gz', CH_IDS.length, pick(CH_IDS))),
  ];
  index = await referenceIndexOf(records);
});

const link = (text: string, country = 'DE'): CitatorResult => linkCitations(index, { text, country, language: null, namespace: 'case_law' });
/** Links as [unit as written, cited source_id, pinpoint, carried]. */
const links = (text: string, country = 'DE') =>
  link(text, country).links.map((l) => [text.slice(l.start, l.end), l.target.source_id, l.pinpoint, l.carried]);
const unresolved = (text: string, country = 'DE') => link(text, country).unresolved.map((u) => [text.slice(u.start, u.end), u.reason]);

describe('linkCitations: grammar', () => {
  it('splits a list into its units, each with its pinpoint, and gives the citation text', () => {
    const text = 'Die Frist endete (§§ 187 Abs. 1, 188 Abs. 2 BGB).';
    expect(links(text)).toEqual([
      ['§§ 187 Abs. 1', 'bgb/187', 'Abs. 1', false],
      ['188 Abs. 2', 'bgb/188', 'Abs. 2', false],
    ]);
    expect(link(text).links[0].citation).toBe('§§ 187 Abs. 1, 188 Abs. 2 BGB');
  });

  it('reads a number after a sub-unit and `und` as the same provision (`Abs. 1 und 3`)', () => {
    expect(links('gemäß § 823 Abs. 1 und 2 BGB')).toEqual([['§ 823 Abs. 1 und 2', 'bgb/823', 'Abs. 1 und 2', false]]);
    expect(links('Art. 52 Abs. 1bis VwVG', 'CH')).toEqual([['Art. 52 Abs. 1bis', 'cc-1969-737_757_755/52', 'Abs. 1bis', false]]);
    expect(links('gemäß § 823 Abs. 1 Nr. 3 und Nr. 5 BGB')).toEqual([['§ 823 Abs. 1 Nr. 3 und Nr. 5', 'bgb/823', 'Abs. 1 Nr. 3 und Nr. 5', false]]);
  });

  it('reads `bis` between two numbers as a range, after a number alone as its suffix (`§§ 187 bis 188`, `article 815-9 bis`)', () => {
    expect(links('Die Frist berechnet sich nach §§ 187 bis 188 BGB.')).toEqual([
      ['§§ 187', 'bgb/187', '', false],
      ['188', 'bgb/188', '', false],
    ]);
    expect(link('Die Frist berechnet sich nach §§ 187 bis 188 BGB.').links[0].citation).toBe('§§ 187 bis 188 BGB');
    expect(unresolved("selon l'article 815-9 bis du code civil", 'FR')).toEqual([['article 815-9 bis', 'unit_not_in_corpus']]);
  });

  it('goes on with a list after an act name (`§§ 823 BGB, 222 ZPO`)', () => {
    expect(links('(§§ 823 Abs. 1 BGB, 222 ZPO)').map((l) => [l[0], l[1]])).toEqual([
      ['§§ 823 Abs. 1', 'bgb/823'],
      ['222', 'zpo/222'],
    ]);
  });

  it('reads sub-unit lists and letters (`(1)(a) and (f)`, `5.1 .e)`) as the same provision', () => {
    expect(links('§ 823 BGB; consent under Article 6(1)(a) and (f) GDPR', 'EU').map((l) => [l[0], l[1]])).toEqual([
      ['§ 823', 'bgb/823'],
      ['Article 6(1)(a) and (f)', '32016R0679/6'],
    ]);
    expect(links("à l'article 5.1 .e) du RGPD", 'LU').map((l) => [l[1], l[2]])).toEqual([['32016R0679/5', '.e)']]);
  });

  it('reads `§ 1` after an article as its paragraph, never as a provision of its own', () => {
    expect(links('les articles 5, sous b), 6, § 1, et 15, § 1, du RGPD', 'FR').map((l) => [l[0], l[1]])).toEqual([
      ['articles 5, sous b)', '32016R0679/5'],
      ['6, § 1', '32016R0679/6'],
      ['15, § 1', '32016R0679/15'],
    ]);
  });

  it('does not carry the act of the previous citation to a unit whose own act is named a few words on', () => {
    const text = "l'article 6 du RGPD. Conformément à l'article 95, § 1 er, 4° de la LCA et à l'article 5 du RGPD";
    expect(links(text, 'BE').map((l) => l[1])).toEqual(['32016R0679/6', '32016R0679/5']);
    expect(unresolved(text, 'BE')).toEqual([['article 95, § 1 er, 4°', 'act_not_in_corpus']]);
  });

  it('links both numbers of `article 1147, devenu 1231-1`', () => {
    expect(links("l'article 1240, devenu 815-9, du code civil", 'FR').map((l) => [l[0], l[1]])).toEqual([
      ['article 1240', 'LEGITEXT000006070721/1240'],
      ['815-9', 'LEGITEXT000006070721/815-9'],
    ]);
  });

  it('links the units written at the ends of a range', () => {
    expect(links('Articles 5 to 6 GDPR apply.', 'IE').map((l) => l[1])).toEqual(['32016R0679/5', '32016R0679/6']);
  });

  it('reads `5.1.f)` in an EU act as article 5, never as article 51; a dotted number of a national act stays unresolved', () => {
    expect(links("le principe visé à l'article 5.1.f) du RGPD", 'LU')).toEqual([["l'article 5.1.f)".slice(2), '32016R0679/5', '.f)', false]]);
    expect(links("l'article 1240.1 du code civil", 'FR')).toEqual([]);
    expect(unresolved("l'article 1240.1 du code civil", 'FR')).toEqual([['article 1240.1', 'unit_not_in_corpus']]);
    expect(links("l'article L. 761.1 du code de justice administrative", 'FR').map((l) => l[1])).toEqual(['LEGITEXT000006070933/L761-1']);
  });
});

describe('linkCitations: context', () => {
  it('gives a unit followed by i.V.m. the act named after the next one', () => {
    expect(links('unanfechtbar (§ 68 Abs. 1 Satz 5 i.V.m. § 66 Abs. 3 Satz 3 GKG)')).toEqual([
      ['§ 68 Abs. 1 Satz 5', 'gkg_2004/68', 'Abs. 1 Satz 5', true],
      ['§ 66 Abs. 3 Satz 3', 'gkg_2004/66', 'Abs. 3 Satz 3', false],
    ]);
  });

  it('carries the act of the nearest preceding citation to a unit standing alone', () => {
    const text = 'The controller relied on Article 15(4) of the GDPR. Article 15(4) provides that the right shall not adversely affect others; Article 6 GDPR was not argued.';
    expect(links(text, 'IE')).toEqual([
      ['Article 15(4)', '32016R0679/15', '(4)', false],
      ['Article 15(4)', '32016R0679/15', '(4)', true],
      ['Article 6', '32016R0679/6', '', false],
    ]);
  });

  it('does not carry an act across another instrument named in between, nor beyond a paragraph', () => {
    expect(links('§ 823 BGB. Die Satzung enthielt in § 5 eine Regel.').map((l) => l[1])).toEqual(['bgb/823']);
    expect(links(`§ 823 BGB. ${'Lorem ipsum dolor sit amet. '.repeat(40)}Nach § 187 ist das anders.`).map((l) => l[1])).toEqual(['bgb/823']);
    expect(links('§ 823 BGB. Nach § 187 ist das anders.').map((l) => [l[1], l[3]])).toEqual([
      ['bgb/823', false],
      ['bgb/187', true],
    ]);
  });

  it('carries an act only to a unit cited the way that act is cited (`section 20(3)` is not the GDPR’s)', () => {
    expect(links('Article 6 GDPR applies; in accordance with section 20(3) the dealer is liable.', 'IE').map((l) => l[1])).toEqual(['32016R0679/6']);
  });

  it('does not carry an act past an act named a few words on, nor read a page number as a range', () => {
    expect(links('§ 823 BGB. Ebenso § 187 und die Kapitel 3 bis 6 des Teils 2 SGB IX.').map((l) => l[1])).toEqual(['bgb/823']);
    expect(links('§ 823 BGB. Nicht im Sinne des § 187 - 20 - Abs. 3 Satz 1 HmbVwVfG.').map((l) => l[1])).toEqual(['bgb/823']);
  });

  it('leaves `§ 5 (Hmb)VwVfG` (a Land act or the federal one) unresolved', () => {
    expect(links('§ 5 (Hmb)VwVfG und § 5 VwVG')).toEqual([['§ 5', 'vwvg/5', '', false]]);
    expect(links('§ 5 VwVfG').map((l) => l[1])).toEqual(['vwvfg/5']);
    expect(unresolved('§ 5 (Hmb)VwVfG und § 5 VwVG')).toEqual([['§ 5', 'ambiguous']]);
  });

  it('skips entries of law reports keyed by provisions (`SozR 3-1500 § 160 Nr 31`)', () => {
    expect(links('§ 823 BGB (vgl. BSG SozR 3-1500 § 160 Nr 31 S 52)')).toEqual([['§ 823', 'bgb/823', '', false]]);
  });

  it('follows `du même code` to the code cited before', () => {
    const text = "Vu l'article 1240 du code civil et l'article 815-9 du même code.";
    expect(links(text, 'FR').map((l) => [l[1], l[3]])).toEqual([
      ['LEGITEXT000006070721/1240', false],
      ['LEGITEXT000006070721/815-9', true],
    ]);
  });

  it('leaves a bare unit after a citation of an act the corpus lacks unresolved, never linked elsewhere', () => {
    const text = 'under section 129 of the Road Traffic Act 1988. Section 129 empowers the Registrar; see also Article 5 GDPR.';
    expect(unresolved(text, 'UK')).toEqual([
      ['section 129', 'act_not_in_corpus'],
      ['Section 129', 'no_act'],
    ]);
    expect(links(text, 'UK').map((l) => l[1])).toEqual(['32016R0679/5']);
  });

  it('does not take the act of a later name for a unit followed by another name (`Article 29 Working Party`)', () => {
    const text = 'Article 6 GDPR applies. See the Article 29 Working Party’s Guidelines on transparency under Regulation 2016/679.';
    expect(links(text, 'EU').map((l) => l[1])).toEqual(['32016R0679/6']);
    expect(unresolved(text, 'EU')).toEqual([['Article 29', 'act_not_in_corpus']]);
  });

  it('skips what is no citation: a judgment’s operative articles and a commentary’s marginal notes', () => {
    const text = "au titre de l'article L. 761-1 du code de justice administrative.\nArticle 1er : La requête est rejetée.\nArticle 2 : Le présent arrêt sera notifié.";
    expect(links(text, 'FR').map((l) => l[1])).toEqual(['LEGITEXT000006070933/L761-1']);
    expect(link(text, 'FR').unresolved).toEqual([]);
    expect(link('§ 823 BGB; vgl. Wagner, in: MüKo, § 823 Rn. 4', 'DE').links).toHaveLength(1);
  });
});

describe('linkCitations: jurisdiction and strictness', () => {
  it('never bends a foreign act onto a same-named act at home, and uses the country to choose', () => {
    const text = 'gemäß § 222 Abs. 1 ZPO';
    expect(links(text, 'DE').map((l) => l[1])).toEqual(['zpo/222']);
    expect(links(text, 'AT')).toEqual([]);
    expect(unresolved(text, 'AT')).toEqual([['§ 222 Abs. 1', 'foreign_act']]);
    // `VwVG` names a Swiss and a German act: the citing document's country picks.
    expect(links('Art. 5 VwVG', 'CH').map((l) => l[1])).toEqual(['cc-1969-737_757_755/5']);
    expect(links('§ 5 VwVG', 'DE').map((l) => l[1])).toEqual(['vwvg/5']);
  });

  it('keeps an act whose name says it is another country’s out, even in a supranational document', () => {
    expect(links('under Article 823 of the Austrian Civil Code and § 823 of the German Civil Code (BGB)', 'CoE').map((l) => l[1])).toEqual(['bgb/823']);
  });

  it('links nothing doubtful: a unit the act lacks, an unknown act, a unit without any act', () => {
    expect(unresolved('§ 9999 BGB, Art. 12 BGFA und § 5 ist anwendbar.', 'DE')).toEqual([
      ['§ 9999', 'unit_not_in_corpus'],
      ['Art. 12', 'act_not_in_corpus'],
      ['§ 5', 'no_act'],
    ]);
    expect(link('Nach § 5 ist das so.', 'DE')).toEqual({ links: [], unresolved: [{ start: 5, end: 8, citation: '§ 5', reason: 'no_act' }] });
  });
});
