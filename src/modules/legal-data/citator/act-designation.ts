/**
 * What follows (or precedes) a chain of cited units, read as a reader reads it: an act named
 * there (`… BGB`, `… du code civil`, `… of the GDPR`), a pointer back to the act cited before
 * (`du même code`, `of that Act`), a heading rather than a citation (`Article 1er : La requête
 * est rejetée`), a commentary's marginal note (`§ 38 Rn. 4`), or nothing (a bare unit, whose act
 * the context gives).
 */
import type { CitationChain } from './citation-units.js';

export type Designation =
  /** Words after the chain that may name an act, up to the next chain; resolved by the caller. */
  | { kind: 'words'; from: number; to: number; looksLikeAct: boolean }
  /** `du même code`, `de cette loi`, `of that Act`: the act of the preceding citation. */
  | { kind: 'same-act'; end: number }
  /** A heading (`Article 2 : Le présent arrêt…`) or a commentary note (`§ 38 Rn. 4`): no citation. */
  | { kind: 'not-a-citation' };

const SAME_ACT =
  /^,?\s*(?:du\s+même\s+code|dudit\s+code|de\s+ce\s+code|de\s+la\s+même\s+loi|de\s+ladite\s+loi|de\s+cette\s+loi|de\s+la\s+loi\s+précitée|du\s+même\s+(?:texte|règlement|décret)|of\s+(?:that|the\s+same|this)\s+(?:Act|Regulation|Directive|Code)|(?:desselben|dieses)\s+(?:Gesetzes|Codes|Kodex))\b/iu;
