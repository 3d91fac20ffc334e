/**
 * Text normalisation shared by the resolver: references arrive with non-breaking spaces, odd
 * dashes, lower case and missing accents, and must meet the corpus's spellings on equal terms.
 */

const SPACES = /[\s\u00a0\u2000-\u200b\u202f\u205f\u3000]+/g;
const DASHES = /[\u2010-\u2015\u2212\u00ad]/g;

/** Cleans a raw reference: Unicode NFKC, one plain space between words, plain hyphens, trimmed. */
export function cleanReference(raw: string): string {
  return raw.normalize('NFKC').replace(DASHES, '-').replace(/[\u2018\u2019\u00b4`]/g, "'").replace(SPACES, ' ').trim();
}

/** Lower case without accents (`Délai` -> `delai`, `ß` -> `ss`, `œ` -> `oe`). */
export function foldText(value: string): string {
  return value
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/œ/g, 'oe')
    .replace(/æ/g, 'ae')
    .normalize('NFD')
    .replace(/\p{M}/gu, '');
}

/** Key of an abbreviation: folded, letters and digits only (`C. civ.` -> `cciv`, `SGB V` -> `sgbv`). */
export function abbreviationKey(value: string): string {
  return foldText(value).replace(/[^a-z0-9]/g, '');
}

/** Every leading article at once (a loop removing one at a time was quadratic on `the the the …`). */
const LEADING_ARTICLES = /^(?:(?:the|le|la|les|l|du|de|des|der|die|das|dem|den) )+/;

/** Key of a title: folded words separated by one space, without a leading article. */
export function titleKey(value: string): string {
  // Words are separated by exactly one space here, which LEADING_ARTICLES relies on.
  return foldText(value).replace(/[^a-z0-9]+/g, ' ').trim().replace(LEADING_ARTICLES, '');
}

/** Key of an article or section number: `L. 1234-1` -> `l1234-1`, `74 a` -> `74a`, `1er` -> `1`. */
export function unitKey(value: string): string {
  return foldText(value)
    .replace(/^(\d+)\s*er\b/, '$1')
    .replace(/[\s.*]+/g, '')
    .replace(/-+/g, '-');
}

/** Key of a court file number or ECLI-like code: upper case, no spaces. */
export function codeKey(value: string): string {
  return cleanReference(value).toUpperCase().replace(/\s+/g, '');
}
