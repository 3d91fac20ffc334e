/**
 * `npm run bench:calibrate`: a fixed CPU workload whose times say how fast this machine is right
 * now, printed beside every benchmark's results so that figures from different machines (or a
 * machine shared with other work) can be compared:
 *
 * - sha256: SHA-256 of 200 MiB (1 MiB buffer hashed 200 times; native code, one core);
 * - js loop: 100 million rounds of a xorshift32 generator in plain JavaScript (the JIT);
 * - vector scan: dot products of one 256-dimensional Float32Array against 200,000 such vectors
 *   (51 million multiply-adds over 200 MiB: memory bandwidth and the JIT's float loop);
 * - pread: 100,000 reads of 4 KiB from a file in the page cache (the kernel's cost of a system
 *   call: what every read of the embedded index pays);
 * - handoff: 20,000 round trips between two threads that wake each other (futex wait and wake,
 *   as the embedded engine's worker threads hand each query's work around); it moves from run
 *   to run on one virtual machine (141–530 ms within an hour), so it is read beside each result.
 *
 * The last two were added when the same code cost 22 ms per search on one machine and 34 ms on
 * another whose first three figures were alike: most of a search's processor time is the
 * engine's fixed cost per call (thread wake-ups and small reads), which the first three do not
 * measure (docs/search.md, issue 38).
 *
 * Each is run once; the inputs are deterministic, so the work is identical on every run.
 */
import { createHash } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';

export interface Calibration {
  sha256Ms: number;
  jsLoopMs: number;
  vectorScanMs: number;
  preadMs: number;
  handoffMs: number;
  node: string;
  cpus: number;
  cpuModel: string;
  /** The 1-minute load average when the calibration ran. */
  load1: number;
}

const MIB = 1024 * 1024;
const VECTORS = 200_000;
const DIMENSIONS = 256;

function timed(work: () => unknown): number {
  const started = performance.now();
  work();
  return performance.now() - started;
}

/** A deterministic pseudo-random sequence (xorshift32) in [-1, 1). */
function fill(target: Float32Array, seed: number): void {
  let x = seed;
  for (let i = 0; i < target.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    target[i] = (x >>> 0) / 2 ** 31 - 1;
  }
}

/** Runs the fixed workload and returns its times. */
export function calibrate(): Calibration {
  const block = Buffer.alloc(MIB, 0x5a);
  const sha256Ms = timed(() => {
    const hash = createHash('sha256');
    for (let i = 0; i < 200; i++) hash.update(block);
    return hash.digest('hex');
  });

  let sink = 0;
  const jsLoopMs = timed(() => {
    let x = 2463534242;
    for (let i = 0; i < 100_000_000; i++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
    }
    sink = x;
  });

  const query = new Float32Array(DIMENSIONS);
  const vectors = new Float32Array(VECTORS * DIMENSIONS);
  fill(query, 7);
  fill(vectors, 11);
  let best = -Infinity;
  const vectorScanMs = timed(() => {
    for (let v = 0; v < VECTORS; v++) {
      let dot = 0;
      const offset = v * DIMENSIONS;
      for (let d = 0; d < DIMENSIONS; d++) dot += query[d]! * vectors[offset + d]!;
      if (dot > best) best = dot;
    }
  });
  if (sink === 0 && best === -Infinity) console.log(''); // keeps both results alive

  return { sha256Ms, jsLoopMs, vectorScanMs, preadMs: preadTime(), handoffMs: handoffTime(), node: process.version, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? 'unknown', load1: os.loadavg()[0]! };
}

/** 100,000 reads of 4 KiB at varying offsets of a 1 MiB file just written (so in the page cache). */
function preadTime(): number {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'calibrate-'));
  const file = path.join(dir, 'block');
  try {
    writeFileSync(file, Buffer.alloc(MIB, 0x33));
    const fd = openSync(file, 'r');
    const buffer = Buffer.alloc(4096);
    const ms = timed(() => {
      for (let i = 0; i < 100_000; i++) readSync(fd, buffer, 0, 4096, (i % 256) * 4096);
    });
    closeSync(fd);
    return ms;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** 20,000 round trips: this thread wakes a worker thread, which wakes it back (Atomics.wait/notify: futexes). */
function handoffTime(): number {
  const shared = new Int32Array(new SharedArrayBuffer(8));
  const worker = new Worker(
    `const { workerData: s } = require('node:worker_threads');
     Atomics.store(s, 1, 1); Atomics.notify(s, 1);
     for (;;) { Atomics.wait(s, 0, 0); if (Atomics.load(s, 0) === 2) break; Atomics.store(s, 0, 0); Atomics.notify(s, 0); }`,
    { eval: true, workerData: shared },
  );
  Atomics.wait(shared, 1, 0, 10_000); // the worker is running
  const ms = timed(() => {
    for (let i = 0; i < 20_000; i++) {
      Atomics.store(shared, 0, 1);
      Atomics.notify(shared, 0);
      while (Atomics.load(shared, 0) === 1) Atomics.wait(shared, 0, 1, 100);
    }
  });
  Atomics.store(shared, 0, 2);
  Atomics.notify(shared, 0);
  void worker.terminate();
  worker.unref();
  return ms;
}

/** One line: the times and the machine they were measured on. */
export function formatCalibration(c: Calibration): string {
  return (
    `calibration: sha256 200 MiB ${c.sha256Ms.toFixed(0)} ms · js loop 1e8 ${c.jsLoopMs.toFixed(0)} ms · vector scan 200k×256 ${c.vectorScanMs.toFixed(0)} ms` +
    ` · pread 100k×4 KiB ${c.preadMs.toFixed(0)} ms · thread handoff 20k ${c.handoffMs.toFixed(0)} ms` +
    ` (node ${c.node}, ${c.cpus} × ${c.cpuModel}, load ${c.load1.toFixed(2)})`
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(formatCalibration(calibrate()));
}
