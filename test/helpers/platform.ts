/**
 * Starts a platform for an end-to-end test: a corpus slice, a temp DATA_DIR, embedded PGlite
 * (its cluster copied from the migrated template: test/helpers/pglite-template.ts) unless `env`
 * sets DATABASE_URL, no embedder, an ephemeral port.
 */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startPlatform, type Platform } from '../../src/platform.js';
import { type SliceSpec, writeCorpusSlice } from '../fixtures/corpus-slice.js';
import { makeTestDataDir } from './pglite-template.js';

/** The platform, listening, with the slice indexed; `env` adds or overrides configuration. */
export async function startTestPlatform(slices: SliceSpec[], env: Record<string, string> = {}): Promise<Platform> {
  const corpus = await writeCorpusSlice(slices);
  const dataDir = env.DATABASE_URL ? await mkdtemp(path.join(os.tmpdir(), 'e2e-platform-')) : await makeTestDataDir('e2e-platform-');
  const platform = await startPlatform(loadConfig({ DATA_DIR: dataDir, CORPUS_DIR: corpus.dir, PORT: '0', EMBEDDER: 'none', ...env }), createLogger('silent'));
  await platform.ingestDone;
  return platform;
}
