/**
 * The synchronous stages of the resolver over the reference index: (a) identifiers, then
 * (b) citation grammars for court decisions and legislation. Each stage either answers
 * (a terminal outcome, `none` included: strictness) or passes (null) to the next one.
 */
import type { MatchType, ParsedReference } from '../resolve.schema.js';
import { courtMatches, parseCaseCitation } from './case-citation.js';
import { parseCitation, type ParsedCitation } from './citation-grammar.js';
import { parseIdentifier } from './identifiers.js';
import { abbreviationKey, codeKey, titleKey, unitKey } from './normalise.js';
import { ecliKey, eliKey, stemKey, type ActEntry, type IndexedDoc, type ReferenceIndex } from './reference-index.js';

export interface ResolveHints {
  country: string | null;
  type: 'legislation' | 'case_law' | null;
}

export interface Candidate {
  doc: IndexedDoc;
  confidence: number;
}

export interface Outcome {
  matchType: MatchType;
  candidates: Candidate[];
}

/** A `parsed` object with nothing understood yet. */
export function emptyParsed(): ParsedReference {
  return {
    country: null,
    act: null,
    act_id: null,
    unit_type: null,
    unit_number: null,
    sub_units: [],
    other_units: [],
    following: false,
    court: null,
    date: null,
    case_number: null,
    identifier_kind: null,
    identifier: null,
  };
}

const none = (): Outcome => ({ matchType: 'none', candidates: [] });

/** Keeps the items that fit the hints when some do; hints prefer, they never empty a list. */
function preferHinted<T>(items: T[], hints: ResolveHints, docOf: (item: T) => IndexedDoc): T[] {
  let out = items;
  if (hints.country) {
    const wanted = hints.country.toLowerCase();
    const hinted = out.filter((i) => docOf(i).country.toLowerCase() === wanted);
    if (hinted.length) out = hinted;
  }
  if (hints.type) {
    const hinted = out.filter((i) => docOf(i).namespace === hints.type);
    if (hinted.length) out = hinted;
  }
  return out;
}

/** One document: exact; several: ambiguous (returned, unresolved); none: none. */
function decide(docs: IndexedDoc[], hints: ResolveHints, matchType: MatchType, confidence: number): Outcome {
  const unique = [...new Set(docs)];
  const hinted = preferHinted(unique, hints, (d) => d);
  if (hinted.length === 0) return none();
  if (hinted.length === 1) return { matchType, candidates: [{ doc: hinted[0], confidence }] };
  return { matchType: 'ambiguous', candidates: hinted.slice(0, 10).map((doc) => ({ doc, confidence: Math.round((confidence / hinted.length) * 100) / 100 })) };
}

