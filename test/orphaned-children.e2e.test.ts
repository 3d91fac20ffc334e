/**
 * No child outlives a killed service (issue #33 item 7). The service as a real OS process
 * (`src/main.ts`) with EMBEDDER=auto trains its model in a child process and ingests in another;
 * SIGKILL gives it no chance to stop them, so each child must notice by itself that its parent
 * is gone (a watchdog thread that watches the parent pid, src/util/exit-with-parent.ts) and
 * end within a bound. A restart on the same DATA_DIR starts its own trainer: the two must never
 * run together on one folder (the training folder's pid lock, src/util/pid-file-lock.ts).
 *
 * Processes are read from /proc (Linux), by parent pid and by the trainer's command line, which
 * names its output folder under the test's DATA_DIR.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { closeOrm, createOrm } from '../src/db/orm.js';
import { DEFAULT_SLICES, writeCorpusSlice } from './fixtures/corpus-slice.js';
import { spawnService, type ServiceProcess } from './helpers/service-process.js';
import { TEST_POSTGRES_ADMIN_URL } from './helpers/test-databases.js';

/** Generous: tsx compiles the service on a machine shared with other test runs. */
const START_TIMEOUT_MS = 120_000;
/** How long a child may outlive its killed parent (its watchdog looks every 200 ms; the ingest gets a grace period to stop after its batch). */
const ORPHAN_BOUND_MS = 15_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function sql(url: string, statement: string): Promise<void> {
  const orm = await createOrm({ databaseUrl: url, dataDir: '' });
  try {
    await orm.em.getConnection().execute(statement, [], 'all');
  } finally {
    await closeOrm(orm);
  }
}

/** A running process's parent pid and state from /proc/<pid>/stat; null when it is gone or a zombie (ended, not yet reaped). */
function statOf(pid: number): { ppid: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // `pid (comm) state ppid ...`: comm may hold spaces, so read after its closing parenthesis
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return state === 'Z' || state === 'X' ? null : { ppid: Number(ppid) };
  } catch {
    return null;
  }
}

function livePids(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number);
}

/** Pids of the live processes whose command line mentions `text`. */
function processesMentioning(text: string): number[] {
  return livePids().filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text) && statOf(pid) !== null;
    } catch {
      return false;
    }
  });
}

function childrenOf(parent: number): number[] {
  return livePids().filter((pid) => statOf(pid)?.ppid === parent);
}

describe('child processes of a killed service', () => {
  const database = `lsp_test_${randomBytes(6).toString('hex')}`;
  const dbUrl = new URL(TEST_POSTGRES_ADMIN_URL);
  dbUrl.pathname = `/${database}`;
  let created = false;
  const started: ServiceProcess[] = [];

  beforeAll(async () => {
    await sql(TEST_POSTGRES_ADMIN_URL, `create database "${database}"`);
    created = true;
  }, 60_000);

  afterAll(async () => {
    await Promise.all(started.map((s) => s.stop(5_000)));
    if (created) await sql(TEST_POSTGRES_ADMIN_URL, `drop database if exists "${database}" with (force)`);
  }, 60_000);

  async function start(dataDir: string, corpusDir: string): Promise<ServiceProcess> {
    const service = await spawnService({
      DATA_DIR: dataDir,
      DATABASE_URL: dbUrl.toString(),
      EMBEDDER: 'auto',
      INGEST_ON_START: 'true',
      CORPUS_DIR: corpusDir,
      SESSION_SECRET: 'an orphan test secret of 32+ characters',
    });
    started.push(service);
    return service;
  }

  async function trainerOf(dataDir: string, service: ServiceProcess): Promise<number> {
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      const [pid] = processesMentioning(`${dataDir}/models`);
      if (pid !== undefined) return pid;
      if (Date.now() > deadline) throw new Error(`no training child seen:\n${service.lines.slice(-20).join('\n')}`);
      await sleep(100);
    }
  }

  /** Waits until the trainer is past reading the corpus, in its long computing steps (they write nothing for seconds at a time). */
  async function computing(service: ServiceProcess): Promise<void> {
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      const ready = (await fetch(`${service.url}/ready`).then((r) => r.json()).catch(() => ({}))) as { embedding_model?: { step?: string } };
      if (/factorising|fine-tuning/.test(ready.embedding_model?.step ?? '')) return;
      if (Date.now() > deadline) throw new Error(`the trainer never reached its computing steps:\n${service.lines.slice(-20).join('\n')}`);
      await sleep(100);
    }
  }

  it('SIGKILL during training: the trainer and the ingest child end within the bound, and a restart never runs two trainers on the folder', async () => {
    const corpus = await writeCorpusSlice(DEFAULT_SLICES);
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'orphan-data-'));
    const first = await start(dataDir, corpus.dir);
    await first.ready(START_TIMEOUT_MS);
    const trainer = await trainerOf(dataDir, first);
    await computing(first);
    const servicePid = first.child.pid!;
    const children = childrenOf(servicePid);
    expect(children).toContain(trainer);

    first.child.kill('SIGKILL');
    const killedAt = Date.now();
    while (children.some((pid) => statOf(pid) !== null) && Date.now() - killedAt < ORPHAN_BOUND_MS) await sleep(100);
    const survivors = children.filter((pid) => statOf(pid) !== null);
    expect({ survivors, afterMs: Date.now() - killedAt }).toEqual({ survivors: [], afterMs: expect.any(Number) });

    // The restart trains anew on the same folder: at no sample are two trainers alive on it.
    const second = await start(dataDir, corpus.dir);
    let most = 0;
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      const trainers = processesMentioning(`${dataDir}/models`);
      most = Math.max(most, trainers.length);
      if (trainers.length > 0 && childrenOf(second.child.pid!).some((pid) => trainers.includes(pid))) break;
      if (Date.now() > deadline) throw new Error(`the restarted service started no trainer:\n${second.lines.slice(-20).join('\n')}`);
      await sleep(50);
    }
    expect(most).toBe(1);
    await second.stop();
  }, START_TIMEOUT_MS * 3);
});
