/**
 * Citation-context training pairs: where a decision or a guidance document cites a provision
 * ("Der Mieter kann die Miete nach § 536 BGB mindern, wenn die Heizung im Winter ausfällt"),
 * the sentence around the citation, with the citation itself removed, is paired with the cited
 * article's text. Courts and authorities apply provisions to facts in the words people use
 * when they ask, which the statute's own wording rarely is.
 *
 * Citations are found as strictly as `POST /v1/resolve` resolves them (citations-in-text.ts):
 * only a citation naming one provision of one act of the corpus counts. The scan has no time
 * budget here (the clock is fixed), so the pairs are the same on every machine for a corpus.
 */
import type { CorpusFile } from '../corpus/corpus-reader.js';
import { parseDocumentRecord, readJsonLines } from '../corpus/corpus-reader.js';
import type { DocumentMetadata, LegalDocument } from '../../../domain/legal-document.js';
import { findCitations, type TextCitation } from '../resolver/citations-in-text.js';
import { ReferenceIndex } from '../resolver/reference-index.js';

/** Characters scanned per call of the citation finder (its anchor cap applies per call). */
const SCAN_CHUNK = 3000;
/** Characters of one citing document scanned at most (long judgments repeat their citations). */
const SCAN_LIMIT = 200_000;
/** Anchors tried per chunk: a dense paragraph of a judgment cites a dozen provisions. */
const ANCHORS_PER_CHUNK = 32;
/** Characters taken on each side of a citation before cutting at a sentence boundary. */
const CONTEXT_REACH = 350;
/** Letter words a context needs once the citation is removed. */
const MIN_CONTEXT_WORDS = 6;
const NEVER_EXPIRES = () => 0;
const SENTENCE_END = /[.!?]\s+(?=\p{Lu})|\n\s*\n/gu;

export interface CitationPairLimits {
  /** Contexts kept per cited article (the first ones in corpus order): GDPR Art. 6 must not drown the rest. */
  perArticle: number;
  /** Articles whose contexts are kept per citing document. */
  perDocument: number;
  /** Contexts of one article kept per citing document (a judgment cites its key provision in several places). */
  perDocumentArticle: number;
}

export const DEFAULT_CITATION_LIMITS: CitationPairLimits = { perArticle: 12, perDocument: 30, perDocumentArticle: 1 };

/** The resolver's reference index over a corpus's document metadata (one pass over the files). */
export async function referenceIndexOfCorpus(files: CorpusFile[], signal?: AbortSignal): Promise<ReferenceIndex> {
  async function* metadata(): AsyncGenerator<DocumentMetadata[]> {
    for (const file of files) {
      if (signal?.aborted) return;
      const rows: DocumentMetadata[] = [];
      for await (const entry of readJsonLines(file.absolutePath, parseDocumentRecord)) {
        if (!entry.ok) continue;
        const { text: _text, extra: _extra, summary: _summary, ...meta } = entry.value;
        rows.push(meta);
      }
      yield rows;
    }
  }
  return ReferenceIndex.build(metadata());
}

/** The sentence around `text[start, end)` without the citation itself, or null when too little is left. */
export function citationContext(text: string, start: number, end: number): string | null {
  const from = Math.max(0, start - CONTEXT_REACH);
  let head = text.slice(from, start);
  // Start after the last sentence end before the citation: a period and a capital, or a blank
  // line (a period before a digit is "Abs. 1", "19. Mai"; single line breaks are a PDF's layout).
  const boundaries = [...head.matchAll(SENTENCE_END)];
  if (boundaries.length > 0) {
    const last = boundaries[boundaries.length - 1];
    head = head.slice(last.index + last[0].length);
  } else if (from > 0) {
    head = head.slice(head.indexOf(' ') + 1);
  }
  let tail = text.slice(end, end + CONTEXT_REACH);
  const stop = tail.search(SENTENCE_END);
  if (stop >= 0) tail = tail.slice(0, stop + 1);
  else if (end + CONTEXT_REACH < text.length) tail = tail.slice(0, Math.max(0, tail.lastIndexOf(' ')));
  const context = `${head} ${tail}`.replace(/\s+/g, ' ').trim();
  const words = context.match(/\p{L}{2,}/gu) ?? [];
  return words.length >= MIN_CONTEXT_WORDS ? context : null;
}

/**
 * The provisions a decision or guidance document cites, chunk by chunk of its first SCAN_LIMIT
 * characters (lazily: a caller that has what it needs stops the scan). Offsets are the chunk's.
 */
export function* citationsByChunk(index: ReferenceIndex, doc: LegalDocument): Generator<{ chunk: string; citations: TextCitation[] }> {
  const hints = { country: doc.country ?? null, type: 'legislation' as const };
  const text = doc.text.slice(0, SCAN_LIMIT);
  for (let at = 0; at < text.length; ) {
    // Chunks end at a space, so a citation is rarely cut in two.
    let to = Math.min(text.length, at + SCAN_CHUNK);
    if (to < text.length) {
      const space = text.lastIndexOf(' ', to);
      if (space > at + SCAN_CHUNK / 2) to = space;
    }
    const chunk = text.slice(at, to);
    yield { chunk, citations: findCitations(index, chunk, { hints, maxAnchors: ANCHORS_PER_CHUNK, now: NEVER_EXPIRES }) };
    at = to;
  }
}

/** Decisions and doctrine cite; an act's cross-references ("see Article 5") say little of a topic. */
export function citesProvisions(doc: Pick<LegalDocument, 'namespace'>): boolean {
  return doc.namespace === 'case_law' || doc.namespace === 'doctrine';
}

/** Collects citation contexts from citing documents, by cited document id. */
export class CitationContexts {
  private readonly byArticle = new Map<string, string[]>();

  constructor(
    private readonly index: ReferenceIndex,
    private readonly limits: CitationPairLimits = DEFAULT_CITATION_LIMITS,
  ) {}

  collect(doc: LegalDocument): void {
    /** Contexts kept of each article cited by this document. */
    const seen = new Map<string, number>();
    let full = 0;
    for (const { chunk, citations } of citationsByChunk(this.index, doc)) {
      if (seen.size >= this.limits.perDocument && full === seen.size) break;
      for (const citation of citations) {
        const id = citation.doc.id;
        const here = seen.get(id) ?? 0;
        if (here >= this.limits.perDocumentArticle || (here === 0 && seen.size >= this.limits.perDocument)) continue;
        const kept = this.byArticle.get(id) ?? [];
        if (kept.length >= this.limits.perArticle) continue;
        const context = citationContext(chunk, citation.start, citation.end);
        if (!context) continue;
        seen.set(id, here + 1);
        if (here + 1 === this.limits.perDocumentArticle) full += 1;
        kept.push(context);
        this.byArticle.set(id, kept);
      }
    }
  }

  /** Contexts of the articles cited, in collection order. */
  contexts(): ReadonlyMap<string, readonly string[]> {
    return this.byArticle;
  }
}
