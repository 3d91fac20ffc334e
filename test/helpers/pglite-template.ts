/**
 * A PGlite cluster migrated once and copied into each test's DATA_DIR (docs/testing.md). A fresh
 * PGlite cluster (initdb in WebAssembly) plus every migration costs ~7 s of CPU; copying the
 * folder of one already made costs a fraction of a second. The service itself is unchanged: it
 * finds `${DATA_DIR}/pglite` there, as after any earlier start, and has no migration to apply.
 *
 * The template lives in the OS temp folder under a name keyed on everything it is made of (the
 * files of migrations/, the PGlite version, its start parameters), so a changed migration makes a
 * new one and an old one is never used. It is built in a folder of its own and renamed into place
 * when done, so a reader never sees half a cluster and two builders racing do not need a lock: the
 * first rename wins, the other build is thrown away. It is made once before the workers start
 * (test/global-setup.mjs) and on first use otherwise (a single file, a bench script).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { closeOrm, createOrm, migrateUp, MIGRATIONS_DIR, PGLITE_START_PARAMS } from '../../src/db/orm.js';

/** Byte offset of `state` in PostgreSQL's pg_control (after system_identifier, two uint32 versions). */
const PG_CONTROL_STATE_OFFSET = 16;
/** DBState DB_SHUTDOWNED: the server stopped cleanly (a checkpoint, nothing to recover). */
const DB_SHUTDOWNED = 1;

/** The installed PGlite's version, part of the key: another PGlite may not read this one's files. */
function pgliteVersion(): string {
  const require = createRequire(import.meta.url);
  const main = require.resolve('@electric-sql/pglite');
  let dir = path.dirname(main);
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/** A hash of every file in `migrationsDir` (names and contents), the PGlite version and its start parameters. */
export function pgliteTemplateKey(migrationsDir: string = MIGRATIONS_DIR): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(migrationsDir).sort()) {
    hash.update(`${name}\0`);
    hash.update(readFileSync(path.join(migrationsDir, name)));
    hash.update('\0');
  }
  hash.update(`pglite ${pgliteVersion()}\0${PGLITE_START_PARAMS.join(' ')}`);
  return hash.digest('hex').slice(0, 16);
}

/** True when the cluster in `pgliteDir` was shut down cleanly (pg_control says so), so a copy needs no recovery. */
export function isCleanlyShutDown(pgliteDir: string): boolean {
  const control = path.join(pgliteDir, 'global', 'pg_control');
  return existsSync(control) && readFileSync(control).readUInt32LE(PG_CONTROL_STATE_OFFSET) === DB_SHUTDOWNED;
}

/** Creates a PGlite cluster in `pgliteDir`, applies every migration, closes it, and checks it closed cleanly. */
async function buildMigratedCluster(pgliteDir: string): Promise<void> {
  const orm = await createOrm({ databaseUrl: undefined, dataDir: '' }, { pgliteDir });
  try {
    await migrateUp(orm);
  } finally {
    await closeOrm(orm);
  }
  if (!isCleanlyShutDown(pgliteDir)) throw new Error(`the PGlite template in ${pgliteDir} was not shut down cleanly`);
}

let made: Promise<string> | undefined;

/** The template cluster's folder (a PGlite data folder, every current migration applied), made when missing. */
export function pgliteTemplate(): Promise<string> {
  made ??= (async () => {
    const dir = path.join(os.tmpdir(), `lsp-pglite-template-${pgliteTemplateKey()}`);
    if (existsSync(dir)) return dir;
    const build = await mkdtemp(path.join(os.tmpdir(), 'lsp-pglite-template-build-'));
    try {
      await buildMigratedCluster(path.join(build, 'pglite'));
      await rename(path.join(build, 'pglite'), dir);
    } catch (error) {
      // another process renamed its own build into place first: use that one
      if (!existsSync(dir)) throw error;
    } finally {
      await rm(build, { recursive: true, force: true });
    }
    return dir;
  })();
  made.catch(() => (made = undefined));
  return made;
}

/** Copies the template cluster into `${dataDir}/pglite`, where the service opens PGlite. */
export async function copyPgliteTemplate(dataDir: string): Promise<void> {
  await cp(await pgliteTemplate(), path.join(dataDir, 'pglite'), { recursive: true, errorOnExist: true, force: false });
}

/**
 * A new temp DATA_DIR (`prefix` names it). For a service on embedded PGlite (the default) its
 * database is already migrated; on PostgreSQL (DATABASE_URL) the folder stays empty. A test of
 * migrations, or of a first start on an empty DATA_DIR, uses mkdtemp instead.
 */
export async function makeTestDataDir(prefix: string, backend: 'pglite' | 'postgresql' = 'pglite'): Promise<string> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), prefix));
  if (backend === 'pglite') await copyPgliteTemplate(dataDir);
  return dataDir;
}
