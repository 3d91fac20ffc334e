/**
 * `npx tsx bench/pglite-memory.ts`: resident memory an embedded PGlite adds to the process,
 * with PGlite's default PostgreSQL settings and with the ones the service starts it with
 * (src/db/orm.ts PGLITE_START_PARAMS). Each variant runs in its own process (freed WASM memory
 * is not handed back to the OS), on a database directory created beforehand, like a restart.
 * RSS is read after a gc and a few seconds of rest: PGlite's WASM is recompiled by V8's
 * optimising tier in the background for a while after start, with transient memory.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLITE_START_PARAMS } from '../src/db/orm.js';
import { printCalibration, fmt } from './lib.js';

// The machine's speed beside every figure this benchmark prints (bench/calibrate.ts).
printCalibration();

const VARIANTS: Record<string, readonly string[]> = {
  'PGlite defaults': PGlite.defaultStartParams,
  'service (PGLITE_START_PARAMS)': PGLITE_START_PARAMS,
};

const MiB = 1024 * 1024;
const gc = (globalThis as { gc?: () => void }).gc;
const settledRss = async () => {
  await new Promise((resolve) => setTimeout(resolve, 4000));
  gc?.();
  return process.memoryUsage().rss / MiB;
};

if (process.argv[2] === '--child') {
  const [, , , variant, dir] = process.argv;
  const before = await settledRss();
  const db = new PGlite(dir, { startParams: [...VARIANTS[variant]] });
  await db.waitReady;
  await db.exec(
    `create table if not exists t (id serial primary key, v text);
     insert into t (v) select md5(g::text) from generate_series(1, 20000) g;
     select count(*), max(v) from t; delete from t;`,
  );
  const { rows } = await db.query<{ shared_buffers: string }>('show shared_buffers');
  const after = await settledRss();
  console.log(JSON.stringify({ before, after, sharedBuffers: rows[0].shared_buffers }));
  await db.close();
} else {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-pglite-'));
  try {
    const init = await PGlite.create(dir);
    await init.close();
    const self = path.resolve('bench/pglite-memory.ts');
    for (const variant of Object.keys(VARIANTS)) {
      const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', self, '--child', variant, dir], { encoding: 'utf8' });
      if (run.status !== 0) throw new Error(`${variant}: ${run.stderr}`);
      const r = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { before: number; after: number; sharedBuffers: string };
      console.log(
        `${variant.padEnd(30)} shared_buffers ${r.sharedBuffers.padStart(6)}: RSS ${fmt(r.before)} -> ${fmt(r.after)} MiB (+${fmt(r.after - r.before)} MiB)`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
