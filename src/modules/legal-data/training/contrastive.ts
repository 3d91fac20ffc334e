/**
 * Contrastive fine-tuning of a static embedding table on (anchor, passage) pairs.
 *
 * A text is embedded exactly as the `static` embedder does at search time: the weighted sum
 * of its token vectors, L2-normalised (`u = e / |e|`, `e = sum_t w_t * V[t]`, with the fixed
 * token weights `w` stored in the model). The loss is the symmetric InfoNCE with in-batch
 * negatives (Multiple Negatives Ranking): for a batch of B pairs, the similarity matrix
 * S = A P^T / tau, and the loss is the mean cross-entropy of each anchor against all passages
 * of the batch and of each passage against all anchors (the true partner as target).
 * Gradients flow back through the normalisation to the token rows, which are updated with
 * row-wise Adagrad (sparse: only the rows of the batch move).
 */
import { createRandom } from './linalg.js';
import { DenseKernels } from './dense-kernels.js';

/** Pairs as token id lists, stored flat (CSR-like). */
export interface PairSet {
  anchorOffsets: Int32Array;
  anchorTokens: Int32Array;
  passageOffsets: Int32Array;
  passageTokens: Int32Array;
  count: number;
  /** Group of each pair (its act, or its source): grouped batches take their negatives from the same group. */
  groups?: Int32Array;
  /** Document of each pair: two pairs of one document are never each other's negatives. */
  docs?: Int32Array;
}

export interface ContrastiveOptions {
  epochs: number;
  batchSize: number;
  learningRate: number;
  temperature: number;
  seed: number;
  /**
   * Build each batch from runs of pairs of one group (GROUP_RUN pairs each) instead of a
   * random sample, so that the negatives are the hard ones: other articles of the same act,
   * other decisions of the same court. Needs `groups`.
   */
  groupedBatches?: boolean;
  /** Stop after this many milliseconds (the time budget of a training run). */
  deadline?: number;
  onBatch?: (info: { epoch: number; batch: number; batches: number; loss: number }) => void;
}

/** Builds a PairSet from token id arrays. */
export function toPairSet(pairs: { anchor: number[]; passage: number[]; group?: number; doc?: number }[]): PairSet {
  const anchorOffsets = new Int32Array(pairs.length + 1);
  const passageOffsets = new Int32Array(pairs.length + 1);
  let na = 0;
  let np = 0;
  pairs.forEach((p, i) => {
    na += p.anchor.length;
    np += p.passage.length;
    anchorOffsets[i + 1] = na;
    passageOffsets[i + 1] = np;
  });
  const anchorTokens = new Int32Array(na);
  const passageTokens = new Int32Array(np);
  pairs.forEach((p, i) => {
    anchorTokens.set(p.anchor, anchorOffsets[i]);
    passageTokens.set(p.passage, passageOffsets[i]);
  });
  const withGroups = pairs.length > 0 && pairs.every((p) => p.group !== undefined && p.doc !== undefined);
  return {
    anchorOffsets,
    anchorTokens,
    passageOffsets,
    passageTokens,
    count: pairs.length,
    ...(withGroups ? { groups: Int32Array.from(pairs, (p) => p.group!), docs: Int32Array.from(pairs, (p) => p.doc!) } : {}),
  };
}

/**
 * Pairs of one group in a row in a grouped batch (at most half a batch): a batch of 512 holds
 * eight groups' runs, hard negatives inside each run and easier ones across them.
 */
const GROUP_RUN = 64;

/**
 * The order of one epoch for grouped batches: the pairs of each group together (groups in a
 * random order, pairs shuffled inside), cut into runs of `run` pairs, and the runs shuffled,
 * so that a batch holds batch / run runs: mostly that many groups' pairs (exported for tests).
 */
export function groupedOrder(order: Int32Array, groups: Int32Array, run: number, random: () => number): Int32Array {
  const groupKey = new Map<number, number>();
  for (let i = 0; i < order.length; i++) {
    const g = groups[order[i]];
    if (!groupKey.has(g)) groupKey.set(g, random());
  }
  // `order` is already shuffled: a stable sort by the group's key keeps pairs shuffled inside.
  const sorted = Array.from(order).sort((x, y) => groupKey.get(groups[x])! - groupKey.get(groups[y])!);
  const runs: number[][] = [];
  for (let i = 0; i < sorted.length; i += run) runs.push(sorted.slice(i, i + run));
  shuffle(runs, random);
  return Int32Array.from(runs.flat());
}

