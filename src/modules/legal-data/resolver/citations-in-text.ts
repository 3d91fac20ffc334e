/**
 * References to legislation inside running text ("… under Article 6(1)(c) GDPR …", "… gemäß
 * § 823 Abs. 1 BGB …", "… l'article L. 1234-5 du code du travail …"), resolved as strictly as
 * `POST /v1/resolve` resolves a reference: only a citation that names one provision of one act
 * in the index counts, never a guess.
 *
 * A citation starts at a provision word (Article, Art., Artikel, artículo, artigo, §) followed
 * by a number; the words after it are tried from the longest run (up to MAX_WORDS) to the
 * shortest, and the longest run the citation grammar resolves is taken.
 *
 * The scan runs on the event loop of every search, over a query of up to 4,000 characters, and
 * each anchor costs up to ~25 resolutions: it is bounded by the anchors it tries
 * (MAX_ANCHORS_TRIED) and by a wall-time budget (SCAN_BUDGET_MS), whichever ends it first.
 */
import { cleanReference } from './normalise.js';
import type { IndexedDoc, ReferenceIndex } from './reference-index.js';
import { emptyParsed, resolveLegislation, type ResolveHints } from './resolver.js';

export interface TextCitation {
  /** Offsets of the citation in the text (`text.slice(start, end)`). */
  start: number;
  end: number;
  doc: IndexedDoc;
}

const ANCHOR = /(?<![\p{L}\p{N}])(?:art(?:icles?|ikel|[íi]culos?|igos?|s?\.)?|§§?)\s*\d/giu;
/** Words of a citation at most (`Article 6 paragraph 1 point (c) of Regulation (EU) 2016/679`). */
const MAX_WORDS = 12;
const NO_HINTS: ResolveHints = { country: null, type: null };

/**
 * Anchors (`§ n`, `Art. n`…) tried per text at most. A search query that cites a provision names
 * one to three; a pasted paragraph a handful. Sixteen leaves room for several citations plus
 * the unresolvable anchors beside them (`§ 5 … Art. 3 …` without an act), while `§ 1 Art. 2 `
 * repeated over 4,000 characters (~730 anchors: 150-270 ms of resolutions over a small index,
 * 1.2 s per search in `npm run bench -- --slice`) is cut to a few milliseconds: one anchor
 * costs ~0.3-0.7 ms here.
 */
export const MAX_ANCHORS_TRIED = 16;

/**
 * Wall time one scan may take, checked before every resolution attempt (so it overshoots by
 * one resolution at most, well under a millisecond). A search answers in ~50 ms p50 on the
 * full corpus; 25 ms keeps the worst query within 2x of that even when the anchor cap alone
 * would allow more (a slower machine, a larger index, a loaded event loop), and is ~35x what a
 * warm query citing one provision needs (~0.7 ms), so no honest query reaches it. A cold first
 * scan of a process took 27 ms (regexes compiled, code not yet optimised): the resolver warms
 * the scan up whenever it builds its index (`warmUpCitationScan`).
 */
export const SCAN_BUDGET_MS = 25;

export interface FindCitationsOptions {
  hints?: ResolveHints;
  /** Citations returned at most. */
  max?: number;
  /** Anchors tried at most (default MAX_ANCHORS_TRIED). */
  maxAnchors?: number;
  /** Wall-time budget in ms (default SCAN_BUDGET_MS). */
  budgetMs?: number;
  /** The clock, in ms (default `performance.now`); injectable so the budget can be tested without timing. */
  now?: () => number;
}

/**
 * Every citation of a provision in `text` that resolves to exactly one document, in text order;
 * when the anchor cap or the time budget ends the scan, the citations found until then.
 */
export function findCitations(index: ReferenceIndex, text: string, options: FindCitationsOptions = {}): TextCitation[] {
  const hints = options.hints ?? NO_HINTS;
  const max = options.max ?? Infinity;
  const maxAnchors = options.maxAnchors ?? MAX_ANCHORS_TRIED;
  const now = options.now ?? (() => performance.now());
  const deadline = now() + (options.budgetMs ?? SCAN_BUDGET_MS);
  const expired = () => now() >= deadline;
  const found: TextCitation[] = [];
  let from = 0;
  let tried = 0;
  for (const start of citationStarts(text)) {
    if (found.length >= max || tried >= maxAnchors || expired()) break;
    // An anchor inside a citation already found (`Art. 6 … i.V.m. Art. 7 …`) costs nothing.
    if (start < from) continue;
    tried++;
    const citation = citationAt(index, text, start, hints, expired);
    if (!citation) continue;
    found.push(citation);
    from = citation.end;
  }
  return found;
}

/** Runs one unbudgeted scan over a text of every grammar, so no search pays for the first one. */
export function warmUpCitationScan(index: ReferenceIndex): void {
  findCitations(index, WARM_UP_TEXT, { budgetMs: Infinity });
}
const WARM_UP_TEXT =
  'Schadensersatz nach § 823 Abs. 1 S. 2 BGB i.V.m. Art. 6 Abs. 1 lit. c DSGVO; Article 17(1)(a) GDPR; ' +
  "l'article L. 1234-1 du code du travail; section 5 of the Act 2001, s. 11; §§ 433, 434 ff. BGB.";

/** Where citations may start in `text` (a provision word and a number), in text order. */
function* citationStarts(text: string): Generator<number> {
  const anchor = new RegExp(ANCHOR);
  for (let match = anchor.exec(text); match; match = anchor.exec(text)) yield match.index;
}

/**
 * The citation starting at `start`, or null: the longest run of words that resolves names the
 * document (an act's name may take several words), and the shortest run that still resolves
 * to it gives the citation's extent (the grammar forgives trailing words).
 */
function citationAt(index: ReferenceIndex, text: string, start: number, hints: ResolveHints, expired: () => boolean): TextCitation | null {
  const window = text.slice(start, start + 160);
  const spans: string[] = [];
  const word = /\S+/g;
  for (let w = word.exec(window); w && spans.length < MAX_WORDS; w = word.exec(window)) {
    spans.push(window.slice(0, w.index + w[0].length).replace(/[,;:!?)\]]+$/u, ''));
  }
  const resolve = (span: string) => {
    // Past the budget every attempt fails at once, so the scan ends without another resolution.
    if (expired()) return null;
    const outcome = resolveLegislation(index, cleanReference(balanceParentheses(span)), hints, emptyParsed());
    return outcome?.matchType === 'pattern' && outcome.candidates.length === 1 ? outcome.candidates[0].doc : null;
  };
  // A final period may belong to the sentence or end an abbreviation (`C. civ.`): both are tried.
  const variants = (span: string) => [...new Set([span.replace(/\.+$/u, ''), span])];
  for (let n = spans.length; n >= 2; n--) {
    const doc = variants(spans[n - 1]).map(resolve).find(Boolean);
    if (!doc) continue;
    for (let m = 2; m <= n; m++) {
      const extent = variants(spans[m - 1]).find((span) => resolve(span)?.id === doc.id);
      if (extent) return { start, end: start + extent.length, doc };
    }
  }
  return null;
}

/** Drops a trailing unmatched `(` run so `Article 6 (` does not spoil the grammar. */
function balanceParentheses(span: string): string {
  let open = 0;
  for (const c of span) open += c === '(' ? 1 : c === ')' ? -1 : 0;
  return open > 0 ? span.slice(0, span.lastIndexOf('(')).trimEnd() : span;
}
