/**
 * A storage error of the index while serving (issue #33 item 6): a file of the embedded index cut,
 * deleted or overwritten under the running service made every search that touched it a 500
 * while /ready said 200. This wrapper is where the service hears of it: a read that fails with
 * what the engine calls a storage error (`SearchEngine.isStorageError`) is reported to `faults`
 * (which starts the rebuild, once) and answered with the domain error it returns (503 with
 * Retry-After). While the index is being rebuilt, every failed read is taken as the rebuild's
 * doing (its tables are closed and its folder deleted under the reads in flight). Any other
 * error passes unchanged: a bug stays a 500.
 */
import { DomainError } from '../errors.js';
import { READS } from './request-engine.js';
import type { SearchEngine } from './search-engine.js';

/** What the service does about a damaged index (src/modules/legal-data/index-repair.ts). */
export interface StorageFaults {
  /** A read failed on a damaged index: returns what the caller is answered (503). */
  storageError(error: unknown): DomainError;
  /** Whether the index is being rebuilt now. */
  rebuilding(): boolean;
}

/** The reads watched: a request's, and the counts /ready and the catalogue take. */
const WATCHED = new Set<string | symbol>([...READS, 'countDocuments', 'countChunks']);

/** `engine` whose reads report storage errors to `faults()` (late-bound: the repair is built after the engine). */
export function reportStorageFaults(engine: SearchEngine, faults: () => StorageFaults | null): SearchEngine {
  if (!engine.isStorageError) return engine;
  const isStorageError = engine.isStorageError.bind(engine);
  const watch = async (method: (...args: unknown[]) => Promise<unknown>, args: unknown[]) => {
    try {
      return await method.apply(engine, args);
    } catch (error) {
      const handler = faults();
      if (!handler || error instanceof DomainError || (error as Error)?.name === 'AbortError') throw error;
      if (isStorageError(error) || handler.rebuilding()) throw handler.storageError(error);
      throw error;
    }
  };
  return new Proxy(engine, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => Promise<unknown>;
      return WATCHED.has(name) ? (...args: unknown[]) => watch(method, args) : method.bind(target);
    },
  });
}
