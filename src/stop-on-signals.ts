/**
 * The one owner of SIGINT and SIGTERM: the first one starts `stop()`, and the process exits 0
 * when it succeeds, 1 when a step failed (the step logs why). No library installs handlers of
 * its own (Apollo's `stopOnTerminationSignals` is off): two owners raced, and the loser's
 * `process.exit(1)` cut the shutdown short.
 *
 * Repeated signals: the second is logged and ignored, the third exits 1 at once. A single
 * Ctrl-C under `npm start` can deliver SIGINT more than once (the terminal signals the whole
 * process group, and npm and tsx pass signals on), and an orchestrator may repeat SIGTERM;
 * neither must cut the drain short. A human who really wants out presses Ctrl-C again; the drain's
 * own deadline (SHUTDOWN_DRAIN_SECONDS) bounds the wait otherwise.
 */
import type { Logger } from './logger.js';

/** Signals after the first that are ignored before one forces the exit. */
const IGNORED_REPEATS = 1;

/** Installs the process's SIGINT/SIGTERM handlers around `stop`. */
export function stopOnSignals(stop: () => Promise<void>, logger: Pick<Logger, 'info' | 'warn' | 'error'>): void {
  let received = 0;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      received++;
      if (received > 1 + IGNORED_REPEATS) {
        logger.error(`${signal}: signal ${received} while stopping: exiting now, without finishing the shutdown`);
        process.exit(1);
      }
      if (received > 1) {
        logger.warn(`${signal}: already stopping (another signal forces the exit)`);
        return;
      }
      logger.info(`${signal}: stopping (the ingest resumes at the next start)`);
      const started = Date.now();
      stop().then(
        () => {
          logger.info(`shutdown: done in ${Date.now() - started} ms`);
          process.exit(0);
        },
        (error: Error) => {
          logger.error(`shutdown: ${error.message}`);
          process.exit(1);
        },
      );
    });
  }
}
