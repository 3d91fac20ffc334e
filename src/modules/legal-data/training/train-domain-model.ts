/**
 * Trains the domain embedding model from a corpus folder and writes it in the model2vec
 * format the `static` embedder loads (config.json, tokenizer.json, model.safetensors with
 * `embeddings` and per-token `weights`).
 *
 * Steps: (1) pairs and passages from the corpus's structure (training-pairs.ts); (2) a
 * WordPiece vocabulary from their word counts; (3) token weights w_t = a / (a + p_t) (smooth
 * inverse frequency: frequent tokens such as articles and prepositions weigh little); (4)
 * initial vectors from a randomized truncated SVD of the passage x token matrix (latent
 * semantic analysis: tokens that occur in the same passages get close vectors); (5)
 * contrastive fine-tuning on the pairs (contrastive.ts); (6) the held-out pairs' recall@1
 * and MRR among 1,000 candidates, before and after fine-tuning.
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { evaluatePairs, toPairSet, trainContrastive, type ContrastiveOptions, type PairSet } from './contrastive.js';
import { createRandom, gaussian, randomizedSvd, type SparseRows } from './linalg.js';
import { DEFAULT_CITATION_LIMITS } from './citation-pairs.js';
import { buildCorpusPairs, type CorpusPairs, type TextPair } from './training-pairs.js';
import { buildVocabulary, SPECIAL_TOKENS, textWords, tokenizerJson, WordPieceEncoder } from '../../../engines/wordpiece.js';

export interface TrainOptions {
  corpusDir: string;
  outDir: string;
  seed?: number;
  dimension?: number;
  vocabSize?: number;
  minCount?: number;
  epochs?: number;
  batchSize?: number;
  learningRate?: number;
  temperature?: number;
  /** Smooth-inverse-frequency constant `a` of the token weights. */
  sifA?: number;
  /** Tokens of an anchor / a passage the trainer looks at. */
  anchorTokens?: number;
  passageTokens?: number;
  /** Batches of runs of 64 pairs of one act (one source): hard in-batch negatives (contrastive.ts). */
  groupedBatches?: boolean;
  /** Citation contexts paired with one cited article at most, and taken from one citing document (citation-pairs.ts). */
  citationsPerArticle?: number;
  citationsPerDocumentArticle?: number;
  /** Times each citation pair is seen per epoch (they are the pairs closest to how people ask). */
  citationRepeat?: number;
  /** Kinds of pairs left out of training and validation (for comparisons). */
  skipPairs?: TextPair['kind'][];
  /** Skip the SVD initialisation (random initial vectors): for comparisons only. */
  skipSvd?: boolean;
  /** Skip contrastive fine-tuning (SVD vectors only): for comparisons only. */
  skipContrastive?: boolean;
  /** Fine-tuning stops when this many minutes have passed since the start (the whole run's budget). */
  maxMinutes?: number;
  log?: (line: string) => void;
  /** Progress between 0 and 1 with the current step, for /ready. */
  onProgress?: (progress: { step: string; fraction: number }) => void;
  signal?: AbortSignal;
}

export interface TrainSummary {
  outDir: string;
  vocabSize: number;
  dimension: number;
  pairs: { train: number; heldOut: number };
  documents: number;
  finalLoss: number;
  validation: { before: { recallAt1: number; mrr: number }; after: { recallAt1: number; mrr: number }; count: number };
  /** Cosine levels of unrelated and strongly related held-out pairs (stored as `score_calibration`). */
  scale: { low: number; high: number };
  seconds: number;
}

/** Default hyper-parameters (chosen on the held-out pairs and the timing budget, see docs/search.md). */
export const TRAIN_DEFAULTS = {
  seed: 42,
  dimension: 256,
  vocabSize: 120_000,
  minCount: 4,
  epochs: 3,
  batchSize: 512,
  learningRate: 0.05,
  temperature: 0.1,
  sifA: 1e-3,
  anchorTokens: 64,
  passageTokens: 160,
  maxMinutes: 25,
  groupedBatches: true,
  citationsPerArticle: DEFAULT_CITATION_LIMITS.perArticle,
  citationsPerDocumentArticle: DEFAULT_CITATION_LIMITS.perDocumentArticle,
  citationRepeat: 1,
  skipPairs: [] as TextPair['kind'][],
};

/** One training run's settings and its reporting, shared by the steps below. */
interface TrainingRun {
  o: Required<TrainOptions>;
  log: (line: string) => void;
  progress: (progress: { step: string; fraction: number }) => void;
  /** Seconds since the start, for the log. */
  elapsed: () => string;
  /** Fine-tuning stops here (the whole run's budget, maxMinutes). */
  deadline: number;
  signal?: AbortSignal;
}

