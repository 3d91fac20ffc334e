import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { LanceDbEngine } from '../../../engines/embedded/lancedb-engine.js';
import { makeDocument } from '../../../../test/fixtures/legal-document.js';
import { optimizeWithProgress } from './optimize-progress.js';

describe('optimizeWithProgress', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'optimize-progress-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('logs each step of a real optimize as it starts, and a summary with their durations', async () => {
    const engine = new LanceDbEngine(path.join(root, 'index'));
    await engine.open();
    try {
      const doc = makeDocument({ source: 'XX/Opt', source_id: 'a', title: 'A', text: 'Wer vorsätzlich das Eigentum verletzt, ist zum Ersatz verpflichtet.', language: 'de' });
      await engine.upsertDocuments([{ document: doc, contentHash: 'h', chunks: [{ content: doc.text }] }]);
      const lines: string[] = [];
      const heard: string[] = [];
      const timeline = await optimizeWithProgress(engine, { log: (l) => lines.push(l), onStep: (s) => heard.push(s) });
      expect(heard[0]).toBe('passage lookup indexes');
      expect(heard).toEqual(timeline.steps.map((s) => s.step));
      for (const step of heard) expect(lines).toContain(`ingest: optimizing the index: ${step}`);
      expect(lines.at(-1)).toMatch(/^ingest: optimizing the index done in [\d.]+ s \(passage lookup indexes [\d.]+ s, .*compacting documents [\d.]+ s\)$/);
    } finally {
      await engine.close();
    }
  });

  it('says which step still runs while one lasts longer than the heartbeat', async () => {
    const lines: string[] = [];
    let release!: () => void;
    const slow = {
      optimize: async (onStep?: (step: string) => void) => {
        onStep?.('vector index (HNSW)');
        await new Promise<void>((resolve) => (release = resolve));
      },
    };
    const done = optimizeWithProgress(slow, { log: (l) => lines.push(l), heartbeatMs: 20 });
    await new Promise((r) => setTimeout(r, 120));
    release();
    await done;
    const beats = lines.filter((l) => /still|in this step/.test(l));
    expect(beats.length).toBeGreaterThanOrEqual(2);
    expect(beats[0]).toMatch(/^ingest: optimizing the index: vector index \(HNSW\), [\d.]+ s in this step \([\d.]+ s so far\)$/);
    // no line after the summary: the heartbeat stopped with the optimize
    const count = lines.length;
    await new Promise((r) => setTimeout(r, 60));
    expect(lines).toHaveLength(count);
  });
});
