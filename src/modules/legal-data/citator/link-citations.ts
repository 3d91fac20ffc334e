/**
 * The in-context linker of the citator (issue 37): every provision a document cites, resolved
 * against the corpus with the strict resolver, the way a reader resolves it.
 *
 * - The document's country is the hint (`VwVG` in a Swiss decision is the Swiss act).
 * - An act of another jurisdiction is never bent onto a same-named act: a link to a national act
 *   is kept only when the citing document is of that country, or of a supranational source (an EU
 *   or Council of Europe report on a national case); EU, CoE and international acts link from
 *   everywhere. `§ 587 ZPO` in an Austrian decision stays unresolved (`foreign_act`).
 * - A unit standing alone takes its act from context: the act named after the next unit when
 *   only `i.V.m.`/`und`/`,` stands between them (`§ 68 Abs. 1 i.V.m. § 66 GKG`), the act a pointer
 *   names (`du même code`), else the act of the nearest preceding citation. A preceding act that
 *   is not in the corpus is carried too, so the bare unit stays unresolved rather than finding
 *   a same-numbered article elsewhere.
 * - Lists and ranges are split into their units (`§§ 187 Abs. 1, 188 Abs. 2 BGB`: two links);
 *   a range links the units written at its ends.
 *
 * - Legislation cites legislation: in an article (or an act) the unit standing alone with no act
 *   to carry is its own act's (`des § 286` in § 280 BGB is § 286 BGB, `Article 5` in the GDPR is
 *   Article 5 GDPR), when written the way its own heading writes units (`§` in the BGB, `Article`
 *   in the GDPR) and when no other instrument is named before it; never carried from a preceding
 *   citation of another act (legislation names the act whenever it cites another one); its own
 *   heading is no citation, and a link to itself is not kept.
 *
 * Strictness is `POST /v1/resolve`'s: one document or nothing. A unit the act does not have, an
 * act two acts could be, an act the corpus lacks: unresolved, with the reason.
 */
import { cleanReference, unitKey } from '../resolver/normalise.js';
import { parseCitation } from '../resolver/citation-grammar.js';
import type { ActEntry, IndexedDoc, ReferenceIndex } from '../resolver/reference-index.js';
import { actsFor, emptyParsed, resolveLegislation, type ResolveHints } from '../resolver/resolver.js';
import { actBefore, INSTRUMENT_WORD, readDesignation, sharesNextAct } from './act-designation.js';
import { designatorKind, findCitationChains, readChain, type CitationChain, type CitedUnit } from './citation-units.js';
import { homeAct, nounNotAct, ownActOf } from './home-act.js';
import type { ActContext, CitatorDocument, UnresolvedReason } from './linker-context.js';

export type { CitatorDocument, UnresolvedReason } from './linker-context.js';

export interface CitationLink {
  /** The cited unit's offsets in the text (designator included for a chain's first unit). */
  start: number;
  end: number;
  /** The article cited (or the act when the citation names no article). */
  target: IndexedDoc;
  /** Sub-units as written (`Abs. 1 S. 2`, `(1)(c)`, `alinéa 2`); empty when none. */
  pinpoint: string;
  /** The whole citation as written, act included (`§§ 187 Abs. 1, 188 Abs. 2 BGB`). */
  citation: string;
  /** True when the act came from context rather than from the citation's own words. */
  carried: boolean;
}


export interface UnresolvedCitation {
  start: number;
  end: number;
  citation: string;
  reason: UnresolvedReason;
}

export interface CitatorResult {
  links: CitationLink[];
  unresolved: UnresolvedCitation[];
}

/** Jurisdictions whose acts bind across countries, and whose documents report on any country. */
const SUPRANATIONAL = new Set(['EU', 'COE', 'INTL', 'UN', 'OECD']);

/** Whether a document of `citingCountry` may link to `target` (see the module comment). */
export function jurisdictionFits(citingCountry: string, target: IndexedDoc): boolean {
  const citing = citingCountry.toUpperCase();
  const cited = target.country.toUpperCase();
  return cited === citing || SUPRANATIONAL.has(cited) || SUPRANATIONAL.has(citing);
}


