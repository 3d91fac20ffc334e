/**
 * Citation grammars for legislation. One general shape covers the national styles:
 *
 *   [act ,] <designator> <number> [sub-units] [list | range | ff.] [connector] [act]
 *
 * with designators `§`, `§§`, `Paragraf`, `Art.`, `Artikel`, `article(s)`, `art.`, `section`,
 * `s.`; numbers in German (`823`, `74a`, `74 a`), French (`L. 1234-1`, `R.243-14`, `1er`), EU and
 * Swiss forms; sub-units (Abs., S./Satz, Nr., lit./Buchst., Halbsatz, Alt., UAbs., `(1)(a)`,
 * paragraphe, alinéa, point, `1°`) which resolve to the article and are reported; lists
 * (`§§ 433, 434`, `articles … et …`), ranges and `ff.`/`f.`; `i.V.m.` chains (the first provision
 * is the one resolved); and EU act numbers (`Regulation (EU) 2016/679`, `Directive 95/46/EC`).
 */

export type UnitType = 'paragraph' | 'article' | 'section';

export interface ParsedCitation {
  unitType: UnitType | null;
  /** The provision's number as written (`L. 1234-1`); null for a reference to a whole act. */
  unit: string | null;
  subUnits: string[];
  /** Further numbers of a list or range. */
  others: string[];
  /** `ff.` / `f.` / `et suivants`. */
  following: boolean;
  /** The act as written (`BGB`, `du Code civil`, `Regulation (EU) 2016/679`), connectors stripped. */
  act: string;
  /** CELEX numbers the act designation can stand for (EU acts cited by number), best first. */
  celex: string[];
  /** A paragraph named inside an article (`Art. 229 § 3 EGBGB` -> `3`); null when none. */
  nested: string | null;
}

/** `entsprechend`, `analog`, `a.F.`, `n.F.`… after a citation: the provision is the same one. */
const QUALIFIER = /(?:^|[\s,])(?:entsprechend|entspr\.|analog|a\.\s?F\.?|n\.\s?F\.?|aF|nF|a\.\s?E\.|i\.\s?d\.\s?F\.?|\((?:a|n)\.\s?F\.\)|m\.\s?w\.\s?N\.?|\(?analog\)?)$/i;

/** A sub-unit written after the act (`du Code civil, al. 1er`, `BGB, Abs. 2`). */
const TRAILING_SUB_UNIT = /,\s*(?:al\.|alinéa|alinea|Abs\.|Absatz|Satz|S\.|Nr\.|lit\.|Buchst\.|paragraphe|point|§)\s*[\p{L}\d]{1,8}\.?\)?$/u;
/** `anc.`, `ancien`, `nouveau` before a French code: the article is the same document. */
const LEADING_QUALIFIER = /^(?:anc\.|ancien|nouv\.|nouveau)\s+/i;

/** The act text without trailing qualifiers (at most a few, from the end). */
function stripQualifiers(act: string): string {
  // `the Data Protection Act 2018 (s. 60)`: the brackets around the provision are not the act's.
  let end = act.length;
  while (end > 0 && '([ '.includes(act[end - 1])) end--;
  let out = act.slice(0, end).replace(/^[)\]\s]+/, '').replace(LEADING_QUALIFIER, '');
  for (let i = 0; i < 3; i++) {
    const m = TRAILING_SUB_UNIT.exec(out.slice(-32));
    if (!m) break;
    out = out.slice(0, out.length - m[0].length).trimEnd();
  }
  for (let i = 0; i < 4; i++) {
    const m = QUALIFIER.exec(out.slice(-24));
    if (!m) break;
    out = out.slice(0, out.length - (m[0].length)).replace(/[\s,]+$/, '');
  }
  return out;
}

