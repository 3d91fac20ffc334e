import type { Logger } from '../logger.js';

/** A warning logged at most once every 10 s, with the count of the failures in between. */
export class ThrottledWarning {
  private last = 0;
  private unreported = 0;

  /** Logs `message` unless one was logged in the last 10 s; `more` names the failures in between. */
  warn(logger: Logger | undefined, message: (more: string) => string): void {
    this.unreported += 1;
    if (Date.now() - this.last < 10_000) return;
    this.last = Date.now();
    const more = this.unreported > 1 ? ` (${this.unreported} failures since the last warning)` : '';
    this.unreported = 0;
    logger?.warn(message(more));
  }
}
