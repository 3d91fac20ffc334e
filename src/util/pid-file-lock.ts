/**
 * A folder written by one process at a time: a lock file holding the writer's pid, created
 * exclusively. A lock whose process no longer runs (killed, or a zombie nobody reaped) is taken
 * over; a live one is waited for, up to a bound.
 */
import { readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';

export class PidLockBusyError extends Error {
  constructor(file: string, pid: number) {
    super(`${file} is held by running process ${pid}`);
    this.name = 'PidLockBusyError';
  }
}

/** Whether `pid` runs (a zombie, ended but not reaped, does not: it writes nothing). */
export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return true; // no /proc (not Linux): kill(pid, 0) answered
  }
}

function holderOf(file: string): number | null {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Takes `file` for this process; while another running process holds it, waits (telling
 * `onWait` once) up to `waitMs`, then throws PidLockBusyError. Returns the release function.
 */
export async function takePidLock(file: string, options: { waitMs: number; onWait?: (holder: number) => void; pollMs?: number }): Promise<() => Promise<void>> {
  const deadline = Date.now() + options.waitMs;
  let told = false;
  for (;;) {
    try {
      await writeFile(file, String(process.pid), { flag: 'wx' });
      return () => rm(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = holderOf(file);
    if (holder === null || holder === process.pid || !isProcessRunning(holder)) {
      await rm(file, { force: true }); // stale: its writer is gone
      continue;
    }
    if (Date.now() > deadline) throw new PidLockBusyError(file, holder);
    if (!told) options.onWait?.(holder);
    told = true;
    await sleep(options.pollMs ?? 200);
  }
}
