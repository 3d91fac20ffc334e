/**
 * Training pairs from the corpus's own structure (never from evaluation sets). For each
 * document, in file order:
 *
 * - header -> body: the title, the canonical path, the short names, the identifiers (ECLI,
 *   case number) and the summary against the first passage of the text (an article's
 *   heading against its text, a decision's title/ECLI/summary against its body, an act's
 *   title and short names against its text, a doctrine title against its text);
 * - sibling articles: an article against the next article under the same heading (the
 *   canonical path without its last step): neighbouring provisions treat the same matter;
 * - inverse cloze: a sentence of a passage against the rest of that passage, so that a
 *   one-sentence question finds the passage that discusses it;
 * - translations: the same article of the same act in two languages (same source, same
 *   article number, another language), for cross-lingual search;
 * - citation contexts: a sentence of a decision or of a guidance document that cites a
 *   provision ("… gemäß § 536 BGB …"), with the citation itself removed, against the cited
 *   article's text. Courts and authorities apply a provision to facts in words close to how
 *   people ask about it, which the statute's own wording rarely is. Citations are found as
 *   strictly as `POST /v1/resolve` resolves them (citations-in-text.ts).
 *
 * A document whose id hashes into the held-out share gives validation pairs only.
 */
import { createHash } from 'node:crypto';
import { chunkText } from '../corpus/chunker.js';
import { listDocumentFiles, parseDocumentRecord, readJsonLines } from '../corpus/corpus-reader.js';
import type { LegalDocument } from '../../../domain/legal-document.js';
import { createRandom } from './linalg.js';
import { CitationContexts, citesProvisions, DEFAULT_CITATION_LIMITS, referenceIndexOfCorpus, type CitationPairLimits } from './citation-pairs.js';

export const PAIR_KINDS = ['header', 'sibling', 'cloze', 'translation', 'citation'] as const;

export interface TextPair {
  anchor: string;
  passage: string;
  kind: (typeof PAIR_KINDS)[number];
  /** The pair's group: its act for an article, else its source (grouped batches draw negatives from it). */
  group: string;
  /** Index of the document the passage comes from. */
  doc: number;
}

export interface CorpusPairs {
  train: TextPair[];
  heldOut: TextPair[];
  /** Passages for the co-occurrence factorisation (one per document passage used). */
  passages: string[];
  documents: number;
}

export interface PairOptions {
  seed: number;
  /** Characters of a passage kept (about the tokens the trainer looks at). */
  passageChars?: number;
  /** Passages of one long document used at most. */
  maxPassagesPerDocument?: number;
  /** One document in this many is held out (by a hash of its id). */
  holdOutEvery?: number;
  /** Pair citation contexts of decisions and guidance with the cited articles (default true). */
  citations?: boolean;
  /** Limits of the citation contexts kept (each one DEFAULT_CITATION_LIMITS' when not given). */
  citationLimits?: Partial<CitationPairLimits>;
  onDocument?: (count: number, file: string) => void;
  log?: (line: string) => void;
  signal?: AbortSignal;
}

const SENTENCE = /[^.!?;:\n]+[.!?;:]?/g;

function heldOut(id: string, every: number): boolean {
  return createHash('sha1').update(id).digest().readUInt32LE(0) % every === 0;
}

/** Text of an article without its leading "Article 12" / "§ 823" line (the header says it). */
function body(doc: LegalDocument): string {
  const text = doc.text.trim();
  if (doc.granularity !== 'article') return text;
  const firstBreak = text.indexOf('\n');
  if (firstBreak > 0 && firstBreak < 80) return text.slice(firstBreak + 1).trim();
  return text;
}

function header(doc: LegalDocument): string {
  const parts = [doc.title, doc.canonical_path && doc.canonical_path !== doc.title ? doc.canonical_path : null, ...(doc.short_names ?? []), doc.ecli, doc.case_number, doc.summary ? doc.summary.slice(0, 600) : null];
  return parts.filter((p): p is string => typeof p === 'string' && p.trim().length > 0).join('\n');
}

interface CitedArticle {
  passage: string;
  doc: number;
  group: string;
  heldOut: boolean;
}

const parentPath = (path: string | null) => (path && path.includes('>') ? path.slice(0, path.lastIndexOf('>')).trim() : null);