/** Trains and writes the model; the directory appears only when complete (written to a temp folder first). */
export async function trainDomainModel(options: TrainOptions): Promise<TrainSummary> {
  const o = { ...TRAIN_DEFAULTS, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) } as Required<TrainOptions>;
  const started = Date.now();
  const run: TrainingRun = {
    o,
    log: options.log ?? (() => {}),
    progress: options.onProgress ?? (() => {}),
    elapsed: () => `${((Date.now() - started) / 1000).toFixed(0)} s`,
    deadline: started + o.maxMinutes * 60_000,
    signal: options.signal,
  };
  const corpus = await readPairs(run);
  const { vocab, encoder } = buildEncoder(run, corpus);
  const dim = o.dimension;
  const encodedPassages = corpus.passages.map((p) => encoder.encode(p, o.passageTokens));
  corpus.passages.length = 0;
  const weights = tokenWeights(encodedPassages, vocab.length, o.sifA);
  const table = initialVectors(run, encodedPassages, weights, vocab.length);
  encodedPassages.length = 0;
  const { train, held, before, after, finalLoss } = fineTune(run, corpus, encoder, table, weights);

  // Write.
  run.progress({ step: 'writing the model', fraction: 0.97 });
  await writeModel(o.outDir, vocab, table, weights, dim, after.scale, { seed: o.seed, pairs: train.count, heldOutMrr: after.mrr });
  const seconds = (Date.now() - started) / 1000;
  run.log(`train: model written to ${o.outDir} in ${seconds.toFixed(0)} s`);
  run.progress({ step: 'done', fraction: 1 });
  return {
    outDir: o.outDir,
    vocabSize: vocab.length,
    dimension: dim,
    pairs: { train: train.count, heldOut: held.count },
    documents: corpus.documents,
    finalLoss,
    validation: { before, after, count: held.count },
    scale: after.scale,
    seconds,
  };
}

/** Step 1: the training and held-out pairs of the corpus (minus the kinds left out). */
async function readPairs({ o, log, progress, elapsed, signal }: TrainingRun): Promise<CorpusPairs> {
  progress({ step: 'reading the corpus', fraction: 0 });
  const corpus = await buildCorpusPairs(o.corpusDir, {
    seed: o.seed,
    // Left-out citation pairs need no scan of the decisions for citations.
    citations: !o.skipPairs.includes('citation'),
    citationLimits: { perArticle: o.citationsPerArticle, perDocumentArticle: o.citationsPerDocumentArticle },
    signal,
    log,
    onDocument: (n, file) => {
      if (n % 20_000 === 0) log(`train: read ${n.toLocaleString('en')} documents (${file}) [${elapsed()}]`);
    },
  });
  if (signal?.aborted) throw new Error('training interrupted');
  if (o.skipPairs.length > 0) {
    const keep = (p: TextPair) => !o.skipPairs.includes(p.kind);
    corpus.train = corpus.train.filter(keep);
    corpus.heldOut = corpus.heldOut.filter(keep);
  }
  if (corpus.train.length < 2) throw new Error(`train: too few training pairs in ${o.corpusDir} (${corpus.train.length})`);
  const kinds = new Map<string, number>();
  for (const p of corpus.train) kinds.set(p.kind, (kinds.get(p.kind) ?? 0) + 1);
  log(
    `train: ${corpus.documents.toLocaleString('en')} documents -> ${corpus.train.length.toLocaleString('en')} training pairs (` +
      [...kinds].map(([k, n]) => `${k} ${n.toLocaleString('en')}`).join(', ') +
      `), ${corpus.heldOut.length.toLocaleString('en')} held out [${elapsed()}]`,
  );
  return corpus;
}

/** Step 2: the WordPiece vocabulary of the passages and anchors, and its encoder. */
function buildEncoder({ o, log, progress, elapsed }: TrainingRun, corpus: CorpusPairs): { vocab: string[]; encoder: WordPieceEncoder } {
  progress({ step: 'building the vocabulary', fraction: 0.1 });
  const counts = new Map<string, number>();
  const countText = (t: string) => {
    for (const w of textWords(t)) counts.set(w, (counts.get(w) ?? 0) + 1);
  };
  for (const p of corpus.passages) countText(p);
  for (const p of corpus.train) countText(p.anchor);
  const vocab = buildVocabulary(counts, { size: o.vocabSize, minCount: o.minCount });
  log(`train: vocabulary of ${vocab.length.toLocaleString('en')} tokens from ${counts.size.toLocaleString('en')} distinct words [${elapsed()}]`);
  return { vocab, encoder: new WordPieceEncoder(vocab) };
}

