import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DataDirLockedError, lockDataDir } from './data-dir-lock.js';

describe('lockDataDir', () => {
  it('refuses a DATA_DIR held by another running process, and takes over stale locks', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'lock-'));
    const other = spawn('sleep', ['30']);
    try {
      writeFileSync(path.join(dir, '.lock'), String(other.pid));
      expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    } finally {
      other.kill();
      await new Promise((r) => other.once('exit', r));
    }
    // The holder is gone: its lock is stale.
    const lock = lockDataDir(dir);
    expect(existsSync(path.join(dir, '.lock'))).toBe(true);
    lock.release();
    expect(existsSync(path.join(dir, '.lock'))).toBe(false);
  });
});
