/**
 * The two legs of hybrid search over the embedded tables: BM25 over the chunks' analysed terms
 * and nearest neighbours over the current vector generation, both prefiltered by the request's
 * filters and collapsed to each document's best passage. The fusion happens in the service.
 */
import * as lancedb from '@lancedb/lancedb';
import type { DocumentHit, EngineFilters, KeywordCoverage } from '../search-engine.js';
import type { CompoundVocabulary } from '../compounds.js';
import { analyzeQueryConcepts } from '../text-analysis.js';
import { buildWhere, inLists, plainRows } from './lancedb-filters.js';
import { FTS_COLUMN } from './lancedb-tables.js';
import { cosine, norm } from '../vector-math.js';
import type { HeldVectors } from './lancedb-vector-memory.js';

/** Keeps each document's best row (rows come best first). */
function collapse<T extends { doc_id: string }>(rows: T[]): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const r of rows) {
    if (seen.has(r.doc_id)) continue;
    seen.add(r.doc_id);
    out.push(r);
  }
  return out;
}

/**
 * The keyword leg: each document's best chunk by BM25 over the analysed terms, best first. The
 * hits name their chunk (`chunkId`) and carry no passage: the service reads the passages of
 * the hits it returns only (`LanceDbEngine.passages`), not those of every candidate.
 *
 * Coverage: BM25 adds up the terms a passage holds, so a passage that repeats two of a
 * question's words can outscore the one passage that speaks of all of them. With 2 to 20
 * concepts (see analyzeQueryConcepts), a second query, run beside the first, asks which
 * passages hold a term of every concept and scores them by all their concepts' terms; the
 * others, which miss at least one, have their OR score multiplied by (concepts - 1) / concepts
 * (the classic coordination factor, at its most lenient since the missing count is not
 * known). See {@link keywordCoverage}.
 */
export async function keywordSearch(
  chunks: lancedb.Table,
  query: string,
  filters: EngineFilters,
  limit: number,
  compounds: CompoundVocabulary | null = null,
  signal?: AbortSignal,
): Promise<DocumentHit[]> {
  if (limit <= 0) return [];
  signal?.throwIfAborted();
  const { terms, concepts } = analyzeQueryConcepts(query, { language: filters.language ?? null, compounds });
  if (terms.length === 0) return [];
  const where = buildWhere(filters);
  const search = (fts: lancedb.FullTextQuery, k: number) =>
    plainRows<KeywordRow>(chunks.query().fullTextSearch(fts).where(where).select(['chunk_id', 'doc_id', '_score']).limit(k));
  const anyTerm = new lancedb.MatchQuery(terms.join(' '), FTS_COLUMN, { operator: lancedb.Operator.Or });
  const everyConcept =
    keywordCoverage(concepts.length, false) !== undefined
      ? new lancedb.BooleanQuery(concepts.map((group) => [lancedb.Occur.Must, new lancedb.MatchQuery(group.join(' '), FTS_COLUMN, { operator: lancedb.Operator.Or })]))
      : null;
  // Passages per document average about 3 but an article's are usually 1 or 2: 2 × limit rows
  // mostly hold `limit` documents (else the loop asks again for 4× more), for a fifth less
  // processor than 4 × limit with both queries (`npm run bench:stages`).
  let k = Math.max(limit * 2, 20);
  for (;;) {
    const [rows, complete] = await Promise.all([search(anyTerm, k), everyConcept ? search(everyConcept, k) : Promise.resolve([])]);
    const best = collapse(withCoverage(rows, complete, concepts.length));
    if (best.length >= limit || rows.length < k || k >= limit * 64) {
      return best.slice(0, limit).map((r) => ({ docId: r.doc_id, score: r.score, passage: '', chunkId: r.chunk_id, coverage: r.coverage }));
    }
    // an abandoned request asks for no wider round
    signal?.throwIfAborted();
    k *= 4;
  }
}

interface KeywordRow {
  chunk_id: string;
  doc_id: string;
  _score: number;
}

/**
 * Past this many concepts a passage holding them all is improbable and the factor (at least
 * 0.95) barely moves a score: the coverage query is not run (it cost a 4,000-character question
 * of 404 concepts a third more time).
 */
const MAX_COVERAGE_CONCEPTS = 20;

