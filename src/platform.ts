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
import { createHttpServer } from './http/http-server.js';
import { isTrustedPeer } from './http/trust-proxy.js';
import type { Config } from './config.js';
import { requestContexts, type RequestContexts } from './context.js';
import { lockDataDir, type DataDirLock } from './data-dir-lock.js';
import { drainable, type DrainableServer } from './http/drain-http-server.js';
import { closeOrm, createOrm, migrateUp } from './db/orm.js';
import { citationCountsFile, loadCitationCounts } from './modules/legal-data/ingest/citation-counts.js';
import type { Embedder } from './engines/embedder.js';
import type { SearchEngine } from './engines/search-engine.js';
import type { Logger } from './logger.js';
import { createIndexRecordStore, loadCatalogue } from './modules/legal-data/catalog.store.js';
import type { IndexRepair } from './modules/legal-data/index-repair.js';
import { BackgroundIngest, refreshCatalogUnlessUnavailable } from './background-ingest.js';
import { reportStorageFaults } from './engines/storage-faults.js';
import { openSearch } from './open-search.js';
import type { IngestSummary } from './modules/legal-data/ingest/ingest.service.js';
import { LegalDataService } from './modules/legal-data/legal-data.service.js';
import { createAccountsModule, type AccountsModule } from './modules/accounts/accounts.module.js';
import { PASSWORD_MIN_LENGTH } from './modules/accounts/passwords.js';
import { FeedbackService } from './modules/admin/feedback.service.js';
import { type BillingModule, createBillingModule } from './modules/billing/billing.module.js';
import { createTeamsModule, type TeamsModule } from './modules/teams/teams.module.js';
import { createStripeClient } from './modules/billing/stripe-client.js';
import { createAdminModule, type AdminModule } from './modules/admin/admin.module.js';
import { type AnalyticsModule, createAnalyticsModule } from './modules/analytics/analytics.module.js';
import type { AnalyticsRecorder } from './modules/analytics/analytics-recorder.js';
import { ContributorsService } from './modules/legal-data/contributors/contributors.service.js';
import { AccessTokenVerifier } from './oauth/access-token-verifier.js';
import { createOAuthModule, type OAuthModule } from './oauth/oauth.module.js';
import { loadOrCreateSigningKey } from './oauth/signing-key.js';

export const VERSION = '0.1.0';

export interface Platform {
  config: Config;
  orm: MikroORM;
  /** Where every door gets its RequestContext: one lazily forked entity manager per request. */
  contexts: RequestContexts;
  engine: SearchEngine;
  embedder: Embedder | null;
  legalData: LegalDataService;
  /** Accounts, API keys, usage counting and limits. */
  accounts: AccountsModule;
  /** The OAuth 2.1 authorization server for MCP clients. */
  oauth: OAuthModule;
  billing: BillingModule;
  teams: TeamsModule;
  admin: AdminModule;
  /** Partner analytics: the recorder every billable call feeds, the queries, the partners. */
  analytics: AnalyticsModule;
  app: BuiltApp;
  server: Server | null;
  /** `http://127.0.0.1:<port>` once listening. */
  url: string | null;
  /** Resolves when the background ingest running now ends (immediately when there is none): the start-up's, or a rebuild's. */
  readonly ingestDone: Promise<IngestSummary | null>;
  stop(): Promise<void>;
}

