/**
 * What the writer knows is stored, kept in memory between writes: each stored document's content
 * hash and analysis version, and whether every passage has its document row. An ingest asked the
 * tables this for every batch (three `IN (…)` lookups over the tables' unindexed fragments, which
 * grew with the ingest: 60 of its first 90 seconds); now it reads them once, at the first write.
 *
 * Passages are written before their document row (a crash mid-batch leaves the document
 * "changed"), so a crash can leave passages whose document row is missing. They are removed
 * once, when the ledger is read: after that, the only writer of these tables is this process
 * (the data folder's lock), and a write of its own that fails drops the ledger, so the next
 * write reads it again and removes what that failure left. A table moved by another process (a
 * version this one did not write) is read again too.
 */
import type * as lancedb from '@lancedb/lancedb';

export interface StoredVersion {
  hash: string;
  analysisVersion: number;
}

export class StoredLedger {
  private versions: Map<string, StoredVersion> | null = null;
  /** The tables' versions the ledger describes (after its own writes). */
  private seen: { documents: number; chunks: number } | null = null;

  /**
   * The stored versions, read now if the ledger was dropped or another writer moved the tables;
   * passages without a document row are deleted by `removeOrphans` on that read.
   */
  async current(documents: lancedb.Table, chunks: lancedb.Table, removeOrphans: (docIds: string[]) => Promise<void>): Promise<Map<string, StoredVersion>> {
    if (this.versions && this.seen) {
      const [d, c] = await Promise.all([documents.version(), chunks.version()]);
      if (d === this.seen.documents && c === this.seen.chunks) return this.versions;
    }
    this.versions = await readVersions(documents);
    const orphans = await chunkOwnersWithoutDocument(chunks, this.versions);
    if (orphans.length > 0) await removeOrphans(orphans);
    await this.settle(documents, chunks);
    return this.versions;
  }

  /** A write of documents succeeded: those written now and those deleted (the tables' versions follow in `settle`). */
  record(change: { written?: Map<string, StoredVersion>; deleted?: string[] }): void {
    if (!this.versions) return;
    for (const [id, version] of change.written ?? []) this.versions.set(id, version);
    for (const id of change.deleted ?? []) this.versions.delete(id);
  }

  /** After any successful write of this process (documents recorded, indexes built, compaction): the versions it left. */
  async settle(documents: lancedb.Table, chunks: lancedb.Table): Promise<void> {
    if (!this.versions) return;
    const [d, c] = await Promise.all([documents.version(), chunks.version()]);
    this.seen = { documents: d, chunks: c };
  }

  /** A write failed half-way (or the index was replaced): read everything again next time. */
  drop(): void {
    this.versions = null;
    this.seen = null;
  }
}

async function readVersions(documents: lancedb.Table): Promise<Map<string, StoredVersion>> {
  const out = new Map<string, StoredVersion>();
  for await (const batch of documents.query().select(['id', 'content_hash', 'analysis_version'])) {
    for (const r of batch.toArray() as unknown as { id: string; content_hash: string; analysis_version: number }[]) {
      out.set(r.id, { hash: r.content_hash, analysisVersion: Number(r.analysis_version) });
    }
  }
  return out;
}

/** Owners of passages that have no document row. */
async function chunkOwnersWithoutDocument(chunks: lancedb.Table, stored: Map<string, StoredVersion>): Promise<string[]> {
  const orphans = new Set<string>();
  for await (const batch of chunks.query().select(['doc_id'])) {
    for (const row of batch.toArray() as unknown as { doc_id: string }[]) {
      if (!stored.has(row.doc_id)) orphans.add(row.doc_id);
    }
  }
  return [...orphans];
}