/** The coverage of a keyword hit (see keywordSearch), or undefined when it is not weighed. */
function keywordCoverage(concepts: number, complete: boolean): KeywordCoverage | undefined {
  if (concepts < 2 || concepts > MAX_COVERAGE_CONCEPTS) return undefined;
  return { concepts, complete, factor: complete ? 1 : (concepts - 1) / concepts };
}

/**
 * The passages of both queries with their coverage and scored BM25 × factor, best first. Those
 * holding every concept score by the coverage query (BM25 of all their concepts' terms, the
 * German verb forms among them); the others by the OR query, scaled.
 */
function withCoverage(rows: KeywordRow[], complete: KeywordRow[], concepts: number) {
  const scored = new Map<string, { chunk_id: string; doc_id: string; score: number; coverage: KeywordCoverage | undefined }>();
  const completeIds = new Set(complete.map((r) => r.chunk_id));
  for (const r of [...complete, ...rows]) {
    if (scored.has(r.chunk_id)) continue;
    const coverage = keywordCoverage(concepts, completeIds.has(r.chunk_id));
    scored.set(r.chunk_id, { chunk_id: r.chunk_id, doc_id: r.doc_id, score: Number(r._score) * (coverage?.factor ?? 1), coverage });
  }
  return [...scored.values()].sort((a, b) => b.score - a.score);
}

/**
 * The vector leg over one generation's table (`hasIndex`: it has its HNSW index): each
 * document's best chunk by exact cosine similarity, best first. Like the keyword leg, its hits
 * name their chunk and carry no passage. With the generation's vectors held in memory (`held`,
 * lancedb-vector-memory.ts), the graph's candidates are scored there instead of reread.
 */
export async function vectorSearch(
  vectors: { table: lancedb.Table; hasIndex: boolean; dimension: number | null; held?: HeldVectors | null },
  vector: Float32Array,
  filters: EngineFilters,
  limit: number,
  signal?: AbortSignal,
): Promise<DocumentHit[]> {
  signal?.throwIfAborted();
  const table = vectors.table;
  if (vectors.dimension !== vector.length || norm(vector) === 0) return [];
  const where = buildWhere(filters);
  const held = vectors.hasIndex && vectors.held?.dimension === vector.length ? vectors.held : null;
  const queryNorm = norm(vector);
  // Passages per document average about 3: 3 × limit rows usually hold `limit` documents
  // (else the loop asks again for 4× more). Against an exact scan, the HNSW candidates with
  // ef = 2k hold 99.6% of the exact top 50 documents (99.8% with 4 × limit rows, for 10% more
  // processor time; `docs/search.md`).
  let k = Math.max(limit * 3, 20);
  for (;;) {
    let q = table.query().nearestTo(vector).column('vector').distanceType('cosine').where(where).limit(k);
    // The hybrid fusion needs the model's true cosine on every path. A flat search computes it
    // exactly; the HNSW index works on scalar-quantised vectors and reports another distance
    // (for unit vectors, squared L2 = 2 - 2 cos instead of 1 - cos), so its candidates are
    // scored again: from the vectors held in memory, else refined by LanceDB, which rereads
    // their full vectors and computes the exact cosine distance natively.
    if (vectors.hasIndex) q = q.ef(Math.max(k * 2, 100));
    if (vectors.hasIndex && !held) q = q.refineFactor(1);
    q = q.select(held ? ['chunk_id', 'doc_id', '_distance'] : ['chunk_id', 'doc_id', '_distance', 'vector']);
    const found = await plainRows<{ chunk_id: string; doc_id: string; _distance: number; vector?: { toArray(): Float32Array } }>(q);
    const rows = found.map((r) => ({
      chunk_id: r.chunk_id,
      doc_id: r.doc_id,
      score: held ? held.cosine(vector, queryNorm, r.chunk_id) : 1 - Number(r._distance),
      vector: r.vector,
    }));
    // A candidate memory does not hold (written since it was loaded, within its recheck time):
    // this search takes the exact path.
    if (held && rows.some((r) => r.score === undefined)) return vectorSearch({ ...vectors, held: null }, vector, filters, limit, signal);
    const scored = rows as { chunk_id: string; doc_id: string; score: number; vector?: { toArray(): Float32Array } }[];
    scored.sort((a, b) => b.score - a.score);
    const best = collapse(scored);
    if (best.length >= limit || found.length < k || k >= limit * 64) {
      // Read from the table, the hits carry their passage's vector (the refinement read it
      // anyway): relevance feedback scores them against the moved query without reading them again.
      return best
        .slice(0, limit)
        .map((r) => ({ docId: r.doc_id, score: r.score, passage: '', chunkId: r.chunk_id, ...(r.vector ? { vector: Float32Array.from(r.vector.toArray()) } : {}) }));
    }
    signal?.throwIfAborted();
    k *= 4;
  }
}

