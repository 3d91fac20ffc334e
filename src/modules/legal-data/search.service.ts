/**
 * Hybrid search: the keyword and the vector leg run concurrently with the same filters,
 * their scores are fused with `alpha`, and hits are shaped by `result_detail`.
 */
import type { Embedder } from '../../engines/embedder.js';
import { fuseHybrid, type CitationAuthority, type FusedHit } from '../../engines/hybrid-fusion.js';
import type { DocumentHit, DocumentPlace, EngineFilters, SearchEngine } from '../../engines/search-engine.js';
import { cosine, feedbackQuery } from '../../engines/vector-math.js';
import type { Logger } from '../../logger.js';
import { StageTimer } from '../../util/stage-timer.js';
import { ThrottledWarning } from '../../util/throttled-warning.js';
import { parseInput } from '../../validation.js';
import type { DocumentMetadata, DocumentWithoutText, LegalDocument } from '../../domain/legal-document.js';
import { searchRequestSchema, type SearchHit, type SearchRequest, type SearchResponse } from './search.schema.js';
import { provenance, scoreParts, shapeHit, unavailableHit, withCitedByCounts, type CitedByCounter, type SemanticFeedback, type SourceNotice } from './search-hits.js';


/** Each leg fetches this many candidates per requested hit (at least MIN_CANDIDATES). */
const CANDIDATE_FACTOR = 3;
const MIN_CANDIDATES = 50;
/** Share of an article's score that comes from its section's best other article (hybrid-fusion.ts, SectionContext). */
export const SECTION_CONTEXT_WEIGHT = 0.3;
/** Relevance feedback: the keyword leg's best passages the query vector moves towards, and how far (see feedbackLeg). */
export const FEEDBACK_PASSAGES = 3;
export const FEEDBACK_WEIGHT = 0.5;
/**
 * Citation authority prior (hybrid-fusion.ts, CitationAuthority): the boost of a provision cited
 * by AUTHORITY_SATURATION or more decisions and guidance documents (SEARCH_AUTHORITY_WEIGHT).
 */
export const AUTHORITY_WEIGHT = 0.1;
export const AUTHORITY_SATURATION = 50;

export interface SearchDeps {
  engine: SearchEngine;
  /** Null until a model is configured: every alpha then serves the keyword ranking. */
  embedder: Embedder | null;
  /** Ids of the provisions a query cites precisely (the resolver's `citedDocuments`). */
  citations?: (query: string, filters: EngineFilters) => string[];
  /** Budget of the vector leg (embedding + vector search), ms; 0 or absent = none. */
  vectorTimeoutMs?: number;
  /** Keyword passages the vector leg's query moves towards (SEARCH_FEEDBACK_PASSAGES; 0 = no feedback; absent = FEEDBACK_PASSAGES). */
  feedbackPassages?: number;
  /** Told when the vector leg fails or times out. */
  logger?: Logger;
  /** How many decisions and guidance documents cite each candidate, and how much it weighs (absent: no prior). */
  authority?: CitationAuthority;
  /** The sources catalogue's licence and page of a source (for hits that explain themselves). */
  sources?: (source: string) => SourceNotice | null;
  /**
   * Places of documents from memory (the resolver's reference index), `unknown` the ids it
   * does not hold; null when it cannot say yet. Without it, or for unknown ids, the engine is asked.
   */
  places?: (ids: string[]) => { places: Map<string, DocumentPlace>; unknown: string[] } | null;
  /**
   * Metadata of documents from memory (the reference index), for hits that show a passage or
   * snippet only; `unknown` the ids it does not hold, null when it cannot say yet. Without it,
   * or for unknown ids, the engine is asked.
   */
  metadata?: (ids: string[]) => { found: Map<string, DocumentMetadata>; unknown: string[] } | null;
  /** How many documents cite each hit, one statement per page (full_metadata hits carry `cited_by_count`). */ citedByCounts?: CitedByCounter;
}

/**
 * `timer` receives the duration of each stage (parse, model, citations, cited, embedding,
 * keyword, vector, places, fusion, documents, passages, snippets); the REST route sends them as
 * `Server-Timing`.
 */