// size: the composition root: every module built once, in dependency order, and handed what it needs; split, the order of construction would be scattered over helpers
export async function startPlatform(config: Config, logger: Logger, options: { listen?: boolean } = {}): Promise<Platform> {
  await mkdir(config.dataDir, { recursive: true });
  const lock = lockDataDir(config.dataDir);
  const orm = await openDatabase(config, logger);
  const indexRecord = createIndexRecordStore(orm);
  const { engine: opened, embedder, trainModel, indexDamage } = await openSearch(config, logger, indexRecord);
  let repair: IndexRepair | null = null; // a storage error while serving starts the start-up's rebuild (index-repair.ts)
  const engine = reportStorageFaults(opened, () => repair);

  // The authorization server's signing key first: the authenticator verifies its access tokens.
  const signingKey = await loadOrCreateSigningKey(orm);
  const accessTokens = new AccessTokenVerifier({ publicJwk: signingKey.publicJwk, issuer: config.baseUrl });
  const accounts = await createAccountsModule(config, orm, logger, { accessTokens });
  const oauth = createOAuthModule({ baseUrl: config.baseUrl, termsVersion: config.accounts.termsVersion, orm, signingKey, accounts, logger, clientMetadataAllowPrivate: config.oauthClientMetadataAllowPrivate });
  let analyticsRecorder: AnalyticsRecorder | null = null;
  const legalData = new LegalDataService({
    usage: accounts.usage,
    engine,
    embedder,
    engineName: config.searchEngine,
    loadCatalogue: () => loadCatalogue(orm.em.fork()),
    pingDatabase: () => pingDatabase(orm),
    usageRecording: () => accounts.usage.recordingLag(),
    // the analytics module is built after this service (it needs the usage guard): null until then
    analyticsRecording: () => analyticsRecorder?.recordingLag() ?? null,
    version: VERSION,
    resolveTimeoutMs: config.resolveTimeoutMs,
    engineCallsPerRequest: config.engineCallsPerRequest,
    searchConcurrency: config.searchConcurrency,
    vectorTimeoutMs: config.vectorTimeoutMs,
    feedbackPassages: config.searchFeedbackPassages,
    authorityWeight: config.searchAuthorityWeight,
    loadCitationCounts: () => loadCitationCounts(citationCountsFile(config.dataDir)),
    logger,
    // the manifest lists the routes the app mounts (one list: src/rest/rest-api.ts)
    endpoints: () => [...app.rest.operations(), 'POST /graphql'],
  });
  legalData.setIndexRebuild(indexDamage);
  const feedback = new FeedbackService({ orm, usage: accounts.usage });
  const billing = createBillingModule(config, orm, logger, { redis: accounts.redis, limits: accounts.limits });
  const teams = createTeamsModule({ orm, billing: billing.subscriptions, accounts, baseUrl: config.baseUrl, logger, dns: config.dns, teamDomains: config.teamDomains });
  teams.startDomainRechecks();
  accounts.authenticator.useWorkspaces(teams.membership);
  accounts.usage.useCredits(billing.credits.drawer);
  const contributors = createContributors(config, logger);
  const analytics = await createAnalyticsModule({ orm, usage: accounts.usage, limits: accounts.limits, dataDir: config.dataDir, logger });
  analyticsRecorder = analytics.recorder;
  const admin = createAdminModule({ orm, accounts, stripe: config.billing.stripe ? createStripeClient(config.billing.stripe) : null, logger, analytics });
  const contexts = requestContexts(orm);
  const app = await buildApp({
    contexts,
    services: { legalData, accounts, feedback, oauth, billing, teams, contributors, admin },
    logger,
    baseUrl: config.baseUrl,
    subgraphUrls: config.subgraphUrls,
    version: VERSION,
    trustProxy: config.trustProxy,
    hstsMaxAgeSeconds: config.hstsMaxAgeSeconds,
    mcpAllowedOrigins: config.mcpAllowedOrigins,
    sse: config.sse,
    graphql: config.graphql,
    redisCommandTimeoutMs: config.accounts.redisCommandTimeoutMs,
    dashboard: { dir: config.dashboardDir, client: dashboardClientSettings(config) },
    landing: { anonymousSearch: config.accounts.allowAnonymous, legal: config.accounts.legalDocuments },
  });

  const { server, http, url } = options.listen !== false ? await listen(app, config, logger) : { server: null, http: null, url: null };
  await refreshCatalogUnlessUnavailable(legalData, logger);
  const abort = new AbortController();
  const ingest = new BackgroundIngest(config, logger, { engine, orm, indexRecord, legalData, signal: abort.signal });
  ingest.start(embedder, trainModel);
  repair = ingest.repairOnStorageErrors();

  return {
    config, orm, contexts, engine, embedder, legalData, accounts, oauth, billing, teams, admin, analytics, app, server, url,
    get ingestDone() {
      return ingest.current;
    },
    stop: () => stopInOrder({ config, logger, abort, http, app, teams, ingestDone: () => ingest.current, admin, billing, accounts, analytics, engine, orm, lock }),
  };
}

/** Opens the database and brings its schema up to date. */
async function openDatabase(config: Config, logger: Logger): Promise<MikroORM> {
  const orm = await createOrm(config);
  const applied = await migrateUp(orm);
  if (applied.length) logger.info(`database: applied ${applied.length} migration(s): ${applied.join(', ')}`);
  return orm;
}

