/**
 * The search side of the start-up: the engine opened with its index checked against the
 * database's record (rebuilt when damaged: src/modules/legal-data/index-health.ts), and the
 * embedder loaded (a damaged trained model trained again). Part of the composition root.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from './config.js';
import { createSearchEngine } from './engines/create-search-engine.js';
import { createEmbedder, defaultModelDir } from './engines/embedders/create-embedder.js';
import type { Embedder } from './engines/embedder.js';
import type { SearchEngine } from './engines/search-engine.js';
import type { Logger } from './logger.js';
import type { IndexRecordStore } from './modules/legal-data/catalog.store.js';
import { openCheckedIndex } from './modules/legal-data/index-health.js';

/**
 * The search engine opened (its index checked against the database's record, and deleted to be
 * rebuilt when damaged: `indexDamage` says why) and the embedder loaded; `trainModel` when
 * EMBEDDER=auto has no model yet (or a damaged one).
 */
export async function openSearch(
  config: Config,
  logger: Logger,
  indexRecord: IndexRecordStore,
): Promise<{ engine: SearchEngine; embedder: Embedder | null; trainModel: boolean; indexDamage: string | null }> {
  const engine = createSearchEngine(config, logger);
  const canRebuild = config.ingestOnStart && config.corpusDir !== undefined;
  const indexDamage = await openCheckedIndex(engine, indexRecord, { canRebuild, where: path.join(config.dataDir, 'index'), logger });
  const embedder = await loadEmbedder(config, logger);
  // EMBEDDER=auto without a trained model: train it from the corpus in the background.
  const trainModel = config.embedder.kind === 'auto' && !embedder && config.ingestOnStart && config.corpusDir !== undefined;
  if (trainModel) {
    logger.info(`search: no trained embedding model in ${defaultModelDir(config.dataDir)} yet: training it from the corpus in the background (keyword results meanwhile)`);
  } else if (!embedder) {
    logger.info(`search: no embedding model (EMBEDDER=${config.embedder.kind}): serving keyword results for every alpha`);
  }
  return { engine, embedder, trainModel, indexDamage };
}

/**
 * The configured embedder. The model EMBEDDER=auto trained into DATA_DIR is derived data like the
 * index: when it cannot be loaded (a file cut or deleted) it is deleted and trained again, as at a
 * first start (keyword results meanwhile). A model the operator named (EMBEDDER=static, onnx)
 * that cannot be loaded stops the start: the service cannot remake it.
 */
async function loadEmbedder(config: Config, logger: Logger): Promise<Embedder | null> {
  try {
    return await createEmbedder(config.embedder, config.dataDir);
  } catch (error) {
    if (config.embedder.kind !== 'auto') throw error;
    const dir = defaultModelDir(config.dataDir);
    logger.error(`search: the trained embedding model in ${dir} is damaged (${String((error as Error).message).split('\n')[0]}): deleting it to train it again`);
    await rm(dir, { recursive: true, force: true });
    return null;
  }
}
