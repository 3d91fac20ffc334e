/** Score fusion of the keyword and the vector leg (pure: no I/O, deterministic). */
import type { DocumentHit, KeywordCoverage } from './search-engine.js';

export interface FusedHit {
  docId: string;
  /** Fused score: `alpha * semanticScore + (1 - alpha) * keywordScore + authority boost` (see fuseHybrid), in [0, 1 + authority weight]. */
  score: number;
  /** Normalised keyword score (bm25 / best bm25) in [0, 1] (0 when the keyword leg did not find the document). */
  keywordScore: number;
  /** Normalised semantic score (cosine on the model's scale) in [0, 1] (0 when the vector leg did not find the document). */
  semanticScore: number;
  /** Best passage: the keyword leg's (it holds the matched terms), else the vector leg's. */
  passage: string;
  /** How the score came about (every number the fusion used): see FusionParts. */
  parts: FusionParts;
}

/**
 * Every number behind a fused score, so that it can be recomputed:
 *
 *     keywordNormalized  = keywordRaw / keywordBest
 *     semanticNormalized = clamp((semanticRaw - scale.low) / (scale.high - scale.low), 0, 1)
 *     keywordFinal       = (1 - sectionWeight) * keywordNormalized + sectionWeight * keywordSection   (articles in a section)
 *     semanticFinal      = likewise with semanticSection (else the normalised value)
 *     authority          = weight * min(1, ln(1 + citedBy) / ln(1 + saturation))                  (CitationAuthority)
 *     score              = alpha * semanticFinal + (1 - alpha) * keywordFinal + authority
 */
export interface FusionParts {
  alpha: number;
  /** The leg's raw score (BM25 × coverage factor; cosine similarity), null when that leg did not find the document. */
  keywordRaw: number | null;
  semanticRaw: number | null;
  /** Whether the keyword passage holds every concept of the query (null: one concept, or not found by that leg). */
  keywordCoverage: KeywordCoverage | null;
  /** The query's best BM25 (the keyword normaliser); the model's cosine levels. */
  keywordBest: number;
  scale: SemanticScale;
  keywordNormalized: number;
  semanticNormalized: number;
  /** Section context: its weight (0 when the document is in no section) and, per leg, the best other article of the section (0 when none). */
  sectionWeight: number;
  keywordSection: number | null;
  semanticSection: number | null;
  keywordFinal: number;
  semanticFinal: number;
  /** The citation authority prior's part (null without CitationAuthority). */
  authority: AuthorityPart | null;
}

/** How many decisions and guidance documents cite a document, and the boost that gives with these settings. */
export interface AuthorityPart {
  citedBy: number;
  boost: number;
  weight: number;
  saturation: number;
}

/**
 * A query-independent prior: a provision that many decisions and guidance documents of the
 * corpus cite is more often the answer than a neighbour with the same words that nobody cites
 * (§ 823 BGB against § 842 BGB for "Schadensersatz bei Verletzung des Eigentums"). The boost
 * grows with the logarithm of the citing documents and stops growing at `saturation`, so the
 * most cited procedural rules (costs, appeals) gain no more than a provision cited a few dozen
 * times; an uncited document gets 0. It is added to the fused score of every candidate of the
 * legs (it never brings in a document the legs did not find), at every alpha.
 */
export interface CitationAuthority {
  /** Citing documents of a document (0 when none). */
  citedBy: (docId: string) => number;
  /** The boost of a document cited by `saturation` or more documents. */
  weight: number;
  saturation: number;
}

/** The authority boost of a document cited by `citedBy` documents (see CitationAuthority). */
export function authorityBoost(citedBy: number, { weight, saturation }: Pick<CitationAuthority, 'weight' | 'saturation'>): number {
  if (citedBy <= 0 || weight <= 0) return 0;
  return weight * Math.min(1, Math.log1p(citedBy) / Math.log1p(Math.max(1, saturation)));
}

interface Candidate {
  docId: string;
  keyword: number;
  semantic: number;
  keywordRaw: number | null;
  semanticRaw: number | null;
  keywordCoverage: KeywordCoverage | null;
  keywordNormalized: number;
  semanticNormalized: number;
  keywordSection: number | null;
  semanticSection: number | null;
  sectionWeight: number;
  keywordRank: number;
  semanticRank: number;
  passage: string;
  authority: AuthorityPart | null;
  score: number;
}

/** The cosine levels of a model: `low` for unrelated texts, `high` for a strong match. */
export interface SemanticScale {
  low: number;
  high: number;
}

/** Raw cosine similarity as the scale when a model gives none (the previous behaviour). */
export const RAW_COSINE_SCALE: SemanticScale = { low: 0, high: 1 };

