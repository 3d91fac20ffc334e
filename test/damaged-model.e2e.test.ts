/**
 * The embedding model EMBEDDER=auto trained into DATA_DIR is derived data, like the index
 * (issue #33 item 6): with its file cut in half the start failed (exit 1, a crash loop under a
 * supervisor). Now the damaged model is deleted and trained again from the corpus, as at a
 * first start: keyword results meanwhile, /ready 503 saying so, then ready with the model and
 * the same semantic answers as before the damage.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, stat, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { loadConfig } from '../src/config.js';
import { defaultModelDir } from '../src/engines/embedders/create-embedder.js';
import { createLogger } from '../src/logger.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { copyDataDir } from './helpers/data-dir-damage.js';
import { copyPgliteTemplate } from './helpers/pglite-template.js';

const TOPICS: Record<string, string[]> = {
  tenancy: ['tenant', 'landlord', 'lease', 'rent', 'premises', 'eviction', 'deposit', 'dwelling'],
  tax: ['income', 'taxpayer', 'deduction', 'revenue', 'assessment', 'levy', 'vat', 'refund'],
  crime: ['offence', 'prosecutor', 'sentence', 'prison', 'theft', 'accused', 'custody', 'bail'],
};

/** Articles of three topics, each a deterministic mix of its topic's words (as test/embedding-auto.e2e.test.ts). */
function corpusLines(): string[] {
  const lines: string[] = [];
  for (const [topic, words] of Object.entries(TOPICS)) {
    for (let n = 1; n <= 30; n++) {
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

async function semanticHits(url: string): Promise<string[]> {
  const res = await fetch(`${url}/v1/search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ q: 'landlord eviction', alpha: 1, namespace: 'legislation', top_k: 5 }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { hits: { source_id: string }[] }).hits.map((h) => h.source_id);
}

describe('a damaged trained embedding model is trained again, never a crash loop', () => {
  let root: string;
  let platform: Platform | null = null;
  const config = (dataDir: string) =>
    loadConfig({ DATA_DIR: dataDir, CORPUS_DIR: path.join(root, 'corpus'), PORT: '0', ALLOW_ANONYMOUS: 'true', RATE_LIMITS: 'off' });

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'damaged-model-'));
    await mkdir(path.join(root, 'corpus', 'documents', 'legislation'), { recursive: true });
    await writeFile(path.join(root, 'corpus', 'documents', 'legislation', 'XX-Synthetic.jsonl.gz'), gzipSync(corpusLines().join('\n') + '\n'));
  });
  afterAll(async () => {
    await platform?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('the model file cut in half: retrained (keyword results meanwhile), then ready with the same answers', async () => {
    const base = path.join(root, 'base');
    await copyPgliteTemplate(base); // the database is not what is damaged here: skip initdb + migrations
    platform = await startPlatform(config(base), createLogger('silent'));
    await platform.ingestDone;
    const trained = await fetch(`${platform.url}/ready`);
    expect(trained.status).toBe(200);
    expect(((await trained.json()) as { embedding_model?: { status: string } }).embedding_model?.status).toBe('ready');
    const before = await semanticHits(platform.url!);
    expect(before.every((id) => id.startsWith('tenancy/'))).toBe(true);
    await platform.stop();
    platform = null;

    const dataDir = await copyDataDir(base, 'damaged-model-copy-');
    const modelFile = path.join(defaultModelDir(dataDir), 'model.safetensors');
    await truncate(modelFile, Math.floor((await stat(modelFile)).size / 2));

    const log: string[] = [];
    platform = await startPlatform(config(dataDir), createLogger('info', (line) => log.push(line)));
    expect(log.some((line) => /the trained embedding model in .* is damaged/.test(line))).toBe(true);
    const early = await fetch(`${platform.url}/ready`);
    expect(early.status).toBe(503);
    expect(((await early.json()) as { embedding_model?: { status: string } }).embedding_model?.status).toBe('training');

    await platform.ingestDone;
    const ready = await fetch(`${platform.url}/ready`);
    const readyBody = (await ready.json()) as { embedding_model?: { status: string; model: string } };
    expect(ready.status).toBe(200);
    expect(readyBody.embedding_model?.status).toBe('ready');
    expect(existsSync(modelFile)).toBe(true);
    const chunks = await platform.engine.countChunks();
    expect(chunks.withVectors).toBe(chunks.total);
    expect(await platform.engine.vectorModel()).toBe(readyBody.embedding_model?.model);
    expect(await semanticHits(platform.url!)).toEqual(before);
    // stopped before its folder goes: a running platform still writes there (rm failed with ENOTEMPTY)
    await platform.stop();
    platform = null;
    await rm(dataDir, { recursive: true, force: true });
  }, 600_000);
});
