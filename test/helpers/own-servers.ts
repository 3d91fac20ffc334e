/**
 * Test helper: a Redis server and a PostgreSQL cluster of the test's own, on free ports in a temp
 * folder, for tests that stop, freeze (SIGSTOP) or empty them. The shared 127.0.0.1:6379 and :5432
 * serve other test files at the same time and are never touched.
 *
 * PostgreSQL runs as the `postgres` OS user when the tests run as root (initdb refuses root).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './http.js';

async function waitForPort(port: number, what: string, deadlineMs = 20_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > until) throw new Error(`${what} did not listen on ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface OwnRedis {
  url: string;
  port: number;
  /** SIGSTOP: the server keeps its connections and answers nothing. */
  freeze(): void;
  thaw(): void;
  /** Stops the server (its data is gone: no persistence). */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
}

/** `redis-server --save '' --appendonly no` on a free port: it restarts empty. */
export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    await waitForPort(port, 'redis-server');
  };
  const stop = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    running.kill('SIGCONT');
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGKILL');
    });
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    freeze: () => child?.kill('SIGSTOP'),
    thaw: () => child?.kill('SIGCONT'),
    stop,
    start,
  };
}

const PG_BIN = (() => {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  return versions.length ? path.join(root, versions[0]!, 'bin') : '';
})();

export interface OwnPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  url: string;
  port: number;
  /** SIGSTOP to the postmaster and every backend: connections stay open, nothing answers. */
  freeze(): void;
  thaw(): void;
  /** `pg_ctl stop -m fast` (the data stays). */
  stop(): void;
  start(): Promise<void>;
  /** Stops the cluster and removes its folder. */
  dispose(): void;
}

/** A throwaway PostgreSQL cluster (initdb + pg_ctl) on a free port, trust authentication. */
export async function startOwnPostgres(): Promise<OwnPostgres> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'own-pg-'));
  chmodSync(dir, 0o777);
  const dataDir = path.join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  const run = (bin: string, args: string[]) =>
    asRoot ? execFileSync('runuser', ['-u', 'postgres', '--', path.join(PG_BIN, bin), ...args], { stdio: 'pipe' }) : execFileSync(path.join(PG_BIN, bin), args, { stdio: 'pipe' });
  run('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = async () => {
    run('pg_ctl', ['-D', dataDir, '-l', path.join(dir, 'log'), '-o', options, '-w', 'start']);
    await waitForPort(port, 'postgres');
  };
  const stop = () => {
    if (existsSync(path.join(dataDir, 'postmaster.pid'))) run('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
  };
  const signalAll = (signal: 'STOP' | 'CONT') => {
    const postmaster = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = execFileSync('pgrep', ['-P', String(postmaster)], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number);
    // the backends first, so none is left running when the postmaster stops
    for (const pid of [...children, postmaster]) process.kill(pid, `SIG${signal}`);
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    freeze: () => signalAll('STOP'),
    thaw: () => signalAll('CONT'),
    stop,
    start,
    dispose: () => {
      try {
        if (existsSync(path.join(dataDir, 'postmaster.pid'))) signalAll('CONT');
        stop();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
