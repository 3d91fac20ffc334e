/**
 * Where a pinpoint (`Abs. 1`, `Abs. 2 Nr. 3`, `(1)(c)`, `alinéa 2`, `lit. a`) stands in a
 * provision's text, so the document page can highlight it. Pure: the text and the pinpoint as
 * the resolver or a citation wrote it in, a UTF-16 span of the text out (null: not found).
 *
 * Paragraphs are found by their markers as the corpus writes them: `(1)` (German, Austrian,
 * British texts) or `1.` (EU texts), at the start of a line or inline after a sentence; the
 * paragraph runs to the next marker of the same kind. French `alinéa N` has no marker: it is the
 * Nth block of the text after the heading. A number (`Nr.`, `Z`) or a letter (`lit.`, `(c)`)
 * narrows the span inside the paragraph when its marker is there, and so does a sentence (`S. 2`,
 * `Satz 2`, `sentence 2`), counted from the sentence ends that are not abbreviations (`nthSentence`).
 */

export interface Span {
  start: number;
  end: number;
}

export interface PinpointParts {
  /** Paragraph number as written (`1`, `2a`). */
  paragraph: string | null;
  /** True when the paragraph is a French `alinéa` (a block, not a numbered marker). */
  alinea: boolean;
  /** Numbered item inside the paragraph (`Nr. 3`, `Z 2`). */
  item: string | null;
  /** Lettered item (`lit. a`, `(c)`). */
  letter: string | null;
  /** Sentence number inside the paragraph or item (`S. 2`, `Satz 2`). */
  sentence: number | null;
}