/** Reads every document of a corpus folder and builds the pairs (deterministic for a seed). */
export async function buildCorpusPairs(corpusDir: string, options: PairOptions): Promise<CorpusPairs> {
  const random = createRandom(options.seed ^ 0x5bd1e995);
  const passageChars = options.passageChars ?? 1000;
  const maxPassages = options.maxPassagesPerDocument ?? 4;
  const every = options.holdOutEvery ?? 50;
  const out: CorpusPairs = { train: [], heldOut: [], passages: [], documents: 0 };
  const files = await listDocumentFiles(corpusDir);
  /** Article texts by `<source>|<parent act>|<unit number>|<language>` for translation pairs. */
  const articleByUnit = new Map<string, { language: string; text: string }>();
  let citing: CitationContexts | null = null;
  if (options.citations !== false) {
    options.log?.('train: reading the references of the corpus (citation contexts)');
    citing = new CitationContexts(await referenceIndexOfCorpus(files, options.signal), { ...DEFAULT_CITATION_LIMITS, ...options.citationLimits });
  }
  /** Every article's first passage and pair fields, for its citation contexts. */
  const articles = new Map<string, CitedArticle>();
  for (const file of files) {
    if (options.signal?.aborted) break;
    let previous: { key: string; text: string } | null = null;
    for await (const entry of readJsonLines(file.absolutePath, parseDocumentRecord)) {
      if (!entry.ok) continue;
      const doc = entry.value;
      const text = body(doc);
      if (text.length < 20) continue;
      out.documents += 1;
      const target = heldOut(doc.id, every) ? out.heldOut : out.train;
      const passages = chunkText(text.slice(0, maxPassages * 1300)).slice(0, maxPassages).map((p) => p.slice(0, passageChars));
      for (const p of passages) out.passages.push(p);
      const head = header(doc);
      const group = doc.granularity === 'article' && doc.parent_source_id ? `${doc.source}|${doc.parent_source_id}` : doc.source;
      const pair = (anchor: string, passage: string, kind: TextPair['kind']) => target.push({ anchor, passage, kind, group, doc: out.documents });
      if (head) pair(head, passages[0], 'header');
      if (citing && citesProvisions(doc)) citing.collect(doc);
      if (citing && doc.granularity === 'article' && doc.namespace === 'legislation') {
        articles.set(doc.id, { passage: passages[0], doc: out.documents, group, heldOut: target === out.heldOut });
      }
      if (doc.granularity === 'article') {
        const key = `${doc.source}|${parentPath(doc.canonical_path) ?? doc.parent_source_id ?? ''}`;
        if (previous && previous.key === key) pair(previous.text, passages[0], 'sibling');
        previous = { key, text: passages[0] };
        if (doc.language && doc.unit_number && doc.parent_source_id) {
          const unit = `${doc.source}|${doc.parent_source_id}|${doc.unit_number}`;
          const other = articleByUnit.get(unit);
          if (other && other.language !== doc.language) pair(other.text, passages[0], 'translation');
          else if (!other) articleByUnit.set(unit, { language: doc.language, text: passages[0] });
        }
      }
      for (const p of passages) {
        const sentences = (p.match(SENTENCE) ?? []).map((s) => s.trim()).filter((s) => s.length >= 30 && s.length <= 400);
        if (sentences.length < 2) continue;
        const sentence = sentences[Math.floor(random() * sentences.length)];
        // Most of the time the sentence is removed from its context (the model must learn the
        // topic, not the words), sometimes kept (as BM25-like lexical overlap is real too).
        const rest = random() < 0.9 ? p.replace(sentence, ' ') : p;
        pair(sentence, rest, 'cloze');
      }
      options.onDocument?.(out.documents, file.relativePath);
    }
  }
  if (citing) {
    let count = 0;
    for (const [id, contexts] of citing.contexts()) {
      const article = articles.get(id);
      if (!article) continue;
      const target = article.heldOut ? out.heldOut : out.train;
      for (const context of contexts) target.push({ anchor: context, passage: article.passage, kind: 'citation', group: article.group, doc: article.doc });
      count += contexts.length;
    }
    options.log?.(`train: ${count.toLocaleString('en')} citation contexts of ${citing.contexts().size.toLocaleString('en')} articles`);
  }
  return out;
}
