/**
 * `npm run db:migrate`: applies pending migrations to the configured database
 * (DATABASE_URL, or the embedded PGlite under DATA_DIR) and prints what it applied.
 */
import { ConfigError, loadConfig } from '../config.js';
import { closeOrm, createOrm, migrateUp, type Orm } from '../db/orm.js';

async function main(): Promise<number> {
  let orm: Orm | undefined;
  try {
    const config = loadConfig();
    const target = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}/pglite`;
    orm = await createOrm(config);
    const applied = await migrateUp(orm);
    for (const name of applied) process.stdout.write(`applied ${name}\n`);
    process.stdout.write(
      applied.length === 0
        ? `database is up to date (${target})\n`
        : `applied ${applied.length} migration(s) to ${target}\n`,
    );
    return 0;
  } catch (error) {
    const message = error instanceof ConfigError ? error.message : `Migration failed: ${(error as Error)?.message ?? String(error)}`;
    process.stderr.write(`${message}\n`);
    return 1;
  } finally {
    if (orm) await closeOrm(orm).catch(() => undefined);
  }
}

process.exitCode = await main();
