/**
 * The search index is derived data: the corpus and the database's record of what was ingested
 * say what it must hold. At start the index is opened and checked against both: every file
 * readable (`engine.verifyIndex`, the embedded engine's), and as many documents and chunks as
 * the last complete ingest recorded. A damaged index is deleted and rebuilt from the corpus by
 * the start-up ingest (the service serves meanwhile, `/ready` says 503 with the reason and the
 * progress); it is never served as if whole.
 *
 * The record (`index_contents` in `index_state`) is `ingesting` while an ingest may write (an
 * interrupted ingest leaves a partial index that its resumption completes: only readability is
 * checked then) and `complete` with the counts once it ends.
 */
import type { SearchEngine } from '../../engines/search-engine.js';
import type { Logger } from '../../logger.js';
import type { IndexRecordStore } from './catalog.store.js';

/** Why the index cannot be served as it is, or null when it matches the record. */
export async function findIndexDamage(engine: SearchEngine, record: IndexRecordStore): Promise<string | null> {
  try {
    await engine.open();
    await engine.verifyIndex?.();
  } catch (error) {
    return `its files cannot be read (${oneLine(error)})`;
  }
  const [documents, chunks, recorded] = await Promise.all([engine.countDocuments(), engine.countChunks(), record.read()]);
  if (recorded?.status === 'complete') {
    if (documents !== recorded.documents || chunks.total !== recorded.chunks) {
      return `it holds ${documents} documents and ${chunks.total} passages where the last complete ingest left ${recorded.documents} and ${recorded.chunks}`;
    }
    return olderVersion(recorded.versions ?? {}, (await engine.tableVersions?.()) ?? {});
  }
  // A database from before the record: its file checkpoints still say whether anything was indexed.
  if (!recorded && documents === 0) {
    const expected = await record.documentsOfCompleteFiles();
    if (expected > 0) return `it is empty where the database records ${expected} documents ingested`;
  }
  return null;
}

/**
 * Opens the engine's index, checked (see above). When it is damaged and can be rebuilt from a
 * corpus, it is deleted, opened empty and every ingest forgotten, and the reason is returned
 * (the start-up ingest then indexes everything); without a corpus to rebuild from the start
 * fails with the reason and what to do.
 */
export async function openCheckedIndex(
  engine: SearchEngine,
  record: IndexRecordStore,
  options: { canRebuild: boolean; where: string; logger: Logger },
): Promise<string | null> {
  if (!engine.verifyIndex || !engine.discardIndex) {
    await engine.open();
    return null;
  }
  const damage = await findIndexDamage(engine, record);
  if (!damage) return null;
  if (!options.canRebuild) {
    throw new Error(
      `search: the index in ${options.where} is damaged: ${damage}. It is rebuilt from the corpus at start when CORPUS_DIR is set and INGEST_ON_START is on; or restore a backup (docs/reliability.md).`,
    );
  }
  announceRebuild(options.logger, options.where, damage);
  await discardDamagedIndex(engine, record);
  return damage;
}

/** The log line of a damaged index about to be rebuilt (at start, or while serving: index-repair.ts). */
export function announceRebuild(logger: Logger, where: string, damage: string): void {
  logger.error(`search: the index in ${where} is damaged: ${damage}. Deleting it and rebuilding it from the corpus in the background; /ready answers 503 until it is whole`);
}

/**
 * Deletes a damaged index, opens it empty and forgets every ingest (one transaction), so that the
 * next ingest indexes the whole corpus: the one rebuild, at start and while serving.
 */
export async function discardDamagedIndex(engine: SearchEngine, record: IndexRecordStore): Promise<void> {
  await engine.discardIndex!();
  await record.forgetIngests();
  await engine.open();
}

/**
 * A table at an older version than the last complete ingest left it: its newer manifests are
 * gone, and the older state it opened at may hold other contents under the same counts. (Newer
 * versions are normal: the engine adds missing read indexes after the record was written.)
 */
function olderVersion(recorded: Record<string, number>, current: Record<string, number>): string | null {
  for (const [table, version] of Object.entries(recorded)) {
    if (current[table] === undefined) return `its table ${table} is missing`;
    if (current[table] < version) return `its table ${table} is at version ${current[table]} where the last complete ingest left version ${version} (newer manifests are missing)`;
  }
  return null;
}

/** Records in the database what a complete ingest left in the index (checked at the next start). */
export async function recordIndexContents(engine: SearchEngine, record: IndexRecordStore): Promise<void> {
  const [documents, chunks, versions] = await Promise.all([engine.countDocuments(), engine.countChunks(), engine.tableVersions?.()]);
  await record.write({ status: 'complete', documents, chunks: chunks.total, ...(versions ? { versions } : {}) });
}

/** The first line of an error's message, at most 300 characters (native errors carry long traces). */
export function oneLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split('\n')[0].slice(0, 300);
}
