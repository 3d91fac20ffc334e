/**
 * The text of the passages searches returned, kept between requests: reading them is a small
 * LanceDB query whose fixed cost (planning, scheduling) dominates, and the same passages come
 * back when searches repeat (the same question asked again, the next page, an agent retrying),
 * so they are kept in a bounded LRU map. (The hits' metadata needs no cache: search reads it
 * from the reference index in memory.)
 *
 * The entries are only as good as the table they were read from: the cache remembers the
 * `chunks` table's version and drops everything when it moved (our own write, an optimize, or
 * another process's ingest, seen within the read-consistency interval). It looks at most once
 * per `recheckMs`, so after a write the cache may answer from the older version for that long,
 * as the table itself does within its read-consistency interval.
 */
import type * as lancedb from '@lancedb/lancedb';
import { LruCache } from '../../util/lru-cache.js';

export interface ReadCacheSizes {
  /** Chunks whose text is kept. */
  passages: number;
}

export const DEFAULT_READ_CACHE_SIZES: ReadCacheSizes = { passages: 5_000 };

export class ReadCache {
  readonly passages: LruCache<string, string>;
  /** Bumped by every clear: a read that started before it must not fill the new epoch. */
  private epoch = 0;
  private version: number | null = null;
  private checkedAt = -Infinity;
  private checking: Promise<void> | null = null;

  constructor(
    private readonly chunks: () => lancedb.Table,
    sizes: ReadCacheSizes = DEFAULT_READ_CACHE_SIZES,
    private readonly recheckMs = 1000,
  ) {
    this.passages = new LruCache(sizes.passages);
  }

  /** Drops every entry (after a write of ours, or a refresh). */
  clear(): void {
    this.epoch += 1;
    this.passages.clear();
  }

  /**
   * Makes sure the entries are of the table's current version (looked at once per recheckMs),
   * and returns the epoch a read must still be in when it stores what it read.
   */
  async fresh(): Promise<number> {
    if (performance.now() - this.checkedAt >= this.recheckMs) {
      this.checking ??= this.checkVersion().finally(() => (this.checking = null));
      await this.checking;
    }
    return this.epoch;
  }

  /** Whether a read that began in `epoch` may store its rows. */
  current(epoch: number): boolean {
    return epoch === this.epoch;
  }

  private async checkVersion(): Promise<void> {
    const version = await this.chunks().version();
    this.checkedAt = performance.now();
    if (version !== this.version) {
      if (this.version !== null) this.clear();
      this.version = version;
    }
  }
}
