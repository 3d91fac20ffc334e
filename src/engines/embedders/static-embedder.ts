/**
 * Static (model2vec-format) embedder: a token -> vector table, no neural network at query
 * time. A model directory holds `config.json`, `tokenizer.json` (Hugging Face tokenizers
 * format: WordPiece, Unigram or BPE, tokenised by the pure-JS `@huggingface/tokenizers`, or,
 * for the trained models' own WordPiece, by `src/engines/wordpiece.ts`: the same ids, 4–6 × faster)
 * and `model.safetensors` (a 2-D float tensor `embeddings`, optionally the model2vec
 * `weights` and `mapping` vectors).
 *
 * Embedding of a text, as model2vec does it: tokenise without special tokens, drop
 * unknown/padding tokens, keep the first `maxTokens`, average their vectors, then
 * L2-normalise (a text without any known token gives the zero vector).
 *
 * In memory the token table is int8 with one float32 scale per row (`quantiseRows`): a
 * quarter of float32's memory (a 120k x 256 table: 30 MiB instead of 117 MiB), no slower to
 * sum, and embeddings within cosine 0.9998 of float32 ones (bench/embed-quantisation.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import type { Embedder } from '../embedder.js';
import { isFloatTensor, readRows, readSafetensorsHeader, readTensor } from './safetensors.js';
import { mentionsSpecialToken, ownWordPieceVocabulary, WordPieceEncoder } from '../wordpiece.js';

/** Words whose pieces the fast WordPiece encoder keeps (the first seen; ~20 MB at most). */
const ENCODER_CACHE_WORDS = 200_000;

export interface StaticEmbedderOptions {
  /** Tokens kept per text (model2vec's default `max_length`). */
  maxTokens?: number;
  /** How the token table is held in memory: int8 rows with a scale each (default), or float32 as stored (reference for comparisons). */
  table?: 'int8' | 'float32';
  /** Always tokenise with `@huggingface/tokenizers`, even a trained model's own WordPiece (comparisons). */
  generalTokenizer?: boolean;
}

/** A token table in memory: `values[row * dim + d] * scales[row]` is the vector's d-th component. */
export interface TokenTable {
  values: Int8Array | Float32Array;
  /** One factor per row; all ones for a float32 table. */
  scales: Float32Array;
}

/**
 * Symmetric int8 quantisation per row: each row is divided by its largest magnitude / 127 and
 * rounded, so every row keeps its full 8-bit resolution whatever its norm.
 */
export function quantiseRows(matrix: Float32Array, rows: number, dim: number): TokenTable {
  const table = { values: new Int8Array(rows * dim), scales: new Float32Array(rows) };
  quantiseRowsInto(table, matrix, 0, rows, dim);
  return table;
}

/** Quantises `count` rows of `block` into `table` from row `firstRow` on (see `quantiseRows`). */
function quantiseRowsInto(table: { values: Int8Array; scales: Float32Array }, block: Float32Array, firstRow: number, count: number, dim: number): void {
  for (let r = 0; r < count; r++) {
    const from = r * dim;
    const to = (firstRow + r) * dim;
    let max = 0;
    for (let d = 0; d < dim; d++) max = Math.max(max, Math.abs(block[from + d]));
    if (!(max > 0) || !Number.isFinite(max)) continue; // all-zero (or broken) row: stays zero
    const scale = max / 127;
    table.scales[firstRow + r] = scale;
    for (let d = 0; d < dim; d++) table.values[to + d] = Math.round(block[from + d] / scale);
  }
}