/**
 * Fuses the two legs' hits into one ranking:
 *
 *     keywordScore  = bm25 / max(bm25 over the keyword list)                      in [0, 1]
 *     semanticScore = clamp((cosine - scale.low) / (scale.high - scale.low), 0, 1)
 *     score         = alpha * semanticScore + (1 - alpha) * keywordScore
 *
 * Why these two normalisations. BM25 has a natural zero (no query term matched) but no upper
 * bound, and its level depends on the query's terms, so it is divided by the query's best
 * BM25: 1 = the best keyword match, 0 = no match. Cosine similarity is already absolute, but
 * each model uses only a band of [-1, 1] (a static model puts unrelated texts near 0.2 and
 * strong matches near 0.7, say): taking the raw cosine would squeeze the semantic leg into a
 * fraction of [0, 1] and alpha = 0.7 would still rank mostly by keywords. So the cosine is
 * rescaled with the model's own levels (`scale`: measured by the trainer on held-out pairs
 * and stored with the model; raw cosine for a model that says nothing). Both legs then span
 * [0, 1] and alpha is the share of the score each leg controls at every value. The semantic
 * part stays on a fixed, model-wide scale, so the fused score is comparable across queries:
 * a query whose best document is a strong semantic match scores higher than one whose best
 * document matches only weakly, whatever the raw BM25 levels.
 *
 * A document missing from one leg gets 0 for that leg (the search service first completes the
 * vector leg with the keyword candidates it did not rank: completeSemanticLeg). A leg whose weight is 0 contributes
 * no documents (so `alpha = 1` returns exactly the vector leg's list and `alpha = 0` exactly
 * the keyword leg's). Ties on the fused score are broken by the rank in the leg with the
 * larger weight (the vector leg when alpha >= 0.5), then the rank in the other leg (a
 * missing document ranks last), then by docId: the order is fully deterministic and, at
 * alpha 0 or 1 without `authority`, identical to the leg's own order even when clamping
 * flattens scores.
 *
 * `alpha` is clamped to [0, 1]; duplicate docIds inside one leg keep their first (best) hit.
 *
 * With `sections`, each leg's normalised scores first take their section into account (see
 * SectionContext) before they are fused; alpha 0 and 1 then give that leg's ranking with
 * section context. With `authority`, each candidate's score gains its citation authority
 * boost (CitationAuthority), at every alpha.
 */
export function fuseHybrid(
  keyword: DocumentHit[],
  semantic: DocumentHit[],
  alpha: number,
  limit: number,
  scale: SemanticScale = RAW_COSINE_SCALE,
  sections?: SectionContext,
  authority?: CitationAuthority,
): FusedHit[] {
  const a = Number.isFinite(alpha) ? Math.min(1, Math.max(0, alpha)) : 0;
  if (limit <= 0) return [];
  const byId = new Map<string, Candidate>();
  // a leg whose weight is 0 contributes no documents (see above)
  const keywordBest = a < 1 ? addKeywordLeg(byId, keyword) : 0;
  if (a > 0) addSemanticLeg(byId, semantic, scale);

  const all = [...byId.values()];
  if (sections && sections.weight > 0) {
    addSectionContext(all, 'keyword', sections);
    addSectionContext(all, 'semantic', sections);
  }
  for (const c of all) {
    if (authority) {
      const citedBy = authority.citedBy(c.docId);
      c.authority = { citedBy, boost: authorityBoost(citedBy, authority), weight: authority.weight, saturation: authority.saturation };
    }
    c.score = a * c.semantic + (1 - a) * c.keyword + (c.authority?.boost ?? 0);
  }
  all.sort(byFusedScore(a >= 0.5));
  return all.slice(0, limit).map((c) => fusedHit(c, a, keywordBest, scale));
}

/** The candidate of `docId`, created with empty legs on first sight. */
function candidateOf(byId: Map<string, Candidate>, docId: string): Candidate {
  let c = byId.get(docId);
  if (!c) {
    c = {
      docId,
      keyword: 0,
      semantic: 0,
      keywordRaw: null,
      semanticRaw: null,
      keywordCoverage: null,
      keywordNormalized: 0,
      semanticNormalized: 0,
      keywordSection: null,
      semanticSection: null,
      sectionWeight: 0,
      keywordRank: Infinity,
      semanticRank: Infinity,
      passage: '',
      authority: null,
      score: 0,
    };
    byId.set(docId, c);
  }
  return c;
}

