/**
 * Language-aware text analysis for the keyword leg. Documents and queries go through the
 * same pipeline, so the terms stored in the full-text column and the terms searched for
 * always agree:
 *
 *   lowercase -> split on anything that is not a letter, digit or combining mark ->
 *   accent folding (NFKD, diacritics removed, `ß`->`ss`, `æ`->`ae`...) -> drop the
 *   language's stopwords -> Snowball stem (after folding, on both sides).
 *
 * Tokens of Han/Kana/Hangul text (no spaces between words) become overlapping character
 * bigrams. Tokens longer than {@link MAX_TERM_LENGTH} are dropped (the index ignores them).
 *
 * The pipeline result of every distinct raw token is cached per language in a bounded
 * two-generation map, so the ingest pays the Unicode and stemming work once per word form.
 *
 * Beside it: text-folding.ts (tokens and accent folding), stopwords.ts, and
 * language-detection.ts (which language a document or a query is analysed in).
 */
import { createRequire } from 'node:module';
import { compoundLanguage, type CompoundVocabulary } from './compounds.js';
import { detectDocumentLanguage, normalizeLanguage, queryLanguages } from './language-detection.js';
import { STOPWORDS } from './stopwords.js';
import { foldToken, TOKEN_RE } from './text-folding.js';

interface SnowballFactory {
  newStemmer(language: string): { stem(word: string): string };
  algorithms(): string[];
}
const snowball = createRequire(import.meta.url)('snowball-stemmers') as SnowballFactory;

/**
 * Version of the analysis: bump it whenever a change alters the terms produced (stopwords,
 * folding, stemmer mapping...). Documents analysed by another version are re-indexed.
 */
export const ANALYSIS_VERSION = 2;

/** Longest term kept (the full-text index ignores longer tokens anyway). */
export const MAX_TERM_LENGTH = 40;

/** ISO 639-1 code -> Snowball algorithm (Luxembourgish borrows the German stemmer). */
const STEMMER_BY_LANGUAGE: Record<string, string> = {
  ar: 'arabic',
  hy: 'armenian',
  eu: 'basque',
  ca: 'catalan',
  cs: 'czech',
  da: 'danish',
  nl: 'dutch',
  en: 'english',
  fi: 'finnish',
  fr: 'french',
  de: 'german',
  lb: 'german',
  hu: 'hungarian',
  it: 'italian',
  ga: 'irish',
  no: 'norwegian',
  nb: 'norwegian',
  nn: 'norwegian',
  pt: 'portuguese',
  ro: 'romanian',
  ru: 'russian',
  es: 'spanish',
  sl: 'slovene',
  sv: 'swedish',
  ta: 'tamil',
  tr: 'turkish',
};

/** Whether a Snowball stemmer exists for the language. */
export function hasStemmer(language: string | null | undefined): boolean {
  const l = normalizeLanguage(language);
  return l !== null && l in STEMMER_BY_LANGUAGE;
}

// ---------------------------------------------------------------------------------------------
// Tokenisation of scripts without spaces (folding: text-folding.ts)

/** Scripts written without spaces between words (plus Hangul): indexed as character bigrams. */
const CJK_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_RUN_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc]+|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc]+/gu;
const HAS_LETTER_RE = /\p{L}/u;
const HAS_DIGIT_RE = /\d/;

