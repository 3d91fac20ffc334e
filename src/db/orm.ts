/**
 * The relational store: MikroORM 7 over PostgreSQL (DATABASE_URL set) or embedded PGlite
 * (under `${dataDir}/pglite`). Both run the PostgreSQL driver and platform and the same
 * migrations; for PGlite the driver's Kysely dialect is swapped for ours via `driverOptions`.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { MikroORM as CoreMikroORM } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import { MikroORM, PostgreSqlDriver, type Options } from '@mikro-orm/postgresql';
import { migrationsList } from '../../migrations/index.js';
import type { Config, DatabaseTimeouts } from '../config.js';
import { IndexStateEntity } from '../modules/legal-data/index-state.entity.js';
import { IngestFileEntity } from '../modules/legal-data/ingest-file.entity.js';
import { SourceEntity } from '../modules/legal-data/source.entity.js';
import { ApiKeyEntity } from '../modules/accounts/api-key.entity.js';
import { EndedSessionEntity } from '../modules/accounts/ended-session.entity.js';
import { IdentityLinkEntity } from '../modules/accounts/identity-link.entity.js';
import { PasswordResetEntity } from '../modules/accounts/password-reset.entity.js';
import { UserEntity } from '../modules/accounts/user.entity.js';
import { UsageEventEntity } from '../modules/usage/usage-event.entity.js';
import { FeedbackReportEntity } from '../modules/admin/feedback-report.entity.js';
import { UsageDailyEndpointEntity, UsageUserDayEntity, UsageUserEndpointEntity, UsageUserSummaryEntity } from '../modules/admin/usage-rollups.entities.js';
import { AdminAuditEntryEntity, PendingStripeCancellationEntity, PlanOverrideEntity, UserDeletionLogEntity } from '../modules/admin/admin.entities.js';
import { OAuthModelEntity } from '../oauth/oauth-model.entity.js';
import { SigningKeyEntity } from '../oauth/signing-key.entity.js';
import { BillingAccountEntity, CheckoutSessionEntity, CreditEntryEntity, LegalAssentEntity, ProcessedEventEntity, SubscriptionEntity } from '../modules/billing/billing.entities.js';
import { WorkspaceDomainEntity, WorkspaceEntity, WorkspaceInviteEntity, WorkspaceMemberEntity } from '../modules/teams/workspace.entity.js';
import { AnalyticsAccountDayEntity, AnalyticsDocumentEntity, AnalyticsPartnerEntity, AnalyticsWrittenBatchEntity } from '../modules/analytics/analytics.entities.js';
import { CitationLinkEntity, CitingDocumentEntity, UnresolvedCitationEntity } from '../modules/legal-data/citator/citation-graph.entities.js';
import { PGliteDialect } from './pglite-dialect.js';

export type Orm = MikroORM;

/** Every entity of the relational store. */
export const ENTITIES = [
  SourceEntity,
  IngestFileEntity,
  IndexStateEntity,
  UserEntity,
  IdentityLinkEntity,
  ApiKeyEntity,
  PasswordResetEntity,
  EndedSessionEntity,
  UsageEventEntity,
  FeedbackReportEntity,
  OAuthModelEntity,
  SigningKeyEntity,
  BillingAccountEntity,
  SubscriptionEntity,
  LegalAssentEntity,
  CheckoutSessionEntity,
  ProcessedEventEntity,
  CreditEntryEntity,
  WorkspaceEntity,
  WorkspaceMemberEntity,
  WorkspaceInviteEntity,
  WorkspaceDomainEntity,
  AdminAuditEntryEntity,
  UserDeletionLogEntity,
  PlanOverrideEntity,
  PendingStripeCancellationEntity,
  UsageDailyEndpointEntity,
  UsageUserSummaryEntity,
  UsageUserDayEntity,
  UsageUserEndpointEntity,
  AnalyticsAccountDayEntity,
  AnalyticsDocumentEntity,
  AnalyticsWrittenBatchEntity,
  AnalyticsPartnerEntity,
  CitingDocumentEntity,
  CitationLinkEntity,
  UnresolvedCitationEntity,
];

/** Folder of the migration classes and the committed schema snapshot. */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations/', import.meta.url));

/** Snapshot file name (without `.json`): fixed, so it does not depend on the database name. */
export const SNAPSHOT_NAME = '.snapshot-legal-search';

/** The database PGlite creates and opens by default. */
const PGLITE_DATABASE = 'postgres';

