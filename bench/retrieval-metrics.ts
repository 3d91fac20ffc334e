/** The retrieval eval sets and their metrics, shared by bench/quality.ts and bench/fusion-study.ts. */
import { readFileSync } from 'node:fs';

export interface EvalCase {
  id: string;
  query: string;
  namespace: string;
  country: string;
  relevant: { source: string; source_id: string }[];
  origin: string;
}

/** The cases of comma-separated JSONL files, optionally the first `limit`. */
export function loadCases(files: string, limit?: number): EvalCase[] {
  const cases = files
    .split(',')
    .flatMap((file) => readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as EvalCase));
  return limit ? cases.slice(0, limit) : cases;
}

/** nDCG@10, Recall@10, Recall@100 and MRR@10 of a ranked hit list (binary relevance). */
export function scoreCase(c: EvalCase, hits: { source: string; source_id: string }[]) {
  const relevant = new Set(c.relevant.map((r) => `${r.source}|${r.source_id}`));
  const isRel = hits.map((h) => relevant.has(`${h.source}|${h.source_id}`));
  let dcg = 0;
  isRel.slice(0, 10).forEach((r, i) => (dcg += r ? 1 / Math.log2(i + 2) : 0));
  let idcg = 0;
  for (let i = 0; i < Math.min(10, relevant.size); i++) idcg += 1 / Math.log2(i + 2);
  const firstRel = isRel.slice(0, 10).indexOf(true);
  return {
    ndcg10: idcg ? dcg / idcg : 0,
    recall10: isRel.slice(0, 10).filter(Boolean).length / relevant.size,
    recall100: isRel.slice(0, 100).filter(Boolean).length / relevant.size,
    mrr10: firstRel >= 0 ? 1 / (firstRel + 1) : 0,
  };
}

export type Metrics = ReturnType<typeof scoreCase>;
export const ZERO_METRICS: Metrics = { ndcg10: 0, recall10: 0, recall100: 0, mrr10: 0 };
export const mean = (rows: Metrics[], k: keyof Metrics) => rows.reduce((s, r) => s + r[k], 0) / Math.max(rows.length, 1);
