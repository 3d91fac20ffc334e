import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { writeTinyStaticModel } from '../../../test/fixtures/tiny-static-model.js';
import { makeDocument as makeDoc } from '../../../test/fixtures/legal-document.js';
import { loadStaticEmbedder } from '../embedders/static-embedder.js';
import type { EngineFilters } from '../search-engine.js';
import { cosine } from '../vector-math.js';
import { LanceDbEngine } from './lancedb-engine.js';
import { ChunkIdIndex } from './chunk-id-index.js';
import { VectorMemory } from './lancedb-vector-memory.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'vector-memory-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Deterministic pseudo-random vectors (a sine hash: the same on every run). */
function vectorOf(seed: number, dimension: number): Float32Array {
  return Float32Array.from({ length: dimension }, (_, i) => Math.sin(seed * 12.9898 + i * 78.233) * 0.5);
}

async function tableOf(dimension: number, count: number, from = 0): Promise<{ db: lancedb.Connection; table: lancedb.Table }> {
  const db = await lancedb.connect(path.join(root, 'db'));
  const rows = Array.from({ length: count }, (_, i) => ({ chunk_id: `c${from + i}`, vector: Array.from(vectorOf(from + i, dimension)) }));
  const table = await db.createTable('vectors', rows);
  return { db, table };
}

describe('ChunkIdIndex', () => {
  it('finds each id by its UTF-8 bytes, non-ASCII and long ones included, past its initial capacities', () => {
    const index = new ChunkIdIndex();
    const ids = Array.from({ length: 3000 }, (_, i) => `ES/BOE/ley-${i}-señal-${'x'.repeat(i % 500)}#${i % 7}`);
    const bytes = new TextEncoder().encode(ids.join(''));
    let at = 0;
    for (const id of ids) {
      const length = new TextEncoder().encode(id).length;
      index.append(bytes, at, at + length);
      at += length;
    }
    index.seal();
    expect(index.size).toBe(3000);
    ids.forEach((id, row) => expect(index.rowOf(id)).toBe(row));
    expect(index.rowOf('ES/BOE/ley-1-senal-x#1')).toBeUndefined(); // the same without the tilde
    expect(index.rowOf(`${ids[5]}x`)).toBeUndefined();
    expect(new ChunkIdIndex().rowOf('anything')).toBeUndefined();
  });
});

describe('VectorMemory', () => {
  it('holds every vector of the table, quantised, with cosines within 2e-3 of the exact ones', async () => {
    const { db, table } = await tableOf(64, 300);
    // Windows of 64 rows: the last one is short (300 = 4 × 64 + 44).
    const memory = new VectorMemory({ enabled: true, quietMs: 0, loadWindowRows: 64 });
    expect(await memory.current(table)).toBeNull(); // the first look starts the load
    await memory.settled();
    const held = await memory.current(table);
    expect(held?.size).toBe(300);
    // int8 codes, a scale and a norm per vector, and the ids (~4 bytes of id and 11 of table each here)
    expect(held!.bytes).toBeGreaterThan(300 * 64 + 300 * 4 * 2);
    expect(held!.bytes).toBeLessThan(300 * 64 + 300 * 4 * 2 + 300 * 24);
    const query = vectorOf(1000, 64);
    let worst = 0;
    for (let i = 0; i < 300; i++) {
      const exact = cosine(query, vectorOf(i, 64));
      worst = Math.max(worst, Math.abs(held!.cosine(query, Math.hypot(...query), `c${i}`)! - exact));
      expect(cosine(held!.vector(`c${i}`)!, vectorOf(i, 64))).toBeGreaterThan(0.9999);
    }
    expect(worst).toBeLessThan(2e-3);
    expect(worst).toBeGreaterThan(0); // quantised, not a copy
    expect(held!.cosine(query, 1, 'unknown')).toBeUndefined();
    expect([...held!.vectorsOf(['c1', 'unknown', 'c2']).keys()]).toEqual(['c1', 'c2']);
    table.close();
    db.close();
  });

  it('drops what it holds when the table moves, and loads the new version once the table is quiet', async () => {
    const { db, table } = await tableOf(8, 50);
    const memory = new VectorMemory({ enabled: true, recheckMs: 0, quietMs: 300, loadWindowRows: 50 });
    await memory.current(table);
    await memory.settled();
    expect((await memory.current(table))?.size).toBe(50);
    await table.add([{ chunk_id: 'c50', vector: Array.from(vectorOf(50, 8)) }]);
    // Moved: nothing held, and no load while the table has not been quiet for 300 ms.
    expect(await memory.current(table)).toBeNull();
    await memory.settled();
    expect(await memory.current(table)).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 350));
    await memory.current(table);
    await memory.settled();
    const held = await memory.current(table);
    expect(held?.size).toBe(51);
    expect(held?.has('c50')).toBe(true);
    table.close();
    db.close();
  });

  it('holds nothing when turned off or stopped', async () => {
    const { db, table } = await tableOf(8, 10);
    const off = new VectorMemory({ enabled: false, quietMs: 0 });
    await off.current(table);
    await off.settled();
    expect(await off.current(table)).toBeNull();
    const stopped = new VectorMemory({ enabled: true, quietMs: 0 });
    await stopped.current(table);
    await stopped.stop();
    expect(await stopped.current(table)).toBeNull();
    table.close();
    db.close();
  });
});

