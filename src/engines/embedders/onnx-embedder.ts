/**
 * ONNX embedder: any sentence-transformers model exported to ONNX (`config.json`,
 * `tokenizer.json`, `onnx/model*.onnx`), run with `@huggingface/transformers` on
 * onnxruntime-node. The sentence-transformers files decide how a text becomes one vector:
 * `1_Pooling/config.json` (mean or CLS pooling; mean when absent), `modules.json` (a
 * `Normalize` module; vectors are L2-normalised in any case, as the Embedder port promises)
 * and `config_sentence_transformers.json` `prompts` (e5-style `query: ` / `passage: `
 * prefixes, prepended when the model asks for them).
 *
 * A local directory is loaded with remote loading switched off. A Hugging Face model id
 * (`intfloat/multilingual-e5-small`) is downloaded once into `<DATA_DIR>/models/hf` when the
 * machine has network access (not testable on machines without it).
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Embedder } from '../embedder.js';

type Pooling = 'mean' | 'cls';
type Extractor = (texts: string[], options: { pooling: Pooling; normalize: boolean }) => Promise<{ data: Float32Array; dims: number[] }>;

async function readJson<T>(file: string): Promise<T | null> {
  return existsSync(file) ? (JSON.parse(await readFile(file, 'utf8')) as T) : null;
}

async function hashFiles(files: string[]): Promise<string> {
  const hash = createHash('sha256');
  for (const file of files) {
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Pooling and prompts a sentence-transformers model directory declares. */
export async function readSentenceTransformersConfig(dir: string): Promise<{ pooling: Pooling; queryPrefix: string; passagePrefix: string }> {
  const pooling = await readJson<Record<string, unknown>>(path.join(dir, '1_Pooling', 'config.json'));
  const st = await readJson<{ prompts?: Record<string, string> }>(path.join(dir, 'config_sentence_transformers.json'));
  const prompts = st?.prompts ?? {};
  return {
    pooling: pooling?.pooling_mode_cls_token === true && pooling?.pooling_mode_mean_tokens !== true ? 'cls' : 'mean',
    queryPrefix: prompts.query ?? '',
    passagePrefix: prompts.passage ?? prompts.document ?? '',
  };
}

export class OnnxEmbedder implements Embedder {
  constructor(
    readonly id: string,
    readonly dimension: number,
    private readonly extractor: Extractor,
    private readonly pooling: Pooling,
    private readonly queryPrefix: string,
    private readonly passagePrefix: string,
    private readonly batchSize = 32,
  ) {}

  private async embed(texts: string[], prefix: string): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.batchSize) {
      const batch = texts.slice(i, i + this.batchSize).map((t) => prefix + t);
      const tensor = await this.extractor(batch, { pooling: this.pooling, normalize: true });
      const dim = tensor.dims[tensor.dims.length - 1];
      for (let j = 0; j < batch.length; j++) out.push(Float32Array.from(tensor.data.subarray(j * dim, (j + 1) * dim)));
    }
    return out;
  }

  embedQueries(texts: string[]): Promise<Float32Array[]> {
    return this.embed(texts, this.queryPrefix);
  }

  embedPassages(texts: string[]): Promise<Float32Array[]> {
    return this.embed(texts, this.passagePrefix);
  }
}

/**
 * Loads an ONNX sentence-transformers model from a local directory, or (`modelId` not a
 * directory) from the Hugging Face hub into `cacheDir`, once.
 */
export async function loadOnnxEmbedder(model: string, options: { cacheDir: string }): Promise<Embedder> {
  const transformers = await import('@huggingface/transformers');
  const { env, pipeline } = transformers;
  const local = existsSync(model);
  let dir: string;
  let modelName: string;
  if (local) {
    dir = path.resolve(model);
    const onnxFiles = existsSync(path.join(dir, 'onnx')) ? (await readdir(path.join(dir, 'onnx'))).filter((f) => /^model.*\.onnx$/.test(f)) : [];
    if (!existsSync(path.join(dir, 'tokenizer.json')) || onnxFiles.length === 0) {
      throw new Error(`onnx embedder: ${dir} needs tokenizer.json and onnx/model*.onnx (a sentence-transformers ONNX export)`);
    }
    env.allowRemoteModels = false;
    env.allowLocalModels = true;
    env.localModelPath = path.dirname(dir) + path.sep;
    modelName = path.basename(dir);
  } else {
    // A hub id: downloaded once into DATA_DIR, then read from there.
    env.allowRemoteModels = true;
    env.cacheDir = options.cacheDir;
    modelName = model;
    dir = path.join(options.cacheDir, ...model.split('/'));
  }
  const extractor = (await pipeline('feature-extraction', modelName, { dtype: 'fp32' })) as unknown as Extractor;
  const config = await readSentenceTransformersConfig(dir);
  const [probe] = await (async () => {
    const t = await extractor(['dimension probe'], { pooling: config.pooling, normalize: true });
    return [t.dims[t.dims.length - 1]];
  })();
  const hashed = local
    ? [path.join(dir, 'tokenizer.json'), ...(await readdir(path.join(dir, 'onnx'))).filter((f) => /^model.*\.onnx$/.test(f)).sort().map((f) => path.join(dir, 'onnx', f))]
    : [];
  const id = local ? `onnx:${(await hashFiles(hashed)).slice(0, 16)}` : `onnx:${model}`;
  return new OnnxEmbedder(`${id}:${config.pooling}`, probe, extractor, config.pooling, config.queryPrefix, config.passagePrefix);
}
