import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { Tokenizer } from '@huggingface/tokenizers';
import { loadStaticEmbedder, type StaticEmbedder } from '../../../engines/embedders/static-embedder.js';
import { createRandom } from './linalg.js';
import { trainDomainModel } from './train-domain-model.js';
import { WordPieceEncoder } from '../../../engines/wordpiece.js';

/** Topics of a synthetic legal corpus: each word belongs to one topic only. */
const TOPICS: Record<string, string[]> = {
  tenancy: ['tenant', 'landlord', 'lease', 'rent', 'premises', 'eviction', 'deposit', 'dwelling', 'occupant', 'lessor', 'sublet', 'repairs'],
  tax: ['income', 'taxpayer', 'deduction', 'revenue', 'assessment', 'levy', 'vat', 'fiscal', 'allowance', 'refund', 'audit', 'duty'],
  crime: ['offence', 'prosecutor', 'sentence', 'prison', 'theft', 'accused', 'fine', 'custody', 'burglary', 'conviction', 'bail', 'police'],
  data: ['personal', 'controller', 'processing', 'consent', 'erasure', 'privacy', 'subject', 'breach', 'profiling', 'processor', 'encryption', 'cookies'],
  labour: ['employee', 'employer', 'dismissal', 'wages', 'holiday', 'overtime', 'strike', 'union', 'contract', 'redundancy', 'shift', 'pension'],
};
const FILLER = ['the', 'of', 'shall', 'be', 'any', 'in', 'a', 'to', 'under', 'this', 'article'];

/** Words of one topic for the test queries and for the test documents: a query and its document share no word. */
const QUERY_WORDS = (topic: string) => TOPICS[topic].slice(0, 3);
const DOC_WORDS = (topic: string) => TOPICS[topic].slice(3, 7);

async function writeSyntheticCorpus(dir: string): Promise<void> {
  const random = createRandom(7);
  const pick = <T,>(list: T[]) => list[Math.floor(random() * list.length)];
  const lines: string[] = [];
  for (const [topic, words] of Object.entries(TOPICS)) {
    for (let act = 0; act < 3; act++) {
      for (let n = 1; n <= 40; n++) {
        const sentence = () => {
          const out: string[] = [];
          for (let i = 0; i < 12; i++) out.push(random() < 0.6 ? pick(words) : pick(FILLER));
          return `${out.join(' ')}.`;
        };
        const text = `Article ${n}\n${Array.from({ length: 4 }, sentence).join(' ')}`;
        lines.push(
          JSON.stringify({
            source: 'XX/Synthetic',
            source_id: `${topic}-${act}/${n}`,
            namespace: 'legislation',
            country: 'XX',
            language: 'en',
            title: `${topic} act ${act} – Article ${n}`,
            text,
            granularity: 'article',
            canonical_path: `${topic} act ${act} > Part ${Math.ceil(n / 10)} > Article ${n}`,
            parent_source_id: `${topic}-${act}`,
          }),
        );
      }
    }
  }
  await mkdir(path.join(dir, 'documents', 'legislation'), { recursive: true });
  await writeFile(path.join(dir, 'documents', 'legislation', 'XX-Synthetic.jsonl.gz'), gzipSync(lines.join('\n') + '\n'));
}

/** Share of topics whose query (3 words) ranks the same topic's document (4 other words) first. */
function topicAccuracy(model: StaticEmbedder): number {
  const topics = Object.keys(TOPICS);
  const docs = topics.map((t) => model.embed(DOC_WORDS(t).join(' ')));
  let correct = 0;
  topics.forEach((t, i) => {
    const q = model.embed(QUERY_WORDS(t).join(' '));
    const scores = docs.map((d) => d.reduce((s, v, k) => s + v * q[k], 0));
    if (scores.indexOf(Math.max(...scores)) === i) correct += 1;
  });
  return correct / topics.length;
}