/** Step 3: token weights, smooth inverse frequency over the passages (special tokens weigh 0). */
function tokenWeights(encodedPassages: number[][], V: number, sifA: number): Float32Array {
  const frequency = new Float64Array(V);
  let total = 0;
  for (const ids of encodedPassages) {
    for (const t of ids) frequency[t] += 1;
    total += ids.length;
  }
  const weights = new Float32Array(V);
  for (let t = SPECIAL_TOKENS.length; t < V; t++) weights[t] = sifA / (sifA + frequency[t] / Math.max(1, total));
  return weights;
}

/** Step 4: the initial token vectors, from an SVD of the passages (or random, for comparisons). */
function initialVectors({ o, log, progress, elapsed }: TrainingRun, encodedPassages: number[][], weights: Float32Array, V: number): Float32Array {
  const dim = o.dimension;
  const table = new Float32Array(V * dim);
  if (!o.skipSvd) {
    progress({ step: 'factorising co-occurrences', fraction: 0.2 });
    const matrix = passageMatrix(encodedPassages, weights, V);
    log(`train: SVD of ${matrix.rows.toLocaleString('en')} passages x ${V.toLocaleString('en')} tokens (${matrix.values.length.toLocaleString('en')} non-zeros) [${elapsed()}]`);
    const svd = randomizedSvd(matrix, dim, { seed: o.seed, powerIterations: 2, onStep: (s) => log(`train: SVD ${s} [${elapsed()}]`) });
    for (let i = 0; i < V * dim; i++) table[i] = svd.vectors[i];
    log(`train: SVD done, top singular values ${Array.from(svd.values.slice(0, 4), (v) => v.toFixed(1)).join(', ')} [${elapsed()}]`);
  } else {
    const normal = gaussian(createRandom(o.seed));
    for (let i = 0; i < table.length; i++) table[i] = normal() / Math.sqrt(dim);
  }
  for (let t = 0; t < SPECIAL_TOKENS.length; t++) table.fill(0, t * dim, (t + 1) * dim);
  return table;
}

/** Step 5: contrastive fine-tuning of `table` in place, measured on held-out pairs before and after. */
function fineTune(run: TrainingRun, corpus: CorpusPairs, encoder: WordPieceEncoder, table: Float32Array, weights: Float32Array) {
  const { o, log, progress, elapsed, deadline } = run;
  const dim = o.dimension;
  const groupIds = new Map<string, number>();
  const groupId = (group: string) => groupIds.get(group) ?? groupIds.set(group, groupIds.size).get(group)!;
  const encodePairs = (pairs: TextPair[]): PairSet =>
    toPairSet(
      pairs
        .map((p) => ({ anchor: encoder.encode(p.anchor, o.anchorTokens), passage: encoder.encode(p.passage, o.passageTokens), group: groupId(p.group), doc: p.doc }))
        .filter((p) => p.anchor.length > 0 && p.passage.length > 0),
    );
  const citationPairs = corpus.train.filter((p) => p.kind === 'citation');
  for (let r = 1; r < o.citationRepeat; r++) corpus.train.push(...citationPairs);
  if (o.citationRepeat > 1) log(`train: each of the ${citationPairs.length.toLocaleString('en')} citation pairs seen ${o.citationRepeat} times per epoch`);
  const train = encodePairs(corpus.train);
  // A sample of held-out pairs spread over the corpus (every k-th), the same for a seed.
  const step = Math.max(1, Math.floor(corpus.heldOut.length / 1000));
  const held = encodePairs(corpus.heldOut.filter((_, i) => i % step === 0).slice(0, 1000));
  const before = evaluatePairs(table, weights, dim, held);
  log(`train: held-out pairs before fine-tuning: recall@1 ${before.recallAt1.toFixed(3)}, MRR ${before.mrr.toFixed(3)} (${held.count} pairs, 1 positive among ${held.count})`);
  let finalLoss = NaN;
  if (!o.skipContrastive) {
    progress({ step: 'contrastive fine-tuning', fraction: 0.4 });
    finalLoss = trainContrastive(table, weights, dim, train, {
      epochs: o.epochs,
      batchSize: Math.min(o.batchSize, train.count),
      learningRate: o.learningRate,
      temperature: o.temperature,
      seed: o.seed,
      groupedBatches: o.groupedBatches,
      deadline,
      onBatch: batchReporter(run),
    });
    if (Date.now() > deadline) log(`train: time budget of ${o.maxMinutes} min reached, fine-tuning stopped early`);
  }
  const after = evaluatePairs(table, weights, dim, held);
  log(
    `train: held-out pairs after fine-tuning: recall@1 ${after.recallAt1.toFixed(3)}, MRR ${after.mrr.toFixed(3)}; ` +
      `cosine of unrelated pairs ${after.scale.low.toFixed(3)}, of strong pairs ${after.scale.high.toFixed(3)} [${elapsed()}]`,
  );
  return { train, held, before, after, finalLoss };
}