function medianTokenLength(vocab: Iterable<string>): number {
  const lengths: number[] = [];
  for (const token of vocab) lengths.push(token.replace(/^(##|\u2581|Ġ)/, '').length || 1);
  if (lengths.length === 0) return 1;
  lengths.sort((a, b) => a - b);
  return lengths[Math.floor(lengths.length / 2)];
}

export class StaticEmbedder implements Embedder {
  private readonly dropIds: Set<number>;
  private readonly maxChars: number;
  /** From config.json `score_calibration` (written by the trainer), when present. */
  scale?: { low: number; high: number };
  /** The trained models' own WordPiece, encoded without the general tokenizer (same ids; 4–6 × faster). */
  private readonly fastEncoder: WordPieceEncoder | null;

  constructor(
    readonly id: string,
    readonly dimension: number,
    private readonly tokenizer: Tokenizer,
    private readonly table: TokenTable,
    private readonly rows: number,
    private readonly weights: Float32Array | null,
    private readonly mapping: Int32Array | null,
    dropIds: number[],
    private readonly maxTokens: number,
    medianTokenChars: number,
    ownVocabulary: string[] | null = null,
  ) {
    this.fastEncoder = ownVocabulary ? new WordPieceEncoder(ownVocabulary, ENCODER_CACHE_WORDS) : null;
    this.dropIds = new Set(dropIds);
    this.maxChars = Math.max(1, maxTokens * Math.max(1, medianTokenChars));
  }

  async embedQueries(texts: string[]): Promise<Float32Array[]> {
    return this.embedAll(texts);
  }

  async embedPassages(texts: string[]): Promise<Float32Array[]> {
    return this.embedAll(texts);
  }

  /** Embeds one text synchronously. */
  embed(text: string): Float32Array {
    const out = new Float32Array(this.dimension);
    const input = text.length > this.maxChars ? text.slice(0, this.maxChars) : text;
    const ids = this.tokenIds(input);
    const dim = this.dimension;
    const { values, scales } = this.table;
    let used = 0;
    for (let k = 0; k < ids.length && used < this.maxTokens; k++) {
      const id = ids[k];
      if (this.dropIds.has(id)) continue;
      const row = this.mapping ? this.mapping[id] : id;
      if (row === undefined || row < 0 || row >= this.rows) continue;
      const w = (this.weights ? this.weights[id] ?? 1 : 1) * scales[row];
      const offset = row * dim;
      for (let d = 0; d < dim; d++) out[d] += w * values[offset + d];
      used++;
    }
    let norm = 0;
    for (let d = 0; d < dim; d++) norm += out[d] * out[d];
    if (norm > 0) {
      // Mean then L2 normalisation: the mean's 1/n factor cancels out.
      const inv = 1 / Math.sqrt(norm);
      for (let d = 0; d < dim; d++) out[d] *= inv;
    }
    return out;
  }

  /** The text's token ids, as the Hugging Face tokenizer gives them (unknown tokens may be left out: they are dropped anyway). */
  private tokenIds(text: string): number[] {
    if (this.fastEncoder && !mentionsSpecialToken(text)) return this.fastEncoder.encode(text);
    return this.tokenizer.encode(text, { add_special_tokens: false }).ids;
  }

  private async embedAll(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i++) {
      out.push(this.embed(texts[i]));
      // Let other work (HTTP requests) run during long batches.
      if (i % 64 === 63) await new Promise((resolve) => setImmediate(resolve));
    }
    return out;
  }
}

/** What `model.safetensors` gives the embedder. */
interface ModelTensors {
  /** `model2vec:` + the start of sha256(model file, NUL, tokenizer.json). */
  id: string;
  table: TokenTable;
  rows: number;
  dimension: number;
  weights: Float32Array | null;
  mapping: Int32Array | null;
}

/**
 * Reads the model file block by block through reused buffers (the hash, then the table):
 * loading never holds the file's bytes, nor a float32 copy of a table kept as int8, which
 * would otherwise stay resident until a major gc that an idle service may not run for long.
 */
async function readModel(modelFile: string, tokenizerRaw: Buffer, kind: 'int8' | 'float32'): Promise<ModelTensors> {
  const handle = await open(modelFile);
  try {
    // One reused buffer (a stream's chunks would each be a new allocation, left to the gc).
    const hash = createHash('sha256');
    const chunk = Buffer.alloc(1024 * 1024);
    for (let position = 0; ; ) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
      if (bytesRead === 0) break;
      hash.update(chunk.subarray(0, bytesRead));
      position += bytesRead;
    }
    const id = `model2vec:${hash.update('\0').update(tokenizerRaw).digest('hex').slice(0, 16)}`;
    const { entries } = await readSafetensorsHeader(handle);
    const byName = new Map(entries.map((e) => [e.name, e]));
    const matrix =
      byName.get('embeddings') ??
      byName.get('embedding.weight') ?? // sentence-transformers StaticEmbedding export
      byName.get('0') ??
      entries.find((e) => e.shape.length === 2 && isFloatTensor(e));
    if (!matrix || matrix.shape.length !== 2 || !isFloatTensor(matrix)) {
      throw new Error(`static embedder: ${modelFile} has no 2-D float tensor "embeddings"`);
    }
    const [rows, dim] = matrix.shape;
    let table: TokenTable;
    if (kind === 'float32') {
      const values = new Float32Array(rows * dim);
      await readRows(handle, matrix, (block, first, count) => values.set(block.subarray(0, count * dim), first * dim));
      table = { values, scales: new Float32Array(rows).fill(1) };
    } else {
      const int8 = { values: new Int8Array(rows * dim), scales: new Float32Array(rows) };
      await readRows(handle, matrix, (block, first, count) => quantiseRowsInto(int8, block, first, count, dim));
      table = int8;
    }
    const weightsEntry = byName.get('weights');
    const weights = weightsEntry ? await readTensor(handle, weightsEntry) : undefined;
    const mappingEntry = byName.get('mapping');
    const mapping = mappingEntry ? await readTensor(handle, mappingEntry) : undefined;
    return {
      id,
      table,
      rows,
      dimension: dim,
      weights: weights instanceof Float32Array ? weights : null,
      mapping: mapping ? Int32Array.from(mapping) : null,
    };
  } finally {
    await handle.close();
  }
}

/** Loads a model2vec-format model directory (see the module comment). */
export async function loadStaticEmbedder(dir: string, options: StaticEmbedderOptions = {}): Promise<Embedder> {
  const file = (name: string) => path.join(dir, name);
  for (const required of ['tokenizer.json', 'model.safetensors']) {
    if (!existsSync(file(required))) throw new Error(`static embedder: ${file(required)} is missing`);
  }
  const tokenizerRaw = await readFile(file('tokenizer.json'));
  const tokenizerJson = JSON.parse(tokenizerRaw.toString('utf8')) as {
    model?: { unk_token?: string; vocab?: Record<string, number> | [string, number][] };
    padding?: { pad_id?: number } | null;
  };
  const tokenizerConfig = existsSync(file('tokenizer_config.json'))
    ? (JSON.parse(await readFile(file('tokenizer_config.json'), 'utf8')) as object)
    : {};
  const tokenizer = new Tokenizer(tokenizerJson, tokenizerConfig);

  const modelFile = file('model.safetensors');
  const { id, table, rows, dimension, weights, mapping } = await readModel(modelFile, tokenizerRaw, options.table ?? 'int8');

  const dropIds: number[] = [];
  const unkToken = tokenizerJson.model?.unk_token;
  const unkId = unkToken !== undefined ? tokenizer.token_to_id(unkToken) : undefined;
  if (unkId !== undefined) dropIds.push(unkId);
  const padId = tokenizerJson.padding?.pad_id ?? tokenizer.token_to_id('[PAD]') ?? tokenizer.token_to_id('<pad>');
  if (padId !== undefined) dropIds.push(padId);

  const config = existsSync(file('config.json'))
    ? (JSON.parse(await readFile(file('config.json'), 'utf8')) as { score_calibration?: { low?: unknown; high?: unknown } })
    : {};
  const vocab = tokenizerJson.model?.vocab;
  const vocabTokens = Array.isArray(vocab) ? vocab.map(([t]) => t) : Object.keys(vocab ?? {});
  const embedder = new StaticEmbedder(
    id,
    dimension,
    tokenizer,
    table,
    rows,
    weights,
    mapping,
    dropIds,
    options.maxTokens ?? 512,
    medianTokenLength(vocabTokens),
    // a tokenizer_config.json could change how the general tokenizer reads the same file
    options.generalTokenizer || existsSync(file('tokenizer_config.json')) ? null : ownWordPieceVocabulary(tokenizerJson),
  );
  const { low, high } = config.score_calibration ?? {};
  if (typeof low === 'number' && typeof high === 'number' && high > low) embedder.scale = { low, high };
  return embedder;
}