/** Adds the keyword leg, its scores divided by the best one; returns that best score. */
function addKeywordLeg(byId: Map<string, Candidate>, keyword: DocumentHit[]): number {
  let max = 0;
  for (const h of keyword) if (Number.isFinite(h.score) && h.score > max) max = h.score;
  keyword.forEach((h, rank) => {
    const c = candidateOf(byId, h.docId);
    if (c.keywordRank !== Infinity) return;
    c.keywordRank = rank;
    c.keyword = max > 0 && Number.isFinite(h.score) ? Math.max(0, h.score) / max : 0;
    c.keywordRaw = h.score;
    c.keywordCoverage = h.coverage ?? null;
    c.keywordNormalized = c.keyword;
    c.passage = h.passage;
  });
  return max;
}

/** Adds the vector leg, its cosines placed on the model's scale and clamped to [0, 1]. */
function addSemanticLeg(byId: Map<string, Candidate>, semantic: DocumentHit[], scale: SemanticScale): void {
  const span = scale.high - scale.low > 1e-6 ? scale.high - scale.low : 1;
  semantic.forEach((h, rank) => {
    const c = candidateOf(byId, h.docId);
    if (c.semanticRank !== Infinity) return;
    c.semanticRank = rank;
    c.semantic = Number.isFinite(h.score) ? Math.min(1, Math.max(0, (h.score - scale.low) / span)) : 0;
    c.semanticRaw = h.score;
    c.semanticNormalized = c.semantic;
    // the keyword leg's passage wins when both legs found the document
    if (c.keywordRank === Infinity) c.passage = h.passage;
  });
}

/** Fused score first, then the rank in the heavier leg, then in the other, then docId. */
function byFusedScore(semanticFirst: boolean): (x: Candidate, y: Candidate) => number {
  return (x, y) => {
    if (y.score !== x.score) return y.score - x.score;
    const [x1, x2, y1, y2] = semanticFirst
      ? [x.semanticRank, x.keywordRank, y.semanticRank, y.keywordRank]
      : [x.keywordRank, x.semanticRank, y.keywordRank, y.semanticRank];
    if (x1 !== y1) return x1 < y1 ? -1 : 1;
    if (x2 !== y2) return x2 < y2 ? -1 : 1;
    return x.docId < y.docId ? -1 : x.docId > y.docId ? 1 : 0;
  };
}

function fusedHit(c: Candidate, alpha: number, keywordBest: number, scale: SemanticScale): FusedHit {
  return {
    docId: c.docId,
    score: c.score,
    keywordScore: c.keyword,
    semanticScore: c.semantic,
    passage: c.passage,
    parts: {
      alpha,
      keywordRaw: c.keywordRaw,
      semanticRaw: c.semanticRaw,
      keywordCoverage: c.keywordCoverage,
      keywordBest,
      scale,
      keywordNormalized: c.keywordNormalized,
      semanticNormalized: c.semanticNormalized,
      sectionWeight: c.sectionWeight,
      keywordSection: c.keywordSection,
      semanticSection: c.semanticSection,
      keywordFinal: c.keyword,
      semanticFinal: c.semantic,
      authority: c.authority,
    },
  };
}

/**
 * Provisions are read in their section. A legislation article found by a leg is more likely
 * to be what the query is about when another article of its section is found by the same leg
 * too (a question usually concerns a group of neighbouring provisions, and an article alone
 * often lacks the words its section's other articles carry). So, inside each leg,
 *
 *     score' = (1 - weight) * score + weight * best score of another article of its section
 *
 * (0 when the leg found no other article of the section). Documents outside any section (case
 * law, acts, articles of unstructured texts) keep their score.
 */
export interface SectionContext {
  /** Section key of each document that sits in one (`DocumentPlace.section`). */
  sectionOf: ReadonlyMap<string, string>;
  /** Share of the score that comes from the section's other articles, in [0, 1). */
  weight: number;
}

function addSectionContext(candidates: Candidate[], leg: 'keyword' | 'semantic', { sectionOf, weight }: SectionContext): void {
  const rank = leg === 'keyword' ? 'keywordRank' : 'semanticRank';
  const found = candidates.filter((c) => c[rank] !== Infinity && sectionOf.has(c.docId));
  // The two best scores of each section: the best "other" article is the first, or the
  // second for the article that holds the first.
  const best = new Map<string, [Candidate, number]>();
  for (const c of found) {
    const key = sectionOf.get(c.docId)!;
    const top = best.get(key);
    if (!top) best.set(key, [c, 0]);
    else if (c[leg] > top[0][leg]) best.set(key, [c, top[0][leg]]);
    else if (c[leg] > top[1]) top[1] = c[leg];
  }
  const others = found.map((c) => {
    const [holder, second] = best.get(sectionOf.get(c.docId)!)!;
    return holder === c ? second : holder[leg];
  });
  found.forEach((c, i) => {
    c[leg] = (1 - weight) * c[leg] + weight * others[i];
    c[leg === 'keyword' ? 'keywordSection' : 'semanticSection'] = others[i];
    c.sectionWeight = weight;
  });
}
