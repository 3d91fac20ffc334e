/**
 * Wires the platform from a configuration: relational store -> search engine -> embedder ->
 * services -> express app -> HTTP server, then the background ingest. `main.ts`, the
 * end-to-end tests and the benchmarks all start the service through here.
 */
import { mkdir } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { MikroORM } from '@mikro-orm/core';
import { buildApp, type BuiltApp } from './app.js';
import type { Config } from './config.js';
import { lockDataDir } from './data-dir-lock.js';
import { closeOrm, createOrm, migrateUp } from './db/orm.js';
import { LanceDbEngine } from './engines/embedded/lancedb-engine.js';
import { createEmbedder } from './engines/embedders/create-embedder.js';
import type { Embedder } from './engines/embedder.js';
import type { SearchEngine } from './engines/search-engine.js';
import type { Logger } from './logger.js';
import { createIngestStore, loadCatalogue } from './modules/legal-data/catalog.store.js';
import { ingestCorpus, type IngestSummary } from './modules/legal-data/ingest/ingest.service.js';
import { LegalDataService } from './modules/legal-data/legal-data.service.js';
import { PUBLIC_ENDPOINTS } from './rest/endpoints.js';

export const VERSION = '0.1.0';

export interface Platform {
  config: Config;
  orm: MikroORM;
  engine: SearchEngine;
  embedder: Embedder | null;
  legalData: LegalDataService;
  app: BuiltApp;
  server: Server | null;
  /** `http://127.0.0.1:<port>` once listening. */
  url: string | null;
  /** Resolves when the background ingest ends (immediately when there is none). */
  ingestDone: Promise<IngestSummary | null>;
  stop(): Promise<void>;
}

export async function startPlatform(config: Config, logger: Logger, options: { listen?: boolean } = {}): Promise<Platform> {
  await mkdir(config.dataDir, { recursive: true });
  const lock = lockDataDir(config.dataDir);
  const orm = await createOrm(config);
  const applied = await migrateUp(orm);
  if (applied.length) logger.info(`database: applied ${applied.length} migration(s): ${applied.join(', ')}`);

  const engine = new LanceDbEngine(path.join(config.dataDir, 'index'));
  await engine.open();
  const embedder = await createEmbedder(config.embedder);
  if (!embedder) {
    logger.info('search: no embedding model configured (EMBEDDER=none): serving keyword results for every alpha');
  }

  const legalData = new LegalDataService({
    engine,
    embedder,
    engineName: config.searchEngine,
    loadCatalogue: () => loadCatalogue(orm.em.fork()),
    pingDatabase: async () => {
      await orm.em.fork().getConnection().execute('select 1');
      return true;
    },
    version: VERSION,
    endpoints: PUBLIC_ENDPOINTS,
  });
  const app = await buildApp({ services: { legalData }, logger, baseUrl: config.baseUrl, subgraphUrls: config.subgraphUrls });

  let server: Server | null = null;
  let url: string | null = null;
  if (options.listen !== false) {
    server = await new Promise<Server>((resolve, reject) => {
      const s = app.app.listen(config.port, '0.0.0.0', (error?: Error) => (error ? reject(error) : resolve(s)));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    logger.info(`listening on ${url} (public URL ${config.baseUrl})`);
  }

  await legalData.refreshCatalog();
  const abort = new AbortController();
  const ingestDone = runStartupIngest(config, logger, { engine, embedder, orm, legalData, signal: abort.signal });

  return {
    config,
    orm,
    engine,
    embedder,
    legalData,
    app,
    server,
    url,
    ingestDone,
    async stop() {
      abort.abort();
      await ingestDone.catch(() => null);
      if (server) await new Promise<void>((resolve) => server!.close(() => resolve()));
      await app.stop();
      await engine.close();
      await closeOrm(orm);
      lock.release();
    },
  };
}

/** Indexes the configured corpus in the background; search serves what is indexed meanwhile. */
async function runStartupIngest(
  config: Config,
  logger: Logger,
  deps: { engine: SearchEngine; embedder: Embedder | null; orm: MikroORM; legalData: LegalDataService; signal: AbortSignal },
): Promise<IngestSummary | null> {
  const { legalData } = deps;
  if (!config.ingestOnStart || !config.corpusDir) {
    if (!config.corpusDir) logger.info('ingest: no corpus folder configured (CORPUS_DIR); serving the existing index');
    legalData.setIngestState(null, true);
    return null;
  }
  try {
    const summary = await ingestCorpus(
      { engine: deps.engine, embedder: deps.embedder, store: createIngestStore(deps.orm), logger },
      {
        corpusDir: config.corpusDir,
        signal: deps.signal,
        onProgress: (state) => legalData.setIngestState(state, false),
        onIndexed: () => legalData.refreshCatalog(),
      },
    );
    legalData.setIngestState(null, !summary.interrupted);
    return summary;
  } catch (error) {
    logger.error('ingest failed; serving what is indexed', error);
    return null;
  }
}