export async function search(deps: SearchDeps, input: unknown, timer: StageTimer = new StageTimer()): Promise<SearchResponse> {
  const started = performance.now();
  const request = timer.sync('parse', () => parseInput(searchRequestSchema, input));
  const filters = toEngineFilters(request);
  let found = await runLegs(deps, request, filters, timer);
  if (found.fused.length === 0 && filters.language) {
    // A language filter that finds nothing is retried once without it, keeping every other filter.
    found = await runLegs(deps, request, { ...filters, language: undefined }, timer);
  }
  const hits = await withCitedByCounts(await shapeHits(deps, found, request, timer), request, deps.citedByCounts, timer, deps.logger);
  return {
    query: request.q,
    hits,
    total_hits: found.total,
    alpha: request.alpha,
    namespace: request.namespace,
    elapsed_ms: Math.round(performance.now() - started),
    // the vector leg failed or timed out: these are the keyword leg's results
    ...(found.vectorFailed ? { degraded: ['vector' as const] } : {}),
  };
}

function toEngineFilters(r: SearchRequest): EngineFilters {
  return {
    namespace: r.namespace,
    countries: r.country?.length ? r.country : undefined,
    sources: r.source?.length ? r.source : undefined,
    court: r.court ?? undefined,
    courtTier: r.court_tier ?? undefined,
    jurisdiction: r.jurisdiction ?? undefined,
    language: r.language ?? undefined,
    dateStart: r.date_start ?? undefined,
    dateEnd: r.date_end ?? undefined,
  };
}

interface LegsResult {
  fused: FusedHit[];
  total: number;
  /** Ids of the provisions the query cites (they entered both legs first). */
  cited: Set<string>;
  /** The vector leg failed or timed out: the keyword leg answered alone. */
  vectorFailed: boolean;
  /** The chunk whose text is a hit's passage when the legs deferred it. */
  chunkOf: Map<string, string>;
  /** The relevance feedback the vector leg's scores came from, null when none was applied. */
  feedback: SemanticFeedback | null;
}

async function runLegs(deps: SearchDeps, r: SearchRequest, filters: EngineFilters, timer: StageTimer): Promise<LegsResult> {
  const limit = Math.max(r.top_k * CANDIDATE_FACTOR, MIN_CANDIDATES);
  // The vector leg runs only over vectors of the configured model (not while re-embedding).
  let semanticOn = deps.embedder !== null && r.alpha > 0 && (await timer.time('model', () => deps.engine.vectorModel())) === deps.embedder.id;
  let alpha = semanticOn ? r.alpha : 0;
  let keywordOn = alpha < 1;
  const [keywordFirst, vectorFound, cited] = await Promise.all([
    keywordOn ? timer.time('keyword', () => deps.engine.keywordSearch(r.q, filters, limit)) : [],
    semanticOn ? vectorLeg(deps, r.q, filters, limit, timer) : { hits: [], vector: null },
    citedDocuments(deps, r.q, filters, timer),
  ]);
  // The vector leg failed or timed out: the keyword leg answers alone (run now if alpha=1 skipped it).
  const vectorHits = vectorFound?.hits ?? null;
  const vectorFailed = vectorHits === null;
  // The vector leg scores every candidate against the query moved towards the keyword leg's best
  // passages; without feedback, it scores the candidates only the keyword leg found, so the fusion weighs them.
  let semanticLeg = vectorHits ?? [];
  let feedback: SemanticFeedback | null = null;
  if (!vectorFailed && keywordOn) {
    const fed = await feedbackLeg(deps, keywordFirst, vectorFound!, timer);
    feedback = fed?.feedback ?? null;
    semanticLeg = fed?.hits ?? (await completeSemanticLeg(deps.engine, keywordFirst, vectorFound!, timer));
  }
  const keywordLeg = vectorFailed && !keywordOn ? await timer.time('keyword', () => deps.engine.keywordSearch(r.q, filters, limit)) : keywordFirst;
  if (vectorFailed) [semanticOn, alpha, keywordOn] = [false, 0, true];
  // A cited provision is a perfect match in each leg: the keyword leg's best score, the top of
  // the model's scale in the vector leg (both normalise to 1 in the fusion).
  const keyword = keywordOn ? withCitedFirst(keywordLeg, cited, keywordLeg[0]?.score ?? 1) : [];
  const semantic = semanticOn ? withCitedFirst(semanticLeg, cited, Math.max(semanticLeg[0]?.score ?? 0, deps.embedder!.scale?.high ?? 1)) : [];
  const places = await timer.time('places', () => documentPlaces(deps, [...keyword, ...semantic]));
  const [keywordHits, semanticHits] = withoutEnclosingDocuments(places, keyword, semantic);
  const total = new Set([...keywordHits.map((h) => h.docId), ...semanticHits.map((h) => h.docId)]).size;
  const sectionOf = new Map<string, string>();
  for (const [id, place] of places) if (place.section) sectionOf.set(id, place.section);
  const sections = { sectionOf, weight: SECTION_CONTEXT_WEIGHT };
  const fused = timer.sync('fusion', () => fuseHybrid(keywordHits, semanticHits, alpha, r.top_k, deps.embedder?.scale, sections, deps.authority));
  // A hit's passage is the keyword leg's, else the vector leg's (as the fusion picks it); legs
  // that defer passages name the chunk, read for the returned hits only (shapeHits).
  const chunkOf = new Map<string, string>();
  for (const h of semanticHits) if (h.chunkId) chunkOf.set(h.docId, h.chunkId);
  for (const h of keywordHits) if (h.chunkId) chunkOf.set(h.docId, h.chunkId);
  return { fused, total, cited: new Set(cited.map((c) => c.docId)), vectorFailed, chunkOf, feedback };
}