describe('train:embeddings (domain model trainer)', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'train-embeddings-'));
    await writeSyntheticCorpus(path.join(root, 'corpus'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const small = { dimension: 16, vocabSize: 200, minCount: 2, epochs: 4, batchSize: 32, maxMinutes: 2 };

  it('learns related words from a tiny corpus (a random model does not), deterministically for a seed', async () => {
    const lines: string[] = [];
    const summary = await trainDomainModel({ corpusDir: path.join(root, 'corpus'), outDir: path.join(root, 'trained'), seed: 3, ...small, log: (l) => lines.push(l) });
    expect(summary.pairs.train).toBeGreaterThan(100);
    expect(lines.some((l) => /loss \d/.test(l))).toBe(true);
    expect(lines.some((l) => /held-out pairs after fine-tuning: recall@1/.test(l))).toBe(true);
    expect(summary.validation.after.mrr).toBeGreaterThan(0);

    const trained = (await loadStaticEmbedder(path.join(root, 'trained'))) as StaticEmbedder;
    expect(trained.dimension).toBe(16);
    // Query and document share no word: only learnt relations can rank the right topic first.
    expect(topicAccuracy(trained)).toBeGreaterThanOrEqual(0.8);

    await trainDomainModel({ corpusDir: path.join(root, 'corpus'), outDir: path.join(root, 'random'), seed: 3, ...small, skipSvd: true, skipContrastive: true });
    const random = (await loadStaticEmbedder(path.join(root, 'random'))) as StaticEmbedder;
    expect(topicAccuracy(random)).toBeLessThanOrEqual(0.4);

    // Same seed, same corpus: the same model, byte for byte.
    await trainDomainModel({ corpusDir: path.join(root, 'corpus'), outDir: path.join(root, 'again'), seed: 3, ...small });
    const [a, b] = await Promise.all([readFile(path.join(root, 'trained', 'model.safetensors')), readFile(path.join(root, 'again', 'model.safetensors'))]);
    expect(a.equals(b)).toBe(true);
    // The model says how its cosines spread, for the hybrid fusion.
    expect(trained.scale!.high).toBeGreaterThan(trained.scale!.low);
  }, 120_000);

  it('leaves out the kinds of pairs it is told to', async () => {
    const all = await trainDomainModel({ corpusDir: path.join(root, 'corpus'), outDir: path.join(root, 'all-pairs'), seed: 3, ...small, epochs: 1 });
    const lines: string[] = [];
    const some = await trainDomainModel({ corpusDir: path.join(root, 'corpus'), outDir: path.join(root, 'no-siblings'), seed: 3, ...small, epochs: 1, skipPairs: ['sibling'], log: (l) => lines.push(l) });
    // Sibling pairs: 9 per part of 10 articles, 4 parts per act, 15 acts = 540 (a few held out).
    expect(all.pairs.train - some.pairs.train).toBeGreaterThan(400);
    const counts = lines.find((l) => l.includes('training pairs ('));
    expect(counts).toContain('header');
    expect(counts).not.toContain('sibling');
  }, 60_000);

  it("embeds a trained model's texts with its own WordPiece encoder to the very vectors of the Hugging Face tokenizer", async () => {
    const model = await trainDomainModel({ corpusDir: path.join(root, 'corpus'), outDir: path.join(root, 'fast-encoder'), seed: 5, ...small, epochs: 1 });
    const fast = await loadStaticEmbedder(model.outDir);
    const general = await loadStaticEmbedder(model.outDir, { generalTokenizer: true });
    expect([(fast as any).fastEncoder !== null, (general as any).fastEncoder !== null]).toEqual([true, false]);
    const texts = [
      ...Object.values(TOPICS).map((words) => `${words.join(' ')} — Article 12 (a)!`),
      "Données PERSONNELLES — l'article L.123-2 Straße § 12",
      'a [MASK] and a [CLS] written in a text',
      'x'.repeat(150) + ' tenant',
      '',
    ];
    const [a, b] = [await fast.embedPassages(texts), await general.embedPassages(texts)];
    expect(a.map((v) => Array.from(v))).toEqual(b.map((v) => Array.from(v)));
    expect(a[0].some((x) => x !== 0)).toBe(true);
  }, 60_000);

  it('tokenises exactly as the Hugging Face tokenizer.json it writes', async () => {
    const vocab = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', 'donnees', 'personnelles', 'article', 'l', '.', "'", 'emp', '##loy', '##eur', 'ss', 'strasse', '§', '1', '2', '3', '-', 'c', '##c'];
    const encoder = new WordPieceEncoder(vocab);
    const { tokenizerJson } = await import('../../../engines/wordpiece.js');
    const hf = new Tokenizer(tokenizerJson(vocab), {});
    for (const text of ["Données PERSONNELLES — l'article L.123-2", 'Employeur, Straße § 12!', 'ccc  unknownword\tarticle']) {
      const ours = encoder.encode(text);
      const theirs = hf.encode(text, { add_special_tokens: false }).ids.filter((id: number) => id !== 1);
      expect(ours).toEqual(theirs);
    }
  });
});
