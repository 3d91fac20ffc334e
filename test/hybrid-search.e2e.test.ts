/**
 * The vector leg end to end: a platform configured with a real (tiny, test-built) static
 * model embeds the corpus at ingest, embeds queries, fuses both legs by alpha, and
 * re-embeds the whole index when the model changes.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { parseServerTiming } from '../src/util/stage-timer.js';
import { writeTinyStaticModel } from './fixtures/tiny-static-model.js';
import { makeTestDataDir } from './helpers/pglite-template.js';

const silent = createLogger('silent');

const doc = (source_id: string, title: string, text: string) => ({
  source: 'XX/Synthetic', source_id, namespace: 'legislation', country: 'XX', title, text, language: 'en', granularity: 'article',
});

const DOCS = [
  doc('contracts/1', 'Article 1', 'A breach of contract obliges the party to pay damages and compensation.'),
  doc('privacy/1', 'Article 2', 'The controller shall obtain consent before processing personal data.'),
  doc('tax/1', 'Article 3', 'Income tax and vat are collected by the revenue office.'),
  doc('crime/1', 'Article 4', 'Theft and fraud are punished with prison.'),
];

describe('hybrid search with a real static embedding model', () => {
  let platform: Platform;
  let corpusDir: string;
  let dataDir: string;
  const searchIds = async (q: string, alpha: number) => {
    const res = await fetch(`${platform.url}/v1/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ q, alpha, namespace: 'legislation', top_k: 4 }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as any).hits.map((h: any) => h.source_id) as string[];
  };

  beforeAll(async () => {
    corpusDir = await mkdtemp(path.join(os.tmpdir(), 'hybrid-corpus-'));
    await mkdir(path.join(corpusDir, 'documents/legislation'), { recursive: true });
    await writeFile(path.join(corpusDir, 'documents/legislation/XX-Synthetic.jsonl.gz'), gzipSync(DOCS.map((d) => JSON.stringify(d)).join('\n')));
    dataDir = await makeTestDataDir('hybrid-data-');
    const model = await writeTinyStaticModel(await mkdtemp(path.join(os.tmpdir(), 'tiny-model-')), { dimension: 16 });
    platform = await startPlatform(loadConfig({ DATA_DIR: dataDir, CORPUS_DIR: corpusDir, PORT: '0', ALLOW_ANONYMOUS: 'true', RATE_LIMITS: 'off', EMBEDDER: `static:${model.dir}` }), silent);
    await platform.ingestDone;
  });

  afterAll(async () => {
    await platform?.stop();
  });

  it('stores a vector for every chunk and says the search is hybrid', async () => {
    const stats = (await (await fetch(`${platform.url}/v1/stats`)).json()) as any;
    expect(stats.index.chunks_with_vectors).toBe(stats.index.chunks);
    expect(stats.index.embedding_model).toBe(platform.embedder!.id);
    const manifest = (await (await fetch(`${platform.url}/v1/manifest`)).json()) as any;
    expect(manifest.search.hybrid).toBe(true);
  });

  it('finds a related document without any shared word at alpha=1, and nothing by keyword at alpha=0', async () => {
    // "liability indemnity" shares no word with the contracts article, only its topic.
    expect((await searchIds('liability indemnity', 1))[0]).toBe('contracts/1');
    expect(await searchIds('liability indemnity', 0)).toEqual([]);
    expect((await searchIds('privacy erasure', 1))[0]).toBe('privacy/1');
  });

  it('says how long each stage of a search took in Server-Timing, the body as the spec has it', async () => {
    const res = await fetch(`${platform.url}/v1/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ q: 'breach of contract damages', alpha: 0.7, namespace: 'legislation', top_k: 4 }),
    });
    expect(res.status).toBe(200);
    const stages = parseServerTiming(res.headers.get('server-timing'));
    for (const stage of ['parse', 'citations', 'embedding', 'keyword', 'vector', 'places', 'fusion', 'documents', 'passages', 'snippets']) {
      expect(stages.get(stage)).toBeGreaterThanOrEqual(0);
    }
    const body = (await res.json()) as any;
    expect(Object.keys(body).sort()).toEqual(['alpha', 'elapsed_ms', 'hits', 'namespace', 'query', 'total_hits']);
    // The passages the legs deferred are read for the returned hits: every hit has its snippet.
    expect(body.hits.length).toBeGreaterThan(0);
    for (const hit of body.hits) expect(hit.snippet.length).toBeGreaterThan(0);
  });

  it('fuses both legs in between', async () => {
    // The keyword leg alone prefers the literal match; the semantic leg adds the related one.
    const keyword = await searchIds('prison consent', 0);
    expect(keyword.sort()).toEqual(['crime/1', 'privacy/1']);
    const hybrid = await searchIds('prison consent', 0.5);
    expect(hybrid.slice(0, 2).sort()).toEqual(['crime/1', 'privacy/1']);
  });

  it('re-embeds the whole index when the model changes, never mixing two models', async () => {
    await platform.stop();
    const other = await writeTinyStaticModel(await mkdtemp(path.join(os.tmpdir(), 'tiny-model-b-')), { dimension: 24 });
    platform = await startPlatform(loadConfig({ DATA_DIR: dataDir, CORPUS_DIR: corpusDir, PORT: '0', ALLOW_ANONYMOUS: 'true', RATE_LIMITS: 'off', EMBEDDER: `static:${other.dir}` }), silent);
    const summary = (await platform.ingestDone)!;
    const chunks = await platform.engine.countChunks();
    expect(summary.reembedded).toBe(chunks.total);
    expect(summary.documents.indexed).toBe(0);
    expect(await platform.engine.vectorModel()).toBe(platform.embedder!.id);
    expect(chunks.withVectors).toBe(chunks.total);
    expect((await searchIds('liability indemnity', 1))[0]).toBe('contracts/1');
  });
});
