/**
 * Offline study of score-fusion functions for the hybrid search (issue 17):
 *
 *     npx tsx bench/fusion-study.ts --url http://127.0.0.1:8431 [--cache /tmp/fusion-study.json]
 *
 * For every eval case (query, namespace, country) it asks the running service once per leg for
 * its candidates with their scores (POST /v1/search, top_k 100, explain: alpha 0 = the keyword
 * leg, alpha 1 = the vector leg) and once at alpha 0.7 (today's fusion, for the documents that
 * lie beyond either leg's first 100 and for checking the offline reproduction). It then fuses
 * the legs offline with several standard, query-independent fusion functions over a grid of
 * alphas and prints nDCG@10 and Recall@100 overall and per origin (bench/retrieval-metrics.ts).
 *
 * What the legs give. `score_parts.keyword` / `.semantic` is the leg's score after today's
 * normalisation (BM25 / query's best BM25; cosine on the model's fixed scale) and the section
 * context; each leg computes it over its own candidates only, so it does not depend on alpha.
 * Every method below is a monotone transform of those leg scores (so alpha 0 and 1 keep each
 * leg's own order); a document a leg did not find gets 0 from that leg, as today (the API has
 * no way to score a document outside a leg's candidates). The service fuses each leg's first
 * max(3 × top_k, 50) = 300 candidates; the study sees each leg's first 100 (top_k's bound)
 * plus the documents of the alpha-0.7 answer, and takes the per-query statistics of the
 * normalisations (min, max, mean, deviation) over each leg's first 100.
 *
 * Methods: today (identity), minmax (both legs), rrf (weighted reciprocal rank, k = 60, scaled
 * so that rank 1 scores 1), zscore (distribution-based: mean ± 3 deviations mapped to [0, 1]),
 * sem-minmax (keyword as today, semantic min-max over the query's candidates), sem-best
 * (keyword as today, semantic divided by the query's best, i.e. (cos - low) / (best - low)).
 * `--cache` keeps the answers so that the offline part can be re-run without the service.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { positiveNumberOrExit, unitNumbersOrExit } from '../src/cli/cli-args.js';
import { printCalibration, fmt, postJson } from './lib.js';
import { loadCases, mean, scoreCase, type EvalCase, type Metrics } from './retrieval-metrics.js';

// The machine's speed beside every figure this benchmark prints (bench/calibrate.ts).
printCalibration();

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    set: { type: 'string', default: '../shared/eval/retrieval-dev.jsonl,../shared/eval/retrieval-dev-2.jsonl' },
    alphas: { type: 'string', default: '0,0.3,0.5,0.7,1' },
    cache: { type: 'string' },
    limit: { type: 'string' },
  },
});

const cases = loadCases(values.set!, positiveNumberOrExit('limit', values.limit, { integer: true }));
const alphas = unitNumbersOrExit('alphas', values.alphas!);
const FETCHED_ALPHAS = [0, 1, 0.7] as const;

interface Hit {
  id: string;
  source: string;
  source_id: string;
  score: number;
  score_parts: { keyword_score: number | null; semantic_score: number | null; keyword: number; semantic: number };
}
type Answers = Record<string, Record<string, Hit[] | null>>;

async function fetchAnswers(): Promise<Answers> {
  if (values.cache && existsSync(values.cache)) return JSON.parse(readFileSync(values.cache, 'utf8')) as Answers;
  if (!values.url) throw new Error('--url is required (or an existing --cache)');
  const answers: Answers = {};
  const started = Date.now();
  // Sequential requests: the machine is shared.
  for (const [i, c] of cases.entries()) {
    answers[c.id] = {};
    for (const alpha of FETCHED_ALPHAS) {
      const body = { q: c.query, namespace: c.namespace, country: [c.country], top_k: 100, alpha, explain: true };
      let hits: Hit[] | null = null;
      try {
        const res = await postJson(`${values.url}/v1/search`, body, 30_000);
        if (res.status === 200) hits = (res.body.hits as Hit[]).map(({ id, source, source_id, score, score_parts }) => ({ id, source, source_id, score, score_parts }));
      } catch {
        /* counted below */
      }
      answers[c.id][alpha] = hits;
    }
    if ((i + 1) % 100 === 0) console.error(`fusion-study: ${i + 1}/${cases.length} cases fetched (${fmt((Date.now() - started) / 1000)} s)`);
  }
  if (values.cache) writeFileSync(values.cache, JSON.stringify(answers));
  return answers;
}

