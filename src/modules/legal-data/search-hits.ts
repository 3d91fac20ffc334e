/**
 * How a fused hit is shown: the document's fields by `result_detail`, a snippet, and with
 * `explain` the fusion's numbers (score_parts), the licence and the provenance.
 */
import type { FusedHit } from '../../engines/hybrid-fusion.js';
import { DOCUMENT_METADATA_FIELDS, type DocumentWithoutText, type LegalDocument } from '../../domain/legal-document.js';
import { searchHitSchema, type HitLicense, type Provenance, type ScoreParts, type SearchHit, type SearchRequest } from './search.schema.js';
import { buildSnippet } from './snippet.js';
import type { Logger } from '../../logger.js';
import type { StageTimer } from '../../util/stage-timer.js';
import { ThrottledWarning } from '../../util/throttled-warning.js';

/** Longest text a full_text / full_metadata hit carries; `full_text_size` gives the whole length. */
export const FULL_TEXT_BOUND = 20_000;

/** What the sources catalogue says about a source's licence, and its page. */
export interface SourceNotice {
  license: HitLicense;
  url: string | null;
}

/** Keys of a document's `extra` that record when its text was retrieved, most precise first. */
const RETRIEVAL_DATE_KEYS = ['_fetched_at', 'fetched_at', 'retrieved_at', 'scrape_date', 'snapshot_date'] as const;

/** Which keyword hits the query vector moved towards, and how far (score_parts.semantic_feedback). */
export interface SemanticFeedback {
  weight: number;
  documents: string[];
}

/** The fusion's numbers of a hit, in the API's words (see FusionParts). */
export function scoreParts(hit: FusedHit, cited: boolean, feedback: SemanticFeedback | null = null): ScoreParts {
  const p = hit.parts;
  const inSection = p.sectionWeight > 0;
  return {
    keyword_score: p.keywordRaw,
    keyword_coverage: p.keywordCoverage,
    semantic_score: p.semanticRaw,
    keyword_best: p.keywordBest,
    semantic_scale: { low: p.scale.low, high: p.scale.high },
    keyword_normalized: p.keywordNormalized,
    semantic_normalized: p.semanticNormalized,
    section_context: inSection ? { weight: p.sectionWeight, keyword: p.keywordSection, semantic: p.semanticSection } : null,
    cited_provision: cited,
    semantic_feedback: feedback,
    citation_authority: p.authority && { cited_by: p.authority.citedBy, boost: p.authority.boost, weight: p.authority.weight, saturation: p.authority.saturation },
    keyword: p.keywordFinal,
    semantic: p.semanticFinal,
    alpha: p.alpha,
    fused: hit.score,
  };
}

/** Where the hit's text comes from and when it was retrieved (from the document's `extra`). */
export function provenance(doc: LegalDocument | DocumentWithoutText | undefined, notice: SourceNotice | null): Provenance {
  const extra = doc && 'extra' in doc ? doc.extra : {};
  let retrieved: string | null = null;
  for (const key of RETRIEVAL_DATE_KEYS) {
    const value = extra?.[key];
    if (typeof value === 'string' && value.trim()) {
      retrieved = value.trim();
      break;
    }
  }
  return { url: doc?.url ?? null, source_url: notice?.url ?? null, retrieved_at: retrieved };
}

/** The hit as the API shows it for the request's `result_detail`. */
export function shapeHit(hit: FusedHit, doc: LegalDocument | DocumentWithoutText, r: SearchRequest): SearchHit {
  const out: SearchHit = {
    id: doc.id,
    source: doc.source,
    source_id: doc.source_id,
    score: round(hit.score),
    namespace: doc.namespace,
    title: doc.title,
    country: doc.country,
  };
  for (const field of DOCUMENT_METADATA_FIELDS) {
    if (field === 'summary' || !(field in searchHitFields)) continue;
    const value = doc[field];
    if (value !== null && value !== undefined) (out as Record<string, unknown>)[field] = value;
  }
  const text = 'text' in doc ? doc.text : null;
  const snippet = buildSnippet(hit.passage || text || '', r.q);
  if (r.result_detail === 'summary_only') {
    out.summary = doc.summary ?? snippet;
    return out;
  }
  out.snippet = snippet;
  if (text !== null && (r.result_detail === 'full_text' || r.result_detail === 'full_metadata')) {
    out.text = text.slice(0, FULL_TEXT_BOUND);
    out.text_truncated = text.length > FULL_TEXT_BOUND;
    out.full_text_size = text.length;
  }
  if (r.result_detail === 'full_metadata' && 'text' in doc) {
    const { text: _text, ...metadata } = doc;
    out.metadata = metadata;
    if (doc.summary) out.summary = doc.summary;
  }
  return out;
}

/** A hit whose document could not be loaded: what the index knows, flagged, never a failed search. */
export function unavailableHit(hit: FusedHit, r: SearchRequest): SearchHit {
  const [country, sourceName, ...rest] = hit.docId.split('/');
  return {
    id: hit.docId,
    source: `${country}/${sourceName}`,
    source_id: rest.join('/'),
    score: round(hit.score),
    namespace: r.namespace,
    country,
    ...(hit.passage ? { snippet: buildSnippet(hit.passage, r.q) } : {}),
    text_unavailable: true,
  };
}

/** How many documents of the citation graph cite each of `ids` (citator.queries.ts's citedByCounts on the request's unit of work). */
export type CitedByCounter = (ids: string[]) => Promise<Map<string, number>>;

const citedByWarning = new ThrottledWarning();

/**
 * full_metadata hits with `cited_by_count` (issue 37): the counts of the whole page in one
 * statement (stage `cited_by` of the timer). When counting fails the hits are answered without
 * it, as a hit's unreadable text is (text_unavailable): the search itself does not fail.
 */
export async function withCitedByCounts(hits: SearchHit[], r: SearchRequest, count: CitedByCounter | undefined, timer: StageTimer, logger?: Logger): Promise<SearchHit[]> {
  if (r.result_detail !== 'full_metadata' || !count || hits.length === 0) return hits;
  const counts = await timer.time('cited_by', () => count(hits.map((h) => h.id))).catch((error: unknown) => {
    citedByWarning.warn(logger, (more) => `search: counting the hits' citing documents failed (${(error as Error).message}); hits shown without cited_by_count${more}`);
    return null;
  });
  return counts ? hits.map((hit) => ({ ...hit, cited_by_count: counts.get(hit.id) ?? 0 })) : hits;
}

/** The metadata fields a SearchHit may carry: those of its schema (the rest stay in the document). */
const searchHitFields = searchHitSchema.shape;

const round = (n: number) => Math.round(n * 1e6) / 1e6;
