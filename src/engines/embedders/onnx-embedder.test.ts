/**
 * @jest-environment ./test/typed-array-environment.cjs
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { writeTinyOnnxModel } from '../../../test/fixtures/tiny-onnx-model.js';
import { loadConfig } from '../../config.js';
import { createEmbedder } from './create-embedder.js';
import { loadOnnxEmbedder, readSentenceTransformersConfig } from './onnx-embedder.js';

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, v, i) => s + v * b[i], 0);

describe('onnx (sentence-transformers ONNX export) embedder', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'onnx-embedder-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('runs a real ONNX model file: unit vectors of the model dimension, topics close, mean pooling', async () => {
    const model = await writeTinyOnnxModel(path.join(root, 'mean'), { dimension: 12 });
    const embedder = await loadOnnxEmbedder(model.dir, { cacheDir: root });
    expect(embedder.dimension).toBe(12);
    const [contract, damages, privacy] = await embedder.embedPassages(['breach of contract', 'damages and compensation', 'personal data processing']);
    for (const v of [contract, damages, privacy]) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v).toHaveLength(12);
      expect(dot(v, v)).toBeCloseTo(1, 5);
    }
    // The tiny model's vectors put words of a topic together (the graph really ran).
    expect(dot(contract, damages)).toBeGreaterThan(dot(contract, privacy));
    const [q] = await embedder.embedQueries(['breach of contract']);
    expect(Array.from(q)).toEqual(Array.from(contract)); // no prompts configured: same text, same vector
  }, 60_000);

  it('follows the pooling and e5-style prompts the model declares, and is chosen by EMBEDDER=onnx:<dir>', async () => {
    const model = await writeTinyOnnxModel(path.join(root, 'cls'), { dimension: 8, pooling: 'cls', prompts: true });
    expect(await readSentenceTransformersConfig(model.dir)).toEqual({ pooling: 'cls', queryPrefix: 'query: ', passagePrefix: 'passage: ' });
    const config = loadConfig({ EMBEDDER: `onnx:${model.dir}`, DATA_DIR: root });
    expect(config.embedder).toEqual({ kind: 'onnx', model: model.dir });
    const embedder = (await createEmbedder(config.embedder, root))!;
    expect(embedder.id).toMatch(/^onnx:[0-9a-f]{16}:cls$/);
    const [a, b] = await embedder.embedPassages(['breach of contract', 'personal data']);
    expect(a).toHaveLength(8);
    // CLS pooling takes the first token's output: the same [CLS] row for every text.
    expect(Array.from(a)).toEqual(Array.from(b));
    // Mean pooling with e5 prompts: a query and a passage of the same text differ by their prefix.
    const prompted = await loadOnnxEmbedder((await writeTinyOnnxModel(path.join(root, 'prompted'), { dimension: 8, prompts: true })).dir, { cacheDir: root });
    const [asQuery] = await prompted.embedQueries(['breach of contract']);
    const [asPassage] = await prompted.embedPassages(['breach of contract']);
    expect(dot(asQuery, asQuery)).toBeCloseTo(1, 5);
    expect(Array.from(asQuery)).not.toEqual(Array.from(asPassage));
    expect(dot(asQuery, asPassage)).toBeGreaterThan(0.5);
    await expect(loadOnnxEmbedder(path.join(root, 'cls', 'onnx'), { cacheDir: root })).rejects.toThrow(/tokenizer.json/);
  }, 60_000);
});
