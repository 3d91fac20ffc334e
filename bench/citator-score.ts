/**
 * Scoring of the citator against the labelled set (bench/citator-labels.jsonl, docs/resolver.md
 * "Citator: the labelled set"). A link is matched to the labelled references its citing span
 * overlaps: it is correct when one of them has the same target. Precision is over the links
 * kept; recall over the references that have a target in the corpus.
 */

export interface LabelledReference {
  start: number;
  end: number;
  text: string;
  unit: string;
  target: { source: string; source_id: string } | null;
  reason?: string;
}

export interface LabelledDocument {
  source: string;
  source_id: string;
  country: string;
  language: string | null;
  namespace: string;
  references: LabelledReference[];
}

export interface ScoredLink {
  start: number;
  end: number;
  /** `source/source_id` of the cited document. */
  target: string;
}

export interface Score {
  links: number;
  correct: number;
  /** Links whose span overlaps a reference labelled "not in corpus" (a false resolution). */
  onUnresolvable: number;
  /** Links whose span overlaps no labelled reference at all. */
  unlabelled: number;
  resolvable: number;
  found: number;
  unresolvable: number;
}

export const emptyScore = (): Score => ({ links: 0, correct: 0, onUnresolvable: 0, unlabelled: 0, resolvable: 0, found: 0, unresolvable: 0 });

/**
 * The target key with the EU's language versions of one act folded together
 * (`EU/EUR-Lex/32016R0679-de/33` and `EU/EUR-Lex/32016R0679/33` are one article).
 */
export function targetKey(source: string, sourceId: string): string {
  return `${source}/${sourceId.replace(/^([^/]+?)-[a-z]{2}(?=\/|$)/, '$1')}`;
}

const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) => a.start < b.end && b.start < a.end;

/** Adds one document's links to `score`; returns the wrong links (for --show). */
export function scoreDocument(doc: LabelledDocument, links: ScoredLink[], score: Score): ScoredLink[] {
  const wrong: ScoredLink[] = [];
  const labelKey = (r: LabelledReference) => (r.target ? targetKey(r.target.source, r.target.source_id) : null);
  for (const link of links) {
    score.links++;
    const near = doc.references.filter((r) => overlaps(r, link));
    const key = targetKey(...splitTarget(link.target));
    if (near.some((r) => labelKey(r) === key)) score.correct++;
    else {
      wrong.push(link);
      if (!near.length) score.unlabelled++;
      else if (near.every((r) => !r.target)) score.onUnresolvable++;
    }
  }
  for (const ref of doc.references) {
    if (!ref.target) {
      score.unresolvable++;
      continue;
    }
    score.resolvable++;
    const key = labelKey(ref);
    if (links.some((l) => overlaps(ref, l) && targetKey(...splitTarget(l.target)) === key)) score.found++;
  }
  return wrong;
}

/** `EU/EUR-Lex/32016R0679/33` -> [`EU/EUR-Lex`, `32016R0679/33`] (a source is `<country>/<name>`). */
function splitTarget(target: string): [string, string] {
  const cut = target.indexOf('/', target.indexOf('/') + 1);
  return [target.slice(0, cut), target.slice(cut + 1)];
}

export function addScore(into: Score, from: Score): void {
  for (const key of Object.keys(into) as (keyof Score)[]) into[key] += from[key];
}

const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)}%` : 'n/a');

/** One printed line: precision, recall and the false resolutions of references to nothing. */
export function formatScore(name: string, s: Score): string {
  return (
    `${name.padEnd(10)} links=${String(s.links).padStart(4)} precision=${pct(s.correct, s.links).padStart(6)} ` +
    `recall=${pct(s.found, s.resolvable).padStart(6)} (${s.found}/${s.resolvable}) ` +
    `false-on-not-in-corpus=${s.onUnresolvable}/${s.unresolvable} unlabelled-spans=${s.unlabelled}`
  );
}
