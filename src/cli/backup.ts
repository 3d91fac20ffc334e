/**
 * `npm run backup -- --out DIR`: a consistent copy of DATA_DIR (the embedded database dumped
 * by PGlite, the index checked and copied, the trained model and the other files) into a new
 * folder, taken while the service is stopped. With PostgreSQL the database is backed up with
 * `pg_dump` (docs/reliability.md#backup). Restored with `npm run restore`.
 */
import { parseArgs } from 'node:util';
import path from 'node:path';
import { ConfigError, loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { backupDataDir } from './data-dir-backup.js';

const { values } = parseArgs({ options: { out: { type: 'string' } } });
if (!values.out) {
  process.stderr.write('Usage: npm run backup -- --out DIR   (DIR new or empty; DATA_DIR is the folder backed up)\n');
  process.exit(2);
}
try {
  const config = loadConfig();
  await backupDataDir(config, path.resolve(values.out), createLogger(config.logLevel === 'silent' ? 'silent' : 'info'));
} catch (error) {
  process.stderr.write(`${error instanceof ConfigError ? error.message : `Backup failed: ${(error as Error).message}`}\n`);
  process.exitCode = 1;
}