/** Every provision citation of `doc` resolved in context: the links sure enough to keep, and the rest with the reason. */
export function linkCitations(index: ReferenceIndex, doc: CitatorDocument): CitatorResult {
  const hints: ResolveHints = { country: doc.country, type: 'legislation' };
  const chains = findCitationChains(doc.text);
  const result: CitatorResult = { links: [], unresolved: [] };
  let previous: { context: ActContext; chain: CitationChain } | null = null;
  const home = doc.own ? ownActOf(doc.own, doc.text, chains) : null;
  // an article's own heading (`§ 280 Schadensersatz …`, `Article 5 Principles …`) is no citation
  if (home?.heading) chains.shift();
  const own = new Map<CitationChain, ActContext | 'bare' | 'skip'>();
  const ownAct = (i: number) => {
    const chain = chains[i];
    if (!own.has(chain)) own.set(chain, namedAct(index, doc, chain, chains[i + 1]?.start ?? doc.text.length, hints));
    return own.get(chain)!;
  };
  /** `§ 68 i.V.m. § 66 GKG`, `Art. 2, Art. 12 und Art. 14 GG`: the act named after the run of units joined to this one. */
  const sharedAct = (i: number): ActContext | null => {
    for (let j = i; j + 1 < chains.length && sharesNextAct(doc.text, chains[j], chains[j + 1]); j++) {
      const next = ownAct(j + 1);
      if (typeof next === 'object') return next;
      if (next === 'skip') return null;
    }
    return null;
  };
  for (let i = 0; i < chains.length; i++) {
    const chain = chains[i];
    let context = ownAct(i);
    if (context === 'skip') continue;
    let carried = false;
    if (context === 'bare') {
      carried = true;
      // legislation names another act whenever it cites one (drafting convention): a bare unit is its own act's, never carried from a preceding citation
      const fromContext = home ? homeAct(doc.text, home, previous, chain) : carriedAct(doc.text, previous, chain);
      context = sharedAct(i) ?? fromContext ?? { entry: null, reason: 'no_act', words: '', end: chain.end };
    } else {
      previous = { context, chain };
      const continued = continuation(doc.text, chain, context.end);
      if (continued) chains.splice(i + 1, 0, continued);
    }
    emit(index, doc, chain, context, carried, hints, result);
  }
  if (doc.own) result.links = result.links.filter((link) => link.target.id !== doc.own!.id);
  return result;
}

/** A bare unit reads the preceding citation's act this far at most (about a paragraph). */
const CARRY_CHARS = 1000;

/**
 * The preceding citation's act for a bare unit, as a reader carries it: not across more than
 * a paragraph, and not when another instrument is named in between (`… enthielt in § 5 Abs. 1`
 * after `die Satzung`, `the Directive … Article 5`): then the reader cannot be sure either.
 */
function carriedAct(text: string, previous: { context: ActContext; chain: CitationChain } | null, chain: CitationChain): ActContext | null {
  if (!previous || chain.start - previous.context.end > CARRY_CHARS || designatorKind(previous.chain.designator) !== designatorKind(chain.designator)) return null;
  return INSTRUMENT_WORD.test(text.slice(previous.context.end, chain.start)) ? null : previous.context;
}

/** `§§ 154 Abs. 2 VwGO, 83b AsylG`: the list goes on after the act with a unit of another act. */
function continuation(text: string, chain: CitationChain, actEnd: number): CitationChain | null {
  if (!chain.plural) return null;
  const m = /^\s*,\s*(?=\d)/.exec(text.slice(actEnd, actEnd + 8));
  return m ? readChain(text, actEnd + m[0].length, chain.designator, actEnd + m[0].length) : null;
}