/**
 * Completes the vector leg with its scores of the documents only the keyword leg ranked: a
 * document the keyword leg found but the vector leg left out of its top `limit` would
 * otherwise count 0 on the semantic side, though its similarity may be just below the cut.
 * The engine scores the keyword leg's passage of each exactly (`vectorScores`: one small read
 * of those rows' vectors); the added hits follow the leg's own. An engine that cannot, or a
 * failed completion, leaves the leg as it was: only a refinement. (The other way round, the
 * keyword leg's BM25 of the vector leg's extra documents, cost a second full-text query per
 * search for a third of the gain: not done, see docs/search.md.)
 */
async function completeSemanticLeg(
  engine: SearchEngine,
  keyword: DocumentHit[],
  semantic: { hits: DocumentHit[]; vector: Float32Array | null },
  timer: StageTimer,
): Promise<DocumentHit[]> {
  if (!semantic.vector || !engine.vectorScores) return semantic.hits;
  const unranked = keywordOnly(keyword, semantic.hits);
  if (unranked.length === 0) return semantic.hits;
  const more = await timer.time('semantic-fill', () => engine.vectorScores!(semantic.vector!, unranked)).catch(() => []);
  return [...semantic.hits, ...more];
}

/** The keyword leg's hits the vector leg did not rank. */
function keywordOnly(keyword: DocumentHit[], semantic: DocumentHit[]): DocumentHit[] {
  const ranked = new Set(semantic.map((h) => h.docId));
  return keyword.filter((h) => !ranked.has(h.docId));
}

/**
 * Relevance feedback from the keyword leg into the vector leg (Rocchio, positive examples only).
 * A static model embeds a question word by word; a lay question ("Mon voisin refuse de couper
 * ses branches") lands near many provisions' vocabulary, while the keyword leg's best passages
 * usually sit in the right neighbourhood. The query vector is moved towards the mean of those
 * passages' stored vectors (`feedbackQuery`: `normalize(q̂ + FEEDBACK_WEIGHT · normalize(Σ p))`),
 * and every candidate of both legs is scored against it (one read of their vectors, which also
 * completes the keyword leg's candidates the vector leg had not ranked; see
 * completeSemanticLeg). The candidates stay those of the two legs: no second vector search.
 * Measured on the development sets at alpha 0.7: nDCG@10 0.238 → 0.257 (docs/search.md).
 *
 * Null when off (`feedbackPassages` 0), when the engine cannot read stored vectors, when no
 * keyword hit names its passage, or on failure (logged, at most one line every 10 s): the
 * caller then completes the leg as before.
 */
export async function feedbackLeg(
  deps: SearchDeps,
  keyword: DocumentHit[],
  semantic: { hits: DocumentHit[]; vector: Float32Array | null },
  timer: StageTimer,
): Promise<{ hits: DocumentHit[]; feedback: SemanticFeedback } | null> {
  const { engine } = deps;
  const count = deps.feedbackPassages ?? FEEDBACK_PASSAGES;
  const query = semantic.vector;
  if (count <= 0 || !query || !engine.passageVectors) return null;
  const best = keyword.slice(0, count).filter((h) => h.chunkId);
  if (best.length === 0) return null;
  try {
    return await timer.time('feedback', async () => {
      // One read of the vectors the vector leg's hits do not carry: the feedback passages' and
      // the candidates' (a keyword hit among the best is both).
      const candidates = [...semantic.hits, ...keywordOnly(keyword, semantic.hits)];
      const vectors = new Map<string, Float32Array>();
      for (const h of semantic.hits) if (h.chunkId && h.vector) vectors.set(h.chunkId, h.vector);
      const unread = [...best, ...candidates].filter((h) => h.chunkId && !vectors.has(h.chunkId)).map((h) => h.chunkId!);
      if (unread.length > 0) for (const [id, v] of await engine.passageVectors!(unread)) vectors.set(id, v);
      // In the keyword leg's order, as the sum is rounded.
      const passages = best.map((h) => vectors.get(h.chunkId!)).filter((v) => v !== undefined);
      if (passages.length === 0) return null;
      const moved = feedbackQuery(query, passages, FEEDBACK_WEIGHT);
      // A candidate without a stored vector is left out, as the vector leg leaves such documents out.
      const hits = candidates
        .filter((h) => h.chunkId && vectors.has(h.chunkId))
        .map((h) => ({ ...h, score: cosine(moved, vectors.get(h.chunkId!)!) }))
        .sort((a, b) => b.score - a.score);
      return { hits, feedback: { weight: FEEDBACK_WEIGHT, documents: best.map((h) => h.docId) } };
    });
  } catch (error) {
    feedbackWarning.warn(deps.logger, (more) => `search: relevance feedback failed (${(error as Error).message}); the vector leg scored the question alone${more}`);
    return null;
  }
}

