/**
 * The two legs of hybrid search over the embedded tables: BM25 over the chunks' analysed terms
 * and nearest neighbours over the current vector generation, both prefiltered by the request's
 * filters and collapsed to each document's best passage. The fusion happens in the service.
 */
import * as lancedb from '@lancedb/lancedb';
import type { DocumentHit, EngineFilters } from '../search-engine.js';
import type { CompoundVocabulary } from '../compounds.js';
import { analyzeQuery } from '../text-analysis.js';
import { buildWhere, inLists } from './lancedb-filters.js';
import { FTS_COLUMN } from './lancedb-tables.js';
import { norm } from '../vector-math.js';

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
 */
export async function keywordSearch(
  chunks: lancedb.Table,
  query: string,
  filters: EngineFilters,
  limit: number,
  compounds: CompoundVocabulary | null = null,
): Promise<DocumentHit[]> {
  if (limit <= 0) return [];
  const terms = analyzeQuery(query, { language: filters.language ?? null, compounds });
  if (terms.length === 0) return [];
  const where = buildWhere(filters);
  const text = terms.join(' ');
  let k = Math.max(limit * 4, 20);
  for (;;) {
    const rows = (await chunks
      .query()
      .fullTextSearch(new lancedb.MatchQuery(text, FTS_COLUMN, { operator: lancedb.Operator.Or }))
      .where(where)
      .select(['chunk_id', 'doc_id', '_score'])
      .limit(k)
      .toArray()) as { chunk_id: string; doc_id: string; _score: number }[];
    const best = collapse(rows);
    if (best.length >= limit || rows.length < k || k >= limit * 64) {
      return best.slice(0, limit).map((r) => ({ docId: r.doc_id, score: Number(r._score), passage: '', chunkId: r.chunk_id }));
    }
    k *= 4;
  }
}

/**
 * The vector leg over one generation's table (`hasIndex`: it has its HNSW index): each
 * document's best chunk by exact cosine similarity, best first. Like the keyword leg, its hits
 * name their chunk and carry no passage.
 */
export async function vectorSearch(
  vectors: { table: lancedb.Table; hasIndex: boolean; dimension: number | null },
  vector: Float32Array,
  filters: EngineFilters,
  limit: number,
): Promise<DocumentHit[]> {
  const table = vectors.table;
  if (vectors.dimension !== vector.length || norm(vector) === 0) return [];
  const where = buildWhere(filters);
  let k = Math.max(limit * 4, 20);
  for (;;) {
    let q = table
      .query()
      .nearestTo(vector)
      .column('vector')
      .distanceType('cosine')
      .where(where)
      .select(['chunk_id', 'doc_id', '_distance'])
      .limit(k);
    // The hybrid fusion needs the model's true cosine on every path. A flat search computes it
    // exactly; the HNSW index works on scalar-quantised vectors and reports another distance
    // (for unit vectors, squared L2 = 2 - 2 cos instead of 1 - cos), so its candidates are
    // refined: LanceDB rereads their full vectors and computes the exact cosine distance
    // natively (no vectors travel to JavaScript).
    if (vectors.hasIndex) q = q.ef(Math.max(k * 2, 100)).refineFactor(1);
    const rows = ((await q.toArray()) as { chunk_id: string; doc_id: string; _distance: number }[]).map((r) => ({
      chunk_id: r.chunk_id,
      doc_id: r.doc_id,
      score: 1 - Number(r._distance),
    }));
    rows.sort((a, b) => b.score - a.score);
    const best = collapse(rows);
    if (best.length >= limit || rows.length < k || k >= limit * 64) {
      return best.slice(0, limit).map((r) => ({ docId: r.doc_id, score: r.score, passage: '', chunkId: r.chunk_id }));
    }
    k *= 4;
  }
}

/** The text of these chunks (by chunk id; unknown ids are absent). */
export async function chunkContents(chunks: lancedb.Table, chunkIds: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const where of inLists('chunk_id', chunkIds)) {
    const rows = (await chunks.query().where(where).select(['chunk_id', 'content']).toArray()) as { chunk_id: string; content: string }[];
    for (const r of rows) out.set(r.chunk_id, r.content);
  }
  return out;
}
