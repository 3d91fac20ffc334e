/**
 * A storage error of the index while serving (issue #33 item 6): the start-up check
 * (index-health.ts) finds damage done while the service was stopped; this is for damage done
 * under a running service (a file cut, deleted or overwritten; a disk that fails a read).
 * The engine's reads report it (src/engines/storage-faults.ts); the first report:
 * - makes the service not ready (`/ready` 503 with `index_rebuild.reason`), and says so in the
 *   log once, in the words of the start-up check;
 * - starts the start-up's rebuild (`rebuild`, from platform.ts: after the ingest running now
 *   ends, the index is deleted, opened empty, every ingest forgotten, and the corpus ingested
 *   again in the background with its progress on `/ready`).
 * Every request that meets the damage, before and during the rebuild, is answered 503 with
 * Retry-After; the reports that come while a rebuild is pending or running start nothing more.
 * Without a corpus to rebuild from, the service stays not ready until it is restarted with one
 * (the start-up check then fails the start with what to do).
 */
import { DomainError } from '../../errors.js';
import type { StorageFaults } from '../../engines/storage-faults.js';
import type { Logger } from '../../logger.js';
import { announceRebuild, oneLine } from './index-health.js';

/** What a client is told to wait before trying again: a small corpus is rebuilt in tens of seconds. */
export const INDEX_REBUILD_RETRY_AFTER_SECONDS = 30;

/** The service's side of a rebuild: its readiness. */
export interface IndexRebuildState {
  /** Why the index is being rebuilt (found damaged at start or while serving), or null. */
  indexRebuildReason(): string | null;
  /** The index was found damaged while serving: not ready until a rebuild started after this completes. */
  indexDamaged(reason: string): void;
  /** No rebuild pending (null): after a rebuild failed, so the next storage error tries again. */
  setIndexRebuild(reason: null): void;
}

export class IndexRepair implements StorageFaults {
  private running: Promise<void> | null = null;

  constructor(
    private readonly deps: {
      state: IndexRebuildState;
      /** CORPUS_DIR is set and INGEST_ON_START on: the index can be rebuilt. */
      canRebuild: boolean;
      /** The index's folder, for the log. */
      where: string;
      logger: Logger;
      /** The start-up's rebuild: the damaged index deleted, then the corpus ingested again. */
      rebuild: () => Promise<unknown>;
    },
  ) {}

  storageError(error: unknown): DomainError {
    const { state, canRebuild, where, logger } = this.deps;
    // A rebuild pending or running (this one, or the start-up's) already covers this error.
    if (state.indexRebuildReason() === null) {
      const reason = `a query failed with a storage error (${oneLine(error)})`;
      state.indexDamaged(reason);
      if (canRebuild) {
        announceRebuild(logger, where, reason);
        this.running = this.deps
          .rebuild()
          .then(
            () => undefined,
            (failure: unknown) => {
              // not ready still (the index is damaged or half-built), but the next storage error tries again
              state.setIndexRebuild(null);
              logger.error('search: rebuilding the damaged index failed; the next query that meets the damage tries again', failure);
            },
          )
          .finally(() => (this.running = null));
      } else {
        logger.error(`search: the index in ${where} is damaged: ${reason}. It cannot be rebuilt without a corpus (CORPUS_DIR, INGEST_ON_START): restart with one, or restore a backup (docs/reliability.md); /ready answers 503 until then`);
      }
    }
    const message = canRebuild ? 'The search index is damaged and is being rebuilt; try again shortly' : 'The search index is damaged; try again later';
    return new DomainError('unavailable', message, { retryAfterSeconds: INDEX_REBUILD_RETRY_AFTER_SECONDS });
  }

  rebuilding(): boolean {
    return this.running !== null;
  }
}