const vectorWarning = new ThrottledWarning();
const feedbackWarning = new ThrottledWarning();
const detailsWarning = new ThrottledWarning();

/**
 * The vector leg (query embedding + vector search) within VECTOR_TIMEOUT_MS; null when it
 * fails or runs out of time (logged as a warning, at most one line every 10 s).
 */
async function vectorLeg(deps: SearchDeps, q: string, filters: EngineFilters, limit: number, stages: StageTimer): Promise<{ hits: DocumentHit[]; vector: Float32Array | null } | null> {
  const started = performance.now();
  const budget = deps.vectorTimeoutMs ?? 0;
  // The budget also aborts the engine's work (an outside vector index's HTTP request), not only the wait for it.
  const outOfTime = new AbortController();
  const leg = stages
    .time('embedding', () => deps.embedder!.embedQueries([q]))
    .then(async ([vector]) => ({ hits: await stages.time('vector', () => deps.engine.vectorSearch(vector, filters, limit, budget > 0 ? { signal: outOfTime.signal } : undefined)), vector }));
  let timer: NodeJS.Timeout | undefined;
  const outOfBudget = () => {
    outOfTime.abort(new Error(`timed out after ${budget} ms`));
    return outOfTime.signal.reason as Error;
  };
  const timeout = budget > 0 ? new Promise<never>((_, reject) => (timer = setTimeout(() => reject(outOfBudget()), budget))) : null;
  try {
    return await (timeout ? Promise.race([leg, timeout]) : leg);
  } catch (error) {
    leg.catch(() => undefined); // a leg that fails after its timeout is already answered
    const elapsed = Math.round(performance.now() - started);
    vectorWarning.warn(deps.logger, (more) => `search: vector leg failed after ${elapsed} ms (${(error as Error).message}); answering from the keyword leg, degraded: ["vector"]${more}`);
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The provisions the query cites precisely ("… under Article 17 GDPR …", "§ 823 BGB"), within
 * the filters: a lawyer who names a provision wants it among the results whatever its words.
 */
async function citedDocuments(deps: SearchDeps, query: string, filters: EngineFilters, timer: StageTimer): Promise<DocumentHit[]> {
  const ids = timer.sync('citations', () => deps.citations?.(query, filters) ?? []);
  if (ids.length === 0) return [];
  try {
    return await timer.time('cited', () => deps.engine.documentsMatching(ids, filters));
  } catch {
    return []; // only a refinement: never fail a search for it
  }
}

/** The leg with the cited documents first at `score` (a document the leg found keeps its own passage). */
function withCitedFirst(leg: DocumentHit[], cited: DocumentHit[], score: number): DocumentHit[] {
  if (cited.length === 0) return leg;
  const found = new Map(leg.map((h) => [h.docId, h]));
  const citedIds = new Set(cited.map((c) => c.docId));
  const first = cited.map((c) => {
    const own = found.get(c.docId);
    return own ? { ...own, score } : { docId: c.docId, score, passage: c.passage };
  });
  return [...first, ...leg.filter((h) => !citedIds.has(h.docId))];
}

/**
 * Where the legs' documents stand in their acts: from memory where the reference index holds
 * them (no engine query per search), else from the engine; empty when neither can say (only a
 * refinement).
 */
async function documentPlaces(deps: SearchDeps, hits: DocumentHit[]): Promise<Map<string, DocumentPlace>> {
  if (hits.length === 0) return new Map();
  const ids = [...new Set(hits.map((h) => h.docId))];
  const known = deps.places?.(ids) ?? null;
  const ask = known ? known.unknown : ids;
  const places = known?.places ?? new Map<string, DocumentPlace>();
  if (ask.length === 0) return places;
  try {
    for (const [id, place] of await deps.engine.documentPlaces(ask)) places.set(id, place);
  } catch {
    // never fail a search for it
  }
  return places;
}

/**
 * Drops from each leg a document whose own part is also found by that leg (an act when one
 * of its articles matched): the act's text is the concatenation of its articles, so it
 * matches the same words and would take a second place in the results for the same passage;
 * the article is the precise answer and names its act (`parent_source_id`).
 */
function withoutEnclosingDocuments(places: Map<string, DocumentPlace>, ...legs: DocumentHit[][]): DocumentHit[][] {
  if (places.size === 0) return legs;
  return legs.map((leg) => {
    const enclosing = new Set<string>();
    for (const h of leg) {
      const place = places.get(h.docId);
      if (place) enclosing.add(place.parentId);
    }
    return enclosing.size === 0 ? leg : leg.filter((h) => !enclosing.has(h.docId));
  });
}

async function shapeHits(deps: SearchDeps, found: LegsResult, r: SearchRequest, timer: StageTimer): Promise<SearchHit[]> {
  const engine = deps.engine;
  // Only full_text and full_metadata carry the text; the other details show the passage. An
  // explained hit needs the stored record too (its retrieval date is among the extra fields).
  const explain = r.explain || r.result_detail === 'full_metadata';
  const needsText = r.result_detail === 'full_text' || r.result_detail === 'full_metadata' || explain;
  const ids = found.fused.map((h) => h.docId);
  // The documents and the deferred passages of the returned hits, read at the same time.
  const deferred = found.fused.filter((h) => !h.passage && found.chunkOf.has(h.docId)).map((h) => found.chunkOf.get(h.docId)!);
  const [documents, passages] = await Promise.all([
    timer
      .time('documents', (): Promise<Map<string, LegalDocument | DocumentWithoutText>> =>
        needsText ? engine.getDocuments(ids) : r.result_detail === 'summary_only' ? engine.getDocumentsWithoutText(ids) : hitMetadata(deps, ids),
      )
      .catch((error: unknown) => {
        detailsWarning.warn(deps.logger, (more) => `search: reading the hits' documents failed (${(error as Error).message}); hits shown as text_unavailable${more}`);
        return new Map<string, LegalDocument | DocumentWithoutText>();
      }),
    deferred.length > 0 && engine.passages
      ? timer.time('passages', () => engine.passages!(deferred)).catch((error: unknown) => {
          detailsWarning.warn(deps.logger, (more) => `search: reading the hits' passages failed (${(error as Error).message}); hits shown without snippets${more}`);
          return new Map<string, string>();
        })
      : new Map<string, string>(),
  ]);
  return timer.sync('snippets', () =>
    found.fused.map((fusedHit) => {
      const chunk = fusedHit.passage ? undefined : found.chunkOf.get(fusedHit.docId);
      const hit = chunk ? { ...fusedHit, passage: passages.get(chunk) ?? '' } : fusedHit;
      const doc = documents.get(hit.docId);
      const out = doc ? shapeHit(hit, doc, r) : unavailableHit(hit, r);
      if (explain) {
        const notice = deps.sources?.(out.source) ?? null;
        out.score_parts = scoreParts(hit, found.cited.has(hit.docId), found.feedback);
        out.license = notice?.license ?? { id: null, name: null, url: null, commercial_use: null };
        out.provenance = provenance(doc, notice);
      }
      return out;
    }),
  );
}

/**
 * The returned hits' metadata for hits that show a passage (no text, no summary): from the
 * reference index in memory where it holds them, else from the engine. When the engine cannot
 * answer, only the hits it was asked for show as unavailable; those known in memory keep theirs.
 */
async function hitMetadata(deps: SearchDeps, ids: string[]): Promise<Map<string, DocumentWithoutText>> {
  const known = deps.metadata?.(ids) ?? null;
  const out = new Map<string, DocumentWithoutText>();
  for (const [id, doc] of known?.found ?? []) out.set(id, { ...doc, summary: null });
  const ask = known ? known.unknown : ids;
  if (ask.length === 0) return out;
  const fromEngine = await deps.engine.getDocumentsWithoutText(ask).catch((error: unknown) => {
    detailsWarning.warn(deps.logger, (more) => `search: reading the metadata of ${ask.length} hits failed (${(error as Error).message}); those shown as text_unavailable${more}`);
    return new Map<string, DocumentWithoutText>();
  });
  for (const [id, doc] of fromEngine) out.set(id, doc);
  return out;
}
