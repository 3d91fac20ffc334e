/**
 * The document text cut into runs for rendering: plain text, resolved citations (links to the
 * cited document) and the highlighted pinpoint. Offsets are UTF-16 positions in the text exactly
 * as the API serves it (the citator computed them on the same string), so `text.slice(start,
 * end)` is the citation as it stands in the page.
 */

/** UTF-16 offsets [start, end) into the text (the same shape as pinpoint.ts's Span; no import, so node's tests load this file as it is). */
interface Span {
  start: number;
  end: number;
}

export interface TextLink extends Span {
  /** Dashboard path of the cited document. */
  to: string;
  /** The citation as written, act included (the link's accessible description). */
  citation: string;
}

export interface Segment extends Span {
  text: string;
  link: TextLink | null;
  /** Inside the highlighted pinpoint. */
  marked: boolean;
}

/** Links inside the text, in order, without overlaps (the first of two overlapping wins). */
function usableLinks(text: string, links: readonly TextLink[]): TextLink[] {
  const inside = links.filter((l) => Number.isInteger(l.start) && Number.isInteger(l.end) && l.start >= 0 && l.start < l.end && l.end <= text.length);
  const sorted = [...inside].sort((a, b) => a.start - b.start);
  const kept: TextLink[] = [];
  for (const link of sorted) if (!kept.length || link.start >= kept[kept.length - 1]!.end) kept.push(link);
  return kept;
}

/**
 * `text[0, limit)` cut into runs at every link and highlight boundary; a link crossing the
 * highlight's edge becomes two runs with the same target.
 */
export function segmentText(text: string, links: readonly TextLink[], mark: Span | null, limit = text.length): Segment[] {
  const end = Math.min(limit, text.length);
  const kept = usableLinks(text, links);
  const cuts = new Set([0, end]);
  for (const l of kept) cuts.add(l.start).add(l.end);
  if (mark) cuts.add(mark.start).add(mark.end);
  const points = [...cuts].filter((p) => p >= 0 && p <= end).sort((a, b) => a - b);
  const segments: Segment[] = [];
  let linkIndex = 0;
  for (let i = 0; i + 1 < points.length; i++) {
    const start = points[i]!;
    const stop = points[i + 1]!;
    while (linkIndex < kept.length && kept[linkIndex]!.end <= start) linkIndex++;
    const candidate = kept[linkIndex];
    const link = candidate && candidate.start <= start && stop <= candidate.end ? candidate : null;
    segments.push({ start, end: stop, text: text.slice(start, stop), link, marked: Boolean(mark && mark.start <= start && stop <= mark.end) });
  }
  return segments;
}

/** Where a collapsed text's preview ends: at the last whitespace before `chars` (the whole text when it is short). */
export function previewEnd(text: string, chars: number): number {
  if (text.length <= chars) return text.length;
  const space = text.lastIndexOf(' ', chars);
  const newline = text.lastIndexOf('\n', chars);
  const cut = Math.max(space, newline);
  return cut > chars / 2 ? cut : chars;
}