function shuffle<T>(items: T[] | Int32Array, random: () => number): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const t = items[i];
    items[i] = items[j];
    items[j] = t;
  }
}

/** The normalised embedding of tokens[from, to) into `out` (offset `at`); returns the norm before normalising. */
export function embedTokens(
  table: Float32Array,
  weights: Float32Array,
  dim: number,
  tokens: Int32Array,
  from: number,
  to: number,
  out: Float32Array,
  at: number,
): number {
  for (let d = 0; d < dim; d++) out[at + d] = 0;
  for (let k = from; k < to; k++) {
    const t = tokens[k];
    const w = weights[t];
    const o = t * dim;
    for (let d = 0; d < dim; d++) out[at + d] += w * table[o + d];
  }
  let n = 0;
  for (let d = 0; d < dim; d++) n += out[at + d] * out[at + d];
  n = Math.sqrt(n);
  if (n > 0) for (let d = 0; d < dim; d++) out[at + d] /= n;
  return n;
}

/**
 * exp(x_k - max) into `out` for the `n` values x_k = values[from + k * stride] (a row or a
 * column of the similarities); returns their sum.
 */
function softmaxInto(out: Float64Array, values: Float32Array, from: number, stride: number, n: number): number {
  let max = -Infinity;
  for (let k = 0; k < n; k++) max = Math.max(max, values[from + k * stride]);
  let sum = 0;
  for (let k = 0; k < n; k++) {
    out[k] = Math.exp(values[from + k * stride] - max);
    sum += out[k];
  }
  return sum;
}

/** Trains `table` in place; returns the mean loss of the last epoch. */
export function trainContrastive(table: Float32Array, weights: Float32Array, dim: number, pairs: PairSet, options: ContrastiveOptions): number {
  const random = createRandom(options.seed);
  const B = options.batchSize;
  // the table, its gradient and Adagrad state, and the batch's arrays, in the SIMD kernels' memory
  const dense = new DenseKernels(B, dim, weights.length, Math.max(longestText(pairs.anchorOffsets), longestText(pairs.passageOffsets)));
  dense.table.set(table);
  dense.weights.set(weights);
  const { sims, g } = dense;
  const an = new Float32Array(B);
  const pn = new Float32Array(B);
  const exps = new Float64Array(B);
  const invTau = 1 / options.temperature;
  let lastEpochLoss = NaN;

  const anchorOf = (id: number) => pairs.anchorTokens.subarray(pairs.anchorOffsets[id], pairs.anchorOffsets[id + 1]);
  const passageOf = (id: number) => pairs.passageTokens.subarray(pairs.passageOffsets[id], pairs.passageOffsets[id + 1]);
  const shuffled = Int32Array.from({ length: pairs.count }, (_, i) => i);
  const grouped = options.groupedBatches === true && pairs.groups !== undefined;
  const docs = pairs.docs;
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    shuffle(shuffled, random);
    const order = grouped ? groupedOrder(shuffled, pairs.groups!, Math.max(1, Math.min(GROUP_RUN, Math.floor(B / 2))), random) : shuffled;
    const batches = Math.floor(order.length / B);
    let epochLoss = 0;
    for (let b = 0; b < batches; b++) {
      if (options.deadline !== undefined && Date.now() > options.deadline) {
        table.set(dense.table);
        return epoch === 0 && b === 0 ? NaN : epochLoss / Math.max(1, b);
      }
      const ids = order.subarray(b * B, (b + 1) * B);
      for (let i = 0; i < B; i++) {
        an[i] = dense.embed('a', i, anchorOf(ids[i]));
        pn[i] = dense.embed('p', i, passageOf(ids[i]));
      }
      dense.similarities(invTau);
      // Another pair of the same document is no negative (its passage may be the same text).
      if (docs) {
        for (let i = 0; i < B; i++) {
          for (let j = 0; j < B; j++) if (i !== j && docs[ids[i]] === docs[ids[j]]) sims[i * B + j] = -Infinity;
        }
      }
      // g = dLoss/dS (S already divided by tau): rows (anchor -> passages) and columns (passage -> anchors).
      // Each row's and each column's softmax, its exponentials computed once; g already carries
      // the 1/tau of dL/da_i = sum_j g_ij p_j / tau and dL/dp_j = sum_i g_ij a_i / tau.
      let loss = 0;
      const scale = invTau / (2 * B);
      for (let i = 0; i < B; i++) {
        const sum = softmaxInto(exps, sims, i * B, 1, B);
        loss += -Math.log(exps[i] / sum);
        for (let j = 0; j < B; j++) g[i * B + j] = (exps[j] / sum - (i === j ? 1 : 0)) * scale;
      }
      for (let j = 0; j < B; j++) {
        const sum = softmaxInto(exps, sims, j, B, B);
        loss += -Math.log(exps[j] / sum);
        for (let i = 0; i < B; i++) g[i * B + j] += (exps[i] / sum - (i === j ? 1 : 0)) * scale;
      }
      loss /= 2 * B;
      epochLoss += loss;
      dense.gradients();
      // Through the normalisation: de = (du - u (u . du)) / |e|, then to each token row; then
      // row-wise Adagrad on the touched rows, their gradient cleared.
      for (let i = 0; i < B; i++) {
        if (an[i] > 0) dense.backprop('a', i, an[i], anchorOf(ids[i]));
        if (pn[i] > 0) dense.backprop('p', i, pn[i], passageOf(ids[i]));
      }
      for (let i = 0; i < B; i++) {
        dense.update(anchorOf(ids[i]), options.learningRate);
        dense.update(passageOf(ids[i]), options.learningRate);
      }
      options.onBatch?.({ epoch, batch: b, batches, loss });
    }
    lastEpochLoss = epochLoss / Math.max(1, batches);
  }
  table.set(dense.table);
  return lastEpochLoss;
}

