/**
 * The text of the passages searches returned, kept between requests: reading them is a small
 * LanceDB query whose fixed cost (planning, scheduling) dominates, and the same passages come
 * back when searches repeat (the same question asked again, the next page, an agent retrying),
 * so they are kept in a bounded LRU map: lru-cache (in a micro-benchmark of this cache's pattern,
 * 5,000 entries, ~75% hits, 150-330 ns per read-or-fill against ~1 µs for the Map-based one it
 * replaced, whose delete-and-reinsert on every read is the slow part). (The hits' metadata needs
 * no cache: search reads it from the reference index in memory.)
 *
 * The entries are only as good as the table they were read from: the cache remembers the
 * `chunks` table's version and drops everything when it moved (our own write, an optimize, or
 * another process's ingest, seen within the read-consistency interval). It looks at most once
 * per `recheckMs`, so after a write the cache may answer from the older version for that long,
 * as the table itself does within its read-consistency interval.
 */
import type * as lancedb from '@lancedb/lancedb';
import { LRUCache } from 'lru-cache';

/** Passages kept by default. */
export const PASSAGE_CACHE_SIZE = 5_000;

export class PassageCache {
  /** Null when the size is 0 (no caching): lru-cache requires a positive bound. */
  private readonly entries: LRUCache<string, string> | null;
  /** Bumped by every clear: a read that started before it must not fill the new epoch. */
  private epoch = 0;
  private version: number | null = null;
  private checkedAt = -Infinity;
  private checking: Promise<void> | null = null;

  constructor(
    private readonly chunks: () => lancedb.Table,
    size = PASSAGE_CACHE_SIZE,
    private readonly recheckMs = 1000,
  ) {
    this.entries = size > 0 ? new LRUCache({ max: size }) : null;
  }

  /** Drops every entry (after a write of ours, or a refresh). */
  clear(): void {
    this.epoch += 1;
    this.entries?.clear();
  }

  /** The text of these chunks: kept ones from memory, the others through `read` (and kept). */
  async get(chunkIds: string[], read: (missing: string[]) => Promise<Map<string, string>>): Promise<Map<string, string>> {
    const epoch = await this.fresh();
    const out = new Map<string, string>();
    const missing: string[] = [];
    for (const id of new Set(chunkIds)) {
      const text = this.entries?.get(id);
      if (text === undefined) missing.push(id);
      else out.set(id, text);
    }
    if (missing.length === 0) return out;
    const found = await read(missing);
    // A write or a newer table version during the read: what it read may be the older one.
    const keep = epoch === this.epoch;
    for (const [id, text] of found) {
      out.set(id, text);
      if (keep) this.entries?.set(id, text);
    }
    return out;
  }

  /** Makes sure the entries are of the table's current version (looked at once per recheckMs). */
  private async fresh(): Promise<number> {
    if (performance.now() - this.checkedAt >= this.recheckMs) {
      this.checking ??= this.checkVersion().finally(() => (this.checking = null));
      await this.checking;
    }
    return this.epoch;
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
