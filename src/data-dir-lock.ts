/**
 * One process at a time owns DATA_DIR: embedded PGlite and the index writer must never be
 * opened by two processes (say the server and `npm run ingest`). A lock file holds the
 * owner's pid; a lock left by a process that no longer runs is taken over.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export class DataDirLockedError extends Error {
  constructor(dataDir: string, pid: number) {
    super(`DATA_DIR ${dataDir} is in use by process ${pid} (the service or an ingest). Stop it first, or use another DATA_DIR.`);
    this.name = 'DataDirLockedError';
  }
}

export interface DataDirLock {
  release(): void;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock of `dataDir` (which must exist) for this process. */
export function lockDataDir(dataDir: string): DataDirLock {
  const file = path.join(dataDir, '.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return { release: () => rmSync(file, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(readFileSync(file, 'utf8').trim());
      if (owner && owner !== process.pid && isRunning(owner)) throw new DataDirLockedError(dataDir, owner);
      rmSync(file, { force: true }); // stale lock (or our own from an earlier platform in this process)
    }
  }
  throw new Error(`could not take the lock of ${dataDir}`);
}
