/**
 * The platform on SEARCH_ENGINE=elasticsearch / VECTOR_ENGINE=elasticsearch end to end, over
 * real HTTP: the startup ingest writes through the real client into a local
 * Elasticsearch-protocol server (test/helpers/elasticsearch-server.ts), search and documents by
 * address are served from it, and when it goes away search answers 503 with a clear detail and
 * /ready names the missing dependency.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { loadConfig } from '../src/config.js';
import { ElasticsearchEngine } from '../src/engines/elasticsearch/elasticsearch-engine.js';
import { createLogger } from '../src/logger.js';
import { createIngestStore } from '../src/modules/legal-data/catalog.store.js';
import { ingestCorpus } from '../src/modules/legal-data/ingest/ingest.service.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { FakeElasticsearch } from './helpers/elasticsearch-server.js';
import { writeTinyStaticModel } from './fixtures/tiny-static-model.js';
import { makeTestDataDir } from './helpers/pglite-template.js';

const doc = (source_id: string, title: string, text: string) => ({
  source: 'XX/Synthetic', source_id, namespace: 'legislation', country: 'XX', title, text, language: 'en', granularity: 'article',
});
const DOCS = [
  doc('contracts/1', 'Article 1', 'A breach of contract obliges the party to pay damages and compensation.'),
  doc('privacy/1', 'Article 2', 'The controller shall obtain consent before processing personal data.'),
  doc('tax/1', 'Article 3', 'Income tax and vat are collected by the revenue office.'),
];

describe('platform on Elasticsearch (local protocol server)', () => {
  let es: FakeElasticsearch;
  let platform: Platform;
  let corpusDir: string;
  const silent = createLogger('silent');
  /** An ingest that reads every file again (the document hashes alone decide what is written). */
  const ingestAgain = () =>
    ingestCorpus(
      { engine: platform.engine, embedder: platform.embedder, store: { ...createIngestStore(platform.orm), getFile: async () => null }, logger: silent },
      { corpusDir },
    );
  const post = (body: unknown) =>
    fetch(`${platform.url}/v1/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  beforeAll(async () => {
    es = await new FakeElasticsearch().start();
    corpusDir = await mkdtemp(path.join(os.tmpdir(), 'es-corpus-'));
    await mkdir(path.join(corpusDir, 'documents/legislation'), { recursive: true });
    await writeFile(path.join(corpusDir, 'documents/legislation/XX-Synthetic.jsonl.gz'), gzipSync(DOCS.map((d) => JSON.stringify(d)).join('\n')));
    const model = await writeTinyStaticModel(await mkdtemp(path.join(os.tmpdir(), 'es-model-')), { dimension: 16 });
    platform = await startPlatform(
      loadConfig({
        DATA_DIR: await makeTestDataDir('es-data-'),
        CORPUS_DIR: corpusDir,
        PORT: '0',
        ALLOW_ANONYMOUS: 'true',
        RATE_LIMITS: 'off',
        EMBEDDER: `static:${model.dir}`,
        SEARCH_ENGINE: 'elasticsearch',
        VECTOR_ENGINE: 'elasticsearch',
        ELASTICSEARCH_URL: es.url,
        ELASTICSEARCH_INDEX_PREFIX: 'e2e-',
      }),
      silent,
    );
    await platform.ingestDone;
  });
  afterAll(async () => {
    await platform?.stop();
    await es?.stop();
  });

  it('ingests into Elasticsearch and serves search, documents and readiness from it', async () => {
    expect([...es.documents('e2e-documents').keys()].sort()).toEqual(DOCS.map((d) => `XX/Synthetic/${d.source_id}`).sort());
    const chunks = [...es.documents('e2e-chunks').values()];
    expect(chunks.length).toBe(3);
    for (const c of chunks) expect((c.vector as number[]).length).toBe(16);

    const ready = await fetch(`${platform.url}/ready`);
    expect(ready.status).toBe(200);
    expect(((await (await fetch(`${platform.url}/v1/manifest`)).json()) as any).search).toMatchObject({ engine: 'elasticsearch', hybrid: true });

    const semantic = await post({ q: 'liability indemnity', alpha: 1, namespace: 'legislation', top_k: 3 });
    expect(semantic.status).toBe(200);
    expect(((await semantic.json()) as any).hits[0].source_id).toBe('contracts/1');
    const keyword = await post({ q: 'consent', alpha: 0, namespace: 'legislation', top_k: 3 });
    expect(((await keyword.json()) as any).hits.map((h: any) => h.source_id)).toEqual(['privacy/1']);

    const document = await fetch(`${platform.url}/v1/documents/XX/Synthetic/tax/1`);
    expect(document.status).toBe(200);
    expect(((await document.json()) as any).text).toBe(DOCS[2].text);
  });

  it('re-ingest is idempotent (same hashes: nothing written), a changed document alone is rewritten, a rebuild switches the aliases', async () => {
    const bulks = () => es.requestsTo('POST', '/_bulk').length;
    const before = bulks();
    expect((await ingestAgain()).documents).toMatchObject({ seen: 3, indexed: 0, unchanged: 3, deleted: 0 });
    expect(bulks()).toBe(before);

    const changed = DOCS.map((d) => (d.source_id === 'tax/1' ? { ...d, text: 'Income tax is collected yearly. Vat is collected monthly.' } : d));
    await writeFile(path.join(corpusDir, 'documents/legislation/XX-Synthetic.jsonl.gz'), gzipSync(changed.map((d) => JSON.stringify(d)).join('\n')));
    es.requests.length = 0;
    expect((await ingestAgain()).documents).toMatchObject({ indexed: 1, unchanged: 2 });
    const written = es.requestsTo('POST', '/_bulk').flatMap((r) => r.body as Record<string, any>[]).filter((l) => 'index' in l).map((l) => l.index._id);
    expect(written).toEqual(['XX/Synthetic/tax/1#0', 'XX/Synthetic/tax/1']);

    // The CLI's --rebuild: the whole corpus into new indexes, aliases switched at the end.
    const engine = platform.engine as ElasticsearchEngine;
    const [oldChunks] = es.aliasTargets('e2e-chunks');
    await engine.beginRebuild();
    expect((await ingestAgain()).documents).toMatchObject({ indexed: 3, unchanged: 0 });
    expect(es.aliasTargets('e2e-chunks')).toEqual([oldChunks]);
    await engine.finishRebuild();
    expect(es.aliasTargets('e2e-chunks')).not.toEqual([oldChunks]);
    expect(es.indices.has(oldChunks)).toBe(false);
    const res = await post({ q: 'monthly', alpha: 0, namespace: 'legislation' });
    expect(((await res.json()) as any).hits.map((h: any) => h.source_id)).toEqual(['tax/1']);
  });

  it('a search its client abandons aborts its request to Elasticsearch: the server sees the connection close before it answers', async () => {
    // Only this test's query is held, until its connection closes (or the test lets it go).
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held = null as Promise<void> | null;
    es.hold = (request, connection) => {
      if (request.method !== 'POST' || !request.path.endsWith('/_search') || !JSON.stringify(request.body).includes('abandonment')) return undefined;
      held = connection.closedBeforeAnswer;
      return Promise.race([connection.closedBeforeAnswer, released]);
    };
    try {
      const client = new AbortController();
      const answer = fetch(`${platform.url}/v1/search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ q: 'abandonment', alpha: 0, namespace: 'legislation' }),
        signal: client.signal,
      }).catch((error: Error) => error.name);
      while (held === null) await new Promise((resolve) => setTimeout(resolve, 20));
      client.abort();
      expect(await answer).toBe('AbortError');
      // Before, the request stayed open until Elasticsearch answered (here: never, until released).
      const closed = await Promise.race([held!.then(() => 'closed before the answer'), new Promise((resolve) => setTimeout(() => resolve('still open after 10 s'), 10_000))]);
      expect(closed).toBe('closed before the answer');
    } finally {
      release();
      es.hold = null;
    }
  });

  it('Elasticsearch down: search answers 503 with a clear detail and /ready names the missing dependency', async () => {
    await es.stop();
    const res = await post({ q: 'consent', alpha: 0, namespace: 'legislation' });
    expect(res.status).toBe(503);
    expect(((await res.json()) as any).detail).toMatch(/^Search engine unavailable: Elasticsearch at http:\/\/127\.0\.0\.1:\d+ did not answer/);
    const ready = await fetch(`${platform.url}/ready`);
    expect(ready.status).toBe(503);
    const body = (await ready.json()) as any;
    expect(body.stores).toEqual({ database: true, index: false });
    expect(body.missing).toEqual([{ dependency: 'elasticsearch', detail: expect.stringMatching(/^Search engine unavailable: Elasticsearch at/) }]);
  });
});