const DESIGNATOR =
  /(?:^|[\s,;(])(§§?|paragrafen|paragraf|paragraphen|paragraph(?=\s*\d{1,4}\s?[a-z]?\s+(?:des|der|Abs\.|Absatz|Satz)\s)|artikel|articles|article|artt?\.?|arts\.|sections?|secs?\.|ss?\.|s(?=\s+\d))(?=\s*[LRDAO]?\.?\s*\d)/i;
/** Designators that only count at the start or after a comma (`S.` is Satz after a number). */
const START_ONLY = /^(?:ss?\.|secs?\.|s)$/i;
const PARAGRAPH_WORD = /^(?:paragraph|paragraf|paragraphen|paragrafen)$/i;

const NUMBER = /^\s*((?:(?:LO|[LRDA])\s?\.?\s?\*?\s?)?\d+(?:\s?[a-z](?![a-zäöüß.]))?(?:[A-Z](?![A-Za-z]))?(?:\s?-\s?\d+[a-z]?)*(?:\s?(?:er|bis|ter|quater|quinquies|sexies|septies|octies|nonies|decies)\b(?!\s*\d))?)/;

const SUB_UNITS: RegExp[] = [
  /^(?:Abs(?:atz)?\.?|Abschn\.?)\s*\d+[a-z]?/i,
  /^(?:S\.|Satz|Sätze)\s*\d+/,
  /^S\s+\d+(?![\d/])/,
  /^(?:Nr\.?|Nrn\.?|Nummer|Ziff(?:er)?\.?|Ziff\.)\s*\d+[a-z]?/i,
  /^(?:lit\.?|litera|Buchst(?:abe)?\.?|Bst\.?)\s*[a-z]{1,3}\b\)?/i,
  /^(?:Halbs(?:atz)?\.?|Hs\.?|HS\.?|Halbsatz)\s*\d+/i,
  /^\d+\.\s*(?:Halbsatz|Halbs\.?|Hs\.?|Alt(?:ernative)?\.?|Var(?:iante)?\.?|Fall)/i,
  /^(?:Alt(?:ernative)?\.?|Var(?:iante)?\.?|Fall)\s*\d+/i,
  /^(?:UAbs\.?|Unterabs(?:atz)?\.?|Unterabsatz|Uabs\.?)\s*\d+/i,
  /^\(\s*[0-9a-z]{1,5}\s*\)/i,
  /^(?:paragraph|para\.?|paras?\.|paragraphe|par\.|§)\s*\(?\d+[a-z]?\)?/i,
  /^(?:alinéas?|alineas?|al\.)\s*(?:\d+\s*(?:er|re|e|ème)?\b|premier|première|1er|dernier)/i,
  /^(?:premier|première|deuxième|second|seconde|troisième|quatrième|cinquième|sixième|dernier|avant-dernier|\d+e|\d+ème|\d+er)\s+(?:alinéa|al\.)/i,
  /^(?:point|points|pt\.?|indent|tiret)\s*\(?[0-9a-z]{1,4}\)?/i,
  /^(?:sentence|subparagraph|sub-paragraph|subsection|sub-section|clause|item)\s*\(?[0-9a-z]{1,4}\)?/i,
  /^(?:first|second|third|fourth|fifth|last)\s+(?:subparagraph|sentence|indent|paragraph)/i,
  /^\d+\s*°/,
  /^[a-z]\)(?=\s|$|,)/,
  // German Roman-numeral paragraphs, optionally with the sentence: `§ 812 I 2`, `Art. 20 III`.
  /^[IVX]{1,5}(?:\s+\d{1,2}(?![\d/]|\.\d))?(?=[\s,;)]|$)/,
  // `1. Alt.` forms are above; a bare sentence number after a sub-unit: `Abs. 1 2` is rare, skipped.
];

const LIST_SEPARATOR = /^(?:,|;|\bund\b|\bu\.|\bsowie\b|\boder\b|\bet\b|\band\b|\bor\b|&|\bbis\b|\bà\b|\bto\b|\bthrough\b|-|–)\s*/i;
const FOLLOWING = /^(?:ff\.?|f\.|f(?=\s|$)|et\s+s(?:uiv(?:ants)?)?\.?|et\s+seq\.?|sqq?\.?|seqq\.?|and\s+following)/i;
const CHAIN = /\s+(?:i\.?\s?V\.?\s?m\.?|iVm|in\s+Verbindung\s+mit|in\s+Verb\.\s+mit|read\s+(?:in\s+conjunction\s+)?with|in\s+conjunction\s+with|combiné\s+avec|lu\s+en\s+combinaison\s+avec|ensemble)\s+/i;

