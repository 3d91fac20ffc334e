/**
 * Compound words of the compounding languages (German, Dutch, the Scandinavian languages),
 * learned from the corpus: no dictionary, only the words the indexed passages use and how
 * many passages use each one.
 *
 * A German question says "Schadensersatz" where § 823 BGB says "Ersatz des … Schadens", or
 * "Verletzung des Eigentums" where a decision says "Eigentumsverletzung". The keyword leg
 * bridges both ways at query time:
 *
 * - split: a query word is cut into corpus words joined by the language's linking elements
 *   (`schadens|ersatz` = `schaden` + `s` + `ersatz`), when the parts are together more common
 *   in the corpus than the compound itself (Koehn & Knight's frequency rule: the geometric
 *   mean of the parts' frequencies must beat the word's own frequency, so `Verbraucher` is
 *   never cut into `verb` + `raucher`);
 * - join: two neighbouring query words (stop words between them skipped) are glued into the
 *   compound the corpus uses (`verletzung des eigentums` → `eigentumsverletzung`).
 *
 * The parts (and the joined compound) are added to the query's terms; the full word stays.
 * The embedded engine splits the documents' words the same way at index time (see
 * analyzeDocumentText): "Schadensersatzpflicht" in a title is also indexed as `schaden`,
 * `ersatz` and `pflicht`, so the query word (split the same way) meets it.
 *
 * Work is a handful of hash lookups per word (at most `word length × linking elements` for a
 * split), whatever the size of the corpus; an ingest memoises each distinct word. The
 * vocabulary is counted from the corpus files before an ingest writes documents (origin
 * `corpus`, see corpus-vocabulary.ts: index-time splits need it first, and a resumed or
 * incremental ingest reuses it so the terms stay stable), or, for an index written otherwise,
 * gathered from the index (origin `index`, query side only). Only words seen in at least
 * {@link MIN_COUNT} passages (documents, for the corpus count) are kept.
 */

/** Languages whose words are compounded, with their linking elements (longest first). */
export const LINKING_ELEMENTS: Record<string, readonly string[]> = {
  de: ['es', 'en', 's', 'n', 'e', ''],
  nl: ['en', 's', 'e', ''],
  sv: ['s', 'a', 'u', 'o', ''],
  da: ['s', 'e', ''],
  no: ['s', 'e', ''],
};

/** Language tags that share another language's vocabulary (Luxembourgish texts are German here, Bokmål/Nynorsk Norwegian). */
const VOCABULARY_OF: Record<string, string> = { lb: 'de', nb: 'no', nn: 'no' };

/** The vocabulary a language uses, or null when it does not compound. */
export function compoundLanguage(language: string | null | undefined): string | null {
  if (!language) return null;
  const l = VOCABULARY_OF[language] ?? language;
  return l in LINKING_ELEMENTS ? l : null;
}

/** Shortest part of a compound (shorter "words" are mostly noise: `ver`, `ein`, `amt` aside). */
export const MIN_PART = 4;
/** Passages a word must appear in to be a vocabulary word. */
export const MIN_COUNT = 3;
/** At most this many parts per compound. */
const MAX_PARTS = 3;
/**
 * Whether {@link CompoundVocabulary.pieces} adds the sub-compounds of a three-part split by
 * default. Off: on the German dev questions (keyword leg, 34k articles of
 * DE-GesetzeImInternet) parts only gave nDCG@10 0.159 / Recall@100 0.524, parts and
 * sub-compounds 0.157 / 0.491.
 */
const SUB_COMPOUNDS = false;
/** Distinct words memoised per language before the memo starts over. */
const MEMO_LIMIT = 500_000;
const WORD_RE = /^\p{L}+$/u;

/**
 * Where a vocabulary was counted: `corpus` = from the corpus files before an ingest wrote the
 * documents (their index-time splits use it, so it is kept until the index is rebuilt);
 * `index` = from the indexed passages, for the query side only (rebuilt when stale).
 */
export type VocabularyOrigin = 'corpus' | 'index';

export interface CompoundVocabularyData {
  version: number;
  origin?: VocabularyOrigin;
  /** Chunks of the index when the vocabulary was gathered (to tell when it is stale); for a corpus vocabulary, the documents counted. */
  chunkCount: number;
  /** Per language: [word, passages that use it]. */
  languages: Record<string, [string, number][]>;
}

export const VOCABULARY_FORMAT = 1;

