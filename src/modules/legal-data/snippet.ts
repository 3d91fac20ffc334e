/**
 * Snippets that show the matched passage: the window of the best chunk where most query
 * words occur, not the first characters of the document.
 */

const fold = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

/** Query words reduced to prefixes (a crude, language-neutral stand-in for stems). */
function queryPrefixes(query: string): string[] {
  const words = fold(query).match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words.filter((w) => w.length >= 3 || /\d/.test(w)).map((w) => (w.length > 5 ? w.slice(0, Math.max(5, w.length - 3)) : w)))];
}

/** Picks a window of about `length` characters around the densest cluster of query words. */
export function buildSnippet(passage: string, query: string, length = 300): string {
  const text = passage.replace(/\s+/g, ' ').trim();
  if (text.length <= length) return text;
  const prefixes = queryPrefixes(query);
  const folded = fold(text);
  // Positions of words that start with a query prefix (folding keeps lengths for most scripts).
  const hits: number[] = [];
  if (folded.length === text.length && prefixes.length > 0) {
    for (const match of folded.matchAll(/[\p{L}\p{N}]+/gu)) {
      if (prefixes.some((p) => match[0].startsWith(p))) hits.push(match.index);
    }
  }
  let start = 0;
  if (hits.length > 0) {
    let best = 0;
    let bestCount = 0;
    for (let i = 0, j = 0; i < hits.length; i++) {
      while (hits[i] - hits[j] > length * 0.8) j++;
      if (i - j + 1 > bestCount) {
        bestCount = i - j + 1;
        best = hits[j];
      }
    }
    start = Math.max(0, best - Math.floor(length * 0.15));
  }
  // Align on word boundaries.
  if (start > 0) {
    const space = text.indexOf(' ', start);
    start = space === -1 || space - start > 30 ? start : space + 1;
  }
  let end = Math.min(text.length, start + length);
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    if (space > start + length / 2) end = space;
  }
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}
