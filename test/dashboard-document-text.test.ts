/**
 * The document page's text (src/dashboard/pages/search/pinpoint.ts and text-segments.ts): where a
 * pinpoint stands in texts written as the corpus writes them, the text cut into plain runs,
 * citation links and the highlighted pinpoint, and the cited-by timeline's columns.
 */
import { locatePinpoint, readPinpoint } from '../src/dashboard/pages/search/pinpoint.js';
import { previewEnd, segmentText, type TextLink } from '../src/dashboard/pages/search/text-segments.js';
import { timelineColumns } from '../src/dashboard/pages/search/document/timeline-columns.js';

// § 823 BGB as the corpus holds it
const BGB_823 =
  '§ 823 Schadensersatzpflicht\n\n(1) Wer vorsätzlich oder fahrlässig das Leben, den Körper, die Gesundheit, die Freiheit, das Eigentum oder ein sonstiges Recht eines anderen widerrechtlich verletzt, ist dem anderen zum Ersatz des daraus entstehenden Schadens verpflichtet.\n\n(2) Die gleiche Verpflichtung trifft denjenigen, welcher gegen ein den Schutz eines anderen bezweckendes Gesetz verstößt. Ist nach dem Inhalt des Gesetzes ein Verstoß gegen dieses auch ohne Verschulden möglich, so tritt die Ersatzpflicht nur im Falle des Verschuldens ein.';
const EU_INLINE = "Article 3\n\n1. 'Producer' means the manufacturer of a finished product. 2. Without prejudice to the liability of the producer, any person who imports shall be deemed to be a producer.  3. Where the producer cannot be identified, each supplier shall be treated as its producer.";
const GDPR_6 =
  'Article 6\n\n1. Processing shall be lawful only if and to the extent that at least one of the following applies:\n(a) the data subject has given consent;\n(b) processing is necessary for the performance of a contract;\n(c) processing is necessary for compliance with a legal obligation.\n\n2. Member States may maintain more specific provisions.';
const FR_ARTICLE = "Article L111-1\n\nL'auteur d'une oeuvre de l'esprit jouit sur cette oeuvre d'un droit de propriété.\n\nCe droit comporte des attributs d'ordre intellectuel et moral.\n\nL'existence d'un contrat n'emporte pas dérogation.";
const LISTED = '§ 2 Begriffe\n\n(1) Im Sinne dieses Gesetzes sind\n1. Waren: bewegliche Sachen,\n2. Dienste: Leistungen aller Art,\n3. Rechte: alles andere.\n\n(2) Das Weitere regelt die Verordnung.';

const at = (text: string, pinpoint: string) => {
  const span = locatePinpoint(text, pinpoint);
  return span && text.slice(span.start, span.end);
};

describe('where a pinpoint stands in the text', () => {
  it('reads the levels as lawyers write them', () => {
    expect(readPinpoint('Abs. 1 S. 2')).toEqual({ paragraph: '1', alinea: false, item: null, letter: null, sentence: 2 });
    expect(readPinpoint('Abs. 3 Satz 1')).toMatchObject({ paragraph: '3', sentence: 1 });
    expect(readPinpoint('para. 2, sentence 3')).toMatchObject({ paragraph: '2', sentence: 3 });
    // the `s.` that ends `Abs.` is no sentence
    expect(readPinpoint('Abs. 2')).toMatchObject({ paragraph: '2', sentence: null });
    expect(readPinpoint('Abs. 2 Nr. 3')).toMatchObject({ paragraph: '2', item: '3' });
    expect(readPinpoint('(1)(c)')).toMatchObject({ paragraph: '1', letter: 'c' });
    expect(readPinpoint('Abs 4')).toMatchObject({ paragraph: '4' });
    expect(readPinpoint('alinéa 2')).toMatchObject({ paragraph: '2', alinea: true });
    expect(readPinpoint('lit. a')).toMatchObject({ paragraph: null, letter: 'a' });
  });

  it('finds a German paragraph from its marker to the next one', () => {
    expect(at(BGB_823, 'Abs. 1')).toMatch(/^\(1\) Wer vorsätzlich .* verpflichtet\.$/);
    expect(at(BGB_823, 'Abs. 2')).toMatch(/^\(2\) Die gleiche .* Verschuldens ein\.$/);
    expect(at(BGB_823, 'Abs. 3')).toBeNull();
  });

  it('finds EU paragraphs at a line start or inline after a sentence, and a letter inside', () => {
    expect(at(EU_INLINE, '(2)')).toBe('2. Without prejudice to the liability of the producer, any person who imports shall be deemed to be a producer.');
    expect(at(EU_INLINE, '3')).toBe('3. Where the producer cannot be identified, each supplier shall be treated as its producer.');
    expect(at(GDPR_6, '(1)(b)')).toBe('(b) processing is necessary for the performance of a contract;');
    expect(at(GDPR_6, '(2)')).toBe('2. Member States may maintain more specific provisions.');
  });

  it('narrows to the sentence a pinpoint names inside its paragraph, the marker left out', () => {
    expect(at(BGB_823, 'Abs. 2 S. 2')).toBe('Ist nach dem Inhalt des Gesetzes ein Verstoß gegen dieses auch ohne Verschulden möglich, so tritt die Ersatzpflicht nur im Falle des Verschuldens ein.');
    expect(at(BGB_823, 'Abs. 2 Satz 1')).toBe('Die gleiche Verpflichtung trifft denjenigen, welcher gegen ein den Schutz eines anderen bezweckendes Gesetz verstößt.');
    expect(at(BGB_823, 'Abs. 1 S. 1')).toMatch(/^Wer vorsätzlich .* verpflichtet\.$/);
    // a sentence the paragraph does not have: the paragraph, as before
    expect(at(BGB_823, 'Abs. 2 S. 3')).toMatch(/^\(2\) Die gleiche .* Verschuldens ein\.$/);
    // abbreviations, single letters and ordinals end no sentence
    const dotted = '§ 5 Fristen\n\n(1) Die Frist nach Abs. 2 Nr. 1 beträgt z. B. einen Monat, vgl. Art. 3. Sie beginnt am 1. Januar. Sie endet mit Ablauf des Tages.\n\n(2) Das Weitere.';
    expect(at(dotted, 'Abs. 1 S. 1')).toBe('Die Frist nach Abs. 2 Nr. 1 beträgt z. B. einen Monat, vgl. Art. 3.');
    expect(at(dotted, 'Abs. 1 S. 2')).toBe('Sie beginnt am 1. Januar.');
    expect(at(dotted, 'Abs. 1 S. 3')).toBe('Sie endet mit Ablauf des Tages.');
    expect(at(EU_INLINE, '(2) sentence 1')).toBe('Without prejudice to the liability of the producer, any person who imports shall be deemed to be a producer.');
    // what the page marks: the sentence, not its paragraph
    const span = locatePinpoint(BGB_823, 'Abs. 2 S. 2')!;
    const marked = segmentText(BGB_823, [], span).filter((r) => r.marked).map((r) => r.text).join('');
    expect(marked).toMatch(/^Ist nach dem Inhalt .* Verschuldens ein\.$/);
    expect(marked).not.toContain('Die gleiche Verpflichtung');
  });

  it("counts a French alinéa as the Nth block after the heading, and narrows to a numbered item", () => {
    expect(at(FR_ARTICLE, 'alinéa 2')).toBe("Ce droit comporte des attributs d'ordre intellectuel et moral.");
    expect(at(FR_ARTICLE, 'al. 4')).toBeNull();
    expect(at(LISTED, 'Abs. 1 Nr. 2')).toBe('2. Dienste: Leistungen aller Art,');
    expect(at(LISTED, 'Abs. 2')).toBe('(2) Das Weitere regelt die Verordnung.');
  });

  it('answers null for a pinpoint that names nothing findable', () => {
    expect(locatePinpoint(BGB_823, '')).toBeNull();
    expect(locatePinpoint(BGB_823, 'S. 2')).toBeNull();
  });
});

