/** Shared helpers of the benchmarks: start the real service as a child process, measure it. */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { type Calibration, calibrate, formatCalibration } from './calibrate.js';

export interface RunningService {
  url: string;
  child: ChildProcess;
  logs: string[];
  /** Resident and peak memory of the service process, in MiB. */
  memory(): { rssMiB: number; peakMiB: number };
  /** CPU time (user + system) the service process has used so far, in seconds (NaN when unknown). */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

let clockTicks: number | undefined;
/**
 * CPU seconds (user + system) process `pid` has used, from /proc/<pid>/stat (utime and stime, in
 * clock ticks). CPU time per request is steadier than latency on a busy machine: other processes
 * delay a request but do not add to its CPU time (much).
 */
export function processCpuSeconds(pid: number): number {
  try {
    clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state): utime is field 14, stime field 15
    return (Number(fields[11]) + Number(fields[12])) / clockTicks;
  } catch {
    return NaN;
  }
}

/**
 * CPU seconds of process `pid` by kind of thread (/proc/<pid>/task/<tid>/stat): `main` (the
 * JavaScript thread), `lancedb` (the embedded engine's tokio and lance threads), `v8` (V8's
 * helper threads: concurrent marking, compilation), `other` (libuv's pool and the rest). A
 * thread that ended since the last reading takes its time with it: compare readings taken
 * while the same threads live (a service's pools live as long as it does).
 */
export function threadCpuSeconds(pid: number): Record<'main' | 'lancedb' | 'v8' | 'other', number> {
  const out = { main: 0, lancedb: 0, v8: 0, other: 0 };
  clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return { main: NaN, lancedb: NaN, v8: NaN, other: NaN };
  }
  for (const tid of tasks) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const seconds = (Number(fields[11]) + Number(fields[12])) / clockTicks;
      const kind = tid === String(pid) ? 'main' : /^(tokio|lance)/.test(name) ? 'lancedb' : /^V8/.test(name) ? 'v8' : 'other';
      out[kind] += seconds;
    } catch {
      /* the thread ended between the listing and the read */
    }
  }
  return out;
}

/**
 * Starts `src/main.ts` with the given environment and waits until /health answers; `cpus` (a
 * `taskset` list such as "0" or "0,1") pins the process and all its threads to those cores.
 */
export async function startService(env: Record<string, string>, onLog?: (line: string) => void, options: { cpus?: string } = {}): Promise<RunningService> {
  const port = await freePort();
  // One process (no tsx wrapper), so its memory is the service's own; taskset execs it in place (same pid).
  const node = path.resolve('node_modules/.bin/node');
  const args = ['--import', 'tsx', 'src/main.ts'];
  const child = spawn(options.cpus ? 'taskset' : node, options.cpus ? ['-c', options.cpus, node, ...args] : args, {
    // Benchmarks measure the open path unless they say otherwise: no credentials, no limits.
    // MALLOC_ARENA_MAX=2 as `npm start` and the Dockerfile set it (docs/SCALING.md, "Memory of one process").
    env: { ...process.env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2', PORT: String(port), LOG_LEVEL: 'info', ALLOW_ANONYMOUS: 'true', RATE_LIMITS: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const collect = (data: Buffer) => {
    for (const line of data.toString().split('\n').filter(Boolean)) {
      logs.push(line);
      onLog?.(line);
    }
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`service exited (${child.exitCode}):\n${logs.slice(-20).join('\n')}`);
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {
      /* not listening yet */
    }
    await sleep(250);
  }
  const status = () => readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const kib = (field: string) => Number(/(\d+) kB/.exec(status().split('\n').find((l) => l.startsWith(field)) ?? '')?.[1] ?? 0);
  return {
    url,
    child,
    logs,
    memory: () => ({ rssMiB: kib('VmRSS:') / 1024, peakMiB: kib('VmHWM:') / 1024 }),
    cpuSeconds: () => processCpuSeconds(child.pid!),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** A service this benchmark did not start (`--url`, `--pid`): measured, never stopped. */
export function runningService(url: string, pid: number): RunningService {
  const kib = (field: string) => {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      return Number(/(\d+) kB/.exec(status.split('\n').find((l) => l.startsWith(field)) ?? '')?.[1] ?? 0);
    } catch {
      return NaN;
    }
  };
  return {
    url,
    child: null as unknown as ChildProcess,
    logs: [],
    memory: () => ({ rssMiB: kib('VmRSS:') / 1024, peakMiB: kib('VmHWM:') / 1024 }),
    cpuSeconds: () => processCpuSeconds(pid),
    stop: async () => undefined,
  };
}

/** Polls /ready until 200, calling `onProgress` with its body; returns the seconds waited. */
export async function waitReady(url: string, timeoutMs: number, onProgress?: (body: unknown) => void): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    try {
      const response = await fetch(`${url}/ready`, { signal: AbortSignal.timeout(30_000) });
      const body = await response.json();
      if (response.status === 200) return (Date.now() - started) / 1000;
      onProgress?.(body);
    } catch {
      // a busy service (an ingest on a loaded machine) may drop a poll: try again
    }
    await sleep(2000);
  }
  throw new Error(`not ready after ${timeoutMs / 1000}s`);
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Searches (`search`, once a second) until the service logs whether it holds its vectors in
 * memory (the load is lazy: src/engines/embedded/lancedb-vector-memory.ts), at most 3 minutes:
 * the log line's message, or null when none came (an index without its HNSW index loads nothing).
 */
export async function waitForVectorsHeld(service: RunningService, search: () => Promise<unknown>): Promise<string | null> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    const line = service.logs.find((l) => /passage vectors (held|not held) in memory/.test(l));
    if (line) {
      try {
        return (JSON.parse(line) as { msg?: string }).msg ?? line;
      } catch {
        return line; // a line that is not the logger's JSON
      }
    }
    await search();
    await sleep(1000);
  }
  return null;
}

/**
 * Waits (at most `maxMs`) until the service's processor time stays still for 2 s: after a start
 * it may still work in the background (the vocabulary, the citation graph, the engine's caches),
 * which would count in the first pass's processor per query. Returns the seconds waited.
 */
export async function waitIdle(service: RunningService, maxMs = 120_000): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < maxMs) {
    const before = service.cpuSeconds();
    await sleep(2000);
    if (!(service.cpuSeconds() - before >= 0.04)) break;
  }
  return (Date.now() - started) / 1000;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export async function postJson(
  url: string,
  body: unknown,
  timeoutMs = 15_000,
): Promise<{ status: number; body: any; ms: number; headers: Headers }> {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const json = await response.json();
  return { status: response.status, body: json, ms: performance.now() - started, headers: response.headers };
}

/** Runs `tasks` with `concurrency` workers; returns each task's latency in ms. */
export async function runConcurrent(tasks: (() => Promise<unknown>)[], concurrency: number): Promise<number[]> {
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < tasks.length) {
        const task = tasks[next++];
        const t = performance.now();
        await task();
        latencies.push(performance.now() - t);
      }
    }),
  );
  return latencies.sort((a, b) => a - b);
}

export const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

/** Runs the machine's calibration workload (bench/calibrate.ts) and prints its line: every benchmark prints it above its results. */
export function printCalibration(): Calibration {
  const calibration = calibrate();
  console.log(formatCalibration(calibration));
  return calibration;
}
