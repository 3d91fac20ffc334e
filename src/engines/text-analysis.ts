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
 */
import { createRequire } from 'node:module';
import { compoundLanguage, type CompoundVocabulary } from './compounds.js';

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

const THREE_LETTER: Record<string, string> = {
  deu: 'de', ger: 'de', fra: 'fr', fre: 'fr', eng: 'en', ita: 'it', spa: 'es', nld: 'nl', dut: 'nl',
  por: 'pt', pol: 'pl', ltz: 'lb', swe: 'sv', dan: 'da', nor: 'no', fin: 'fi', ron: 'ro', rum: 'ro',
  hun: 'hu', rus: 'ru', ces: 'cs', cze: 'cs', slv: 'sl', tur: 'tr', cat: 'ca', ell: 'el', gre: 'el',
};

/** Stopwords (already accent-folded) of the major corpus languages. */
const STOPWORDS_SOURCE: Record<string, string> = {
  de: `aber alle allem allen aller alles als also am an andere anderen anderer anderes auch auf aus bei beim bin bis bist
    da dabei damit dann das dass dem den denen denn der deren des dessen die dies diese diesem diesen dieser dieses doch dort
    du durch ein eine einem einen einer eines er es etwas euch fur gegen hat hatte hatten hier ich ihm ihn ihnen ihr ihre
    ihrem ihren ihrer ihres im in indem ins ist jede jedem jeden jeder jedes jene kann kein keine mich mir mit muss nach
    nicht nichts noch nun nur ob oder ohne sehr sein seine seinem seinen seiner seines sich sie sind so soll sollen sondern
    sowie uber um und uns unter vom von vor war waren was weil welche welchem welchen welcher welches wenn werden wie wir
    wird wo wurde wurden zu zum zur zwischen`,
  fr: `a afin ai au aux avec ce ceci cela celle celles celui ces cet cette ceux c d dans de des donc du elle elles en entre
    est et etaient etait etre eu eux il ils j je l la le les leur leurs lui m ma mais me meme mes moi mon n ne ni nos notre
    nous on ont ou par pas pour qu que quel quelle quelles quels qui s sa sans se ses si son sont sous sur t ta te tes toi
    ton tous tout toute toutes tu un une vos votre vous y`,
  en: `a about above after all also an and any are as at be been before being between both but by can could did do does
    doing down during each for from had has have having he her here hers him his how i if in into is it its itself me more
    most my no nor not of off on once only or other our ours out over own same she should so some such than that the their
    theirs them then there these they this those through to too under until up very was we were what when where which
    while who whom why will with would you your`,
  it: `a ad agli ai al alla alle allo all anche avere c che chi ci coi col come con contro cui da dagli dai dal dalla dalle
    dall dei del della delle dello dell di dove e ed gli ha hanno i il in l la le lo loro ma negli nei nel nella nelle
    nello nell non o per piu quale quali quando quella quelle quello questa queste questo se si sia sono su sua sue sugli
    sui sul sulla sulle sull suo suoi tra un una uno`,
  es: `a al algo ante como con contra cual cuando de del desde donde e el ella ellas ellos en entre era es esa esas ese eso
    esos esta estas este esto estos fue ha han hasta la las le les lo los mas me mi mis muy ni no nos o para pero por que
    quien se sea ser si sin sobre son su sus te tiene todo todos tu u un una unas uno unos y ya`,
  nl: `aan al alle als bij dan dat de deze die dit door een en er had heb hebben heeft het hier hij hoe hun ik in is je kan
    maar me meer men met mij mijn na naar niet nog nu of om omdat ons onder ook op over te tegen toe tot uit van veel voor
    want was wat we wel werd wie wij worden wordt zal ze zich zij zijn zo zonder`,
  pt: `a ao aos as com como da das de dela dele deles do dos e ela elas ele eles em entre era essa esse esta este eu foi ha
    isso isto ja lhe mais mas me mesmo meu na nao nas nem no nos o os ou para pela pelas pelo pelos por qual quando que
    quem se sem ser seu seus sua suas tambem te tem um uma umas uns`,
};

const STOPWORDS: Record<string, Set<string>> = Object.fromEntries(
  Object.entries(STOPWORDS_SOURCE).map(([lang, words]) => [lang, new Set(words.split(/\s+/).filter(Boolean))]),
);