/** A commentary's marginal number or note right after the unit: `§ 38 Rn. 4`, `Art. 12 N 149`. */
const COMMENTARY = /^,?\s*(?:Rn\.?|Rdnr\.?|Rz\.?|Randnr\.?|N\.?)\s*\d/u;
/** `Article 1er : …` in a judgment's operative part. */
const HEADING_COLON = /^\s*:/u;
/** Words that introduce an act's name after a unit (`in beiden Satzungen`, `aus Kapitel III` too). */
const CONNECTOR = /^,?\s*(?:of\s+the|of|du|de\s+la|de\s+l['’]|des|de|der|des|dem|van\s+de|van\s+het|van|del|de\s+los|della|dello|do|da|in|im|aus)\s+\S/iu;
/** Words naming a legal instrument: when one is named near a unit (`§, 1er de la convention`), the unit is that instrument's. */
const INSTRUMENT =
  String.raw`(?:convention|code|loi|décret|arrêté|ordonnance|directive|règlement|traité|charte|protocole|Act|Regulation|Directive|Treaty|Charter|Protocol|Convention|Code|Rules|Statute|\p{L}*gesetz\p{L}*|\p{L}*verordnung\p{L}*|\p{L}*richtlinie\p{L}*|\p{L}*satzung\p{L}*|\p{L}*abkommen\p{L}*|\p{L}*übereinkommen\p{L}*|\p{L}*ordnung\p{L}*)`;
const INSTRUMENT_NAMED = new RegExp(
  String.raw`(?:^|[\s,;(])(?:de\s+la|du|des|de\s+l['’]|of\s+the|of|der|des|dem|the)\s+(?:(?:\p{L}+\s+){0,2}?(?i:` + INSTRUMENT + String.raw`)(?![\p{L}])|(?:[\p{L}\d]+\s+){0,3}?[A-ZÄÖÜ]{2,}(?![\p{L}]))`,
  'u',
);
/** Leading dashes, commas, page numbers (`- 20 -`) and sub-units (`Abs. 3`, `Satz 1`, `Nr. 1`) before what follows a unit. */
const LEFT_SUB_UNITS = /^(?:[\s,–-]+|\d{1,4}(?=\s*[–-])|(?:Abs\.?|Absatz|Satz|S\.|Nr\.?|lit\.|Buchst\.|Halbs\.?|Alt\.)\s*\d*[a-z]?(?![\p{L}]))*/u;
/** An instrument named anywhere in a stretch of text (between a citation and a unit carrying its act). */
export const INSTRUMENT_WORD = new RegExp(String.raw`(?<![\p{L}])` + INSTRUMENT + String.raw`(?![\p{L}])`, 'u');
/** A law report's collection keyed by provisions (`SozR 3-1500 § 160 Nr 31`, `Buchholz 310 § 132`): an entry, not a citation. */
const REPORTER_BEFORE = /(?:SozR|Buchholz)\s+[\d\s.-]{1,12}$/u;
/** An abbreviation-like token: at least two capitals (`ZPO`, `FamFG`, `EuKtPVO`, `BGFA`, `SGB`). */
const ABBREVIATION = /^,?\s*(?:[A-ZÄÖÜ][\p{L}-]*[A-ZÄÖÜ][\p{L}\d-]*|[A-ZÄÖÜ]{2,})(?![\p{L}])/u;
/**
 * A capitalised word right after a bare unit: an act's name (`Data Act`, `Freedom of Information
 * Act`, `Working Party`), even in German, where the words after a cited unit are sub-units,
 * verbs or articles (`§ 122a wird`, `Art. 5 des`) unless an act is named.
 */
const CAPITALISED = /^,?\s*\p{Lu}\p{Ll}+/u;

/**
 * How the chain's act is given. `nextStart` bounds the words read (the next chain's start), so
 * an act named after the next citation is never taken for this one's.
 */
export function readDesignation(text: string, chain: CitationChain, nextStart: number): Designation {
  const after = text.slice(chain.end, Math.min(nextStart, chain.end + 200));
  const same = SAME_ACT.exec(after);
  if (same) return { kind: 'same-act', end: chain.end + same[0].length };
  const bare = chain.units.length === 1 && !chain.units[0].pinpoint;
  if (REPORTER_BEFORE.test(text.slice(Math.max(0, chain.start - 24), chain.start)) || COMMENTARY.test(after) || (bare && HEADING_COLON.test(after)) || (bare && startsLine(text, chain.start) && /^\s*(?:\n|$)/.test(after))) {
    return { kind: 'not-a-citation' };
  }
  // Sub-units the grammar left (`- Abs. 3 Satz 1 Nr. 1 HmbVwVfG`) do not hide the act after them.
  const rest = after.replace(LEFT_SUB_UNITS, '');
  const looksLikeAct = [after, rest].some((t) => CONNECTOR.test(t) || ABBREVIATION.test(t) || CAPITALISED.test(t)) || INSTRUMENT_NAMED.test(after.slice(0, 80));
  return { kind: 'words', from: chain.end, to: chain.end + after.length, looksLikeAct };
}

/** Whether only spaces stand between the previous line break and `at`. */
function startsLine(text: string, at: number): boolean {
  const before = text.slice(Math.max(0, at - 20), at);
  return /(?:^|\n)[ \t]*$/.test(before) && (at < 20 ? true : before.includes('\n'));
}

/**
 * Words before the chain that may name its act (`ABGB §914`, `GKG § 38`, `C. civ., art. 1240`):
 * the abbreviation-like token right before the designator, or null.
 */
export function actBefore(text: string, chain: CitationChain): { start: number; words: string } | null {
  const before = text.slice(Math.max(0, chain.start - 24), chain.start);
  const m = /(?:^|[\s(;])((?:[A-ZÄÖÜ][\p{L}-]*[A-ZÄÖÜ][\p{L}\d-]*|C\.\s?[a-zé]{2,6}\.)),?\s*\(?\s*$/u.exec(before);
  return m ? { start: chain.start - before.length + before.lastIndexOf(m[1]), words: m[1] } : null;
}

/** `i.V.m.`, `und`, `, et l'`, `,` between two chains: the act named after the second is the first's too. */
export function sharesNextAct(text: string, chain: CitationChain, next: CitationChain | undefined): boolean {
  if (!next) return false;
  const between = text.slice(chain.end, next.start);
  return (
    /^\s*(?:,|;)?\s*(?:i\.\s?V\.\s?m\.|iVm|in\s+Verbindung\s+mit|und|sowie|bzw\.|oder|and|or|et|ou|read\s+(?:in\s+conjunction\s+)?with|in\s+conjunction\s+with|combiné\s+avec|ensemble)?\s*(?:l['’]|les|the|des)?\s*$/iu.test(between) &&
    between.trim() !== ';'
  );
}