/** The act the chain names itself, 'bare' when it names none, 'skip' when it is no citation. */
function namedAct(index: ReferenceIndex, doc: CitatorDocument, chain: CitationChain, nextStart: number, hints: ResolveHints): ActContext | 'bare' | 'skip' {
  const designation = readDesignation(doc.text, chain, nextStart);
  if (designation.kind === 'not-a-citation') return 'skip';
  if (designation.kind === 'same-act') return 'bare';
  // In an article of an act (`des § 286 verlangen`, `des § 280 Abs. 1 Schadensersatz … verlangen`): no act's
  // name follows, the unit is bare (its own act's). Decided before actWords, the linker's costliest step, which
  // would otherwise try 16 runs of words after each of an article's units (125,000 articles).
  if (doc.own && (!designation.looksLikeAct || nounNotAct(doc.text.slice(chain.end, nextStart))) && !actBefore(doc.text, chain)) return 'bare';
  const unit = chain.units[chain.units.length - 1];
  const words = actWords(index, chain, unit, doc.text.slice(designation.from, designation.to));
  // An act is named further on, but not by this citation's own words: nothing to carry either.
  if (words === NAMED_LATER) return { entry: null, reason: 'act_not_in_corpus', words: '', end: chain.end };
  // `§ 49 (Hmb)VwVfG`, `Art. 5 (Bay)VwVfG`: a Land's act or the federal one alike, so neither for sure.
  if (words && LAND_VARIANT.test(words)) return { entry: null, reason: 'ambiguous', words, end: designation.from + words.length };
  if (words) return actContext(index, doc, reference(chain, articleNumber(unit), words), words, designation.from + words.length, hints);
  // Words that name an act the corpus lacks (`Art. 12 BGFA`): unresolved, whatever came before.
  if (designation.looksLikeAct) return { entry: null, reason: 'act_not_in_corpus', words: '', end: chain.end };
  // `ABGB §914`, `SGB IX (§§ 28-35)`: an act named right before; one the corpus lacks is not replaced by the context's.
  const before = actBefore(doc.text, chain);
  if (before) return actContext(index, doc, `${before.words}, ${singular(chain.designator)} ${articleNumber(unit)}`, before.words, chain.end, hints);
  return 'bare';
}

/** Country adjectives in act names (`the Austrian Code of Criminal Procedure`, `des österreichischen ABGB`, `du code civil suisse`). */
const COUNTRY_WORDS: [RegExp, string][] = [
  [/\b(?:Austrian|österreichisch\p{L}*|autrichien\p{L}*)/iu, 'AT'],
  [/\b(?:German|deutsch\p{L}*|allemand\p{L}*)\b/iu, 'DE'],
  [/\b(?:Swiss|schweizerisch\p{L}*|suisse)\b/iu, 'CH'],
  [/\b(?:French|französisch\p{L}*|français\p{L}*)\b/iu, 'FR'],
  [/\b(?:Luxembourg(?:ish)?|luxemburgisch\p{L}*|luxembourgeois\p{L}*)\b/iu, 'LU'],
  [/\b(?:Belgian|belgisch\p{L}*|belge)\b/iu, 'BE'],
  [/\b(?:Irish|irisch\p{L}*|irlandais\p{L}*)\b/iu, 'IE'],
  [/\b(?:British|UK|britannique|britisch\p{L}*)\b/u, 'UK'],
  [/\b(?:Dutch|niederländisch\p{L}*|néerlandais\p{L}*)\b/iu, 'NL'],
  [/\b(?:Italian|italienisch\p{L}*|italien\p{L}*)\b/iu, 'IT'],
  [/\b(?:Spanish|spanisch\p{L}*|espagnol\p{L}*)\b/iu, 'ES'],
];

/** Whether the act's name says it is another country's act than `country`'s. */
function namesOtherCountry(words: string, country: string): boolean {
  return COUNTRY_WORDS.some(([pattern, code]) => code !== country.toUpperCase() && pattern.test(words));
}

/** The act named by `reference`, with the jurisdiction rule applied. */
function actContext(index: ReferenceIndex, doc: CitatorDocument, ref: string, words: string, end: number, hints: ResolveHints): ActContext {
  const parsed = emptyParsed();
  const outcome = resolveLegislation(index, cleanReference(ref), hints, parsed);
  const entry = parsed.act_id ? index.acts.get(parsed.act_id) ?? null : null;
  if (!entry) return { entry: null, reason: outcome?.matchType === 'ambiguous' ? 'ambiguous' : 'act_not_in_corpus', words, end };
  if (!jurisdictionFits(doc.country, entry.doc) || namesOtherCountry(words, entry.doc.country)) return { entry: null, reason: 'foreign_act', words, end };
  return { entry, reason: 'unit_not_in_corpus', words, end };
}

