/**
 * Folding and tokenisation shared by the analysis pipeline (text-analysis.ts) and the language
 * detection (language-detection.ts): lowercase -> split on anything that is not a letter, digit
 * or combining mark -> accent folding (NFKD, diacritics removed, `ß`->`ss`, `æ`->`ae`...).
 * Changing what these produce changes the indexed terms: bump ANALYSIS_VERSION (text-analysis.ts).
 */

/** Raw tokens: runs of letters, digits and combining marks (decomposed accents stay inside). */
export const TOKEN_RE = /[\p{L}\p{N}\p{M}]+/gu;
/** Combining diacritics (Latin/Greek/Cyrillic), Hebrew points and Arabic harakat: removed by folding. */
const DIACRITICS_RE = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f\u0591-\u05c7\u064b-\u065f\u0670]/g;
const NON_ASCII_RE = /[^\x00-\x7f]/;
const SPECIAL_FOLDS: Record<string, string> = {
  ß: 'ss', ẞ: 'ss', ς: 'σ', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i', ħ: 'h', ŀ: 'l', ĸ: 'k',
};
const SPECIAL_RE = /[ßẞςæœøłđðþıħŀĸ]/g;
const SPLIT_RE = /[^\p{L}\p{N}\p{M}]+/u;
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