/** One round trip to the database, for /ready: true when it answers (a failure throws). */
async function pingDatabase(orm: MikroORM): Promise<boolean> {
  await orm.em.fork().getConnection().execute('select 1');
  return true;
}

/** The corpus's contributors: from the corpus file, and from GitHub when a repository is configured. */
function createContributors(config: Config, logger: Logger): ContributorsService {
  const { githubRepo, githubToken, githubApiBase } = config.contributors;
  return new ContributorsService({
    corpusFile: config.corpusDir ? path.join(config.corpusDir, 'contributions.jsonl.gz') : undefined,
    github: githubRepo ? { repo: githubRepo, token: githubToken, apiBase: githubApiBase } : null,
    logger,
  });
}

/** What the dashboard's page needs to know of the configuration (sent to the browser). */
function dashboardClientSettings(config: Config) {
  return {
    identityProviders: Object.keys(config.accounts.identityProviders),
    devLogin: config.accounts.devLogin,
    billing: config.billing.stripe !== null,
    baseUrl: config.baseUrl,
    termsVersion: config.accounts.termsVersion,
    // the one rule of account.schema.ts, so the registration and reset forms check the same length
    passwordMinLength: PASSWORD_MIN_LENGTH,
    legal: config.accounts.legalDocuments,
    anonymousSearch: config.accounts.allowAnonymous,
  };
}

/** The HTTP server listening on PORT, drainable at shutdown. */
async function listen(app: BuiltApp, config: Config, logger: Logger): Promise<{ server: Server; http: DrainableServer; url: string }> {
  const server = await new Promise<Server>((resolve, reject) => {
    const s = createHttpServer(app.app, config.http, { isTrustedProxy: isTrustedPeer(app.app), logger });
    s.once('error', reject);
    s.listen(config.port, '0.0.0.0', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  logger.info(`listening on ${url} (public URL ${config.baseUrl})`);
  return { server, http: drainable(server), url };
}

/** What the shutdown stops, in the order of stopInOrder. */
interface RunningParts {
  config: Config;
  logger: Logger;
  abort: AbortController;
  http: DrainableServer | null;
  app: BuiltApp;
  teams: TeamsModule;
  /** The background ingest running now (the start-up's, or a rebuild's). */
  ingestDone: () => Promise<unknown>;
  admin: AdminModule;
  billing: BillingModule;
  accounts: AccountsModule;
  analytics: AnalyticsModule;
  engine: SearchEngine;
  orm: MikroORM;
  lock: DataDirLock;
}

/** Platform.stop(): the running parts stopped in order, each step whatever befell the ones before. */
async function stopInOrder({ config, logger, abort, http, app, teams, ingestDone, admin, billing, accounts, analytics, engine, orm, lock }: RunningParts): Promise<void> {
  // Every step runs even when one before it failed (the lock is released whatever happens);
  // the usage rows are written only once no request can add one any more.
  const failed: string[] = [];
  const step = async (name: string, run: () => unknown) => {
    try {
      await run();
    } catch (error) {
      failed.push(name);
      logger.error(`shutdown: ${name} failed`, error);
    }
  };
  abort.abort(); // the ingest and training children stop meanwhile
  const drained = http?.drain(config.shutdownDrainSeconds * 1000);
  await step('ending the MCP streams', () => app.closeStreams());
  await step('stopping the team domain re-checks', () => teams.stopDomainRechecks());
  await step('draining the HTTP server', async () => {
    const { cut } = (await drained) ?? { cut: 0 };
    if (cut) logger.warn(`shutdown: ${cut} connection(s) still open after the ${config.shutdownDrainSeconds} s drain deadline (SHUTDOWN_DRAIN_SECONDS): closed`);
  });
  await step('stopping the ingest', () => ingestDone().catch(() => null)); // its failure was logged when it happened
  await step('stopping GraphQL and MCP', () => app.stop());
  await step('closing the administration', () => admin.close());
  await step('closing billing', () => billing.close());
  await step('writing the last usage rows and mails', () => accounts.close());
  await step('writing the last analytics events', () => analytics.close());
  await step('closing the search engine', () => engine.close());
  await step('closing the database', () => closeOrm(orm));
  await step('releasing the data-folder lock', () => lock.release());
  if (failed.length) throw new Error(`${failed.join(', ')} failed`);
}