const CONNECTORS =
  /^(?:[,;:]\s*|d'\s*|de\s+l'\s*|(?:of\s+the|of|de\s+la|du|des|de|der|dem|den|the|in|im|zum|zur|to|von|vom|aus|nach|gemäß|gem\.|under|selon|en|del|della|dello|di|dell')(?:\s+|$))/i;

/** Splits off a `§ … i.V.m. § …` chain: the parts in order. */
function chainParts(reference: string): string[] {
  return reference.split(CHAIN).map((p) => p.trim()).filter(Boolean);
}

const CONNECTOR_AT = new RegExp(CONNECTORS.source.slice(1), 'iy');
const isSpace = (c: string) => /\s/.test(c);

/**
 * The text without its leading connectors (`of the`, `du`, `gemäß`…), leading `,;:.` and trailing
 * `,;:`, and spaces. Walks indexes instead of re-slicing the string for each connector, so a
 * text of a million connectors is stripped in linear time.
 */
function stripConnectors(text: string): string {
  let end = text.length;
  while (end > 0 && (isSpace(text[end - 1]) || ',;:'.includes(text[end - 1]))) end--;
  const body = text.slice(0, end);
  let start = 0;
  for (;;) {
    while (start < end && (isSpace(body[start]) || ',;:.'.includes(body[start]))) start++;
    CONNECTOR_AT.lastIndex = start;
    const connector = CONNECTOR_AT.exec(body);
    if (!connector || connector[0].length === 0) break;
    start += connector[0].length;
  }
  return body.slice(start);
}

function unitTypeOf(designator: string): UnitType {
  if (designator.startsWith('§') || PARAGRAPH_WORD.test(designator)) return 'paragraph';
  if (/^(?:s|ss|sec|secs|section|sections)\.?$/i.test(designator)) return 'section';
  return 'article';
}

/** Consumes sub-units, lists, ranges and `ff.` after a provision number. */
function consumeTail(text: string, parsed: ParsedCitation): string {
  let rest = text;
  for (let guard = 0; guard < 40; guard++) {
    const trimmed = rest.replace(/^[\s,]+/, (m) => (m.includes(',') ? ', ' : ' ')).trimStart();
    const bare = trimmed.replace(/^,\s*/, '');
    let matched = false;
    for (const re of SUB_UNITS) {
      const m = re.exec(bare);
      if (m) {
        parsed.subUnits.push(m[0].trim());
        rest = bare.slice(m[0].length);
        matched = true;
        break;
      }
    }
    if (matched) continue;
    const following = FOLLOWING.exec(bare);
    if (following) {
      parsed.following = true;
      rest = bare.slice(following[0].length);
      continue;
    }
    const sep = LIST_SEPARATOR.exec(trimmed);
    if (sep) {
      const tail = trimmed.slice(sep[0].length);
      const sub = SUB_UNITS.map((re) => re.exec(tail)).find(Boolean);
      if (sub) {
        parsed.subUnits.push(sub[0].trim());
        rest = tail.slice(sub[0].length);
        continue;
      }
      const after = trimmed.slice(sep[0].length).replace(/^(?:§§?|art(?:icles?|s?\.)?|Artikel|sections?|ss?\.)\s*/i, '');
      const num = NUMBER.exec(after);
      if (num && !/^\s*\d+\s*\/\s*\d+/.test(after)) {
        parsed.others.push(num[1].trim());
        rest = after.slice(num[0].length);
        continue;
      }
    }
    break;
  }
  return rest;
}

const EU_ACT =
  /(?:\b|(?<=[a-zäöüß]-?)(?=verordnung|richtlinie))(regulation|directive|decision|framework\s+decision|verordnung|richtlinie|beschluss|rahmenbeschluss|règlement|reglement|décision|decision-cadre|reglamento|directiva|regolamento|direttiva|decisione|verordening|richtlijn|besluit|VO|RL|Dir\.?|Reg\.?|Rl\.)\s*(?:\(\s*(?:EU|EC|EEC|EG|EWG|UE|CE|CEE|EGKS|Euratom|EU,\s*Euratom)\s*\))?\s*(?:(No|Nr|n°|nº|núm|n\.)\.?\s*)?(\d{1,4})\s*\/\s*(\d{1,4})(?:\s*\/\s*(?:EU|EC|EEC|EG|EWG|UE|CE|CEE|EGKS|Euratom))?/i;

/** CELEX numbers an EU act number can stand for (`Regulation (EU) 2016/679` -> 32016R0679). */
export function euActCelex(text: string): string[] {
  const m = EU_ACT.exec(text);
  if (!m) return suffixedActCelex(text);
  const word = m[1].toLowerCase();
  const type = /^(?:regulation|verordnung|règlement|reglement|reglamento|regolamento|verordening|vo$|reg)/.test(word)
    ? 'R'
    : /^(?:directive|richtlinie|directiva|direttiva|richtlijn|rl|dir)/.test(word)
      ? 'L'
      : /^(?:framework|rahmen|decision-cadre)/.test(word)
        ? 'F'
        : 'D';
  const a = m[3];
  const b = m[4];
  const year = (y: string) => (y.length === 4 ? y : Number(y) >= 50 ? `19${y.padStart(2, '0')}` : `20${y.padStart(2, '0')}`);
  const celex = (y: string, n: string) => `3${year(y)}${type}${n.padStart(4, '0')}`;
  const plausibleYear = (y: string) => y.length === 2 || (y.length === 4 && Number(y) >= 1950 && Number(y) <= 2099);
  const out: string[] = [];
  // Old-style regulations are `No number/year`; directives and post-2015 acts are `year/number`.
  if (m[2] && plausibleYear(b)) out.push(celex(b, a));
  if (plausibleYear(a)) out.push(celex(a, b));
  if (!m[2] && plausibleYear(b) && b.length === 4) out.push(celex(b, a));
  return [...new Set(out)];
}

/**
 * `93/13/EWG`, `Verbraucherkreditrichtlinie 2008/48/EG`: a number with the Community suffix is a
 * directive or a decision (regulations before 2015 are `Nr. 593/2008`); a word before it
 * (`…richtlinie`, `…verordnung`, `directive`) decides, else directive first.
 */
const SUFFIXED = /(?:^|[^\d/])(\d{2}|\d{4})\s*\/\s*(\d{1,4})\s*\/\s*(?:EU|EG|EWG|EC|EEC|CE|CEE|UE|Euratom)(?![\p{L}])/iu;
function suffixedActCelex(text: string): string[] {
  const m = SUFFIXED.exec(text);
  if (!m) return [];
  const year = m[1].length === 4 ? m[1] : Number(m[1]) >= 50 ? `19${m[1]}` : `20${m[1]}`;
  const n = m[2].padStart(4, '0');
  const words = text.slice(0, m.index + 1).toLowerCase();
  if (/(?:verordnung|regulation|règlement|\bvo)\s*$|(?:verordnung|regulation|règlement)\b/.test(words)) return [`3${year}R${n}`];
  if (/(?:beschluss|decision|décision|entscheidung)\b/.test(words)) return [`3${year}D${n}`];
  return [`3${year}L${n}`, `3${year}D${n}`];
}

/** Parses a legislation citation, or returns null when the reference is not one. */
export function parseCitation(reference: string): ParsedCitation | null {
  const parts = chainParts(reference);
  if (parts.length === 0) return null;
  const first = parseOne(parts[0]);
  if (!first) {
    // A whole act: `DSGVO`, `Directive 95/46/EC`, `Code civil`.
    const act = stripConnectors(parts[0]);
    if (!/\p{L}{2,}/u.test(act) || /^(?:§+|art\.?|arts?\.|articles?|artikel|sections?|s\.)$/i.test(act)) return null;
    if (endsWithNumber(act) && !euActCelex(act).length && !/\b(?:1[89]|20)\d{2}$/.test(act)) return null;
    return { unitType: null, unit: null, subUnits: [], others: [], following: false, act, celex: euActCelex(act), nested: null };
  }
  if (!first.act) {
    // `§ 823 Abs. 1 i.V.m. § 249 BGB`: the act named last applies to the whole chain.
    for (const part of parts.slice(1).reverse()) {
      const next = parseOne(part);
      const act = next ? next.act : stripConnectors(part);
      if (act) {
        first.act = act;
        first.celex = euActCelex(act);
        break;
      }
    }
  }
  return first;
}

/**
 * Whether `act` ends with a number (`Code 12`, `Act 5 -`). Only the last characters are read:
 * an unanchored `\d+\s*[-,]?\s*$` over the whole text retries every digit run and is
 * quadratic on a long one.
 */
function endsWithNumber(act: string): boolean {
  return /\d\s*[-,]?\s*$/.test(act.trimEnd().slice(-3));
}

function parseOne(text: string): ParsedCitation | null {
  // Find the first designator that counts (`s.` only at the start or after a comma). One pass of
  // a global regex: re-slicing the text after each designator that does not count was quadratic.
  const designators = new RegExp(DESIGNATOR.source, 'gi');
  for (let match = designators.exec(text); match; match = designators.exec(text)) {
    const designator = match[1];
    const start = match.index + match[0].length - designator.length;
    if (!START_ONLY.test(designator) || startsOrFollowsComma(text, start)) return parseAt(text, start, designator);
  }
  return null;
}

/** Whether only spaces, or a comma and spaces, stand before `position`. */
function startsOrFollowsComma(text: string, position: number): boolean {
  let i = position - 1;
  while (i >= 0 && isSpace(text[i])) i--;
  // `DPA 2018 s 7`, `FOI Act 2014 s. 15`: after an act's year too.
  return i < 0 || text[i] === ',' || text[i] === '(' || /(?:^|\s)(?:1[6-9]|20)\d{2}$/.test(text.slice(Math.max(0, i - 5), i + 1));
}

const NESTED = /^\s*(?:§§?|Paragraph|Paragraf)\s*(\d{1,4}(?:\s?[a-z](?![a-zäöüß.]))?)(?!\d)/u;

function parseAt(text: string, start: number, designator: string): ParsedCitation | null {
  const afterDesignator = text.slice(start + designator.length);
  const num = NUMBER.exec(afterDesignator);
  if (!num) return null;
  const parsed: ParsedCitation = {
    unitType: unitTypeOf(designator),
    unit: num[1].trim(),
    subUnits: [],
    others: [],
    following: /^§§$/.test(designator) ? false : false,
    act: '',
    celex: [],
    nested: null,
  };
  let tail = afterDesignator.slice(num[0].length);
  // French article numbers with a letter after a space: `L. 80 A`, `L. 16 B`.
  const letter = /^[LRD]/i.test(parsed.unit!) ? /^\s([A-Z])(?=[\s,]|$)/.exec(tail) : null;
  if (letter) {
    parsed.unit = `${parsed.unit} ${letter[1]}`;
    tail = tail.slice(letter[0].length);
  }
  // `Art. 229 § 3 EGBGB`: a paragraph inside an article.
  const nested = parsed.unitType === 'article' ? NESTED.exec(tail) : null;
  if (nested) {
    parsed.nested = nested[1].replace(/\s+/g, '');
    parsed.subUnits.push(`§ ${parsed.nested}`);
    tail = tail.slice(nested[0].length);
  }
  const rest = consumeTail(tail, parsed);
  const before = stripQualifiers(stripConnectors(text.slice(0, start)));
  const after = stripQualifiers(stripConnectors(rest));
  parsed.act = after || before;
  parsed.celex = euActCelex(parsed.act);
  if (!parsed.celex.length && after && before) {
    const celex = euActCelex(before);
    if (celex.length) {
      parsed.act = before;
      parsed.celex = celex;
    }
  }
  return parsed;
}
