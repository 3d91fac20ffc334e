/**
 * Splits a document text into passages for the index. Passages follow paragraph and
 * sentence boundaries so a snippet or an embedding covers a coherent piece of text.
 */

/** Bumped whenever chunking changes, so the ingest re-indexes documents chunked the old way. */
export const CHUNKER_VERSION = 1;

export interface ChunkOptions {
  /** Target passage length in characters. */
  target: number;
  /** Hard maximum; a longer paragraph is cut at sentence or word boundaries. */
  max: number;
}

const DEFAULTS: ChunkOptions = { target: 1200, max: 2000 };

/** Returns the passages of `text` (at least one, possibly empty for an empty text). */
export function chunkText(text: string, options: ChunkOptions = DEFAULTS): string[] {
  const clean = text.replace(/\r\n?/g, '\n').trim();
  if (clean.length <= options.max) return [clean];
  const pieces = clean
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .flatMap((p) => (p.length > options.max ? splitLong(p, options.max) : [p]));
  const chunks: string[] = [];
  let current = '';
  for (const piece of pieces) {
    if (current && current.length + piece.length + 2 > options.target) {
      chunks.push(current);
      current = piece;
    } else {
      current = current ? `${current}\n\n${piece}` : piece;
    }
  }
  if (current) chunks.push(current);
  return chunks;
}

/** Cuts one long paragraph at sentence ends, then at spaces, never above `max`. */
function splitLong(paragraph: string, max: number): string[] {
  const out: string[] = [];
  let rest = paragraph;
  while (rest.length > max) {
    const window = rest.slice(0, max);
    let cut = Math.max(window.lastIndexOf('. '), window.lastIndexOf('; '), window.lastIndexOf('\n'));
    if (cut < max / 2) cut = window.lastIndexOf(' ');
    if (cut < max / 4) cut = max - 1;
    out.push(rest.slice(0, cut + 1).trim());
    rest = rest.slice(cut + 1).trim();
  }
  if (rest) out.push(rest);
  return out;
}
