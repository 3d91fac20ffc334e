/**
 * Static (model2vec-format) embedder: a token -> vector table, no neural network at query
 * time. A model directory holds `config.json`, `tokenizer.json` (Hugging Face tokenizers
 * format: WordPiece, Unigram or BPE, tokenised by the pure-JS `@huggingface/tokenizers`)
 * and `model.safetensors` (a 2-D float tensor `embeddings`, optionally the model2vec
 * `weights` and `mapping` vectors).
 *
 * Embedding of a text, as model2vec does it: tokenise without special tokens, drop
 * unknown/padding tokens, keep the first `maxTokens`, average their vectors, then
 * L2-normalise (a text without any known token gives the zero vector).
 *
 * In memory the token table is int8 with one float32 scale per row (`quantiseRows`): a
 * quarter of float32's memory (the trained 120k x 256 table: 29 MiB instead of 117 MiB), as
 * fast to sum, and embeddings within cosine 0.9999 of float32 ones (bench/embed-quantisation.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import type { Embedder } from '../embedder.js';

export interface StaticEmbedderOptions {
  /** Tokens kept per text (model2vec's default `max_length`). */
  maxTokens?: number;
  /** How the token table is held in memory: int8 rows with a scale each (default), or float32 as stored (reference for comparisons). */
  table?: 'int8' | 'float32';
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
  const values = new Int8Array(rows * dim);
  const scales = new Float32Array(rows);
  for (let r = 0; r < rows; r++) {
    const offset = r * dim;
    let max = 0;
    for (let d = 0; d < dim; d++) max = Math.max(max, Math.abs(matrix[offset + d]));
    if (!(max > 0) || !Number.isFinite(max)) continue; // all-zero (or broken) row: stays zero
    const scale = max / 127;
    scales[r] = scale;
    for (let d = 0; d < dim; d++) values[offset + d] = Math.round(matrix[offset + d] / scale);
  }
  return { values, scales };
}

interface TensorInfo {
  dtype: string;
  shape: number[];
  data_offsets: [number, number];
}

/** A parsed safetensors file: tensors by name, as typed arrays. */
export interface SafeTensors {
  tensors: Map<string, { dtype: string; shape: number[]; data: Float32Array | Int32Array }>;
  metadata: Record<string, string>;
}

let halfTable: Float32Array | null = null;
function float16Table(): Float32Array {
  if (halfTable) return halfTable;
  halfTable = new Float32Array(65536);
  for (let h = 0; h < 65536; h++) {
    const sign = h & 0x8000 ? -1 : 1;
    const exp = (h >> 10) & 0x1f;
    const mant = h & 0x3ff;
    let v: number;
    if (exp === 0) v = mant * 2 ** -24;
    else if (exp === 31) v = mant ? NaN : Infinity;
    else v = (1 + mant / 1024) * 2 ** (exp - 15);
    halfTable[h] = sign * v;
  }
  return halfTable;
}

