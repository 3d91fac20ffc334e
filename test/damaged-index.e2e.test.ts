/**
 * A damaged search index in DATA_DIR heals (issue #33 item 6): one folder is ingested once, then
 * each case starts the service on a copy of it with one kind of damage. Before, `index/`
 * deleted gave a ready service with 0 documents, the largest chunks file cut in half a ready
 * service whose every search failed with 500, and the other cases a start that failed (exit 1,
 * a crash loop under a supervisor). Now the start finds the damage (every index file read, the
 * counts compared with the database's record of the last complete ingest), says why on /ready
 * (503) and in the log, rebuilds the index from the corpus, and only then is ready: with the
 * same answers as before the damage. Never is /ready 200 while the index holds other documents.
 * Damage done under a running service (a chunks file cut while it serves) heals the same way:
 * the searches that meet it answer 503 with Retry-After (500 before), one rebuild starts.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { writeCorpusSlice } from './fixtures/corpus-slice.js';
import { answersOf, copyDataDir, cutLargestDataFile, deleteNewestManifest, QUERIES, type Answers } from './helpers/data-dir-damage.js';

const SLICES = [
  { file: 'legislation/FR-LegifranceCodes.jsonl.gz', lines: 150 },
  { file: 'case_law/DE-BGH.jsonl.gz', lines: 10 },
];

describe('a damaged index in DATA_DIR is rebuilt from the corpus, never served', () => {
  let corpusDir: string;
  let base: string;
  let before: Answers;
  let documentsBefore: number;
  const folders: string[] = [];
  let platform: Platform | null = null;

  const config = (dataDir: string) =>
    loadConfig({ DATA_DIR: dataDir, CORPUS_DIR: corpusDir, PORT: '0', EMBEDDER: 'none', ALLOW_ANONYMOUS: 'true', RATE_LIMITS: 'off' });

  beforeAll(async () => {
    corpusDir = (await writeCorpusSlice(SLICES)).dir;
    base = await mkdtemp(path.join(os.tmpdir(), 'damaged-index-base-'));
    const first = await startPlatform(config(base), createLogger('silent'));
    await first.ingestDone;
    before = await answersOf(first.url!);
    documentsBefore = await first.engine.countDocuments();
    await first.stop();
  }, 600_000);

  afterEach(async () => {
    await platform?.stop();
    platform = null;
  });

  afterAll(async () => {
    for (const dir of [base, corpusDir, ...folders]) await rm(dir, { recursive: true, force: true });
  });

  /** Starts on a damaged copy; checks the rebuild is announced, never ready early, and ends with the answers of before. */
  async function healsFrom(damage: (dataDir: string) => Promise<unknown>): Promise<void> {
    expect(documentsBefore).toBeGreaterThan(100);
    expect(Object.values(before.searches).every((s) => s.ids.length > 0)).toBe(true);
    const dataDir = await copyDataDir(base, 'damaged-index-');
    folders.push(dataDir);
    await damage(dataDir);
    const log: string[] = [];
    platform = await startPlatform(config(dataDir), createLogger('info', (line) => log.push(line)));
    const url = platform.url!;

    const first = await fetch(`${url}/ready`);
    const firstBody = (await first.json()) as { status: string; index_rebuild?: { reason: string } };
    expect(first.status).toBe(503);
    expect(firstBody.index_rebuild?.reason).toEqual(expect.any(String));
    expect(log.some((line) => /the index in .* is damaged: .*rebuilding it from the corpus/.test(line))).toBe(true);

    // While it rebuilds: whenever /ready says 200, the index holds every document of before.
    let done = false;
    const ingestDone = platform.ingestDone.finally(() => (done = true));
    const readyWithout: number[] = [];
    while (!done) {
      const ready = await fetch(`${url}/ready`);
      await ready.arrayBuffer();
      if (ready.status === 200) {
        const count = await platform.engine.countDocuments();
        if (count !== documentsBefore) readyWithout.push(count);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await ingestDone;
    expect(readyWithout).toEqual([]);

    const ready = await fetch(`${url}/ready`);
    const readyBody = (await ready.json()) as { index_rebuild?: unknown };
    expect(ready.status).toBe(200);
    expect(readyBody.index_rebuild).toBeUndefined();
    expect(await platform.engine.countDocuments()).toBe(documentsBefore);
    const after = await answersOf(url);
    expect(after.searchStatuses.every((s) => s === 200)).toBe(true);
    expect(after.searches).toEqual(before.searches);
    expect(after.documents).toEqual(before.documents);
  }

  it('a chunks data file cut under the running service: 503 with Retry-After, one rebuild, then the same answers (before: 500 while ready)', async () => {
    const dataDir = await copyDataDir(base, 'damaged-serving-');
    folders.push(dataDir);
    const log: string[] = [];
    platform = await startPlatform(config(dataDir), createLogger('info', (line) => log.push(line)));
    await platform.ingestDone;
    const url = platform.url!;
    expect((await fetch(`${url}/ready`)).status).toBe(200);

    await cutLargestDataFile(dataDir, 'chunks');
    // Every query at once: each one that meets the damage answers 503, and they start one rebuild.
    const damaged = await Promise.all(
      QUERIES.map(async ({ q, namespace }) => {
        const res = await fetch(`${url}/v1/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ q, namespace, top_k: 10, alpha: 0 }) });
        return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as { detail?: unknown } };
      }),
    );
    expect(damaged.map((d) => d.status).filter((s) => s !== 503 && s !== 200)).toEqual([]);
    const refused = damaged.filter((d) => d.status === 503);
    expect(refused.length).toBeGreaterThanOrEqual(2);
    for (const d of refused) {
      expect(Number(d.retryAfter)).toBeGreaterThan(0);
      expect(d.body.detail).toMatch(/index/i);
    }

    const ready = await fetch(`${url}/ready`);
    const readyBody = (await ready.json()) as { index_rebuild?: { reason: string }; ingest: unknown };
    expect(ready.status).toBe(503);
    expect(readyBody.index_rebuild?.reason).toMatch(/storage error/);
    const announced = () => log.filter((line) => /the index in .* is damaged: .*rebuilding it from the corpus/.test(line));
    expect(announced()).toHaveLength(1);

    // Rebuilding: /ready shows the ingest's progress, and is never 200 before the index holds every document.
    let sawProgress = false;
    const readyWithout: number[] = [];
    for (;;) {
      const res = await fetch(`${url}/ready`);
      const body = (await res.json()) as { ingest: { documents_done: number } | null };
      if (body.ingest) sawProgress = true;
      if (res.status === 200) {
        const count = await platform.engine.countDocuments();
        if (count === documentsBefore) break;
        readyWithout.push(count);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(readyWithout).toEqual([]);
    expect(sawProgress).toBe(true);
    // The rebuild was one: every storage error after the first fell into it.
    expect(announced()).toHaveLength(1);

    const after = await answersOf(url);
    expect(after.searchStatuses.every((s) => s === 200)).toBe(true);
    expect(after.searches).toEqual(before.searches);
    expect(after.documents).toEqual(before.documents);
  }, 420_000);

  it('index/ deleted with the database kept (before: ready with 0 documents)', async () => {
    await healsFrom((dir) => rm(path.join(dir, 'index'), { recursive: true }));
  }, 420_000);

  it('the largest chunks data file cut in half (before: ready, every search 500)', async () => {
    await healsFrom((dir) => cutLargestDataFile(dir, 'chunks'));
  }, 420_000);

  it('the largest documents data file cut in half (before: exit 1)', async () => {
    await healsFrom((dir) => cutLargestDataFile(dir, 'documents'));
  }, 420_000);

  it("the newest manifest of each table deleted (before: exit 1)", async () => {
    await healsFrom(async (dir) => {
      await deleteNewestManifest(dir, 'documents');
      await deleteNewestManifest(dir, 'chunks');
    });
  }, 420_000);

  it('the search-index files deleted (before: exit 1)', async () => {
    await healsFrom(async (dir) => {
      await rm(path.join(dir, 'index', 'chunks.lance', '_indices'), { recursive: true });
      await rm(path.join(dir, 'index', 'documents.lance', '_indices'), { recursive: true });
    });
  }, 420_000);
});