/**
 * PostgreSQL settings PGlite starts with, on top of its own defaults. shared_buffers: PostgreSQL's
 * default 128MB is allocated and touched inside the WASM memory at start-up, so it is resident
 * for the life of the process (~145 MiB more RSS than 16MB, measured in bench/pglite-memory.ts);
 * the relational store is small and the files stay in the OS page cache. wal_buffers follows
 * (1/32 of shared_buffers). work_mem and the others are only allocated on use.
 */
export const PGLITE_START_PARAMS: readonly string[] = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

export interface CreateOrmOptions {
  /** PGlite data directory; `memory://` for an in-memory database. Defaults to `${dataDir}/pglite`. */
  pgliteDir?: string;
  /** Log every query (MikroORM debug mode). */
  debug?: boolean;
  /** An open PGlite instance to use instead (left open by the ORM's close): `npm run backup` dumps the instance it checked. */
  pglite?: PGlite;
}

/** The MikroORM options for a config, without connecting. Exported for tooling (migration generation). */
export function ormOptions(config: Pick<Config, 'databaseUrl' | 'dataDir'> & Partial<Pick<Config, 'databaseTimeouts'>>, options: CreateOrmOptions = {}): Options {
  const common: Options = {
    driver: PostgreSqlDriver,
    entities: ENTITIES,
    extensions: [Migrator],
    debug: options.debug ?? false,
    migrations: {
      path: MIGRATIONS_DIR,
      pathTs: MIGRATIONS_DIR,
      migrationsList,
      snapshotName: SNAPSHOT_NAME,
      // The snapshot is written when a migration is generated, never by running migrations.
      snapshotOnMigrate: false,
      transactional: true,
      allOrNothing: true,
      silent: true,
      emit: 'ts',
    },
  };
  if (config.databaseUrl) {
    return { ...common, clientUrl: config.databaseUrl, ...(config.databaseTimeouts ? { driverOptions: poolTimeouts(config.databaseTimeouts) } : {}) };
  }
  const dir = options.pgliteDir ?? path.join(config.dataDir, 'pglite');
  return {
    ...common,
    dbName: PGLITE_DATABASE,
    driverOptions: new PGliteDialect({
      // A factory: each MikroORM (re)connect opens the instance, `orm.close()` closes it.
      pglite:
        options.pglite ??
        (() => {
          if (!dir.includes('://')) mkdirSync(dir, { recursive: true });
          return new PGlite(dir, { startParams: [...PGLITE_START_PARAMS] });
        }),
    }),
  };
}

/**
 * Bounds of every PostgreSQL call (issue #33 item 4), handed to node-postgres's pool: the server
 * cancels a statement after `statementMs` (`statement_timeout`, SQLSTATE 57014); a server that
 * does not answer at all (frozen, a dead network) is given up by the client half a second later
 * (`query_timeout`); a connection from the pool, or a new one, is waited for at most `acquireMs`
 * (`connectionTimeoutMillis`). Each ends in 503 with Retry-After (asDomainError in src/errors.ts).
 * PGlite runs inside the process: none applies there.
 */
function poolTimeouts(timeouts: DatabaseTimeouts): Record<string, number> {
  return { statement_timeout: timeouts.statementMs, query_timeout: timeouts.statementMs + 500, connectionTimeoutMillis: timeouts.acquireMs };
}

/** Creates the ORM and connects: PostgreSQL when `databaseUrl` is set, else embedded PGlite. */
export async function createOrm(
  config: Pick<Config, 'databaseUrl' | 'dataDir'> & Partial<Pick<Config, 'databaseTimeouts'>>,
  options: CreateOrmOptions = {},
): Promise<Orm> {
  const orm = (await MikroORM.init(ormOptions(config, options))) as Orm;
  try {
    await orm.connect();
  } catch (error) {
    await orm.close(true).catch(() => undefined);
    const where = config.databaseUrl ? `PostgreSQL at ${redactUrl(config.databaseUrl)}` : 'embedded PGlite';
    throw new Error(`Cannot connect to ${where}: ${(error as Error).message}`, { cause: error });
  }
  return orm;
}

/** Applies pending migrations (all in one transaction) and returns the names applied, in order. */
export async function migrateUp(orm: CoreMikroORM): Promise<string[]> {
  const applied = await orm.migrator.up();
  return applied.map((m) => m.name);
}

/** Closes the connection (pool or PGlite instance). */
export async function closeOrm(orm: CoreMikroORM): Promise<void> {
  await orm.close(true);
}

/** Which backend an ORM runs on. */
export function ormBackend(orm: CoreMikroORM): 'postgresql' | 'pglite' {
  return orm.config.get('driverOptions') instanceof PGliteDialect ? 'pglite' : 'postgresql';
}

function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the configured DATABASE_URL';
  }
}