/** Stage (a): machine-readable identifiers. Null when the reference is not an identifier. */
export function resolveIdentifier(index: ReferenceIndex, reference: string, hints: ResolveHints, parsed: ParsedReference): Outcome | null {
  const id = parseIdentifier(reference);
  if (!id) return null;
  parsed.identifier_kind = id.kind;
  parsed.identifier = id.value;
  switch (id.kind) {
    case 'ecli': {
      const found = index.byEcli.get(ecliKey(id.value)) ?? [];
      // `EuGH, Urteil vom … – C-48/24, ECLI:EU:C:…`: a decision the corpus holds without its ECLI
      // is still found by court, date and number (stage b1, as strict).
      if (!found.length && parseCaseCitation(reference)) return null;
      return decide(found, hints, 'exact', 1);
    }
    case 'celex': {
      const entries = index.byCelex.get(id.value) ?? [];
      if (!entries.length) return none();
      const best = Math.min(...entries.map((e) => e.tier));
      return decide(entries.filter((e) => e.tier === best).map((e) => e.doc), hints, 'exact', 1);
    }
    case 'eli': {
      const key = eliKey(id.value);
      if (!key) return none();
      let acts = index.byEli.get(key) ?? [];
      const eu = /^eli\/(reg|dir|dec)(?:_impl|_del)?\/(\d{4})\/(\d+)/.exec(key);
      if (!acts.length && eu) {
        const celex = `3${eu[2]}${{ reg: 'R', dir: 'L', dec: 'D' }[eu[1]]}${eu[3].padStart(4, '0')}`;
        acts = (index.byCelex.get(celex) ?? []).filter((e) => e.tier === 0).map((e) => e.doc);
      }
      if (id.unit) {
        parsed.unit_number = id.unit;
        const units = acts.map((a) => index.acts.get(a.id)?.units.get(unitKey(id.unit!))).filter((d): d is IndexedDoc => Boolean(d));
        return decide(units, hints, 'exact', 1);
      }
      return decide(acts, hints, 'exact', 1);
    }
    case 'sr':
      // Swiss classified-compilation numbers are the Fedlex acts' identifiers.
      return decide((index.byIdentifier.get(codeKey(id.value)) ?? []).filter((d) => d.country === 'CH'), hints, 'exact', 1);
    case 'legifrance':
    case 'nor':
      return decide(index.byIdentifier.get(id.value) ?? [], hints, 'exact', 1);
    case 'echr_application':
      return decide(index.byApplication.get(id.value) ?? [], hints, 'exact', 1);
    case 'cjeu_case':
      parsed.case_number = id.value;
      return decide(index.byCjeuCase.get(id.value) ?? [], hints, 'exact', 1);
    case 'case_number':
      parsed.case_number = id.value;
      return decide(index.byCaseNumber.get(id.value) ?? [], hints, 'exact', 1);
  }
}

/** Stage (b1): `Court, Urteil vom DD.MM.YYYY – file number`. Null when not a decision citation. */
export function resolveCaseCitation(index: ReferenceIndex, reference: string, hints: ResolveHints, parsed: ParsedReference): Outcome | null {
  const c = parseCaseCitation(reference);
  if (!c) return null;
  parsed.court = c.court;
  parsed.date = c.date;
  parsed.case_number = c.caseNumber;
  parsed.identifier_kind = 'case_number';
  // CJEU case numbers (`C-48/24`) are read from the judgments' CELEX numbers as well.
  const cjeu = /^([CT])-(\d{1,4})\/(\d{2})$/i.exec(codeKey(c.caseNumber));
  const byNumber = index.byCaseNumber.get(codeKey(c.caseNumber)) ?? [];
  const candidates = cjeu ? [...byNumber, ...(index.byCjeuCase.get(`${cjeu[1]}-${Number(cjeu[2])}/${cjeu[3]}`) ?? [])] : byNumber;
  const found = candidates
    .filter((d) => courtMatches(c.court, d.court, d.source))
    .filter((d) => !d.date || !c.date || d.date === c.date);
  const outcome = decide(found, hints, 'pattern', 0.97);
  if (outcome.candidates[0]) parsed.country = outcome.candidates[0].doc.country;
  return outcome;
}

const GERMAN = /\b(?:Abs\.|Absatz|Satz|Buchst\.?|lit\.|UAbs\.?|DSGVO|DS-GVO|Verordnung|Richtlinie|Artikel|Nr\.)(?=\s|$)/;
const FRENCH = /\b(?:paragraphe|alinéa|RGPD|règlement|du|de la)\b/i;

function referenceLanguage(reference: string, act: string, index: ReferenceIndex): string {
  const alias = index.aliasLanguage.get(abbreviationKey(act));
  if (alias) return alias;
  if (GERMAN.test(reference)) return 'de';
  if (FRENCH.test(reference)) return 'fr';
  return 'en';
}

/** Act designations remembered per index (actsFor); cleared when full, the index itself never changes once built. */
const ACTS_MEMO_SIZE = 50_000;
const actsMemo = new WeakMap<ReferenceIndex, Map<string, readonly ActEntry[]>>();

/**
 * Acts that an act designation can name: EU numbers, abbreviations, titles, aliases. Remembered
 * per designation: the citator asks the same designations again and again (`du présent code`,
 * `des Bürgerlichen Gesetzbuchs`: a legislation corpus's running text), each costing a dozen
 * normalised keys.
 */
