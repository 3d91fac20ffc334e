/**
 * Legislation citing legislation (issue 37, item 1): an article's own act as the context of its
 * bare units, the way a reader of the act reads `des § 286` in § 280 BGB or `Article 9(2)` in
 * Article 17 GDPR. Used by the linker (link-citations.ts) for a legislation document only.
 */
import { INSTRUMENT_WORD } from './act-designation.js';
import { designatorKind, findCitationChains, type CitationChain } from './citation-units.js';
import type { ActContext, CitatorDocument } from './linker-context.js';

/** A legislation document's own act as context: the act, how its units are designated, and whether the text opens with its own heading. */
export interface HomeAct {
  context: ActContext;
  /** designatorKind of the act's units, read from the document's heading or title; null when neither names a unit. */
  kind: string | null;
  heading: boolean;
}

/** `§ 280 Schadensersatz…` (the text's first chain at its very start) or the title's `§ 280 BGB – …`: how the act designates its units. */
export function ownActOf(own: NonNullable<CitatorDocument['own']>, text: string, chains: CitationChain[]): HomeAct {
  const first = chains[0];
  const heading = first !== undefined && text.slice(0, first.start).trim() === '';
  const titled = findCitationChains(own.title)[0];
  const kind = heading ? designatorKind(first.designator) : titled && own.title.slice(0, titled.start).trim() === '' ? designatorKind(titled.designator) : null;
  return { context: { entry: own.act, reason: 'unit_not_in_corpus', words: '', end: 0 }, kind, heading };
}

/** Self-references of an act (`dieses Gesetzes`, `this Regulation`, `du présent code`): not another instrument. */
const SELF_REFERENCE = /(?:dieses|dieser|diesem|this|the\s+present|du\s+présent|de\s+la\s+présente|le\s+présent|la\s+présente)\s+\p{L}+/giu;

/**
 * Another instrument named in an act's running text: its units may be that instrument's. Narrower
 * than INSTRUMENT_WORD, which scans a few words after a citation: over a whole article,
 * `herabgesetzte` is no `Gesetz` and `Vertrag` (a contract) no treaty, so a German instrument is
 * a capitalised word holding `Gesetz`, `Verordnung`, `Richtlinie`, `Satzung` or `Abkommen`.
 */
const OTHER_INSTRUMENT =
  /(?<![\p{L}])(?:\p{Lu}\p{L}*(?:gesetz|verordnung|richtlinie|satzung|abkommen)\p{L}*|(?:Gesetz|Verordnung|Richtlinie|Satzung|Abkommen|Übereinkommen)\p{L}*|convention|code|loi|décret|arrêté|ordonnance|directive|règlement|traité|charte|protocole|Act|Regulation|Directive|Treaty|Charter|Protocol|Convention|Code|Rules|Statute)(?![\p{L}])/u;

/**
 * The own act for a bare unit of a legislation document that nothing else gives an act: only
 * written as the act writes its units, and only when no instrument other than the act itself
 * (`this Regulation`) is named between the text's start (or the last citation) and the unit.
 */
export function homeAct(text: string, home: HomeAct | null, previous: { context: ActContext; chain: CitationChain } | null, chain: CitationChain): ActContext | null {
  if (!home || home.kind === null || designatorKind(chain.designator) !== home.kind) return null;
  const between = text.slice(previous ? previous.context.end : 0, chain.start).replace(SELF_REFERENCE, ' ');
  return OTHER_INSTRUMENT.test(between) ? null : home.context;
}

/**
 * Legislation's running text: `… des § 280 Abs. 1 Schadensersatz statt der Leistung verlangen`.
 * A capitalised word after a unit is a German noun, not an act, when the clause it opens (to the
 * next `;` or line, 120 characters at most) names no instrument (`… Nummer 4 des
 * Versicherungsaufsichtsgesetzes`, `Companies Act`) and holds no abbreviation or year (`SGB V`,
 * `HeizkostenV`, `2014`): then the unit is its own act's.
 */
export function nounNotAct(after: string): boolean {
  if (!/^,?\s*\p{Lu}\p{Ll}+(?![\p{L}\p{N}])/u.test(after)) return false;
  const clause = after.slice(0, 120).split(/[;\n]/u)[0]!;
  return !INSTRUMENT_WORD.test(clause) && !OTHER_INSTRUMENT.test(clause) && !/[A-ZÄÖÜ]{2,}|\p{Ll}[A-ZÄÖÜ]|\d{4}/u.test(clause);
}
