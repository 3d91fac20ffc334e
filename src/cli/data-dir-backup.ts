/**
 * A backup of DATA_DIR and its restore (`npm run backup`, `npm run restore`). The backup is
 * taken under DATA_DIR's lock (data-dir-lock.ts): the service is stopped, so nothing writes
 * the database or the index while they are copied and the copy is consistent by construction
 * (pausing writes rather than copying one LanceDB version's files out from under a running
 * ingest and its compactions). The embedded database is dumped by PGlite itself
 * (`dumpDataDir`: one tar.gz of its data folder); the index is checked first (a damaged index
 * is not backed up: see index-health.ts) and then copied; the other files of DATA_DIR (the
 * trained model, the citation counts, the session secret) are copied as they are. With
 * PostgreSQL (DATABASE_URL) the database is not in DATA_DIR: back it up with `pg_dump`.
 *
 * A backup folder: `backup.json` (what it holds), `pglite.tar.gz` (embedded database only),
 * and the rest of DATA_DIR's files as they were.
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Config } from '../config.js';
import { lockDataDir } from '../data-dir-lock.js';
import { closeOrm, createOrm, migrateUp, PGLITE_START_PARAMS } from '../db/orm.js';
import { createSearchEngine } from '../engines/create-search-engine.js';
import { createLogger, type Logger } from '../logger.js';
import { createIndexRecordStore } from '../modules/legal-data/catalog.store.js';
import { findIndexDamage } from '../modules/legal-data/index-health.js';

const MANIFEST = 'backup.json';
const PGLITE_DUMP = 'pglite.tar.gz';
/** Entries of DATA_DIR a backup does not copy as files: PGlite's folder is dumped, the lock is the running process's. */
const NOT_COPIED = new Set(['pglite', '.lock']);

export interface BackupManifest {
  created_at: string;
  database: 'pglite' | 'postgresql';
  documents: number;
  chunks: number;
}

/** A folder that does not exist yet, or is empty; throws otherwise (a backup or restore never overwrites). */
async function emptyFolder(dir: string, what: string): Promise<void> {
  if (existsSync(dir) && (await readdir(dir)).length > 0) throw new Error(`${what} ${dir} is not empty: give a new folder`);
  await mkdir(dir, { recursive: true });
}

/** Writes a backup of `config.dataDir` into `outDir` (new or empty); the service must be stopped. */
export async function backupDataDir(config: Config, outDir: string, logger: Logger): Promise<BackupManifest> {
  if (!existsSync(config.dataDir)) throw new Error(`DATA_DIR ${config.dataDir} does not exist`);
  await emptyFolder(outDir, 'the backup folder');
  const lock = lockDataDir(config.dataDir);
  try {
    // One PGlite instance for the check and the dump (a second one in the same process never became ready).
    const pg = config.databaseUrl ? undefined : new PGlite(path.join(config.dataDir, 'pglite'), { startParams: [...PGLITE_START_PARAMS] });
    let counts: { documents: number; chunks: number };
    try {
      counts = await checkedIndexCounts(config, pg);
      if (pg) {
        const dump = await pg.dumpDataDir('gzip');
        await writeFile(path.join(outDir, PGLITE_DUMP), Buffer.from(await dump.arrayBuffer()));
      }
    } finally {
      await pg?.close();
    }
    const manifest: BackupManifest = { created_at: new Date().toISOString(), database: config.databaseUrl ? 'postgresql' : 'pglite', ...counts };
    if (pg) {
      logger.info(`backup: embedded database dumped (${PGLITE_DUMP})`);
    } else {
      logger.warn('backup: the database is PostgreSQL (DATABASE_URL): back it up with pg_dump (docs/reliability.md#backup); this backup holds the index and the files of DATA_DIR');
    }
    for (const name of await readdir(config.dataDir)) {
      if (!NOT_COPIED.has(name)) await cp(path.join(config.dataDir, name), path.join(outDir, name), { recursive: true });
    }
    await writeFile(path.join(outDir, MANIFEST), JSON.stringify(manifest, null, 2) + '\n');
    logger.info(`backup: ${outDir} holds the index (${counts.documents} documents, ${counts.chunks} passages) and the files of ${config.dataDir}`);
    return manifest;
  } finally {
    lock.release();
  }
}

/** The index's counts once checked against the database's record; throws when it is damaged. */
async function checkedIndexCounts(config: Config, pglite: PGlite | undefined): Promise<{ documents: number; chunks: number }> {
  const orm = await createOrm(config, { pglite });
  const engine = createSearchEngine(config, createLogger('silent'));
  try {
    await migrateUp(orm);
    const damage = await findIndexDamage(engine, createIndexRecordStore(orm));
    if (damage) throw new Error(`the index in ${config.dataDir} is damaged (${damage}): start the service to rebuild it, then back it up`);
    const [documents, chunks] = await Promise.all([engine.countDocuments(), engine.countChunks()]);
    return { documents, chunks: chunks.total };
  } finally {
    await engine.close().catch(() => undefined);
    await closeOrm(orm);
  }
}

/** Restores the backup in `fromDir` into `config.dataDir` (new or empty). */
export async function restoreDataDir(config: Config, fromDir: string, logger: Logger): Promise<BackupManifest> {
  const manifest = JSON.parse(await readFile(path.join(fromDir, MANIFEST), 'utf8').catch(() => {
    throw new Error(`${fromDir} is not a backup (no ${MANIFEST})`);
  })) as BackupManifest;
  await emptyFolder(config.dataDir, 'DATA_DIR');
  const lock = lockDataDir(config.dataDir);
  try {
    for (const name of await readdir(fromDir)) {
      if (name !== MANIFEST && name !== PGLITE_DUMP) await cp(path.join(fromDir, name), path.join(config.dataDir, name), { recursive: true });
    }
    if (manifest.database === 'pglite') {
      const dump = new Blob([await readFile(path.join(fromDir, PGLITE_DUMP))]);
      const pg = new PGlite(path.join(config.dataDir, 'pglite'), { loadDataDir: dump, startParams: [...PGLITE_START_PARAMS] });
      await pg.waitReady;
      await pg.close();
    } else {
      logger.warn('restore: the backup was taken with PostgreSQL: restore the database with pg_restore / psql from your pg_dump');
    }
    logger.info(`restore: ${config.dataDir} restored from ${fromDir} (taken ${manifest.created_at}: ${manifest.documents} documents)`);
    return manifest;
  } finally {
    lock.release();
  }
}