export function actsFor(index: ReferenceIndex, citation: ParsedCitation): ActEntry[] {
  let memo = actsMemo.get(index);
  if (!memo) actsMemo.set(index, (memo = new Map()));
  const key = `${citation.celex.join(' ')}\0${citation.act}`;
  let acts = memo.get(key);
  if (!acts) {
    if (memo.size >= ACTS_MEMO_SIZE) memo.clear();
    acts = actsOfDesignation(index, citation);
    memo.set(key, acts);
  }
  return [...acts];
}

function actsOfDesignation(index: ReferenceIndex, citation: ParsedCitation): ActEntry[] {
  if (citation.celex.length) {
    for (const celex of citation.celex) {
      const acts = (index.byCelex.get(celex) ?? []).map((e) => index.acts.get(e.doc.id)).filter((a): a is ActEntry => Boolean(a));
      if (acts.length) return [...new Set(acts)];
    }
    return [];
  }
  const variants = new Set([citation.act]);
  // `loi modifiée du …`, `as amended`, `in der Fassung …`: the act is the same.
  variants.add(citation.act.replace(/\b(?:modifi[ée]e?s?|as amended|n\.\s?F\.|a\.\s?F\.)\s*/gi, '').trim());
  variants.add(withoutTrailingParenthetical(citation.act));
  // `Employment Equality Acts 1998 to 2015` is cited under the first act's title.
  variants.add(citation.act.replace(/\bActs\s+((?:1[6-9]|20)\d{2})\s*(?:-|to|and)\s*\d{4}$/i, 'Act $1'));
  // `Gesetz über … (StBerG)`: the abbreviation in parentheses names the act too.
  const parenthetical = /\(([^()]{2,20})\)\s*$/.exec(citation.act);
  if (parenthetical) variants.add(parenthetical[1]);
  // German genitive (`des Sozialgerichtsgesetzes`, `des Handelsgesetzbuchs`).
  for (const v of [...variants]) {
    variants.add(v.replace(/^(\p{L}{5,}?)(?:es|s)(?=\s|$)/u, '$1'));
    // The lookbehind starts the match at a word's start only (unanchored, it was quadratic on a long word).
    variants.add(v.replace(/(?<!\p{L})(\p{L}{5,}?)(?:es|s)$/u, '$1'));
  }
  const book = sozialgesetzbuch(citation.act);
  if (book) variants.add(book);
  const found = new Set<ActEntry>();
  for (const v of variants) {
    if (!v) continue;
    for (const a of index.actNames.get(abbreviationKey(v)) ?? []) found.add(a);
    for (const a of index.actTitles.get(titleKey(v)) ?? []) found.add(a);
  }
  // Inflected long titles (`des Bürgerlichen Gesetzbuches`, `des Allgemeinen Gleichbehandlungsgesetzes`).
  if (!found.size) for (const a of index.actStems.get(stemKey(withoutArticle(citation.act))) ?? []) found.add(a);
  return [...found];
}

/** The act text without a leading German article or preposition (`des`, `der`, `dem`). */
function withoutArticle(act: string): string {
  return act.replace(/^(?:(?:des|der|dem|den|die|das|im|zum|zur|nach)\s+)+/i, '');
}

/**
 * The text without a final `( … )` group (`Gesetz über … (StBerG)` -> `Gesetz über …`), as
 * `/\s*\([^)]*\)\s*$/` would remove it, by index: that regex retries every `(` and is
 * quadratic on a long run of them.
 */
function withoutTrailingParenthetical(text: string): string {
  const t = text.trimEnd();
  if (!t.endsWith(')')) return text.trim();
  const open = t.indexOf('(', t.lastIndexOf(')', t.length - 2) + 1);
  return open === -1 || open >= t.length - 1 ? text.trim() : t.slice(0, open).trim();
}

const ORDINALS = ['erst', 'zweit', 'dritt', 'viert', 'fünft', 'sechst', 'siebt', 'acht', 'neunt', 'zehnt', 'elft', 'zwölft', 'dreizehnt', 'vierzehnt'];

