/**
 * `npm run ingest [-- --corpus DIR]`: indexes a corpus folder into DATA_DIR with a progress
 * bar and a summary. Ctrl-C stops after the current batch; the next run resumes.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { corpusDirOrExit } from './cli-args.js';
import { mkdir } from 'node:fs/promises';
import { lockDataDir } from '../data-dir-lock.js';
import { closeOrm, createOrm, migrateUp } from '../db/orm.js';
import { createSearchEngine } from '../engines/create-search-engine.js';
import { createEmbedder } from '../engines/embedders/create-embedder.js';
import { createLogger } from '../logger.js';
import { createIngestStore } from '../modules/legal-data/catalog.store.js';
import { ingestCorpus } from '../modules/legal-data/ingest/ingest.service.js';

const { values } = parseArgs({ options: { corpus: { type: 'string' }, help: { type: 'boolean' } } });
if (values.help) {
  process.stdout.write('usage: npm run ingest [-- --corpus DIR]   (default: CORPUS_DIR or ../shared/corpus)\n');
  process.exit(0);
}
const config = loadConfig();
const corpusDir = corpusDirOrExit(values.corpus, config.corpusDir);
const logger = createLogger(config.logLevel === 'silent' ? 'silent' : 'info');
await mkdir(config.dataDir, { recursive: true });
let lock;
try {
  lock = lockDataDir(config.dataDir);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}
const orm = await createOrm(config);
await migrateUp(orm);
const engine = createSearchEngine(config, logger);
await engine.open();
const embedder = await createEmbedder(config.embedder, config.dataDir);
const abort = new AbortController();
process.once('SIGINT', () => {
  logger.warn('interrupt: finishing the current batch, then stopping (run again to resume)');
  abort.abort();
});
try {
  const summary = await ingestCorpus(
    { engine, embedder, store: createIngestStore(orm), logger },
    { corpusDir, signal: abort.signal, tty: process.stderr.isTTY ? process.stderr : undefined },
  );
  process.exitCode = summary.interrupted ? 130 : 0;
} finally {
  await engine.close();
  await closeOrm(orm);
  lock.release();
}
