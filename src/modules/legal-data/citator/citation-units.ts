/**
 * The citator's grammar of provision citations in running text: a designator (`§`, `§§`,
 * `Art.`, `Artikel`, `article(s)`, `section(s)`, `s.`, `artículo`…) followed by one or more
 * units, each a number with its sub-units as written (`§ 823 Abs. 1 S. 2`, `Article 6(1)(c)`,
 * `article 815-9, alinéa 2`, `Art. 12 lit. a`, `§577 Abs2`), joined into lists and ranges
 * (`§§ 987, 990`, `articles 425, alinéa 1er, et 440`, `Articles 12 to 14`).
 *
 * Which act the units belong to is not read here (see act-designation.ts): this module only
 * says where the units are. Every pattern is anchored and bounded (no backtracking over a run
 * of the text), so a scan is linear in the text's length.
 */

export interface CitedUnit {
  /** Offsets of the unit as written: the designator is included for the first unit of a chain. */
  start: number;
  end: number;
  /** The number as written (`823`, `L. 1234-1`, `57.1`, `22a`). */
  number: string;
  /** The sub-units as written after the number (`Abs. 1 S. 2`, `(1)(c)`, `, alinéa 2`), trimmed. */
  pinpoint: string;
}

export interface CitationChain {
  start: number;
  /** End of the last unit (the act designation, if any, follows). */
  end: number;
  /** The designator as written (`§§`, `Articles`, `art.`). */
  designator: string;
  /** `§§`, `Articles`, `arts.`, `ss.`: a list of provisions rather than sub-units of one. */
  plural: boolean;
  units: CitedUnit[];
}

/** Designators; lower-case `s.`/`ss.` only (`S.` is a German page or sentence). */
const DESIGNATOR =
  /(?<![\p{L}\p{N}])(§§?|[Aa]rt(?:ikel|icles?|[íi]culos?|igos?|t?s?\.)|[Ss]ections?|ss?\.|Paragra(?:ph|f)en?)\s*(?=(?:[LRDA]\.?\s?)?\d)/gu;
/** A unit's number; `bis` before a number is a range (`§§ 346 bis 348`), not the suffix of `article 3 bis`. */
const NUMBER = /^(?:[LRDA]\.?\s?)?\d+(?:\s?[a-z](?![\p{L}]))?(?:[-.]\d+[a-z]?)*(?:\s?(?:bis|ter|quater|quinquies)\b(?!\s*\d))?(?:\s?er\b)?/u;

/** One sub-unit after a number: `Abs. 1`, `S. 2`, `Nr. 3`, `lit. a`, `(1)`, `(c)`, `, alinéa 2`, `I`, `Abs2`. */
const SUB_UNIT = new RegExp(
  String.raw`^(?:,?\s*(?:Abs\.?|Absatz|S\.|S(?=\s+\d)|Satz|Nr\.?|Ziff\.|Ziffer|Z|lit\.?|litera|Buchst\.|Bst\.|UAbs\.|Unterabs\.|Halbsatz|Hs\.|Halbs\.?|Teils\.?|Alt\.|Var\.|al\.|alinéa|alinea|para\.|paragraphe|paragraph|point|sous|§)(?<=\.|§|[\p{L}])(?![\p{L}])\s*(?:\d+\s(?:er|re)(?![\p{L}])|\d+(?:bis|ter|quater|er|re|[a-z])?|\(\d+[a-z]?\)|[a-z](?![\p{L}])\)?|premier)\.?` +
    String.raw`|\s*\(\s*(?:\d+[a-z]?|[a-z]{1,4})\s*\)|\s+[IVX]{1,4}(?![\p{L}\p{N}])|\s?[.-]?[a-z]\)(?![\p{L}])|\s+(?:and|und|et|or|oder|ou)\s+\(\s*(?:\d+[a-z]?|[a-z]{1,4})\s*\)|\s?\d+°|,\s*\d+°` +
    String.raw`|,\s*(?:eerste|tweede|derde|vierde|vijfde|zesde)\s+lid|\s+letzter\s+Satz|\s?(?:lit|Abs|Z)[a-z\d]{1,3}(?![\p{L}\p{N}]))`,
  'u',
);
/** Between two units of a list or range (`devenu`: the article's number since a recodification, also cited). */
const LIST_SEPARATOR = /^(?:,?\s*devenu[es]*\s+|\s*,\s*(?:(?:und|and|et|en|y|e|sowie)\s+)?|\s+(?:und|and|et|en|y|e|sowie|bzw\.|oder|or|ou)\s+|\s*(?:-|–|bis|to|à|au)\s*)(?=(?:[LRDA]\.?\s?)?\d)/u;
/** A connector followed by a bare number, read after a sub-unit: `Abs. 1 und 3` (the same provision). */
const SUB_UNIT_CONTINUATION = /^\s+(?:und|and|et|en|y|sowie|oder|or|ou)\s+\d+[a-z]?(?:er)?(?![\p{L}\p{N}])|^\s*-\s*\d+(?![\p{L}\p{N}.-])/u;
/** `i.V.m. Abs. 2 Satz 1`, `Nr. 3 und Nr. 5`, `al. 1 et al. 2`: a further sub-unit of the same provision. */
const SUB_UNIT_LINK =
  /^\s*(?:i\.\s?V\.\s?m\.|in Verbindung mit|,?\s*(?:und|and|et|sowie|oder|or|ou)|,)\s*(?=(?:Abs\.?|Absatz|S\.?|Satz|Nr\.?|Ziff\.|lit\.|Buchst\.|UAbs\.|al\.|alinéa)\s*\d)/u;
