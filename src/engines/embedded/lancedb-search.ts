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

/** Euclidean norm of a vector. */
export function norm(v: Float32Array): number {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  return Math.sqrt(s);
}

/** Cosine similarity of two vectors (0 when either is zero). */
function cosine(a: Float32Array, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

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

/** The keyword leg: each document's best chunk by BM25 over the analysed terms, best first. */
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
      .select(['doc_id', 'content', '_score'])
      .limit(k)
      .toArray()) as { doc_id: string; content: string; _score: number }[];
    const best = collapse(rows);
    if (best.length >= limit || rows.length < k || k >= limit * 64) {
      return best.slice(0, limit).map((r) => ({ docId: r.doc_id, score: Number(r._score), passage: r.content }));
    }
    k *= 4;
  }
}

/**
 * The vector leg over one generation's table (`hasIndex`: it has its HNSW index): each
 * document's best chunk by exact cosine similarity, best first.
 */
export async function vectorSearch(
  vectors: { table: lancedb.Table; hasIndex: boolean; dimension: number | null },
  chunks: lancedb.Table,
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
      .select(['chunk_id', 'doc_id', 'vector'])
      .limit(k);
    if (vectors.hasIndex) q = q.ef(Math.max(k * 2, 100));
    // The candidates are rescored with their exact cosine similarity: the HNSW index works on
    // scalar-quantised vectors and reports another distance than a flat search does (for
    // unit vectors, squared L2 = 2 - 2 cos instead of 1 - cos), and the hybrid fusion needs
    // the model's true cosine on every path.
    const rows = ((await q.toArray()) as { chunk_id: string; doc_id: string; vector: ArrayLike<number> | { toArray(): ArrayLike<number> } }[]).map((r) => ({
      chunk_id: r.chunk_id,
      doc_id: r.doc_id,
      score: cosine(vector, 'toArray' in r.vector ? r.vector.toArray() : r.vector),
    }));
    rows.sort((a, b) => b.score - a.score);
    const best = collapse(rows);
    if (best.length >= limit || rows.length < k || k >= limit * 64) {
      const top = best.slice(0, limit);
      const passages = await chunkContents(chunks, top.map((r) => r.chunk_id));
      return top.map((r) => ({ docId: r.doc_id, score: r.score, passage: passages.get(r.chunk_id) ?? '' }));
    }
    k *= 4;
  }
}

/** The text of chunks by chunk id. */
export async function chunkContents(chunks: lancedb.Table, chunkIds: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const where of inLists('chunk_id', chunkIds)) {
    const rows = (await chunks.query().where(where).select(['chunk_id', 'content']).toArray()) as { chunk_id: string; content: string }[];
    for (const r of rows) out.set(r.chunk_id, r.content);
  }
  return out;
}