/** One candidate of a query: its leg scores (null = the leg did not find it) and ranks (Infinity = not in the leg's first 100). */
interface Candidate {
  id: string;
  source: string;
  source_id: string;
  keyword: number | null;
  semantic: number | null;
  keywordRank: number;
  semanticRank: number;
}

interface QueryLegs {
  candidates: Candidate[];
  /** Each leg's first 100 scores, best first (the statistics of the normalisations). */
  keywordList: number[];
  semanticList: number[];
  /** The service's own alpha-0.7 answer. */
  served: Hit[];
}

function legsOf(answer: Record<string, Hit[] | null>): QueryLegs | null {
  const keywordHits = answer['0'];
  const semanticHits = answer['1'];
  const served = answer['0.7'];
  if (!keywordHits || !semanticHits || !served) return null;
  const byId = new Map<string, Candidate>();
  const candidate = (h: Hit) => {
    let c = byId.get(h.id);
    if (!c) byId.set(h.id, (c = { id: h.id, source: h.source, source_id: h.source_id, keyword: null, semantic: null, keywordRank: Infinity, semanticRank: Infinity }));
    return c;
  };
  keywordHits.forEach((h, rank) => Object.assign(candidate(h), { keyword: h.score_parts.keyword, keywordRank: rank }));
  semanticHits.forEach((h, rank) => Object.assign(candidate(h), { semantic: h.score_parts.semantic, semanticRank: rank }));
  for (const h of served) {
    const c = candidate(h);
    if (h.score_parts.keyword_score !== null) c.keyword ??= h.score_parts.keyword;
    if (h.score_parts.semantic_score !== null) c.semantic ??= h.score_parts.semantic;
  }
  return {
    candidates: [...byId.values()],
    keywordList: keywordHits.map((h) => h.score_parts.keyword),
    semanticList: semanticHits.map((h) => h.score_parts.semantic),
    served,
  };
}

/** A leg's transform: from its list of scores (best first) to a function of one score into [0, 1]. */
type LegTransform = (list: number[]) => (score: number, rank: number) => number;
const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
const identity: LegTransform = () => (s) => s;
const minmax: LegTransform = (list) => {
  const hi = Math.max(...list);
  const lo = Math.min(...list);
  return (s) => (hi - lo > 1e-12 ? clamp01((s - lo) / (hi - lo)) : 1);
};
const RRF_K = 60;
/** Weighted RRF: (k + 1) / (k + rank), rank from 1; beyond the first 100 the rank is unknown: the 101st. */
const rrf: LegTransform = () => (_s, rank) => (RRF_K + 1) / (RRF_K + Math.min(rank, 100) + 1);
const zscore: LegTransform = (list) => {
  const mu = list.reduce((a, b) => a + b, 0) / list.length;
  const sd = Math.sqrt(list.reduce((a, b) => a + (b - mu) ** 2, 0) / list.length);
  return (s) => (sd > 1e-12 ? clamp01((s - (mu - 3 * sd)) / (6 * sd)) : 1);
};
const byBest: LegTransform = (list) => {
  const best = Math.max(...list);
  return (s) => (best > 1e-12 ? clamp01(s / best) : 0);
};

const METHODS: Record<string, { keyword: LegTransform; semantic: LegTransform }> = {
  today: { keyword: identity, semantic: identity },
  minmax: { keyword: minmax, semantic: minmax },
  rrf: { keyword: rrf, semantic: rrf },
  zscore: { keyword: zscore, semantic: zscore },
  'sem-minmax': { keyword: identity, semantic: minmax },
  'sem-best': { keyword: identity, semantic: byBest },
};