export class CompoundVocabulary {
  /** Memo of {@link pieces} per language and word (an ingest meets the same words again and again). */
  private readonly memo = new Map<string, Map<string, string[] | null>>();

  private constructor(
    private readonly words: Map<string, Map<string, number>>,
    readonly chunkCount: number,
    readonly origin: VocabularyOrigin = 'index',
  ) {}

  static fromCounts(
    counts: Record<string, Map<string, number>>,
    chunkCount: number,
    options: { minCount?: number; origin?: VocabularyOrigin } = {},
  ): CompoundVocabulary {
    const minCount = options.minCount ?? MIN_COUNT;
    const words = new Map<string, Map<string, number>>();
    for (const [language, map] of Object.entries(counts)) {
      const kept = new Map<string, number>();
      for (const [w, n] of map) if (n >= minCount) kept.set(w, n);
      if (kept.size > 0) words.set(language, kept);
    }
    return new CompoundVocabulary(words, chunkCount, options.origin);
  }

  static fromJSON(data: CompoundVocabularyData): CompoundVocabulary | null {
    if (data?.version !== VOCABULARY_FORMAT || typeof data.languages !== 'object') return null;
    const words = new Map<string, Map<string, number>>();
    for (const [language, rows] of Object.entries(data.languages)) words.set(language, new Map(rows));
    return new CompoundVocabulary(words, Number(data.chunkCount) || 0, data.origin === 'corpus' ? 'corpus' : 'index');
  }

  toJSON(): CompoundVocabularyData {
    const languages: Record<string, [string, number][]> = {};
    for (const [language, map] of this.words) languages[language] = [...map];
    return { version: VOCABULARY_FORMAT, origin: this.origin, chunkCount: this.chunkCount, languages };
  }

  /** Number of words kept per language. */
  sizes(): Record<string, number> {
    return Object.fromEntries([...this.words].map(([l, m]) => [l, m.size]));
  }

  /** Passages that use `word` in `language` (0 when unknown). */
  count(word: string, language: string): number {
    const l = compoundLanguage(language);
    return l ? (this.words.get(l)?.get(word) ?? 0) : 0;
  }

  /**
   * The corpus words a folded, lowercased word is compounded of (`schadensersatz` →
   * [`schaden`, `ersatz`]), or null when it is not a compound of corpus words or is more
   * common whole than its parts are. `isStopword` excludes parts (`unter|halts|pflicht`).
   */
  split(word: string, language: string, isStopword: (w: string) => boolean = () => false): string[] | null {
    const l = compoundLanguage(language);
    const vocab = l ? this.words.get(l) : undefined;
    if (!vocab || word.length < 2 * MIN_PART || !WORD_RE.test(word)) return null;
    const best = this.bestSplit(word, vocab, LINKING_ELEMENTS[l!], MAX_PARTS, isStopword);
    if (!best || best.parts.length < 2) return null;
    if (best.score <= (vocab.get(word) ?? 0)) return null;
    return best.parts;
  }

  /**
   * The corpus words a compound stands for: its parts (see {@link split}) and, with
   * `subCompounds`, the runs of neighbouring parts that are corpus words themselves, as the
   * word spells them (`schadensersatzpflicht` → `schaden`, `ersatz`, `pflicht`,
   * `schadensersatz`); null when the word is no compound. Memoised per language and word.
   */
  pieces(word: string, language: string, isStopword: (w: string) => boolean = () => false, subCompounds = SUB_COMPOUNDS): string[] | null {
    const l = compoundLanguage(language);
    if (!l) return null;
    let memo = this.memo.get(l + (subCompounds ? '+' : ''));
    if (!memo) this.memo.set(l + (subCompounds ? '+' : ''), (memo = new Map()));
    const known = memo.get(word);
    if (known !== undefined) return known;
    const parts = this.split(word, l, isStopword);
    let out = parts;
    if (parts && parts.length > 2 && subCompounds) {
      const vocab = this.words.get(l)!;
      const starts = partOffsets(word, parts, LINKING_ELEMENTS[l]);
      out = [...parts];
      if (starts) {
        for (let i = 0; i < parts.length; i++) {
          for (let j = i + 1; j < parts.length; j++) {
            if (i === 0 && j === parts.length - 1) continue; // the word itself
            const run = word.slice(starts[i], starts[j] + parts[j].length);
            if ((vocab.get(run) ?? 0) > 0) out.push(run);
          }
        }
      }
    }
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(word, out);
    return out;
  }

