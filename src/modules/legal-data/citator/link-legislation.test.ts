/**
 * Legislation citing legislation: real articles of the BGB and the GDPR linked with their own act
 * as the context of a bare unit (`des § 286` in § 280 BGB, `Article 9(2)` in Article 17 GDPR),
 * over an index of real corpus records. The expected links were written from the texts before
 * the linker was run on them.
 */
import type { LegalDocument } from '../../../domain/legal-document.js';
import { parseDocumentRecord } from '../corpus/corpus-reader.js';
import { readRecords } from '../../../../test/fixtures/corpus-slice.js';
import { referenceIndexOf } from '../../../../test/fixtures/reference-index.js';
import type { ReferenceIndex } from '../resolver/reference-index.js';
import { citatorDocument } from './citation-graph.js';
import { linkCitations } from './link-citations.js';

const BGB = ['bgb', 'bgb/241', 'bgb/275', 'bgb/280', 'bgb/281', 'bgb/282', 'bgb/283', 'bgb/286', 'bgb/536', 'bgb/536a'];
const GDPR = ['32016R0679', '32016R0679/6', '32016R0679/8', '32016R0679/9', '32016R0679/17', '32016R0679/21'];
const pick = (ids: string[]) => (r: Record<string, unknown>) => ids.includes(String(r.source_id)) && (r.language === undefined || r.language === null || r.language === 'en' || r.language === 'de');

let index: ReferenceIndex;
const documents = new Map<string, LegalDocument>();

beforeAll(async () => {
  const records = [...(await readRecords('legislation/DE-GesetzeImInternet.jsonl.gz', BGB.length, pick(BGB))), ...(await readRecords('legislation/EU-EUR-Lex.jsonl.gz', GDPR.length, pick(GDPR)))];
  for (const record of records) {
    const parsed = parseDocumentRecord(record);
    if (parsed.ok) documents.set(parsed.value.source_id, parsed.value);
  }
  index = await referenceIndexOf(records);
});

/** The links of a corpus article: [unit as written, cited source_id, pinpoint, carried]. */
function linksOf(sourceId: string) {
  const doc = documents.get(sourceId)!;
  const input = citatorDocument(index, doc)!;
  const result = linkCitations(index, input);
  return {
    links: result.links.map((l) => [doc.text.slice(l.start, l.end), l.target.source_id, l.pinpoint, l.carried]),
    unresolved: result.unresolved.map((u) => [doc.text.slice(u.start, u.end), u.reason]),
  };
}

describe('linkCitations: legislation citing legislation', () => {
  it('reads a bare unit of a BGB article as a unit of the BGB, and not the article’s own heading', () => {
    expect(linksOf('bgb/280').links).toEqual([
      ['§ 286', 'bgb/286', '', true],
      ['§ 281', 'bgb/281', '', true],
      ['§ 282', 'bgb/282', '', true],
      ['§ 283', 'bgb/283', '', true],
    ]);
    expect(linksOf('bgb/280').unresolved).toEqual([]);
    // the heading names § 241 Abs. 2 (a citation) after the article's own number (none)
    expect(linksOf('bgb/282').links).toEqual([
      ['§ 241 Abs. 2', 'bgb/241', 'Abs. 2', true],
      ['§ 241 Abs. 2', 'bgb/241', 'Abs. 2', true],
      ['§ 280 Abs. 1', 'bgb/280', 'Abs. 1', true],
    ]);
    expect(linksOf('bgb/536a').links).toEqual([
      ['§ 536', 'bgb/536', '', true],
      ['§ 536', 'bgb/536', '', true],
    ]);
  });

  it('keeps units the act lacks in the corpus as unresolved, never as another article', () => {
    const { links, unresolved } = linksOf('bgb/281');
    expect(links).toEqual([['§ 280 Abs. 1', 'bgb/280', 'Abs. 1', true]]);
    // §§ 346 bis 348, not in this slice of the corpus: a range (its two ends), not the unit `346 bis` of `article 346 bis`
    expect(unresolved).toEqual([
      ['§§ 346', 'unit_not_in_corpus'],
      ['348', 'unit_not_in_corpus'],
    ]);
    expect(linksOf('bgb/283').links).toEqual([
      ['§ 275 Abs. 1', 'bgb/275', 'Abs. 1', true],
      ['§ 280 Abs. 1', 'bgb/280', 'Abs. 1', true],
      ['§ 281 Abs. 1 Satz 2 und 3 und Abs. 5', 'bgb/281', 'Abs. 1 Satz 2 und 3 und Abs. 5', true],
    ]);
  });

  it('reads `Article 9(2)` in an article of the GDPR as Article 9 GDPR, with its pinpoint', () => {
    expect(linksOf('32016R0679/17').links).toEqual([
      ['Article 6(1)', '32016R0679/6', '(1)', true],
      ['Article 9(2)', '32016R0679/9', '(2)', true],
      ['Article 21(1)', '32016R0679/21', '(1)', true],
      ['Article 21(2)', '32016R0679/21', '(2)', true],
      ['Article 8(1)', '32016R0679/8', '(1)', true],
      ['Article 9(2)', '32016R0679/9', '(2)', true],
      ['Article 9(3)', '32016R0679/9', '(3)', true],
    ]);
  });

  it('does not link an act’s own text (its articles are linked), nor a unit after another instrument is named', () => {
    expect(citatorDocument(index, documents.get('bgb')!)).toBeNull();
    const article = documents.get('bgb/280')!;
    const text = '§ 280 Test\n\n(1) Nach der Verordnung über Heizkostenabrechnung gilt § 7 entsprechend; nach § 286 nicht. Es gilt § 5 Heizkostenverordnung.';
    const result = linkCitations(index, citatorDocument(index, { ...article, text })!);
    expect(result.links).toEqual([]);
    expect(result.unresolved.map((u) => [text.slice(u.start, u.end), u.reason])).toEqual([
      ['§ 7', 'no_act'],
      ['§ 286', 'no_act'],
      ['§ 5', 'act_not_in_corpus'],
    ]);
  });
});