/** Languages a query of unknown language is analysed for when nothing hints at one. */
export const DEFAULT_QUERY_LANGUAGES = ['en', 'de', 'fr', 'it', 'es', 'nl', 'pt'] as const;
const DETECTABLE = DEFAULT_QUERY_LANGUAGES;

/** Normalises a language tag (`de`, `DE`, `de-CH`, `deu`) to an ISO 639-1 code, or null. */
export function normalizeLanguage(language: string | null | undefined): string | null {
  if (!language) return null;
  const l = language.trim().toLowerCase();
  const m = /^([a-z]{2,3})(?:[-_].*)?$/.exec(l);
  if (!m) return null;
  if (m[1].length === 3) return THREE_LETTER[m[1]] ?? null;
  return m[1];
}

/** Whether a Snowball stemmer exists for the language. */
export function hasStemmer(language: string | null | undefined): boolean {
  const l = normalizeLanguage(language);
  return l !== null && l in STEMMER_BY_LANGUAGE;
}

// ---------------------------------------------------------------------------------------------
// Folding and tokenisation

/** Raw tokens: runs of letters, digits and combining marks (decomposed accents stay inside). */
const TOKEN_RE = /[\p{L}\p{N}\p{M}]+/gu;
/** Combining diacritics (Latin/Greek/Cyrillic), Hebrew points and Arabic harakat: removed by folding. */
const DIACRITICS_RE = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f\u0591-\u05c7\u064b-\u065f\u0670]/g;
const NON_ASCII_RE = /[^\x00-\x7f]/;
const SPECIAL_FOLDS: Record<string, string> = {
  ß: 'ss', ẞ: 'ss', ς: 'σ', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i', ħ: 'h', ŀ: 'l', ĸ: 'k',
};
const SPECIAL_RE = /[ßẞςæœøłđðþıħŀĸ]/g;
const SPLIT_RE = /[^\p{L}\p{N}\p{M}]+/u;
/** Scripts written without spaces between words (plus Hangul): indexed as character bigrams. */
const CJK_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_RUN_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc]+|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc]+/gu;
const HAS_LETTER_RE = /\p{L}/u;
const HAS_DIGIT_RE = /\d/;

/**
 * Accent-folds one lowercased token: NFKD, diacritics removed, special letters expanded.
 * May return several pieces (compatibility forms such as `½` decompose into separators).
 */
export function foldToken(token: string): string[] {
  if (!NON_ASCII_RE.test(token)) return [token];
  const folded = token.normalize('NFKD').replace(DIACRITICS_RE, '').replace(SPECIAL_RE, (c) => SPECIAL_FOLDS[c]).toLowerCase();
  if (!SPLIT_RE.test(folded)) return folded ? [folded] : [];
  return folded.split(SPLIT_RE).filter(Boolean);
}

/** The folded words of a text, in order (no stop words dropped, no stemming). */
export function foldedWords(text: string): string[] {
  return (text.toLowerCase().match(TOKEN_RE) ?? []).flatMap(foldToken);
}

/** Lowercased, folded text (for display-independent comparisons). */
export function foldText(text: string): string {
  return (text.toLowerCase().match(TOKEN_RE) ?? []).flatMap(foldToken).join(' ');
}

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
// Language detection (cheap: stopword votes, distinctive characters and suffixes)

/** Weight of a distinctive character for each language it hints at. */
const CHAR_HINTS: Record<string, Partial<Record<string, number>>> = {
  ß: { de: 3 }, ä: { de: 1 }, ö: { de: 1 }, ü: { de: 1 },
  ç: { fr: 0.7, pt: 0.5 }, œ: { fr: 2 }, â: { fr: 0.7, pt: 0.3 }, ê: { fr: 0.7, pt: 0.3 }, ô: { fr: 0.7, pt: 0.3 },
  î: { fr: 1 }, û: { fr: 1 }, ë: { fr: 0.5, nl: 0.5 }, ï: { fr: 0.5, nl: 0.5 }, è: { fr: 0.6, it: 0.4 },
  à: { fr: 0.5, it: 0.5, pt: 0.3 }, ù: { fr: 0.5, it: 0.5 }, ì: { it: 1 }, ò: { it: 1 },
  é: { fr: 0.4, es: 0.2, pt: 0.2, it: 0.1 }, á: { es: 0.5, pt: 0.5 }, í: { es: 0.5, pt: 0.5 }, ó: { es: 0.5, pt: 0.5 },
  ú: { es: 0.5, pt: 0.5 }, ñ: { es: 3 }, '¿': { es: 3 }, '¡': { es: 2 }, ã: { pt: 3 }, õ: { pt: 3 },
};
const CHAR_HINT_RE = /[ßäöüçœâêôîûëïèàùìòéáíóúñ¿¡ãõ]/g;

