/**
 * Two trainers never write one model folder (issue #33 item 7): real `train:embeddings`
 * processes on one --out folder. The second waits, without reading the corpus, while the first
 * runs; once the first is gone (killed, as an orphan's watchdog kills it), the second trains.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_SLICES, writeCorpusSlice } from '../../../../test/fixtures/corpus-slice.js';
import { trainingLockFile } from './training-lock.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Trainer {
  child: ChildProcess;
  output: string[];
  exited: Promise<void>;
}

function trainer(corpusDir: string, outDir: string): Trainer {
  const child = spawn(path.join(ROOT, 'node_modules/.bin/node'), ['--import', 'tsx', 'src/cli/train-embeddings.ts', '--corpus', corpusDir, '--out', outDir, '--progress-json'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => output.push(...chunk.toString().split('\n').filter(Boolean)));
  child.stderr!.on('data', (chunk: Buffer) => output.push(...chunk.toString().split('\n').filter(Boolean)));
  return { child, output, exited: new Promise((resolve) => child.once('exit', () => resolve())) };
}

async function until(what: string, check: () => boolean, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

describe('the training folder lock', () => {
  const running: Trainer[] = [];
  afterAll(async () => {
    for (const t of running) if (t.child.exitCode === null && t.child.signalCode === null) t.child.kill('SIGKILL');
    await Promise.all(running.map((t) => t.exited));
  });

  it('a second trainer on the same folder waits, reading nothing, until the first is gone; then it trains', async () => {
    const corpus = await writeCorpusSlice(DEFAULT_SLICES);
    const outDir = path.join(await mkdtemp(path.join(os.tmpdir(), 'training-lock-')), 'models', 'domain-static');
    const first = trainer(corpus.dir, outDir);
    running.push(first);
    await until('the first trainer to read the corpus', () => first.output.some((l) => l.includes('reading the corpus')));
    expect(existsSync(trainingLockFile(outDir))).toBe(true);

    const second = trainer(corpus.dir, outDir);
    running.push(second);
    await until('the second trainer to wait', () => second.output.some((l) => l.includes(`another trainer (process ${first.child.pid}) is writing`)));
    await sleep(1_000);
    expect(first.child.exitCode).toBeNull();
    expect(second.output.filter((l) => l.startsWith('PROGRESS'))).toEqual([]);

    first.child.kill('SIGKILL');
    await first.exited;
    await until('the second trainer to start', () => second.output.some((l) => l.includes('reading the corpus')));
    second.child.kill('SIGKILL');
  }, 180_000);
});