describe('the text cut into runs', () => {
  const text = 'Nach § 536 Abs. 1 BGB ist die Miete gemindert; § 543 BGB gilt.';
  const link = (citation: string, unit: string): TextLink => ({ start: text.indexOf(unit), end: text.indexOf(unit) + unit.length, to: `/documents?c=${unit}`, citation });

  it('keeps every character once, links the citations and marks the pinpoint', () => {
    const links = [link('§ 536 Abs. 1 BGB', '§ 536 Abs. 1'), link('§ 543 BGB', '§ 543')];
    const mark = { start: text.indexOf('ist'), end: text.indexOf(';') };
    const runs = segmentText(text, links, mark);
    expect(runs.map((r) => r.text).join('')).toBe(text);
    expect(runs.filter((r) => r.link).map((r) => r.text)).toEqual(['§ 536 Abs. 1', '§ 543']);
    expect(runs.filter((r) => r.marked).map((r) => r.text).join('')).toBe('ist die Miete gemindert');
  });

  it('drops links outside the text or overlapping an earlier one, and splits a link at the highlight edge', () => {
    const first = link('§ 536 Abs. 1 BGB', '§ 536 Abs. 1');
    const runs = segmentText(text, [first, { ...first, start: first.start + 2, end: first.end + 4 }, { ...first, start: 500, end: 510 }], { start: first.start + 5, end: text.length });
    expect(runs.filter((r) => r.link).map((r) => r.text)).toEqual(['§ 536', ' Abs. 1']);
    expect(runs.filter((r) => r.link && r.marked).map((r) => r.text)).toEqual([' Abs. 1']);
  });

  it('stops at the preview limit, cut at a space', () => {
    const cut = previewEnd(text, 20);
    expect(text.slice(0, cut)).toBe('Nach § 536 Abs. 1');
    expect(segmentText(text, [link('§ 536 Abs. 1 BGB', '§ 536 Abs. 1')], null, cut).map((r) => r.text).join('')).toBe('Nach § 536 Abs. 1');
    expect(previewEnd(text, 1000)).toBe(text.length);
  });
});

describe("the cited-by timeline's columns", () => {
  it('draws every year from the first to the last, gaps at 0, undated last', () => {
    expect(timelineColumns([{ year: 2019, count: 2 }, { year: 2021, count: 1 }, { year: null, count: 3 }])).toEqual([
      { label: '2019', count: 2 },
      { label: '2020', count: 0 },
      { label: '2021', count: 1 },
      { label: 'undated', count: 3 },
    ]);
    expect(timelineColumns([])).toEqual([]);
    expect(timelineColumns([{ year: null, count: 1 }])).toEqual([{ label: 'undated', count: 1 }]);
  });

  it('sums a tail older than 60 years into its first column', () => {
    const columns = timelineColumns([{ year: 1900, count: 4 }, { year: 1950, count: 1 }, { year: 2024, count: 2 }]);
    expect(columns).toHaveLength(60);
    expect(columns[0]).toEqual({ label: '≤ 1965', count: 5 });
    expect(columns.at(-1)).toEqual({ label: '2024', count: 2 });
  });
});
