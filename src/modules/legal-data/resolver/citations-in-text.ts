/**
 * References to legislation inside running text ("… under Article 6(1)(c) GDPR …", "… gemäß
 * § 823 Abs. 1 BGB …", "… l'article L. 1234-5 du code du travail …"), resolved as strictly as
 * `POST /v1/resolve` resolves a reference: only a citation that names one provision of one act
 * in the index counts, never a guess.
 *
 * A citation starts at a provision word (Article, Art., Artikel, artículo, artigo, §) followed
 * by a number; the words after it are tried from the longest run (up to MAX_WORDS) to the
 * shortest, and the longest run the citation grammar resolves is taken.
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

/** Every citation of a provision in `text` that resolves to exactly one document, in text order. */
export function findCitations(index: ReferenceIndex, text: string, options: { hints?: ResolveHints; max?: number } = {}): TextCitation[] {
  const hints = options.hints ?? NO_HINTS;
  const max = options.max ?? Infinity;
  const found: TextCitation[] = [];
  let from = 0;
  for (const start of citationStarts(text)) {
    if (found.length >= max) break;
    if (start < from) continue;
    const citation = citationAt(index, text, start, hints);
    if (!citation) continue;
    found.push(citation);
    from = citation.end;
  }
  return found;
}

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
function citationAt(index: ReferenceIndex, text: string, start: number, hints: ResolveHints = NO_HINTS): TextCitation | null {
  const window = text.slice(start, start + 160);
  const spans: string[] = [];
  const word = /\S+/g;
  for (let w = word.exec(window); w && spans.length < MAX_WORDS; w = word.exec(window)) {
    spans.push(window.slice(0, w.index + w[0].length).replace(/[,;:!?)\]]+$/u, ''));
  }
  const resolve = (span: string) => {
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
