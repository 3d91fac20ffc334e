/**
 * The platform's background work on the index: the start-up ingest of the corpus (in a child
 * process, one process at a time), the training of EMBEDDER=auto's model and the embedding of
 * the index with it, and the rebuild of an index found damaged while serving. Part of the
 * composition root (platform.ts).
 */
import path from 'node:path';
import type { MikroORM } from '@mikro-orm/core';
import type { Config, EmbedderSetting } from './config.js';
import { DomainError } from './errors.js';
import { oneIngestAtATime } from './ingest-lock.js';
import { engineSettings } from './engines/create-search-engine.js';
import { defaultModelDir } from './engines/embedders/create-embedder.js';
import { loadStaticEmbedder } from './engines/embedders/static-embedder.js';
import type { Embedder } from './engines/embedder.js';
import type { SearchEngine } from './engines/search-engine.js';
import type { Logger } from './logger.js';
import { createIngestStore, type IndexRecordStore } from './modules/legal-data/catalog.store.js';
import { discardDamagedIndex, recordIndexContents } from './modules/legal-data/index-health.js';
import { IndexRepair } from './modules/legal-data/index-repair.js';
import type { IngestState, IngestSummary } from './modules/legal-data/ingest/ingest.service.js';
import { ingestInChild } from './modules/legal-data/ingest/ingest-in-child.js';
import type { LegalDataService } from './modules/legal-data/legal-data.service.js';
import { trainInBackground } from './modules/legal-data/training/train-in-background.js';

/** Builds the catalogue; an engine on an outside server that does not answer yet is logged, not fatal. */
export async function refreshCatalogUnlessUnavailable(legalData: LegalDataService, logger: Logger): Promise<void> {
  try {
    await legalData.refreshCatalog();
  } catch (error) {
    // An engine on an outside server that does not answer yet (Elasticsearch): serve 503 and
    // say so on /ready rather than not starting; the catalogue is built at the next request.
    if (!(error instanceof DomainError && error.code === 'unavailable')) throw error;
    logger.warn(`search: ${error.message}; serving 503 until it answers`);
  }
}

/** What the background ingest works with. */
type IngestDeps = Omit<Parameters<typeof runStartupIngest>[2], 'afterWaiting' | 'embedder' | 'trainModel'>;

/**
 * The platform's background ingest: the start-up's, then the rebuild's of an index found damaged
 * while serving (index-repair.ts). `current` is the one running now (the shutdown waits for it).
 */
export class BackgroundIngest {
  current: Promise<IngestSummary | null> = Promise.resolve(null);

  constructor(
    private readonly config: Config,
    private readonly logger: Logger,
    private readonly deps: IngestDeps,
  ) {}

  /** Starts the start-up ingest (and the training of EMBEDDER=auto's model when `trainModel`). */
  start(embedder: Embedder | null, trainModel: boolean): Promise<IngestSummary | null> {
    this.current = this.oneAtATime({ ...this.deps, embedder, trainModel });
    return this.current;
  }

  /**
   * The rebuild of a damaged index, the same as at start: once the ingest running now has ended
   * (it writes into the folder about to be deleted), the index is deleted, opened empty and every
   * ingest forgotten (index-health.ts), then the corpus is ingested again in the background. Not
   * after a shutdown began.
   */
  rebuild(): Promise<IngestSummary | null> {
    const before = this.current;
    this.current = (async () => {
      await before.catch(() => null);
      const { engine, indexRecord, legalData, signal } = this.deps;
      if (signal.aborted) return null;
      await discardDamagedIndex(engine, indexRecord);
      legalData.indexRebuildStarted();
      await refreshCatalogUnlessUnavailable(legalData, this.logger);
      return this.oneAtATime({ ...this.deps, embedder: legalData.embedder });
    })();
    return this.current;
  }

  /** What a storage error of the index while serving sets off: this rebuild, once (index-repair.ts). */
  repairOnStorageErrors(): IndexRepair {
    const { config, logger } = this;
    const canRebuild = config.ingestOnStart && config.corpusDir !== undefined;
    return new IndexRepair({ state: this.deps.legalData, canRebuild, where: path.join(config.dataDir, 'index'), logger, rebuild: () => this.rebuild() });
  }

  /** One ingest at a time across the processes sharing PostgreSQL (src/ingest-lock.ts); the others serve. */
  private oneAtATime(deps: Omit<Parameters<typeof runStartupIngest>[2], 'afterWaiting'>): Promise<IngestSummary | null> {
    const { config, logger } = this;
    const shared = config.databaseUrl !== undefined && config.ingestOnStart && config.corpusDir !== undefined;
    return oneIngestAtATime({ orm: deps.orm, shared, signal: deps.signal, logger }, (afterWaiting) => runStartupIngest(config, logger, { ...deps, afterWaiting }));
  }
}