/** `ff.`, `f.`, `et s.`, `et suivants`: the following provisions (the first is the one cited). */
const FOLLOWING = /^\s*(?:ff?\.|et\s+s(?:uiv(?:ants)?)?\.?)/u;

const PLURAL = /^(?:§§|[Aa]rt(?:icles|[íi]culos|igos|t\.|s\.)|[Ss]ections|ss\.|Paragra(?:ph|f)en)$/u;

/** The citation chains of `text`, in text order. */
export function findCitationChains(text: string): CitationChain[] {
  const chains: CitationChain[] = [];
  const designator = new RegExp(DESIGNATOR);
  for (let m = designator.exec(text); m; m = designator.exec(text)) {
    if (chains.length && m.index < chains[chains.length - 1].end) continue;
    const chain = readChain(text, m.index, m[1], m.index + m[0].length);
    if (chain) {
      chains.push(chain);
      designator.lastIndex = chain.end;
    }
  }
  return chains;
}

/**
 * The chain whose first number starts at `numberAt` (`start` is where its first unit's text
 * starts: the designator, or the number itself for a list continued after an act name).
 */
export function readChain(text: string, start: number, designator: string, numberAt: number): CitationChain | null {
  const plural = PLURAL.test(designator);
  const units: CitedUnit[] = [];
  let unitStart = start;
  let at = numberAt;
  for (;;) {
    const number = NUMBER.exec(text.slice(at, at + 40));
    if (!number) break;
    let end = at + number[0].length;
    const subStart = end;
    let subUnits = 0;
    for (let guard = 0; guard < 12; guard++) {
      const rest = text.slice(end, end + 60);
      const sub = SUB_UNIT.exec(rest) ?? SUB_UNIT_LINK.exec(rest);
      const continued = subUnits > 0 && (!plural || !/^\s*,/.test(rest)) ? SUB_UNIT_CONTINUATION.exec(rest) : null;
      const step = sub ?? continued;
      if (!step || step[0].length === 0) break;
      // `article 95, § 1er` is a paragraph of the article; after `§ 63 Abs. 2`, `, § 52` is the next citation.
      if (designator.startsWith('§') && step[0].includes('§')) break;
      if (sub) subUnits++;
      end += step[0].length;
    }
    const following = FOLLOWING.exec(text.slice(end, end + 16));
    if (following) end += following[0].length;
    units.push({ start: unitStart, end, number: number[0].replace(/\s+/g, ' '), pinpoint: text.slice(subStart, end).replace(/^[\s,]+/, '').trim() });
    const separator = LIST_SEPARATOR.exec(text.slice(end, end + 20));
    // Without a plural designator a comma and a number is a sub-unit or the next sentence
    // (`Art. 6, 7` is rare; `Art. 6, 1998` is a date), but `und`/`et` still lists (`Art. 1 und 2`).
    if (!separator || (!plural && /^\s*,/.test(separator[0]) && !/(?:und|and|et|en|y|sowie|devenu[es]*)\s*$/.test(separator[0]))) break;
    // A range goes up (`§§ 28-35`); `§ 49 - 20 - Abs. 3` is a page number in the text, not a range.
    if (/^\s*(?:-|–|bis|to|à|au)\s*$/.test(separator[0]) && !ascends(number[0], text.slice(end + separator[0].length, end + separator[0].length + 12))) break;
    unitStart = end + separator[0].length;
    at = unitStart;
  }
  if (!units.length) return null;
  return { start, end: units[units.length - 1].end, designator, plural, units };
}

/** Whether the number at the start of `next` is above `from` (both read as their leading integers). */
function ascends(from: string, next: string): boolean {
  const a = /\d+/.exec(from);
  const b = /^\D{0,4}?(\d+)/.exec(next);
  return Boolean(a && b && Number(b[1]) > Number(a[0]));
}

/**
 * `§`, `article`/`Art.`, `section`/`s.`: acts are cited with one kind (a German act by `§`, an EU
 * act by `Article`, an Irish one by `section`), so `section 20(3)` after `Article 4 of the VAT
 * Directive` is another act's.
 */
export function designatorKind(designator: string): string {
  if (designator.startsWith('§') || /^Paragra/u.test(designator)) return '§';
  return /^(?:[Ss]ection|ss?\.)/u.test(designator) ? 'section' : 'article';
}
