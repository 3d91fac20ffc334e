/**
 * What a search reads besides its two legs, kept between requests: the returned hits'
 * metadata and the text of their passages. Each is a small LanceDB query whose fixed cost
 * (planning, scheduling) dominates, and the same documents come back when searches repeat
 * (the same question asked again, the next page, an agent retrying), so the entries are kept
 * in bounded LRU maps.
 *
 * The entries are only as good as the tables they were read from: the cache remembers the
 * `documents` and `chunks` versions and drops everything when either moved (our own write, an
 * optimize, or another process's ingest, seen within the read-consistency interval). It looks
 * at most once per `recheckMs`, so after a write the cache may answer from the older version
 * for that long, as the tables themselves do within their read-consistency interval.
 */
import type * as lancedb from '@lancedb/lancedb';
import type { DocumentWithoutText } from '../../modules/legal-data/legal-document.js';
import { LruCache } from '../../util/lru-cache.js';

export interface ReadCacheSizes {
  /** Documents whose metadata (without text) is kept. */
  metadata: number;
  /** Chunks whose text is kept. */
  passages: number;
}

export const DEFAULT_READ_CACHE_SIZES: ReadCacheSizes = { metadata: 5_000, passages: 5_000 };

export class ReadCache {
  readonly metadata: LruCache<string, DocumentWithoutText>;
  readonly passages: LruCache<string, string>;
  /** Bumped by every clear: a read that started before it must not fill the new epoch. */
  private epoch = 0;
  private versions: string | null = null;
  private checkedAt = -Infinity;
  private checking: Promise<void> | null = null;

  constructor(
    private readonly tables: () => { documents: lancedb.Table; chunks: lancedb.Table },
    sizes: ReadCacheSizes = DEFAULT_READ_CACHE_SIZES,
    private readonly recheckMs = 1000,
  ) {
    this.metadata = new LruCache(sizes.metadata);
    this.passages = new LruCache(sizes.passages);
  }

  /** Drops every entry (after a write of ours, or a refresh). */
  clear(): void {
    this.epoch += 1;
    this.metadata.clear();
    this.passages.clear();
  }

  /**
   * Makes sure the entries are of the tables' current versions (looked at once per recheckMs),
   * and returns the epoch a read must still be in when it stores what it read.
   */
  async fresh(): Promise<number> {
    if (performance.now() - this.checkedAt >= this.recheckMs) {
      this.checking ??= this.checkVersions().finally(() => (this.checking = null));
      await this.checking;
    }
    return this.epoch;
  }

  /** Whether a read that began in `epoch` may store its rows. */
  current(epoch: number): boolean {
    return epoch === this.epoch;
  }

  private async checkVersions(): Promise<void> {
    const { documents, chunks } = this.tables();
    const versions = `${await documents.version()}/${await chunks.version()}`;
    this.checkedAt = performance.now();
    if (versions !== this.versions) {
      if (this.versions !== null) this.clear();
      this.versions = versions;
    }
  }
}
