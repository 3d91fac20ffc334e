/** Composition root: configuration -> platform -> listen, with a clean shutdown. */
import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { startPlatform } from './platform.js';
import { stopOnSignals } from './stop-on-signals.js';
import { collectGarbage } from './util/collect-garbage.js';

let config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  throw error;
}
const logger = createLogger(config.logLevel);
const platform = await startPlatform(config, logger).catch((error: Error) => {
  logger.error(`cannot start: ${error.message}`);
  process.exit(1);
});
// What starting (and the start-up ingest) left behind would otherwise stay resident for long.
await collectGarbage();
void platform.ingestDone.then(collectGarbage, () => undefined);

stopOnSignals(() => platform.stop(), logger);