function cjkBigrams(run: string): string[] {
  const chars = Array.from(run.normalize('NFKC'));
  if (chars.length <= 2) return [chars.join('')];
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Per-language pipelines with a bounded cache

const CACHE_GENERATION = 60_000;

class Pipeline {
  private current = new Map<string, string>();
  private previous = new Map<string, string>();
  private readonly stemmer: { stem(word: string): string } | null;
  readonly stopwords: Set<string> | undefined;
  /** The compound parts of raw tokens, for the vocabulary last used. */
  private compoundMemo = new Map<string, string>();
  private compoundVocabulary: CompoundVocabulary | null = null;

  private readonly germanStems: boolean;

  constructor(readonly language: string | null) {
    const algorithm = language ? STEMMER_BY_LANGUAGE[language] : undefined;
    this.stemmer = algorithm ? snowball.newStemmer(algorithm) : null;
    this.stopwords = language ? STOPWORDS[language] : undefined;
    this.germanStems = algorithm === 'german';
  }

  /**
   * The other stems of a German verb's forms. Snowball's German stemmer leaves the `-t` and
   * `-et` of participles and third persons in place (`verletzt`, `kündigt`, `verpflichtet`)
   * while it reduces the nouns and infinitives to the bare stem (`Verletzung`, `verletzen` ->
   * `verletz`), so a question's noun never meets the statute's verb. A query stem's concept
   * therefore also holds the stem with those endings added, and a stem ending in them also
   * the stem without them (kept to stems long enough not to turn one word into another: `wert`
   * is not `wer`).
   */
  verbForms(stem: string): string[] {
    if (!this.germanStems || HAS_DIGIT_RE.test(stem)) return [];
    if (stem.endsWith('et') && stem.length >= 6) return [stem.slice(0, -2)];
    if (stem.endsWith('t')) return stem.length >= 6 ? [stem.slice(0, -1)] : [];
    return stem.length >= 4 ? [`${stem}t`, `${stem}et`] : [];
  }

  /** Space-joined terms of one raw lowercased token ('' when it is dropped). */
  analyze(raw: string): string {
    let out = this.current.get(raw);
    if (out !== undefined) return out;
    out = this.previous.get(raw);
    if (out === undefined) out = this.compute(raw);
    if (this.current.size >= CACHE_GENERATION) {
      this.previous = this.current;
      this.current = new Map();
    }
    this.current.set(raw, out);
    return out;
  }

  /** Whether a folded piece is one of the language's stop words. */
  readonly isStopword = (piece: string): boolean => this.stopwords?.has(piece) ?? false;

  /**
   * Space-joined stems of the corpus words the compounds of one raw lowercased token are made
   * of ('' when it holds none); the vocabulary memoises the splits.
   */
  compoundParts(raw: string, compounds: CompoundVocabulary): string {
    if (this.language === null || raw.length < 6) return '';
    if (this.compoundVocabulary !== compounds) {
      this.compoundVocabulary = compounds;
      this.compoundMemo.clear();
    }
    const known = this.compoundMemo.get(raw);
    if (known !== undefined) return known;
    let out = '';
    for (const piece of foldToken(raw)) {
      if (piece.length > MAX_TERM_LENGTH || this.isStopword(piece)) continue;
      for (const part of compounds.pieces(piece, this.language, this.isStopword) ?? []) {
        const t = this.term(part);
        if (t) out = out ? `${out} ${t}` : t;
      }
    }
    if (this.compoundMemo.size >= CACHE_GENERATION) this.compoundMemo.clear();
    this.compoundMemo.set(raw, out);
    return out;
  }

  /** Stem of an already folded piece, or '' when it is a stopword or too long. */
  term(piece: string): string {
    if (piece.length > MAX_TERM_LENGTH) return '';
    if (this.stopwords?.has(piece)) return '';
    if (this.stemmer === null || piece.length < 3 || HAS_DIGIT_RE.test(piece) || !HAS_LETTER_RE.test(piece)) return piece;
    return this.stemmer.stem(piece) || piece;
  }

  private compute(raw: string): string {
    if (CJK_RE.test(raw)) {
      const terms: string[] = [];
      for (const run of raw.match(CJK_RUN_RE) ?? []) {
        if (CJK_RE.test(run)) terms.push(...cjkBigrams(run));
        else for (const piece of foldToken(run)) terms.push(this.term(piece));
      }
      return terms.filter(Boolean).join(' ');
    }
    const pieces = foldToken(raw);
    if (pieces.length === 1) return this.term(pieces[0]);
    return pieces.map((p) => this.term(p)).filter(Boolean).join(' ');
  }
}

const pipelines = new Map<string, Pipeline>();
function pipeline(language: string | null): Pipeline {
  const key = language ?? '';
  let p = pipelines.get(key);
  if (!p) {
    p = new Pipeline(language && (language in STEMMER_BY_LANGUAGE || language in STOPWORDS) ? language : null);
    pipelines.set(key, p);
  }
  return p;
}

// ---------------------------------------------------------------------------------------------
// Public entry points

/**
 * The language a document is analysed in: its own (normalised), else the one detected from
 * its text when the detection is confident, else null (folded terms, no stemming).
 */
export function resolveDocumentLanguage(text: string, language: string | null | undefined): string | null {
  return normalizeLanguage(language) ?? detectDocumentLanguage(text);
}

/**
 * Analyses a document's text into the space-joined terms stored in the full-text column.
 * With `compounds` (the corpus vocabulary, see compounds.ts) and a compounding language, a
 * compound word is followed by the stems of the corpus words it is made of (the same split
 * as the query side's), so a query for a part finds the compound. A null (or unrecognised) language is detected from the text (unless `detect: false`, for
 * a caller that resolved it once per document with {@link resolveDocumentLanguage}); when
 * the detection is not confident the terms are folded but not stemmed.
 */
export function analyzeDocumentText(
  text: string,
  language: string | null,
  options: { detect?: boolean; compounds?: CompoundVocabulary | null } = {},
): string {
  const lang = options.detect === false ? normalizeLanguage(language) : resolveDocumentLanguage(text, language);
  const p = pipeline(lang);
  const tokens = text.toLowerCase().match(TOKEN_RE);
  if (!tokens) return '';
  const compounds = options.compounds && lang && compoundLanguage(lang) ? options.compounds : null;
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const terms = p.analyze(tokens[i]);
    if (terms === '') continue;
    out.push(terms);
    if (compounds) {
      const parts = p.compoundParts(tokens[i], compounds);
      if (parts !== '') out.push(parts);
    }
  }
  return out.join(' ');
}