/** Parses a safetensors buffer: 8-byte little-endian header length, JSON header, raw little-endian data. */
export function parseSafetensors(buf: Buffer): SafeTensors {
  if (buf.length < 8) throw new Error('safetensors: file too short');
  const headerLength = Number(buf.readBigUInt64LE(0));
  if (headerLength <= 0 || 8 + headerLength > buf.length) throw new Error('safetensors: bad header length');
  const header = JSON.parse(buf.toString('utf8', 8, 8 + headerLength)) as Record<string, TensorInfo | Record<string, string>>;
  const base = 8 + headerLength;
  const tensors: SafeTensors['tensors'] = new Map();
  let metadata: Record<string, string> = {};
  for (const [name, info] of Object.entries(header)) {
    if (name === '__metadata__') {
      metadata = info as Record<string, string>;
      continue;
    }
    const { dtype, shape, data_offsets } = info as TensorInfo;
    const [start, end] = data_offsets;
    if (base + end > buf.length || start > end) throw new Error(`safetensors: tensor ${name} is out of bounds`);
    const count = shape.reduce((a, b) => a * b, 1);
    const bytes = buf.subarray(base + start, base + end);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let data: Float32Array | Int32Array;
    const expect = (width: number) => {
      if (bytes.length !== count * width) throw new Error(`safetensors: tensor ${name} has ${bytes.length} bytes, expected ${count * width}`);
    };
    switch (dtype) {
      case 'F32':
        expect(4);
        data = new Float32Array(count);
        if (bytes.byteOffset % 4 === 0) data.set(new Float32Array(bytes.buffer, bytes.byteOffset, count));
        else for (let i = 0; i < count; i++) data[i] = view.getFloat32(i * 4, true);
        break;
      case 'F16': {
        expect(2);
        const table = float16Table();
        data = new Float32Array(count);
        for (let i = 0; i < count; i++) data[i] = table[view.getUint16(i * 2, true)];
        break;
      }
      case 'BF16':
        expect(2);
        data = new Float32Array(count);
        {
          const u32 = new Uint32Array(data.buffer);
          for (let i = 0; i < count; i++) u32[i] = view.getUint16(i * 2, true) << 16;
        }
        break;
      case 'F64':
        expect(8);
        data = new Float32Array(count);
        for (let i = 0; i < count; i++) data[i] = view.getFloat64(i * 8, true);
        break;
      case 'I8':
        expect(1);
        data = new Float32Array(count);
        for (let i = 0; i < count; i++) data[i] = view.getInt8(i);
        break;
      case 'I32':
        expect(4);
        data = new Int32Array(count);
        for (let i = 0; i < count; i++) data[i] = view.getInt32(i * 4, true);
        break;
      case 'I64':
        expect(8);
        data = new Int32Array(count);
        for (let i = 0; i < count; i++) data[i] = Number(view.getBigInt64(i * 8, true));
        break;
      default:
        continue; // a tensor type the embedder never needs
    }
    tensors.set(name, { dtype, shape, data });
  }
  return { tensors, metadata };
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
  ) {
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
    const ids = this.tokenizer.encode(input, { add_special_tokens: false }).ids;
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

/** Loads a model2vec-format model directory (see the module comment). */
export async function loadStaticEmbedder(dir: string, options: StaticEmbedderOptions = {}): Promise<Embedder> {
  const file = (name: string) => path.join(dir, name);
  for (const required of ['tokenizer.json', 'model.safetensors']) {
    if (!existsSync(file(required))) throw new Error(`static embedder: ${file(required)} is missing`);
  }
  const [tokenizerRaw, tensorsRaw] = await Promise.all([readFile(file('tokenizer.json')), readFile(file('model.safetensors'))]);
  const tokenizerJson = JSON.parse(tokenizerRaw.toString('utf8')) as {
    model?: { unk_token?: string; vocab?: Record<string, number> | [string, number][] };
    padding?: { pad_id?: number } | null;
  };
  const tokenizerConfig = existsSync(file('tokenizer_config.json'))
    ? (JSON.parse(await readFile(file('tokenizer_config.json'), 'utf8')) as object)
    : {};
  const tokenizer = new Tokenizer(tokenizerJson, tokenizerConfig);

  const { tensors } = parseSafetensors(tensorsRaw);
  const matrix =
    tensors.get('embeddings') ??
    tensors.get('embedding.weight') ?? // sentence-transformers StaticEmbedding export
    tensors.get('0') ??
    [...tensors.values()].find((t) => t.shape.length === 2 && t.data instanceof Float32Array);
  if (!matrix || matrix.shape.length !== 2 || !(matrix.data instanceof Float32Array)) {
    throw new Error(`static embedder: ${file('model.safetensors')} has no 2-D float tensor "embeddings"`);
  }
  const [rows, dimension] = matrix.shape;
  const weightsTensor = tensors.get('weights');
  const mappingTensor = tensors.get('mapping');
  const weights = weightsTensor?.data instanceof Float32Array ? weightsTensor.data : null;
  const mapping = mappingTensor ? Int32Array.from(mappingTensor.data) : null;

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
  const hash = createHash('sha256').update(tensorsRaw).update('\0').update(tokenizerRaw).digest('hex');
  const id = `model2vec:${hash.slice(0, 16)}`;
  const embedder = new StaticEmbedder(
    id,
    dimension,
    tokenizer,
    options.table === 'float32' ? { values: matrix.data, scales: new Float32Array(rows).fill(1) } : quantiseRows(matrix.data, rows, dimension),
    rows,
    weights,
    mapping,
    dropIds,
    options.maxTokens ?? 512,
    medianTokenLength(vocabTokens),
  );
  const { low, high } = config.score_calibration ?? {};
  if (typeof low === 'number' && typeof high === 'number' && high > low) embedder.scale = { low, high };
  return embedder;
}
