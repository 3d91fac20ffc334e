import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { TINY_MODEL_TOPICS, writeTinyStaticModel } from '../../../test/fixtures/tiny-static-model.js';
import { createEmbedder } from './create-embedder.js';
import { parseSafetensors } from './safetensors.js';
import { loadStaticEmbedder, quantiseRows } from './static-embedder.js';

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, v, i) => s + v * b[i], 0);

describe('static (model2vec) embedder', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'static-embedder-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('embeds to unit vectors of the model dimension', async () => {
    const model = await writeTinyStaticModel(path.join(root, 'a'), { dimension: 12 });
    const embedder = await loadStaticEmbedder(model.dir);
    expect(embedder.dimension).toBe(12);
    const vectors = await embedder.embedPassages(['Breach of contract', 'personal data processing', 'The court shall rule']);
    expect(vectors).toHaveLength(3);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v).toHaveLength(12);
      expect(dot(v, v)).toBeCloseTo(1, 5);
    }
    // Queries and passages share the same space.
    const [q] = await embedder.embedQueries(['Breach of contract']);
    expect(Array.from(q)).toEqual(Array.from(vectors[0]));
  });

  it('places related texts closer than unrelated ones, without shared words', async () => {
    const embedder = await loadStaticEmbedder(path.join(root, 'a'));
    const [contract, liability, privacy] = await embedder.embedQueries([
      'breach of contract and damages',
      'liability for compensation',
      'consent to the processing of personal data',
    ]);
    expect(dot(contract, liability)).toBeGreaterThan(0.8);
    expect(dot(contract, liability)).toBeGreaterThan(dot(contract, privacy) + 0.5);
  });

  it('ignores unknown tokens and returns a zero vector when nothing is known', async () => {
    const embedder = await loadStaticEmbedder(path.join(root, 'a'));
    const [withNoise, clean, nothing] = await embedder.embedQueries(['contract qwertyuiop zzzz', 'contract', 'qwertyuiop zzzz']);
    expect(Array.from(withNoise)).toEqual(Array.from(clean));
    expect(Array.from(nothing).every((x) => x === 0)).toBe(true);
  });

  it('reads float16 tensors like float32 ones', async () => {
    const f32 = await loadStaticEmbedder(path.join(root, 'a'));
    const f16model = await writeTinyStaticModel(path.join(root, 'f16'), { dimension: 12, float16: true });
    const f16 = await loadStaticEmbedder(f16model.dir);
    const [a] = await f32.embedQueries(['damages for breach']);
    const [b] = await f16.embedQueries(['damages for breach']);
    expect(dot(a, b)).toBeGreaterThan(0.999);
  });

  it('holds the table as int8 rows, giving vectors within cosine 0.999 of the float32 table', async () => {
    const topicWords = Object.values(TINY_MODEL_TOPICS).flat();
    const otherWords = Array.from({ length: 200 }, (_, i) => `word${i}`);
    const model = await writeTinyStaticModel(path.join(root, 'quantised'), { dimension: 64, vocab: [...topicWords, ...otherWords] });
    const quantised = await loadStaticEmbedder(model.dir);
    const float32 = await loadStaticEmbedder(model.dir, { table: 'float32' });
    expect(quantised.id).toBe(float32.id); // same model, so an index embedded with either stays valid
    const texts = [
      'breach of contract and damages',
      'consent to the processing of personal data',
      'tax',
      ...Array.from({ length: 50 }, (_, i) => [topicWords[i % topicWords.length], otherWords[(i * 7) % 200], otherWords[(i * 13) % 200]].join(' ')),
    ];
    const a = await quantised.embedPassages(texts);
    const b = await float32.embedPassages(texts);
    for (let i = 0; i < texts.length; i++) {
      expect(dot(a[i], a[i])).toBeCloseTo(1, 5);
      expect(dot(a[i], b[i])).toBeGreaterThan(0.999);
    }
    // The default really is the quantised table, not the float32 one.
    expect(a.some((v, i) => v.some((x, d) => x !== b[i][d]))).toBe(true);
  });

  it('quantises each row to within half a step of its own scale', () => {
    const dim = 4;
    const matrix = Float32Array.from([0.5, -0.3, 0.125, 0, 0, 0, 0, 0, 1e-6, -3e-6, 2e-6, 3e-6]);
    const { values, scales } = quantiseRows(matrix, 3, dim);
    expect(Array.from(values.slice(0, 4))).toEqual([127, -76, 32, 0]);
    expect(Array.from(values.slice(4, 8))).toEqual([0, 0, 0, 0]); // an all-zero row stays zero
    expect(scales[1]).toBe(0);
    for (let r = 0; r < 3; r++) {
      for (let d = 0; d < dim; d++) {
        expect(Math.abs(values[r * dim + d] * scales[r] - matrix[r * dim + d])).toBeLessThanOrEqual(scales[r] / 2 + 1e-12);
      }
    }
    expect(values[2 * dim + 1]).toBe(-127); // a row of tiny values keeps its full resolution
  });

  it('also tokenises with a Unigram (SentencePiece-style) tokenizer.json', async () => {
    const model = await writeTinyStaticModel(path.join(root, 'unigram'), { dimension: 12 });
    const wordPiece = await loadStaticEmbedder(model.dir);
    const unigram = {
      version: '1.0',
      truncation: null,
      padding: null,
      added_tokens: [{ id: 1, content: '<unk>', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true }],
      normalizer: { type: 'Lowercase' },
      pre_tokenizer: { type: 'Metaspace', replacement: '\u2581', prepend_scheme: 'always', split: true },
      post_processor: null,
      decoder: { type: 'Metaspace', replacement: '\u2581', prepend_scheme: 'always', split: true },
      // Same ids as the WordPiece vocabulary, so both tokenisations read the same rows.
      model: { type: 'Unigram', unk_id: 1, vocab: model.vocab.map((w, i) => [i === 1 ? '<unk>' : `\u2581${w}`, -1]) },
    };
    await writeFile(path.join(model.dir, 'tokenizer.json'), JSON.stringify(unigram));
    const sentencePiece = await loadStaticEmbedder(model.dir);
    expect(sentencePiece.id).not.toBe(wordPiece.id);
    const text = 'Breach of contract damages unknownword';
    const [a] = await wordPiece.embedQueries([text]);
    const [b] = await sentencePiece.embedQueries([text]);
    expect(dot(a, b)).toBeCloseTo(1, 5);
  });

  it('has a stable id that changes when the model file changes', async () => {
    const dir = path.join(root, 'b');
    await writeTinyStaticModel(dir, { dimension: 8 });
    const first = await loadStaticEmbedder(dir);
    const again = await loadStaticEmbedder(dir);
    expect(again.id).toBe(first.id);
    const file = path.join(dir, 'model.safetensors');
    const bytes = await readFile(file);
    const parsed = parseSafetensors(bytes);
    expect(parsed.tensors.get('embeddings')!.shape[1]).toBe(8);
    bytes[bytes.length - 1] ^= 0x01;
    await writeFile(file, bytes);
    const changed = await loadStaticEmbedder(dir);
    expect(changed.id).not.toBe(first.id);
  });

  it('fails clearly on a missing model and builds through createEmbedder', async () => {
    await expect(loadStaticEmbedder(path.join(root, 'missing'))).rejects.toThrow(/missing/);
    expect(await createEmbedder({ kind: 'none' }, root)).toBeNull();
    expect(await createEmbedder({ kind: 'auto' }, root)).toBeNull(); // nothing trained into this DATA_DIR yet
    const embedder = await createEmbedder({ kind: 'static', dir: path.join(root, 'a') }, root);
    expect(embedder?.dimension).toBe(12);
  });
});