/**
 * Distinct terms of a query: for every word, its folded form and its stems in each
 * plausible language (see {@link queryLanguages}). A word that is a stopword in one of
 * those languages is dropped, unless every word of the query is one.
 *
 * With `compounds` (the corpus's vocabulary, see compounds.ts), in each plausible compounding
 * language a word is also split into the corpus words it is compounded of, and two
 * neighbouring words are joined into the compound the corpus uses: the stems of those parts
 * and compounds are added (the word itself stays).
 */
export function analyzeQuery(query: string, options: { language?: string | null; compounds?: CompoundVocabulary | null } = {}): string[] {
  return analyzeQueryConcepts(query, options).terms;
}

/** A query's terms, and the same terms grouped by the query word they stand for. */
export interface QueryAnalysis {
  /** Every distinct term (what {@link analyzeQuery} returns). */
  terms: string[];
  /**
   * One group per distinct content word of the query: its folded form, its stems, its
   * compound parts, the joined compounds it takes part in, and the other stems of its verb
   * forms (these only here, not among `terms`). A passage holding a term of every group
   * speaks of every concept of the query. Empty when the query holds only stop words.
   */
  concepts: string[][];
}

/** {@link analyzeQuery}, with its terms grouped by the query word they stand for. */
export function analyzeQueryConcepts(query: string, options: { language?: string | null; compounds?: CompoundVocabulary | null } = {}): QueryAnalysis {
  const languages = queryLanguages(query, options.language);
  const pipes = languages.map((l) => pipeline(l));
  const surface = pipeline(null);
  const tokens = query.toLowerCase().match(TOKEN_RE) ?? [];
  const terms = new Set<string>();
  const fallback = new Set<string>();
  /** Raw token -> the terms of its concept. */
  const concepts = new Map<string, Set<string>>();
  const addTo = (concept: Set<string>, term: string) => {
    terms.add(term);
    concept.add(term);
  };
  for (const raw of tokens) {
    const surfaceTerms = surface.analyze(raw);
    if (surfaceTerms === '') continue;
    for (const t of surfaceTerms.split(' ')) fallback.add(t);
    const perLanguage = pipes.map((p) => p.analyze(raw));
    if (perLanguage.some((t) => t === '')) continue; // a stopword in a plausible language
    const concept = concepts.get(raw) ?? new Set<string>();
    concepts.set(raw, concept);
    for (const t of surfaceTerms.split(' ')) addTo(concept, t);
    perLanguage.forEach((joined, i) => {
      for (const t of joined.split(' ')) {
        addTo(concept, t);
        // Not in the OR query: scored for every passage they count a concept twice where both
        // forms occur (German keyword nDCG@10 0.161 -> 0.145); the coverage query holds them.
        for (const form of pipes[i].verbForms(t)) concept.add(form);
      }
    });
  }
  if (terms.size === 0) return { terms: [...fallback], concepts: [] };
  if (options.compounds) {
    for (const { term, words } of compoundTerms(tokens, languages, options.compounds)) {
      terms.add(term);
      for (const raw of words) concepts.get(raw)?.add(term);
    }
  }
  return { terms: [...terms], concepts: withoutImpliedConcepts([...concepts.values()]) };
}

/**
 * The concepts, less those another one implies: a passage holding a term of `contrat` holds
 * one of `contrat contrats` too, so two forms of one word count as one concept.
 */
function withoutImpliedConcepts(concepts: Set<string>[]): string[][] {
  const implies = (a: Set<string>, b: Set<string>) => a.size <= b.size && [...a].every((t) => b.has(t));
  const kept = concepts.filter((c, i) => !concepts.some((other, j) => j !== i && implies(other, c) && (other.size < c.size || j < i)));
  return kept.map((c) => [...c]);
}

/**
 * Stems of the compound parts and joined compounds of a query's words (see analyzeQuery), each
 * with the raw query tokens it comes from (one for a part, two for a joined compound).
 */
export function compoundTerms(tokens: string[], languages: string[], compounds: CompoundVocabulary): { term: string; words: string[] }[] {
  const out: { term: string; words: string[] }[] = [];
  for (const language of languages) {
    if (!compoundLanguage(language)) continue;
    const p = pipeline(language);
    // Content words in order (stop words between two words do not stop a join: "Ersatz des Schadens").
    const words: { piece: string; raw: string }[] = [];
    for (const raw of tokens) {
      for (const piece of foldToken(raw)) {
        if (p.stopwords?.has(piece) || piece.length > MAX_TERM_LENGTH) continue;
        words.push({ piece, raw });
      }
    }
    for (const { piece, raw } of words) {
      for (const part of compounds.pieces(piece, language, p.isStopword) ?? []) {
        const t = p.term(part);
        if (t) out.push({ term: t, words: [raw] });
      }
    }
    for (let i = 0; i + 1 < words.length; i++) {
      const joined = compounds.join(words[i].piece, words[i + 1].piece, language);
      if (joined) {
        const t = p.term(joined);
        if (t) out.push({ term: t, words: [words[i].raw, words[i + 1].raw] });
      }
    }
  }
  return out;
}