describe('LanceDbEngine with its vectors in memory', () => {
  const legislation: EngineFilters = { namespace: 'legislation' };

  it('ranks as the exact path does, scores within 1e-2 of the exact cosine, and reads feedback vectors from memory', async () => {
    const embedder = await loadStaticEmbedder((await writeTinyStaticModel(path.join(root, 'model'), { dimension: 16 })).dir);
    const topics = ['breach of contract damages', 'personal data consent', 'tax income revenue', 'criminal theft prison'];
    const docs = Array.from({ length: 40 }, (_, i) =>
      makeDoc({ source: 'XX/Mem', source_id: `d${i}`, title: `Doc ${i}`, text: `${topics[i % 4]} ${i}`, language: 'en', country: i % 2 ? 'AA' : 'BB' }),
    );
    const inputs = await Promise.all(
      docs.map(async (d) => ({ document: d, contentHash: 'h', chunks: [{ content: d.text, vector: (await embedder.embedPassages([`${d.title}\n${d.text}`]))[0] }] })),
    );
    const engines = [true, false].map((vectorMemory) => new LanceDbEngine(path.join(root, vectorMemory ? 'held' : 'read'), { vectorIndexMinRows: 20, vectorMemory, vocabularyQuietMs: 0 }));
    try {
      for (const engine of engines) {
        await engine.open();
        await engine.setVectorModel(embedder.id, embedder.dimension);
        await engine.upsertDocuments(inputs);
        await engine.optimize();
      }
      const [held, read] = engines;
      expect(await held.vectorsHeld()).toBe(true);
      expect(await read.vectorsHeld()).toBe(false);
      const [q] = await embedder.embedQueries(['liability compensation contract']);
      for (const filters of [legislation, { ...legislation, countries: ['AA'] }]) {
        const [fromMemory, exact] = await Promise.all(engines.map((e) => e.vectorSearch(q, filters, 8)));
        expect(fromMemory.map((h) => h.docId).sort()).toEqual(exact.map((h) => h.docId).sort());
        const exactScore = new Map(exact.map((h) => [h.docId, h.score]));
        for (const h of fromMemory) expect(Math.abs(h.score - exactScore.get(h.docId)!)).toBeLessThan(1e-2);
      }
      const chunkIds = (await read.vectorSearch(q, legislation, 5)).map((h) => h.chunkId!);
      const [heldVectors, readVectors] = await Promise.all(engines.map((e) => e.passageVectors!(chunkIds)));
      expect([...heldVectors.keys()].sort()).toEqual([...readVectors.keys()].sort());
      for (const [id, v] of heldVectors) expect(cosine(v, readVectors.get(id)!)).toBeGreaterThan(0.999);
      const completed = await held.vectorScores!(q, chunkIds.map((chunkId, i) => ({ docId: `x${i}`, score: 0, passage: '', chunkId })));
      expect(completed).toHaveLength(chunkIds.length);
      // A write of this process drops what memory holds at once: the next search is exact.
      for (const engine of engines) await engine.upsertDocuments([{ ...inputs[0], contentHash: 'h2' }]);
      const [afterWrite, exactAfter] = await Promise.all(engines.map((e) => e.vectorSearch(q, legislation, 3)));
      expect(afterWrite.map((h) => h.docId)).toEqual(exactAfter.map((h) => h.docId));
      afterWrite.forEach((h, i) => expect(Math.abs(h.score - exactAfter[i]!.score)).toBeLessThan(1e-6));
    } finally {
      for (const engine of engines) await engine.close();
    }
  });
});
