/**
 * `npm run ingest [-- --corpus DIR]`: indexes a corpus folder into DATA_DIR with a progress
 * bar and a summary. Ctrl-C stops after the current batch; the next run resumes.
 *
 * With SEARCH_ENGINE=elasticsearch:
 * - `--rebuild`: the whole corpus is ingested into new indexes while search keeps reading the
 *   current ones; the aliases switch to the new indexes at the end (an interrupted or failed
 *   rebuild deletes them and changes nothing).
 * - `--reindex`: copies the current indexes into new ones with the current mapping
 *   (Elasticsearch's `_reindex`, no corpus read) and switches the aliases at the end.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { corpusDirOrExit } from './cli-args.js';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { lockDataDir } from '../data-dir-lock.js';
import { closeOrm, createOrm, migrateUp } from '../db/orm.js';
import { createSearchEngine } from '../engines/create-search-engine.js';
import { ElasticsearchEngine } from '../engines/elasticsearch/elasticsearch-engine.js';
import { createEmbedder } from '../engines/embedders/create-embedder.js';
import { createLogger } from '../logger.js';
import { createIndexRecordStore, createIngestStore } from '../modules/legal-data/catalog.store.js';
import { openCheckedIndex, recordIndexContents } from '../modules/legal-data/index-health.js';
import { citationCountsFile } from '../modules/legal-data/ingest/citation-counts.js';
import { ingestCorpus } from '../modules/legal-data/ingest/ingest.service.js';

const { values } = parseArgs({ options: { corpus: { type: 'string' }, help: { type: 'boolean' }, rebuild: { type: 'boolean' }, reindex: { type: 'boolean' } } });
if (values.help) {
  process.stdout.write('usage: npm run ingest [-- --corpus DIR] [--rebuild | --reindex]   (default: CORPUS_DIR or ../shared/corpus; --rebuild/--reindex: SEARCH_ENGINE=elasticsearch)\n');
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
// A damaged embedded index is deleted and this ingest rebuilds it (src/modules/legal-data/index-health.ts).
const indexRecord = createIndexRecordStore(orm);
await openCheckedIndex(engine, indexRecord, { canRebuild: true, where: path.join(config.dataDir, 'index'), logger });
const embedder = await createEmbedder(config.embedder, config.dataDir);
const abort = new AbortController();
process.once('SIGINT', () => {
  logger.warn('interrupt: finishing the current batch, then stopping (run again to resume)');
  abort.abort();
});
const rebuilding = values.rebuild || values.reindex ? engine : null;
if (rebuilding && !(rebuilding instanceof ElasticsearchEngine)) {
  process.stderr.write('--rebuild and --reindex need SEARCH_ENGINE=elasticsearch (the embedded engine rebuilds its vectors by itself)\n');
  process.exit(2);
}
try {
  if (rebuilding instanceof ElasticsearchEngine && values.reindex) {
    logger.info('reindex: copying the indexes into new ones, then switching the aliases');
    await rebuilding.reindex();
    logger.info('reindex: done, the aliases point at the new indexes');
  } else {
    if (rebuilding instanceof ElasticsearchEngine) {
      await rebuilding.beginRebuild();
      logger.info('rebuild: ingesting the whole corpus into new indexes; search keeps the current ones until the end');
    }
    const store = createIngestStore(orm);
    await indexRecord.write({ status: 'ingesting', documents: 0, chunks: 0 });
    const summary = await ingestCorpus(
      // A rebuild reads every file again (the file checkpoints describe the current indexes).
      { engine, embedder, store: rebuilding ? { ...store, getFile: async () => null } : store, logger },
      { corpusDir, signal: abort.signal, tty: process.stderr.isTTY ? process.stderr : undefined, citationCountsFile: citationCountsFile(config.dataDir), linkLegislation: config.citatorLinkLegislation },
    ).catch(async (error: unknown) => {
      if (rebuilding instanceof ElasticsearchEngine) await rebuilding.abortRebuild();
      throw error;
    });
    if (rebuilding instanceof ElasticsearchEngine) {
      if (summary.interrupted) {
        await rebuilding.abortRebuild();
        logger.warn('rebuild: interrupted, the new indexes were deleted; search still uses the previous ones');
      } else {
        await rebuilding.finishRebuild();
        logger.info('rebuild: done, the aliases point at the new indexes');
      }
    }
    if (!summary.interrupted) await recordIndexContents(engine, indexRecord);
    process.exitCode = summary.interrupted ? 130 : 0;
  }
} finally {
  await engine.close();
  await closeOrm(orm);
  lock.release();
}
