/**
 * `npm run restore -- --from DIR`: restores a backup written by `npm run backup` into DATA_DIR,
 * which must be new or empty (a restore never overwrites a data folder). Then `npm start`.
 */
import { parseArgs } from 'node:util';
import path from 'node:path';
import { ConfigError, loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { restoreDataDir } from './data-dir-backup.js';

const { values } = parseArgs({ options: { from: { type: 'string' } } });
if (!values.from) {
  process.stderr.write('Usage: npm run restore -- --from DIR   (into DATA_DIR, which must be new or empty)\n');
  process.exit(2);
}
try {
  const config = loadConfig();
  await restoreDataDir(config, path.resolve(values.from), createLogger(config.logLevel === 'silent' ? 'silent' : 'info'));
} catch (error) {
  process.stderr.write(`${error instanceof ConfigError ? error.message : `Restore failed: ${(error as Error).message}`}\n`);
  process.exitCode = 1;
}