/**
 * The exact cosine similarity of these hits' passages: the chunk a hit names (`chunkId`), else
 * the document's best chunk, best first. Those rows' vectors are read by their btree-indexed
 * ids and scored here: a plain read costs a third less processor than a flat vector search
 * restricted to the same rows (`docs/search.md`), for the same cosine. With the vectors held in
 * memory (`held`) and every hit naming its chunk, nothing is read.
 */
export async function vectorScoresOf(
  vectors: { table: lancedb.Table; dimension: number | null; held?: HeldVectors | null },
  vector: Float32Array,
  hits: DocumentHit[],
): Promise<DocumentHit[]> {
  if (hits.length === 0 || vectors.dimension !== vector.length || norm(vector) === 0) return [];
  const held = vectors.held?.dimension === vector.length ? vectors.held : null;
  if (held && hits.every((h) => h.chunkId)) {
    const queryNorm = norm(vector);
    const rows = hits.flatMap((h) => {
      const score = held.cosine(vector, queryNorm, h.chunkId!);
      return score === undefined ? [] : [{ chunk_id: h.chunkId!, doc_id: h.docId, score }];
    });
    rows.sort((a, b) => b.score - a.score);
    return collapse(rows).map((r) => ({ docId: r.doc_id, score: r.score, passage: '', chunkId: r.chunk_id }));
  }
  const chunkIds = hits.filter((h) => h.chunkId).map((h) => h.chunkId!);
  const docIds = hits.filter((h) => !h.chunkId).map((h) => h.docId);
  const wheres = [...inLists('chunk_id', [...new Set(chunkIds)]), ...inLists('doc_id', [...new Set(docIds)])];
  const rows: { chunk_id: string; doc_id: string; score: number }[] = [];
  for (const where of wheres) {
    const found = await plainRows<{ chunk_id: string; doc_id: string; vector: { toArray(): Float32Array } }>(
      vectors.table.query().where(where).select(['chunk_id', 'doc_id', 'vector']).limit(MAX_SCORED_CHUNKS),
    );
    for (const r of found) rows.push({ chunk_id: r.chunk_id, doc_id: r.doc_id, score: cosine(vector, r.vector.toArray()) });
  }
  rows.sort((a, b) => b.score - a.score);
  return collapse(rows).map((r) => ({ docId: r.doc_id, score: r.score, passage: '', chunkId: r.chunk_id }));
}

/** The stored vectors of these chunks, by chunk id (unknown ids absent). */
export async function passageVectorsOf(table: lancedb.Table, chunkIds: string[]): Promise<Map<string, Float32Array>> {
  const byId = new Map<string, Float32Array>();
  for (const where of inLists('chunk_id', [...new Set(chunkIds)])) {
    const rows = await plainRows<{ chunk_id: string; vector: { toArray(): Float32Array } }>(table.query().where(where).select(['chunk_id', 'vector']));
    for (const r of rows) byId.set(r.chunk_id, Float32Array.from(r.vector.toArray()));
  }
  return byId;
}

/** Chunks a score completion reads at most per batch of documents (an act's chunks are its articles'). */
const MAX_SCORED_CHUNKS = 20_000;

/** The text of these chunks (by chunk id; unknown ids are absent). */
export async function chunkContents(chunks: lancedb.Table, chunkIds: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const where of inLists('chunk_id', chunkIds)) {
    const rows = await plainRows<{ chunk_id: string; content: string }>(chunks.query().where(where).select(['chunk_id', 'content']));
    for (const r of rows) out.set(r.chunk_id, r.content);
  }
  return out;
}