const PARAGRAPH_WORD = /(?:^|[\s(])(?:abs(?:atz)?\.?|para(?:graph)?\.?)\s*(\d+[a-z]?)\b/i;
const ALINEA = /\b(?:alin[ée]a|al\.)\s*(\d+)/i;
const LEADING_NUMBER = /^\s*\(?(\d+[a-z]?)\)?(?=$|[\s(.,])/i;
const ITEM = /\b(?:nr\.?|ziff(?:er)?\.?|z\.?|no\.?|n°)\s*(\d+)/i;
const LETTER_WORD = /\b(?:lit\.?|buchst(?:abe)?\.?|point|letter)\s*\(?([a-z])\)?(?![a-z])/i;
const LETTER_BRACKET = /\(([a-z])\)/i;
// `S. 2` only after a space or at the start: the `s.` that ends `Abs.` is no sentence
const SENTENCE = /(?:^|[\s,])(?:s\.|satz|sent(?:ence)?\.?)\s*(\d+)\b/i;

/** Reads the levels of a pinpoint as written. */
export function readPinpoint(pinpoint: string): PinpointParts {
  const alinea = ALINEA.exec(pinpoint);
  const paragraph = alinea ?? PARAGRAPH_WORD.exec(pinpoint) ?? LEADING_NUMBER.exec(pinpoint);
  const item = ITEM.exec(pinpoint);
  const letter = LETTER_WORD.exec(pinpoint) ?? LETTER_BRACKET.exec(pinpoint);
  const sentence = SENTENCE.exec(pinpoint);
  return {
    paragraph: paragraph?.[1] ?? null,
    alinea: Boolean(alinea),
    item: item?.[1] ?? null,
    letter: letter?.[1]?.toLowerCase() ?? null,
    sentence: sentence ? Number(sentence[1]) : null,
  };
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Marker kinds, most specific first; `unit` is a regexp source for the number or letter. */
const PARAGRAPH_MARKERS = [
  (unit: string) => `(^|\\n)[ \\t]*\\(${unit}\\)\\s`,
  (unit: string) => `(^|\\n)[ \\t]*${unit}\\.\\s`,
  (unit: string) => `(^|\\s)\\(${unit}\\)\\s`,
  (unit: string) => `(^|[.;:]\\s+)${unit}\\.\\s`,
];
const LETTER_MARKERS = [(unit: string) => `(^|\\s)\\(${unit}\\)\\s`, (unit: string) => `(^|\\n)[ \\t]*${unit}\\)\\s`];
const ITEM_MARKERS = [(unit: string) => `(^|\\n)[ \\t]*${unit}\\.\\s`, (unit: string) => `(^|\\s)${unit}\\.\\s`];

/**
 * The span of the unit `unit` inside `within` of `text`: from its marker to the next marker of
 * the same kind (any unit of the kind `any`), else to the end of `within`.
 */
function findMarked(text: string, within: Span, unit: string, any: string, markers: ((unit: string) => string)[]): Span | null {
  const part = text.slice(within.start, within.end);
  for (const marker of markers) {
    const found = new RegExp(marker(escapeRegExp(unit)), 'i').exec(part);
    if (!found) continue;
    const start = found.index + found[1]!.length;
    const next = new RegExp(marker(any), 'gi');
    next.lastIndex = start + 1;
    const following = next.exec(part);
    const end = following ? following.index + following[1]!.length : part.length;
    return trimmed(text, { start: within.start + start, end: within.start + end });
  }
  return null;
}

/** The span without the whitespace at its ends. */
function trimmed(text: string, span: Span): Span {
  let { start, end } = span;
  while (start < end && /\s/.test(text[start]!)) start++;
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  return { start, end };
}

/** The Nth block (blank-line separated) after a heading line such as `Article L111-1`. */
function findAlinea(text: string, n: number): Span | null {
  const blocks: Span[] = [];
  const separator = /\n[ \t]*\n/g;
  let from = 0;
  for (let m = separator.exec(text); ; m = separator.exec(text)) {
    const end = m ? m.index : text.length;
    if (text.slice(from, end).trim()) blocks.push(trimmed(text, { start: from, end }));
    if (!m) break;
    from = m.index + m[0].length;
  }
  const first = blocks[0];
  const body = first && /^(?:article|art\.|§|section)\s/i.test(text.slice(first.start, first.end)) && first.end - first.start < 120 ? blocks.slice(1) : blocks;
  return body[n - 1] ?? null;
}

/** Words that end in a period without ending a sentence (legal German and English), lowercased; any single letter too. */
const ABBREVIATIONS = new Set([
  'abs', 'art', 'nr', 'vgl', 'bzw', 'ggf', 'bspw', 'usw', 'etc', 'lit', 'buchst', 'ziff', 'rn', 'rdnr', 'dr', 'prof', 'st', 'kap',
  'anh', 'anl', 'alt', 'var', 'hs', 'halbs', 'ff', 'gem', 'insb', 'sog', 'no', 'para', 'cf', 'seq', 'al', 'abl', 'bgbl', 'ca',
]);
/** A sentence's end: `.`, `!` or `?` (closing quotes or brackets after it), space, and a capital or an opening quote next. */
const SENTENCE_END = /[.!?]["'»“”)]*\s+(?=[\p{Lu}„"«(§])/gu;
/** A paragraph's or item's own marker at its start (`(2)`, `2.`, `(c)`, `c)`): not a sentence of its own. */
const LEADING_MARKER = /^(?:\(\d+[a-z]?\)|\d+[a-z]?\.|\([a-z]\)|[a-z]\))\s+/i;

/** Words after which a number is a reference (`Art. 3.`, `§ 5.`), so its period may end a sentence. */
const REFERENCE_WORDS = new Set(['§', '§§', 'art', 'abs', 'nr', 's', 'satz', 'ziff', 'article', 'artikel', 'paragraph', 'section']);

/** Whether the period after `before` (a sentence's text so far) ends the sentence. */
function endsSentence(before: string): boolean {
  const word = /([\p{L}\d]+)$/u.exec(before)?.[1] ?? '';
  if (/^\d+[a-z]?$/i.test(word)) {
    // `am 1. Januar` is an ordinal; `nach Art. 3.` ends with a reference
    const previous = /(\S+)\s+\d+[a-z]?$/i.exec(before)?.[1]?.replace(/\.$/, '').toLowerCase();
    return previous !== undefined && REFERENCE_WORDS.has(previous);
  }
  return word.length > 1 && !ABBREVIATIONS.has(word.toLowerCase());
}

/**
 * The `n`th sentence (1-based) of `within` in `text`, its paragraph marker left out; null when the
 * span has fewer sentences. A period after an abbreviation (`Abs.`, `Nr.`, `vgl.`, a single letter)
 * or after an ordinal (`1. Januar`) ends no sentence; after a reference (`Art. 3.`) it does.
 */
export function nthSentence(text: string, within: Span, n: number): Span | null {
  const part = text.slice(within.start, within.end);
  const marker = LEADING_MARKER.exec(part);
  let from = marker ? marker[0].length : 0;
  const starts = [from];
  for (const end of part.matchAll(SENTENCE_END)) {
    if (end.index < from) continue;
    if (part[end.index] === '.' && !endsSentence(part.slice(from, end.index))) continue;
    starts.push(end.index + end[0].length);
    from = end.index + end[0].length;
  }
  const start = starts[n - 1];
  if (start === undefined) return null;
  const stop = starts[n] ?? part.length;
  return trimmed(text, { start: within.start + start, end: within.start + stop });
}

/** Where `pinpoint` stands in `text`; null when its paragraph (or, without one, its item or letter) is not found. */
export function locatePinpoint(text: string, pinpoint: string): Span | null {
  const parts = readPinpoint(pinpoint);
  const whole: Span = { start: 0, end: text.length };
  let span: Span | null = whole;
  if (parts.paragraph) {
    span = parts.alinea ? findAlinea(text, Number(parts.paragraph)) : findMarked(text, whole, parts.paragraph, '\\d+[a-z]?', PARAGRAPH_MARKERS);
    if (!span) return null;
  }
  if (parts.item) span = findMarked(text, span, parts.item, '\\d+', ITEM_MARKERS) ?? (parts.paragraph ? span : null);
  if (span && parts.letter) span = findMarked(text, span, parts.letter, '[a-z]', LETTER_MARKERS) ?? (parts.paragraph || parts.item ? span : null);
  // a sentence narrows a paragraph or item that was found (alone it names nothing findable)
  if (span && span !== whole && parts.sentence) span = nthSentence(text, span, parts.sentence) ?? span;
  return span === whole ? null : span;
}
