/**
 * The default embedder (EMBEDDER=auto) end to end: a first start on an empty DATA_DIR serves
 * keyword results at once, trains the domain model from the corpus in a child process
 * (/ready says so, 503), then embeds the index with it; a second start finds the model and
 * the vectors and trains nothing.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { loadConfig } from '../src/config.js';
import { defaultModelDir } from '../src/engines/embedders/create-embedder.js';
import { createLogger } from '../src/logger.js';
import { startPlatform, type Platform } from '../src/platform.js';

const silent = createLogger('silent');

const TOPICS: Record<string, string[]> = {
  tenancy: ['tenant', 'landlord', 'lease', 'rent', 'premises', 'eviction', 'deposit', 'dwelling'],
  tax: ['income', 'taxpayer', 'deduction', 'revenue', 'assessment', 'levy', 'vat', 'refund'],
  crime: ['offence', 'prosecutor', 'sentence', 'prison', 'theft', 'accused', 'custody', 'bail'],
};

function corpusLines(): string[] {
  const lines: string[] = [];
  for (const [topic, words] of Object.entries(TOPICS)) {
    for (let n = 1; n <= 30; n++) {
      // Deterministic word mixes: each article uses its topic's words in a rotating order.
      const text = Array.from({ length: 24 }, (_, i) => words[(n * 7 + i * 3) % words.length]).join(' ');
      lines.push(
        JSON.stringify({
          source: 'XX/Synthetic', source_id: `${topic}/${n}`, namespace: 'legislation', country: 'XX', language: 'en',
          title: `${topic} act – Article ${n}`, text: `Article ${n}\n${text}.`, granularity: 'article',
          canonical_path: `${topic} act > Part ${Math.ceil(n / 10)} > Article ${n}`, parent_source_id: topic,
        }),
      );
    }
  }
  return lines;
}

describe('EMBEDDER=auto: the domain model is trained at the first start', () => {
  let root: string;
  let platform: Platform | null = null;
  const config = () =>
    loadConfig({ DATA_DIR: path.join(root, 'data'), CORPUS_DIR: path.join(root, 'corpus'), PORT: '0', ALLOW_ANONYMOUS: 'true', RATE_LIMITS: 'off' });

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'embedding-auto-'));
    await mkdir(path.join(root, 'corpus', 'documents', 'legislation'), { recursive: true });
    await writeFile(path.join(root, 'corpus', 'documents', 'legislation', 'XX-Synthetic.jsonl.gz'), gzipSync(corpusLines().join('\n') + '\n'));
  });
  afterAll(async () => {
    await platform?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('serves keywords while training, then embeds the index and becomes ready; a second start trains nothing', async () => {
    expect(config().embedder).toEqual({ kind: 'auto' });
    platform = await startPlatform(config(), silent);
    const early = await fetch(`${platform.url}/ready`);
    expect(early.status).toBe(503);
    const body = (await early.json()) as any;
    expect(body.embedding_model.status).toBe('training');

    await platform.ingestDone;
    expect(existsSync(path.join(defaultModelDir(path.join(root, 'data')), 'model.safetensors'))).toBe(true);
    const ready = await fetch(`${platform.url}/ready`);
    const readyBody = (await ready.json()) as any;
    expect(ready.status).toBe(200);
    expect(readyBody.embedding_model.status).toBe('ready');
    const chunks = await platform.engine.countChunks();
    expect(chunks.withVectors).toBe(chunks.total);
    const model = await platform.engine.vectorModel();
    expect(model).toBe(readyBody.embedding_model.model);

    // The vector leg is on: alpha = 1 finds the topic's articles for words of that topic.
    const res = await fetch(`${platform.url}/v1/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ q: 'landlord eviction', alpha: 1, namespace: 'legislation', top_k: 5 }),
    });
    const hits = ((await res.json()) as any).hits as { source_id: string }[];
    expect(hits.length).toBe(5);
    expect(hits.every((h) => h.source_id.startsWith('tenancy/'))).toBe(true);

    await platform.stop();
    platform = await startPlatform(config(), silent);
    const summary = (await platform.ingestDone)!;
    expect(summary.reembedded).toBe(0);
    expect(summary.documents.indexed).toBe(0);
    expect(await platform.engine.vectorModel()).toBe(model);
    expect(platform.embedder?.id).toBe(model);
    const again = await fetch(`${platform.url}/ready`);
    expect(again.status).toBe(200);
    expect(((await again.json()) as any).embedding_model).toBeUndefined();
  }, 180_000);
});
