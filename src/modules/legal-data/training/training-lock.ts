/**
 * Two trainers never write one model folder: each holds `<folder>.training.lock` (its pid) while
 * it trains. A trainer whose server was killed ends by itself (exit-with-parent.ts), so a
 * restarted server's trainer that finds the old one still holding the lock waits for it to go;
 * one that still holds it after TRAINING_LOCK_WAIT_MS (a trainer started by hand) is an error.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { takePidLock } from '../../../util/pid-file-lock.js';

export const TRAINING_LOCK_WAIT_MS = 60_000;

/** The lock file of a model folder (beside it: the folder itself is replaced when the model is written). */
export function trainingLockFile(outDir: string): string {
  return path.join(path.dirname(outDir), `.${path.basename(outDir)}.training.lock`);
}

/** Takes the model folder's lock for this process (waiting for a running trainer to end); returns its release. */
export async function lockTrainingFolder(outDir: string, log: (line: string) => void, waitMs = TRAINING_LOCK_WAIT_MS): Promise<() => Promise<void>> {
  await mkdir(path.dirname(outDir), { recursive: true });
  return takePidLock(trainingLockFile(outDir), {
    waitMs,
    onWait: (holder) => log(`train: another trainer (process ${holder}) is writing ${outDir}: waiting for it to end`),
  });
}