/** The most tokens one text of a pair set has. */
function longestText(offsets: Int32Array): number {
  let longest = 1;
  for (let i = 1; i < offsets.length; i++) longest = Math.max(longest, offsets[i] - offsets[i - 1]);
  return longest;
}

/**
 * Held-out figure: each anchor ranks its own passage among `pool` passages (its partner and
 * pool-1 other held-out passages); returns recall@1 and MRR over the held-out pairs.
 */
export function evaluatePairs(
  table: Float32Array,
  weights: Float32Array,
  dim: number,
  pairs: PairSet,
  pool = 1000,
): { recallAt1: number; mrr: number; count: number; scale: { low: number; high: number } } {
  const n = Math.min(pairs.count, pool);
  if (n < 2) return { recallAt1: 0, mrr: 0, count: n, scale: { low: 0, high: 1 } };
  const a = new Float32Array(n * dim);
  const p = new Float32Array(n * dim);
  for (let i = 0; i < n; i++) {
    embedTokens(table, weights, dim, pairs.anchorTokens, pairs.anchorOffsets[i], pairs.anchorOffsets[i + 1], a, i * dim);
    embedTokens(table, weights, dim, pairs.passageTokens, pairs.passageOffsets[i], pairs.passageOffsets[i + 1], p, i * dim);
  }
  let hits = 0;
  let rr = 0;
  let negativeSum = 0;
  const positives: number[] = [];
  for (let i = 0; i < n; i++) {
    const sim = (j: number) => {
      let s = 0;
      for (let d = 0; d < dim; d++) s += a[i * dim + d] * p[j * dim + d];
      return s;
    };
    const own = sim(i);
    positives.push(own);
    let rank = 1;
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      const s = sim(j);
      negativeSum += s;
      if (s >= own) rank++;
    }
    if (rank === 1) hits++;
    rr += 1 / rank;
  }
  // The model's cosine scale for the hybrid fusion: unrelated pairs' mean, and the level the
  // best tenth of true pairs reach.
  positives.sort((x, y) => x - y);
  const scale = { low: negativeSum / (n * (n - 1)), high: positives[Math.floor(0.9 * (n - 1))] };
  return { recallAt1: hits / n, mrr: rr / n, count: n, scale };
}