/** Suffixes of folded words that hint at a language. */
const SUFFIX_HINTS: [RegExp, Partial<Record<string, number>>][] = [
  [/(?:ung|keit|heit|schaft|lich|igkeit|ungen)$/, { de: 1 }],
  [/(?:ite|ites|aux|eur|eurs|ique|iques|elle|elles|ement)$/, { fr: 0.7 }],
  [/(?:tion|tions)$/, { fr: 0.4, en: 0.4 }],
  [/(?:ness|ship|ing|ed|ly)$/, { en: 0.6 }],
  [/(?:zione|zioni|ita|mento|menti|tto|tti|zza)$/, { it: 0.8 }],
  [/(?:cion|ciones|idad|idades|ado|ados|iento)$/, { es: 0.8 }],
  [/(?:cao|coes|dade|dades|mento|ncia)$/, { pt: 0.8 }],
  [/(?:heid|ijk|lijk|ing|en)$/, { nl: 0.3 }],
];

export interface LanguageGuess {
  language: string;
  score: number;
}

/**
 * Scores the major corpus languages for a text (best first; languages without any
 * evidence are left out). Looks at the first ~400 tokens only.
 */
export function detectLanguage(text: string): LanguageGuess[] {
  const sample = text.length > 4000 ? text.slice(0, 4000) : text;
  const lower = sample.toLowerCase();
  const scores: Record<string, number> = {};
  const add = (hints: Partial<Record<string, number>>, factor = 1) => {
    for (const [l, w] of Object.entries(hints)) scores[l] = (scores[l] ?? 0) + (w ?? 0) * factor;
  };
  const chars = lower.match(CHAR_HINT_RE);
  if (chars) {
    const seen = new Map<string, number>();
    for (const c of chars) seen.set(c, (seen.get(c) ?? 0) + 1);
    // Distinct characters count fully, repetitions weakly.
    for (const [c, n] of seen) add(CHAR_HINTS[c] ?? {}, 1 + Math.log2(n) * 0.5);
  }
  const tokens = (lower.match(TOKEN_RE) ?? []).slice(0, 400);
  for (const raw of tokens) {
    for (const token of foldToken(raw)) {
      let holders = 0;
      for (const l of DETECTABLE) if (STOPWORDS[l]?.has(token)) holders++;
      if (holders > 0) {
        for (const l of DETECTABLE) if (STOPWORDS[l]?.has(token)) scores[l] = (scores[l] ?? 0) + 1 / holders;
      } else if (token.length > 4) {
        for (const [re, hints] of SUFFIX_HINTS) if (re.test(token)) add(hints);
      }
    }
  }
  return Object.entries(scores)
    .filter(([, s]) => s > 0)
    .map(([language, score]) => ({ language, score }))
    .sort((a, b) => b.score - a.score || a.language.localeCompare(b.language));
}

/** The language of a document text when the detection is confident, else null. */
export function detectDocumentLanguage(text: string): string | null {
  const [first, second] = detectLanguage(text);
  if (!first || first.score < 3) return null;
  if (second && second.score * 1.6 > first.score) return null;
  return first.language;
}

/**
 * The languages a query is analysed for: the given language, else the detected one when
 * the evidence is clear, else the few plausible ones (all major languages when nothing hints).
 */
export function queryLanguages(query: string, language?: string | null): string[] {
  const given = normalizeLanguage(language);
  if (given) return [given];
  const guesses = detectLanguage(query);
  if (guesses.length === 0) return [...DEFAULT_QUERY_LANGUAGES];
  const [first, second] = guesses;
  if (first.score >= 2 && (!second || first.score >= 2 * second.score)) return [first.language];
  return guesses.filter((g) => g.score >= first.score * 0.4).slice(0, 4).map((g) => g.language);
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
