/**
 * What a test file pays to start a platform (test/helpers/platform.ts), in wall and CPU time:
 * cutting its corpus slice from ../shared/corpus, startPlatform on a fresh DATA_DIR (PGlite
 * creates its cluster and the migrations run), the startup ingest, and startPlatform again on the
 * same DATA_DIR (cluster and schema already there), and startPlatform on a DATA_DIR made from the
 * migrated PGlite template (test/helpers/pglite-template.ts: what the e2e tests do now). Tells
 * which shared, prepared-once work pays off (docs/testing.md). CPU counts the ingest child process
 * once it has ended.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { closeOrm, createOrm, migrateUp, type Orm } from '../src/db/orm.js';
import { createLogger } from '../src/logger.js';
import { startPlatform } from '../src/platform.js';
import { DEFAULT_SLICES, type SliceSpec, writeCorpusSlice } from '../test/fixtures/corpus-slice.js';
import { makeTestDataDir, pgliteTemplate } from '../test/helpers/pglite-template.js';
import { printCalibration } from './lib.js';

/** CPU seconds of this process (PGlite runs in it) and of its ended children (the ingest child). */
function cpuSeconds(): number {
  const own = process.cpuUsage();
  // /proc/self/stat fields 16-17: cutime, cstime, in clock ticks (100 per second on Linux)
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  const children = (Number(fields[13]) + Number(fields[14])) / 100;
  return (own.user + own.system) / 1e6 + children;
}

/** Runs `step`, prints its wall and CPU seconds. */
async function timed<T>(label: string, step: () => Promise<T>): Promise<T> {
  const wall = performance.now();
  const cpu = cpuSeconds();
  const result = await step();
  console.log(`  ${label}: ${((performance.now() - wall) / 1000).toFixed(2)} s wall, ${(cpuSeconds() - cpu).toFixed(2)} s CPU`);
  return result;
}

async function measure(name: string, slices: SliceSpec[]): Promise<void> {
  console.log(name);
  const corpus = await timed('cut the slice', () => writeCorpusSlice(slices));
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-platform-'));
  const config = loadConfig({ DATA_DIR: dataDir, CORPUS_DIR: corpus.dir, PORT: '0', EMBEDDER: 'none' });
  const first = await timed('start, fresh DATA_DIR (PGlite cluster + migrations)', () => startPlatform(config, createLogger('silent')));
  await timed(`startup ingest (${[...corpus.records.values()].reduce((n, rows) => n + rows.length, 0)} documents)`, () => first.ingestDone);
  await first.stop();
  const again = await timed('start again, same DATA_DIR (nothing to create or index)', () => startPlatform(config, createLogger('silent')));
  await again.ingestDone;
  await again.stop();
  await pgliteTemplate(); // made once per migrations/ (before the workers start in the suite): not part of a start
  const fromTemplate = await timed('copy the migrated PGlite template into a new DATA_DIR, start', async () => {
    const templated = loadConfig({ DATA_DIR: await makeTestDataDir('bench-platform-template-'), CORPUS_DIR: corpus.dir, PORT: '0', EMBEDDER: 'none' });
    return startPlatform(templated, createLogger('silent'));
  });
  await fromTemplate.ingestDone;
  await fromTemplate.stop();
}

/** The database alone: a fresh PGlite cluster migrated, against the template copied and opened (nothing to migrate). */
async function measureDatabase(): Promise<void> {
  console.log('the database alone (PGlite in DATA_DIR, then migrateUp)');
  const openAndMigrate = async (dataDir: string): Promise<Orm> => {
    const orm = await createOrm({ databaseUrl: undefined, dataDir });
    await migrateUp(orm);
    return orm;
  };
  for (let round = 0; round < 2; round++) {
    await closeOrm(await timed('fresh cluster, every migration', async () => openAndMigrate(await mkdtemp(path.join(os.tmpdir(), 'bench-db-')))));
    await closeOrm(await timed('template copied, opened, nothing to migrate', async () => openAndMigrate(await makeTestDataDir('bench-db-template-'))));
  }
}

printCalibration();
await measure('warm-up (module loading, WebAssembly compilation): 5-line slice', [{ file: 'legislation/EU-EUR-Lex.jsonl.gz', lines: 5 }]);
await measure('5-line slice (most e2e files)', [{ file: 'legislation/EU-EUR-Lex.jsonl.gz', lines: 5 }]);
await measure('the default slices (shutdown, legal-data)', DEFAULT_SLICES);
await measureDatabase();