/** `Fünftes Buch Sozialgesetzbuch` / `Sozialgesetzbuch Fünftes Buch` -> `SGB 5`. */
function sozialgesetzbuch(act: string): string | null {
  const m = /^(?:(\p{L}+?)e[snr]?\s+Buch(?:es)?\s+(?:des\s+)?Sozialgesetzbuch(?:e?s)?|Sozialgesetzbuch(?:e?s)?\s+(?:\(SGB\)\s+)?(\p{L}+?)e[snr]?\s+Buch(?:es)?)$/iu.exec(act.trim());
  if (!m) return null;
  const n = ORDINALS.indexOf((m[1] ?? m[2]).toLowerCase()) + 1;
  return n > 0 ? `SGB ${n}` : null;
}

/** Collapses language versions of one act (`32016R0679`, `32016R0679-de`) to the reference's language. */
function collapseLanguageVersions(acts: ActEntry[], language: string): ActEntry[] {
  const groups = new Map<string, ActEntry[]>();
  for (const act of acts) {
    const base = `${act.doc.source}/${act.doc.source_id.replace(/-[a-z]{2}$/, '')}`;
    groups.set(base, [...(groups.get(base) ?? []), act]);
  }
  return [...groups.entries()].map(([base, group]) => {
    if (group.length === 1) return group[0];
    return group.find((a) => a.language === language) ?? group.find((a) => a.doc.id === base) ?? group[0];
  });
}

/**
 * Stage (b2): legislation citations. Null when the reference is not one, or when it names no
 * provision and no act (free text goes on to the title search).
 */
export function resolveLegislation(index: ReferenceIndex, reference: string, hints: ResolveHints, parsed: ParsedReference): Outcome | null {
  const citation = parseCitation(reference);
  if (!citation) return null;
  let acts = actsFor(index, citation);
  // `section 60 of the 2018 Act` names an act only in a context: the hinted country's act of that year.
  if (!acts.length && hints.country && /^(?:the\s+)?(?:1[6-9]|20)\d{2}\s+Act$/i.test(citation.act)) {
    const wanted = hints.country.toLowerCase();
    acts = (index.yearActs.get(titleKey(citation.act)) ?? []).filter((a) => a.doc.country.toLowerCase() === wanted);
  }
  if (citation.unit) {
    parsed.unit_type = citation.unitType;
    parsed.unit_number = citation.unit;
    parsed.sub_units = citation.subUnits;
    parsed.other_units = citation.others;
    parsed.following = citation.following;
  }
  if (!acts.length) {
    // A provision of an unknown act is `none` (strict); a bare phrase may still be a title.
    if (citation.unit || citation.celex.length) {
      parsed.act = citation.act || null;
      return none();
    }
    return null;
  }
  parsed.act = citation.act;
  const language = referenceLanguage(reference, citation.act, index);
  const chosen = preferHinted(collapseLanguageVersions(acts, language), hints, (a) => a.doc);
  if (chosen.length === 1) {
    parsed.country = chosen[0].doc.country;
    parsed.act_id = chosen[0].doc.id;
  }
  // A named nested paragraph resolves to its own document or to nothing, never to the article.
  const targets = chosen
    .map((act) =>
      !citation.unit ? act.doc : citation.nested ? act.nested.get(unitKey(citation.unit))?.get(unitKey(citation.nested)) : act.units.get(unitKey(citation.unit)),
    )
    .filter((d): d is IndexedDoc => Boolean(d));
  if (chosen.length > 1) {
    if (!targets.length) return none();
    return { matchType: 'ambiguous', candidates: targets.slice(0, 10).map((doc) => ({ doc, confidence: Math.round((0.9 / chosen.length) * 100) / 100 })) };
  }
  if (!targets.length) return none();
  return { matchType: 'pattern', candidates: [{ doc: targets[0], confidence: citation.unit ? 0.95 : 0.9 }] };
}