  /**
   * The compound the corpus uses for two neighbouring words, in either order (`verletzung`,
   * `eigentums` → `eigentumsverletzung`), or null.
   */
  join(first: string, second: string, language: string): string | null {
    const l = compoundLanguage(language);
    const vocab = l ? this.words.get(l) : undefined;
    if (!vocab || first.length < MIN_PART || second.length < MIN_PART || !WORD_RE.test(first) || !WORD_RE.test(second)) return null;
    const links = LINKING_ELEMENTS[l!];
    let best: string | null = null;
    let bestCount = 0;
    for (const [modifier, head] of [[second, first], [first, second]]) {
      for (const stem of modifierForms(modifier, links)) {
        for (const link of links) {
          const candidate = stem + link + head;
          const n = vocab.get(candidate) ?? 0;
          if (n > bestCount) {
            best = candidate;
            bestCount = n;
          }
        }
      }
    }
    return best;
  }

  /** Best cut of `word` into at most `maxParts` vocabulary words by the geometric mean of their counts. */
  private bestSplit(
    word: string,
    vocab: Map<string, number>,
    links: readonly string[],
    maxParts: number,
    isStopword: (w: string) => boolean,
  ): { parts: string[]; score: number } | null {
    let best: { parts: string[]; score: number } | null = null;
    for (let cut = MIN_PART; cut <= word.length - MIN_PART; cut++) {
      const head = word.slice(0, cut);
      const headCount = vocab.get(head);
      if (!headCount || isStopword(head)) continue;
      const rest = word.slice(cut);
      for (const link of links) {
        if (!rest.startsWith(link)) continue;
        const tail = rest.slice(link.length);
        if (tail.length < MIN_PART) continue;
        const options: { parts: string[]; score: number }[] = [];
        const tailCount = vocab.get(tail);
        if (tailCount && !isStopword(tail)) options.push({ parts: [tail], score: tailCount });
        if (maxParts > 2 && tail.length >= 2 * MIN_PART) {
          const deeper = this.bestSplit(tail, vocab, links, maxParts - 1, isStopword);
          if (deeper) options.push(deeper);
        }
        for (const o of options) {
          const n = o.parts.length + 1;
          const score = Math.exp((Math.log(headCount) + Math.log(o.score) * o.parts.length) / n);
          if (!best || score > best.score) best = { parts: [head, ...o.parts], score };
        }
      }
    }
    return best;
  }
}

/** Where each part of a split starts in the word (parts are joined by linking elements), or null. */
function partOffsets(word: string, parts: string[], links: readonly string[]): number[] | null {
  const starts: number[] = [];
  let at = 0;
  for (const [i, part] of parts.entries()) {
    if (i === 0) {
      if (!word.startsWith(part)) return null;
    } else {
      const link = links.find((k) => word.startsWith(part, at + k.length));
      if (link === undefined) return null;
      at += link.length;
    }
    starts.push(at);
    at += part.length;
  }
  return starts;
}

/** A modifier word as compounds may use it: itself, or without an inflection ending that a linking element replaces. */
function modifierForms(word: string, links: readonly string[]): string[] {
  const forms = [word];
  for (const link of links) {
    if (link && word.endsWith(link) && word.length - link.length >= MIN_PART) forms.push(word.slice(0, -link.length));
  }
  return forms;
}

/**
 * Gathers the vocabulary: `add` each passage's words with its language; words are counted once
 * per passage. Only compounding languages are kept.
 */
export class VocabularyCounter {
  readonly counts: Record<string, Map<string, number>> = {};
  passages = 0;

  add(words: Iterable<string>, language: string | null): void {
    const l = compoundLanguage(language);
    if (!l) return;
    const map = (this.counts[l] ??= new Map());
    const seen = new Set<string>();
    for (const w of words) {
      if (w.length < MIN_PART || w.length > 60 || seen.has(w) || !WORD_RE.test(w)) continue;
      seen.add(w);
      map.set(w, (map.get(w) ?? 0) + 1);
    }
    this.passages += 1;
  }

  /** Drops the words seen once so far (bounds the memory of a long scan); call between batches. */
  prune(maxWords: number): void {
    for (const map of Object.values(this.counts)) {
      if (map.size <= maxWords) continue;
      for (const [w, n] of map) if (n < 2) map.delete(w);
    }
  }

  finish(chunkCount: number, origin: VocabularyOrigin = 'index'): CompoundVocabulary {
    return CompoundVocabulary.fromCounts(this.counts, chunkCount, { origin });
  }
}