/** Logs the mean loss and reports progress at most every 10 s, and after each epoch's last batch. */
function batchReporter({ o, log, progress, elapsed }: TrainingRun): NonNullable<ContrastiveOptions['onBatch']> {
  let lossSum = 0;
  let lossCount = 0;
  let lastLog = Date.now();
  return ({ epoch, batch, batches, loss }) => {
    lossSum += loss;
    lossCount += 1;
    if (Date.now() - lastLog > 10_000 || batch === batches - 1) {
      lastLog = Date.now();
      const done = (epoch * batches + batch + 1) / (o.epochs * batches);
      log(`train: epoch ${epoch + 1}/${o.epochs} batch ${batch + 1}/${batches} loss ${(lossSum / lossCount).toFixed(4)} [${elapsed()}]`);
      progress({ step: `contrastive fine-tuning, epoch ${epoch + 1}/${o.epochs}`, fraction: 0.4 + 0.55 * done });
      lossSum = 0;
      lossCount = 0;
    }
  };
}

/** Passage x token matrix: weighted, sub-linear term frequency, rows L2-normalised. */
function passageMatrix(passages: number[][], weights: Float32Array, vocabSize: number): SparseRows {
  let nnz = 0;
  const rowsTf: Map<number, number>[] = [];
  for (const ids of passages) {
    const tf = new Map<number, number>();
    for (const t of ids) tf.set(t, (tf.get(t) ?? 0) + 1);
    rowsTf.push(tf);
    nnz += tf.size;
  }
  const offsets = new Int32Array(passages.length + 1);
  const columns = new Int32Array(nnz);
  const values = new Float32Array(nnz);
  let k = 0;
  rowsTf.forEach((tf, r) => {
    const start = k;
    let norm = 0;
    for (const [t, c] of [...tf].sort((a, b) => a[0] - b[0])) {
      const v = weights[t] * (1 + Math.log(c));
      columns[k] = t;
      values[k] = v;
      norm += v * v;
      k++;
    }
    const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let i = start; i < k; i++) values[i] *= inv;
    offsets[r + 1] = k;
  });
  return { offsets, columns, values, rows: passages.length, cols: vocabSize };
}

/** Writes config.json, tokenizer.json and model.safetensors (float32 `embeddings`, `weights`). */
export async function writeModel(
  outDir: string,
  vocab: string[],
  table: Float32Array,
  weights: Float32Array,
  dim: number,
  scale: { low: number; high: number },
  info: Record<string, unknown>,
): Promise<void> {
  const tmp = `${outDir}.tmp-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true });
  const embeddingBytes = Buffer.from(table.buffer, table.byteOffset, table.byteLength);
  const weightBytes = Buffer.from(weights.buffer, weights.byteOffset, weights.byteLength);
  let header = JSON.stringify({
    __metadata__: { format: 'pt', trainer: 'legal-search train:embeddings' },
    embeddings: { dtype: 'F32', shape: [vocab.length, dim], data_offsets: [0, embeddingBytes.length] },
    weights: { dtype: 'F32', shape: [vocab.length], data_offsets: [embeddingBytes.length, embeddingBytes.length + weightBytes.length] },
  });
  header += ' '.repeat((8 - (header.length % 8)) % 8);
  const headerBytes = Buffer.from(header, 'utf8');
  const lengthBytes = Buffer.alloc(8);
  lengthBytes.writeBigUInt64LE(BigInt(headerBytes.length));
  await writeFile(path.join(tmp, 'model.safetensors'), Buffer.concat([lengthBytes, headerBytes, embeddingBytes, weightBytes]));
  await writeFile(path.join(tmp, 'tokenizer.json'), JSON.stringify(tokenizerJson(vocab)));
  const config = {
    model_type: 'model2vec',
    architectures: ['StaticModel'],
    tokenizer_name: 'legal-search-domain',
    apply_pca: null,
    apply_zipf: false,
    sif_coefficient: null,
    hidden_dim: dim,
    seq_length: 1_000_000,
    normalize: true,
    score_calibration: { low: round4(scale.low), high: round4(scale.high) },
    trained_by: 'npm run train:embeddings',
    training: info,
  };
  await writeFile(path.join(tmp, 'config.json'), JSON.stringify(config, null, 2));
  await rm(outDir, { recursive: true, force: true });
  await mkdir(path.dirname(outDir), { recursive: true });
  await rename(tmp, outDir);
}

const round4 = (v: number) => Math.round(v * 1e4) / 1e4;