/** Words of an act's name read after a unit at most (`du code de l'entrée et du séjour des étrangers et du droit d'asile`: 14). */
const MAX_ACT_WORDS = 16;

/**
 * The run of words after the chain that names an act the index knows: found from the longest
 * run (a name can take many words), then the shortest run naming one is taken, cut at the next
 * chain. The name must start where the citation's words start: when the run without its first
 * word still names the same acts, the act is named further on (`Article 29 Working Party's
 * Guidelines … under Regulation 2016/679`), not by this citation.
 */
function actWords(index: ReferenceIndex, chain: CitationChain, unit: CitedUnit, after: string): string | typeof NAMED_LATER | null {
  const ends: number[] = [];
  const word = /\S+/g;
  for (let w = word.exec(after); w && ends.length < MAX_ACT_WORDS; w = word.exec(after)) ends.push(w.index + w[0].length);
  // `57.1`, `36.4`: the grammar reads the article number (the act is what is looked for here).
  const number = articleNumber(unit);
  const actsNamed = (words: string) => {
    const citation = parseCitation(cleanReference(reference(chain, number, words)));
    return citation && (citation.act || citation.celex.length) ? actsFor(index, citation) : [];
  };
  const named = (n: number) => {
    const words = trimRun(after.slice(0, ends[n - 1]));
    for (const variant of [words.replace(/\.+$/u, ''), words]) {
      const acts = actsNamed(variant);
      if (!acts.length) continue;
      const content = variant.replace(CONNECTORS, '');
      // `Regulation (EU) 2016/679`: the type word and its number are one name.
      // `Asylum Law (AsylG)`: an abbreviation in brackets repeats the name, it does not name it later.
      const rest = EU_ACT_TYPE.test(content) ? '' : content.replace(/^\S+\s*/u, '').replace(/\s*\([^()]*\)\s*$/u, '');
      const later = rest ? actsNamed(rest) : [];
      if (later.length && later.every((a) => acts.includes(a))) return null;
      return variant;
    }
    return null;
  };
  for (let n = ends.length; n >= 1; n--) {
    if (!actsNamed(trimRun(after.slice(0, ends[n - 1]))).length && !actsNamed(trimRun(after.slice(0, ends[n - 1])).replace(/\.+$/u, '')).length) continue;
    for (let m = 1; m <= n; m++) {
      const shortest = named(m);
      if (shortest) return shortest;
    }
    return NAMED_LATER;
  }
  return null;
}

/** A German Land's prefix in brackets glued to an act's abbreviation: `(Hmb)VwVfG`, `(Nds.)VwVfG`. */
const LAND_VARIANT = /^[\s,]*\(\p{Lu}\p{Ll}{1,4}\.?\)\p{Lu}/u;

/** actWords' answer when the run names an act only after words that are not the act's name. */
const NAMED_LATER = Symbol('named later');

/** The type word of an EU act cited by its number. */
const EU_ACT_TYPE = /^(?:Regulation|Règlement|Verordnung|Directive|Richtlinie|Decision|Décision|Beschluss|Verordening|Richtlijn|Reglamento|Directiva|VO|RL)\b/iu;