/** Indexes the configured corpus in the background; search serves what is indexed meanwhile. */
async function runStartupIngest(
  config: Config,
  logger: Logger,
  deps: {
    engine: SearchEngine;
    embedder: Embedder | null;
    orm: MikroORM;
    /** The database's record of what the index holds (index-health.ts), written around each ingest. */
    indexRecord: IndexRecordStore;
    legalData: LegalDataService;
    signal: AbortSignal;
    trainModel?: boolean;
    /** It waited while another process ingested into the shared engine (src/ingest-lock.ts). */
    afterWaiting?: boolean;
  },
): Promise<IngestSummary | null> {
  const { legalData } = deps;
  if (!config.ingestOnStart || !config.corpusDir) {
    if (!config.corpusDir) logger.info('ingest: no corpus folder configured (CORPUS_DIR); serving the existing index');
    legalData.setIngestState(null, true);
    return null;
  }
  const corpusDir = config.corpusDir;
  const training = deps.trainModel ? startTraining(config, logger, legalData, deps.signal) : null;
  // The ingest runs in a child process whose memory goes back when it ends (ingest-in-child.ts);
  // this process's engine reads what it wrote, refreshed after each optimize and at the end.
  const indexed = async () => {
    await deps.engine.refresh?.();
    await legalData.refreshCatalog();
  };
  const ingest = async (embedder: EmbedderSetting | null, onProgress: (state: IngestState) => void) => {
    await deps.indexRecord.write({ status: 'ingesting', documents: 0, chunks: 0 });
    try {
      const summary = await ingestInChild(
        { engine: engineSettings(config), dataDir: config.dataDir, corpusDir, embedder, linkLegislation: config.citatorLinkLegislation },
        { store: createIngestStore(deps.orm), logger, signal: deps.signal, onProgress, onIndexed: indexed },
      );
      await deps.engine.refresh?.();
      if (!summary.interrupted) await recordIndexContents(deps.engine, deps.indexRecord);
      return summary;
    } finally {
      await deps.engine.refresh?.();
    }
  };
  try {
    const summary = await ingest(deps.embedder ? config.embedder : null, (state) => legalData.setIngestState(state, false));
    // Another process wrote the index while this one waited: this ingest finds the files done and
    // writes nothing (so no refresh after an optimize), yet the statistics must be read anew.
    if (deps.afterWaiting && !summary.interrupted) await indexed();
    legalData.setIngestState(null, !summary.interrupted);
    // Interrupted (a shutdown): wait for the training child too, so that none outlives the service.
    if (summary.interrupted) await training;
    if (!training || summary.interrupted) return summary;
    // The keyword index is complete; once the model is trained, embed the index with it (in
    // the ingest's child process too: the chunks it reads and the HNSW build's memory go back).
    const model = await training;
    if (!model) return summary;
    legalData.setModelState({ status: 'embedding', model: model.id, step: 'embedding the index', progress: 0 });
    legalData.setEmbedder(model);
    const embedded = await ingest({ kind: 'static', dir: defaultModelDir(config.dataDir) }, (state) =>
      legalData.setModelState({
        status: 'embedding',
        model: model.id,
        step: `embedding the index (${state.phase}${state.step ? `: ${state.step}` : ''})`,
        progress: state.documents_total ? Math.round((1000 * state.documents_done) / state.documents_total) / 1000 : null,
      }),
    );
    if (!embedded.interrupted) legalData.setModelState({ status: 'ready', model: model.id, step: null, progress: 1 });
    return embedded;
  } catch (error) {
    logger.error('ingest failed; serving what is indexed', error);
    if (deps.signal.aborted) await training; // a shutdown waits for the training child (see above)
    return null;
  }
}

/** Trains the domain model into DATA_DIR in a child process; resolves with it, or null when training fails. */
function startTraining(config: Config, logger: Logger, legalData: LegalDataService, signal: AbortSignal): Promise<Embedder | null> {
  const outDir = defaultModelDir(config.dataDir);
  const started = Date.now();
  legalData.setModelState({ status: 'training', model: null, step: 'starting', progress: 0 });
  const run = trainInBackground({
    corpusDir: config.corpusDir!,
    outDir,
    log: (line) => logger.info(line),
    onProgress: (p) => legalData.setModelState({ status: 'training', model: null, step: p.step, progress: Math.round(p.fraction * 1000) / 1000 }),
  });
  signal.addEventListener('abort', () => run.stop(), { once: true });
  return run.done.then(
    async () => {
      logger.info(`search: domain embedding model trained in ${Math.round((Date.now() - started) / 1000)} s (${outDir})`);
      return loadStaticEmbedder(outDir);
    },
    (error: Error) => {
      if (!signal.aborted) logger.error(`search: training the embedding model failed; serving keyword results (${error.message})`);
      legalData.setModelState(signal.aborted ? null : { status: 'failed', model: null, step: error.message.slice(0, 300), progress: null });
      return null;
    },
  );
}