/** The fused first 100 (ties as the service breaks them: the heavier leg's rank, the other's, the id). */
function fuse(q: QueryLegs, method: (typeof METHODS)[string], alpha: number): Candidate[] {
  const kw = method.keyword(q.keywordList);
  const sem = method.semantic(q.semanticList);
  const scored = q.candidates
    .filter((c) => (alpha < 1 && c.keyword !== null) || (alpha > 0 && c.semantic !== null))
    .map((c) => {
      const k = alpha < 1 && c.keyword !== null ? kw(c.keyword, c.keywordRank) : 0;
      const s = alpha > 0 && c.semantic !== null ? sem(c.semantic, c.semanticRank) : 0;
      return { c, score: alpha * s + (1 - alpha) * k };
    });
  const semanticFirst = alpha >= 0.5;
  scored.sort((x, y) => {
    if (y.score !== x.score) return y.score - x.score;
    const [x1, x2, y1, y2] = semanticFirst
      ? [x.c.semanticRank, x.c.keywordRank, y.c.semanticRank, y.c.keywordRank]
      : [x.c.keywordRank, x.c.semanticRank, y.c.keywordRank, y.c.semanticRank];
    if (x1 !== y1) return x1 < y1 ? -1 : 1;
    if (x2 !== y2) return x2 < y2 ? -1 : 1;
    return x.c.id < y.c.id ? -1 : x.c.id > y.c.id ? 1 : 0;
  });
  return scored.slice(0, 100).map((s) => s.c);
}

const answers = await fetchAnswers();
const usable: [EvalCase, QueryLegs][] = [];
for (const c of cases) {
  const legs = answers[c.id] ? legsOf(answers[c.id]) : null;
  if (legs) usable.push([c, legs]);
}
console.log(`fusion-study: ${usable.length}/${cases.length} cases with all three answers (others left out)\n`);
const origins = [...new Set(usable.map(([c]) => c.origin))].sort();

type Slices = Map<string, { ndcg10: number; recall100: number }>;
function evaluate(rank: (c: EvalCase, q: QueryLegs) => { source: string; source_id: string }[]): Slices {
  const rows = new Map<string, Metrics[]>([['all', []], ...origins.map((o) => [o, []] as [string, Metrics[]])]);
  for (const [c, q] of usable) {
    const m = scoreCase(c, rank(c, q));
    rows.get('all')!.push(m);
    rows.get(c.origin)!.push(m);
  }
  return new Map([...rows].map(([k, r]) => [k, { ndcg10: mean(r, 'ndcg10'), recall100: mean(r, 'recall100') }]));
}

const results = new Map<string, Map<number, Slices>>();
for (const [name, method] of Object.entries(METHODS)) {
  results.set(name, new Map(alphas.map((a) => [a, evaluate((_c, q) => fuse(q, method, a))])));
}
const served = evaluate((_c, q) => q.served);

const f3 = (n: number) => fmt(n, 3);
console.log('overall nDCG@10 / Recall@100 per alpha');
console.log(`${'method'.padEnd(12)} ${alphas.map((a) => `a=${a}`.padEnd(13)).join(' ')}`);
for (const [name, byAlpha] of results) {
  console.log(`${name.padEnd(12)} ${alphas.map((a) => `${f3(byAlpha.get(a)!.get('all')!.ndcg10)}/${f3(byAlpha.get(a)!.get('all')!.recall100)}`.padEnd(13)).join(' ')}`);
}
console.log(`${'served 0.7'.padEnd(12)} ${f3(served.get('all')!.ndcg10)}/${f3(served.get('all')!.recall100)}  (the service's own alpha-0.7 answer)`);

const keyword = results.get('today')!.get(0)!;
const row = (name: string, s: Slices) =>
  `${name.padEnd(12)} ${['all', ...origins]
    .map((o) => `${f3(s.get(o)!.ndcg10)} (${fmt((s.get(o)!.ndcg10 / Math.max(keyword.get(o)!.ndcg10, 1e-9) - 1) * 100, 1)}%)`.padEnd(20))
    .join(' ')}`;
for (const alpha of alphas.filter((a) => a > 0 && a < 1)) {
  console.log(`\nat alpha ${alpha}: nDCG@10 per slice (change against keyword-only = today at alpha 0)`);
  console.log(`${'method'.padEnd(12)} ${['all', ...origins].map((o) => o.padEnd(20)).join(' ')}`);
  console.log(row('keyword', keyword));
  for (const [name, byAlpha] of results) console.log(row(name, byAlpha.get(alpha)!));
}