/** Leading connectors of an act's name (`of the`, `du`, `de la`, `des`, `van de`…). */
const CONNECTORS = /^[\s,]*(?:(?:of|the|du|de|la|l['’]|des|der|dem|den|van|het|del|della|dello|do|da)\s+|l['’]|d['’])*/iu;

/** A run of words without trailing punctuation, and without an unclosed or unopened bracket at its end. */
function trimRun(run: string): string {
  let out = run.replace(/[,;:!?]+$/u, '');
  const open = (out.match(/\(/g) ?? []).length;
  const close = (out.match(/\)/g) ?? []).length;
  if (close > open) out = out.replace(/\)+(\.*)$/u, '$1');
  else if (open > close) out = out.slice(0, out.lastIndexOf('(')).trimEnd();
  return out.replace(/[,;:!?]+$/u, '');
}

/** Links (or leaves unresolved) each unit of the chain in the act of `context`. */
function emit(index: ReferenceIndex, doc: CitatorDocument, chain: CitationChain, context: ActContext, carried: boolean, hints: ResolveHints, out: CitatorResult): void {
  const citation = doc.text.slice(chain.start, carried ? chain.end : Math.max(chain.end, context.end));
  for (const unit of chain.units) {
    const target = context.entry ? unitIn(index, context, chain, unit, carried, hints) : null;
    if (target && jurisdictionFits(doc.country, target)) {
      out.links.push({ start: unit.start, end: unit.end, target, pinpoint: unit.pinpoint, citation, carried });
    } else {
      const reason = context.entry ? (target ? 'foreign_act' : 'unit_not_in_corpus') : context.reason;
      out.unresolved.push({ start: unit.start, end: unit.end, citation, reason });
    }
  }
}

/**
 * The unit's document in the act, or null. Named acts go through the resolver (its language
 * versions, nested paragraphs and strictness); a carried act is looked up directly. `57.1`
 * and `14-5-b)` (article 57 paragraph 1, article 14(5)(b), the Luxembourg and French way of
 * writing EU articles) fall back to the article's number when the act has no unit written so.
 */
function unitIn(index: ReferenceIndex, context: ActContext, chain: CitationChain, unit: CitedUnit, carried: boolean, hints: ResolveHints): IndexedDoc | null {
  for (const number of unitNumbers(unit, context.entry!)) {
    if (carried || !context.words) {
      const doc = context.entry!.units.get(unitKey(number));
      if (doc) return doc;
      continue;
    }
    const outcome = resolveLegislation(index, cleanReference(reference(chain, number, context.words)), hints, emptyParsed());
    if (outcome?.matchType === 'pattern' && outcome.candidates.length === 1) return outcome.candidates[0].doc;
  }
  return null;
}

/**
 * The numbers to look the unit up by. `57.1`, `14-5-b)`: article 57 paragraph 1, article
 * 14(5)(b), as French and Luxembourg texts write articles of EU acts, whose articles are plain
 * numbers: the article alone there. In a national act a dotted number is left unresolved
 * (`5.71` is an article of the Belgian civil code; the index's number keys drop the dot, so
 * `5.1` would meet article 51), and a hyphenated one is the article's own number (`815-9`).
 */
function unitNumbers(unit: CitedUnit, act: ActEntry): string[] {
  const base = articleNumber(unit);
  if (act.doc.country.toUpperCase() === 'EU' && base !== unit.number) return [base];
  if (FRENCH_CODE_DOT.test(unit.number)) return [base];
  return /\d\.\d/.test(unit.number) ? [] : [unit.number];
}

function reference(chain: CitationChain, number: string, words: string): string {
  return `${singular(chain.designator)} ${number} ${words.replace(/^[\s,]+/u, '')}`;
}

/**
 * The article's number as the grammar reads it: `57.1` and `14-5-b)` (article 57 paragraph 1,
 * article 14(5)(b): the Luxembourg and French way of writing EU articles) give `57` and `14`.
 */
function articleNumber(unit: CitedUnit): string {
  const dotted = /^(\d+)[.-]\d+$/.exec(unit.number);
  if (dotted && (unit.number.includes('.') || /^[.-]/.test(unit.pinpoint))) return dotted[1];
  return unit.number.replace(FRENCH_CODE_DOT, '$1-$2');
}

/** `L. 521.3`: a French code's article with a dot typed for the hyphen. */
const FRENCH_CODE_DOT = /^([LRDA]\.?\s?\d+)\.(\d+)$/;

/** `§§` -> `§`, `Articles` -> `Article`, `arts.` -> `art.`: one unit is resolved at a time. */
function singular(designator: string): string {
  return designator
    .replace(/^§§$/, '§')
    .replace(/^([Aa]rticle|[Ss]ection|[Aa]rt[íi]culo|[Aa]rtigo)s$/u, '$1')
    .replace(/^([Aa]r)t?ts\.$/, '$1t.')
    .replace(/^ss\.$/, 's.')
    .replace(/^(Paragra(?:ph|f))en$/, '$1');
}
