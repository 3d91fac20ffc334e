import { mkdtemp, readFile, rm } from 'node:fs/promises';
import * as lancedb from '@lancedb/lancedb';
import { hasOptimizeWork } from '../../../engines/embedded/lancedb-writes.js';
import os from 'node:os';
import path from 'node:path';
import { LanceDbEngine } from '../../../engines/embedded/lancedb-engine.js';
import { loadStaticEmbedder } from '../../../engines/embedders/static-embedder.js';
import { createLogger } from '../../../logger.js';
import { makeDocument } from '../../../../test/fixtures/legal-document.js';
import { writeTinyStaticModel } from '../../../../test/fixtures/tiny-static-model.js';
import { reembedIfModelChanged } from './reembedding.js';

describe('reembedIfModelChanged', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'reembedding-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('names the vector index build after the embedding, so the minutes it takes are never silent', async () => {
    const engine = new LanceDbEngine(path.join(root, 'index'), { vectorIndexMinRows: 20 });
    await engine.open();
    try {
      const topics = ['breach of contract damages', 'personal data consent', 'tax income revenue', 'criminal theft prison'];
      const docs = Array.from({ length: 30 }, (_, i) => makeDocument({ source: 'XX/Re', source_id: `d${i}`, title: `Doc ${i}`, text: topics[i % 4]!, language: 'en' }));
      await engine.upsertDocuments(docs.map((document) => ({ document, contentHash: 'h', chunks: [{ content: document.text }] })));
      const embedder = await loadStaticEmbedder((await writeTinyStaticModel(path.join(root, 'model'), { dimension: 16 })).dir);
      const messages: string[] = [];
      const logger = createLogger('info', (line) => messages.push(String((JSON.parse(line) as { msg: string }).msg)));
      const steps: string[] = [];
      const count = await reembedIfModelChanged(engine, embedder, logger, () => {}, (step) => steps.push(step));
      expect(count).toBe(30);
      expect(steps).toEqual(['embedding passages', 'compacting vectors', 'vector index (HNSW)']);
      const at = (pattern: RegExp) => messages.findIndex((m) => pattern.test(m));
      // the embedding's own progress line ends before the index build is announced
      expect(at(/^re-embed .*30\/30/)).toBeGreaterThan(-1);
      expect(at(/^re-embed .*30\/30/)).toBeLessThan(at(/^ingest: re-embedding: compacting vectors$/));
      expect(messages.find((m) => m.startsWith('ingest: re-embedding done in'))).toMatch(/\(embedding passages [\d.]+ s, compacting vectors [\d.]+ s, vector index \(HNSW\) [\d.]+ s\)$/);
      expect(await engine.vectorModel()).toBe(embedder.id);
      expect((await engine.countChunks()).withVectors).toBe(30);
      // The new table was compacted before its index was built: the next optimize leaves it alone,
      // while the passages appended without an optimize still have work.
      const db = await lancedb.connect(path.join(root, 'index'));
      const meta = JSON.parse(await readFile(path.join(root, 'index', 'meta.json'), 'utf8')) as { vectorTable: string };
      expect(await hasOptimizeWork(await db.openTable(meta.vectorTable))).toBe(false);
      const chunks = await db.openTable('chunks');
      const more = makeDocument({ source: 'XX/Re', source_id: 'late', title: 'Late', text: 'tax income revenue', language: 'en' });
      await engine.upsertDocuments([{ document: more, contentHash: 'h', chunks: [{ content: more.text }] }]);
      await chunks.checkoutLatest();
      expect(await hasOptimizeWork(chunks)).toBe(true);
      await engine.optimize();
      await chunks.checkoutLatest();
      // every index covers every row again (Lance may keep two small fragments of a tiny table apart)
      for (const index of await chunks.listIndices()) expect((await chunks.indexStats(index.name))?.numUnindexedRows).toBe(0);
    } finally {
      await engine.close();
    }
  });
});
