/**
 * Spill files of the durable batch queue (durable-batches.ts): one file per spilled batch in one
 * folder (`DATA_DIR/usage-spill/`), each written atomically (write + fsync to `*.tmp`, rename,
 * fsync of the folder), so a crash leaves either the whole batch or none of it; a `*.tmp` left by a
 * crash is an unfinished write and is removed at the next start. The file is JSON:
 * `{ "kind": ..., "rows": [...] }`; dates are ISO strings (each kind revives its own rows).
 */
import { open, mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';

export interface SpilledBatch {
  file: string;
  kind: string;
  rows: number;
  /** When the oldest row of the batch was added (from the file name). */
  firstAt: number;
}

let sequence = 0;

/** Writes `rows` of `kind` to a new spill file in `dir`; returns it. */
export async function spillBatch(dir: string, kind: string, rows: readonly unknown[], firstAt: number): Promise<SpilledBatch> {
  await mkdir(dir, { recursive: true });
  // sortable: oldest first at replay; pid and a sequence keep two processes or two spills apart
  const name = `${String(firstAt).padStart(15, '0')}-${process.pid}-${++sequence}-${kind}-${rows.length}.json`;
  const file = path.join(dir, name);
  const handle = await open(`${file}.tmp`, 'w');
  try {
    await handle.writeFile(JSON.stringify({ kind, rows }));
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(`${file}.tmp`, file);
    await syncFolder(dir);
  } catch (error) {
    await rm(`${file}.tmp`, { force: true });
    throw error;
  }
  return { file, kind, rows: rows.length, firstAt };
}

/** The spill files in `dir`, oldest first (unfinished `*.tmp` writes are removed). */
export async function listSpilled(dir: string): Promise<SpilledBatch[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const batches: SpilledBatch[] = [];
  for (const name of names.sort()) {
    if (name.endsWith('.tmp')) {
      await rm(path.join(dir, name), { force: true });
      continue;
    }
    const match = /^(\d+)-\d+-\d+-(.+)-(\d+)\.json$/.exec(name);
    if (match) batches.push({ file: path.join(dir, name), kind: match[2]!, rows: Number(match[3]), firstAt: Number(match[1]) });
  }
  return batches;
}

/** The rows of a spill file. */
export async function readSpilled(batch: SpilledBatch): Promise<unknown[]> {
  const parsed = JSON.parse(await readFile(batch.file, 'utf8')) as { kind: string; rows: unknown[] };
  return parsed.rows;
}

/** Deletes a spill file whose rows are written. */
export async function removeSpilled(batch: SpilledBatch): Promise<void> {
  await rm(batch.file, { force: true });
}

async function syncFolder(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
