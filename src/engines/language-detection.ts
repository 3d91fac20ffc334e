/**
 * Language of a text, cheaply: votes of the languages' stop words, distinctive characters (`ß`,
 * `ñ`, `ã`...) and word suffixes (`-ung`, `-zione`...), over the first ~400 tokens. Documents
 * without a language are analysed in the detected one when the detection is confident; a query
 * is analysed in every plausible language (text-analysis.ts). Also: normalising language tags.
 */
import { STOPWORDS } from './stopwords.js';
import { foldToken, TOKEN_RE } from './text-folding.js';

/** ISO 639-2 (terminological and bibliographic) codes of the corpus languages -> ISO 639-1. */
const THREE_LETTER: Record<string, string> = {
  deu: 'de', ger: 'de', fra: 'fr', fre: 'fr', eng: 'en', ita: 'it', spa: 'es', nld: 'nl', dut: 'nl',
  por: 'pt', pol: 'pl', ltz: 'lb', swe: 'sv', dan: 'da', nor: 'no', fin: 'fi', ron: 'ro', rum: 'ro',
  hun: 'hu', rus: 'ru', ces: 'cs', cze: 'cs', slv: 'sl', tur: 'tr', cat: 'ca', ell: 'el', gre: 'el',
};

/** Normalises a language tag (`de`, `DE`, `de-CH`, `deu`) to an ISO 639-1 code, or null. */
export function normalizeLanguage(language: string | null | undefined): string | null {
  if (!language) return null;
  const l = language.trim().toLowerCase();
  const m = /^([a-z]{2,3})(?:[-_].*)?$/.exec(l);
  if (!m) return null;
  if (m[1].length === 3) return THREE_LETTER[m[1]] ?? null;
  return m[1];
}

/** Languages a query of unknown language is analysed for when nothing hints at one. */
export const DEFAULT_QUERY_LANGUAGES = ['en', 'de', 'fr', 'it', 'es', 'nl', 'pt'] as const;
const DETECTABLE = DEFAULT_QUERY_LANGUAGES;

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
