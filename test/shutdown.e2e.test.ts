/**
 * One clean shutdown path (issue #33): the service as a real OS process (`src/main.ts`, as
 * `npm start` and the Docker image run it) with NODE_ENV unset, as in production, so every
 * library that installs signal handlers outside the test environment (Apollo Server does) is
 * in play. On SIGTERM it stops accepting, lets the requests it accepted finish (up to
 * SHUTDOWN_DRAIN_SECONDS), ends long-lived streams at once, writes the last usage batch,
 * closes its stores, releases the data-folder lock and exits 0.
 *
 * Usage is read from PostgreSQL directly after the process has exited: every 200 the clients
 * received is one usage row, no more, no less.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { readdirSync, readFileSync } from 'node:fs';
import { closeOrm, createOrm } from '../src/db/orm.js';
import { DEFAULT_SLICES, writeCorpusSlice } from './fixtures/corpus-slice.js';
import { call } from './helpers/http.js';
import { spawnService, type ServiceProcess } from './helpers/service-process.js';
import { TEST_POSTGRES_ADMIN_URL } from './helpers/test-databases.js';

/** Generous: tsx compiles the service on a machine shared with other test runs. */
const START_TIMEOUT_MS = 120_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function sql<T = Record<string, unknown>>(url: string, statement: string): Promise<T[]> {
  const orm = await createOrm({ databaseUrl: url, dataDir: '' });
  try {
    return (await orm.em.getConnection().execute(statement, [], 'all')) as T[];
  } finally {
    await closeOrm(orm);
  }
}

function databaseUrl(name: string): string {
  const url = new URL(TEST_POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Milliseconds from the first signal to the exit. */
  ms: number;
}

/** Sends `signal` (and `then` more signals, spaced `spacingMs` apart) and resolves when the process has exited. */
async function signalAndWait(service: ServiceProcess, signals: NodeJS.Signals[], spacingMs = 200, timeoutMs = 60_000): Promise<Exit> {
  const { child } = service;
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const started = Date.now();
  for (const [i, signal] of signals.entries()) {
    if (i > 0) await sleep(spacingMs);
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  }
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const [code, signal] = await exited;
  clearTimeout(timer);
  return { code, signal, ms: Date.now() - started };
}

/** Pids of the running processes whose command line mentions `text` (Linux: /proc). */
function processesMentioning(text: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(text)) pids.push(Number(entry));
    } catch {
      // ended meanwhile
    }
  }
  return pids;
}

/** What one client request came to. */
type Outcome =
  | { kind: 'answered'; status: number; complete: boolean }
  /** Failed before any byte of an answer: refused, or reset while the server had not taken it. */
  | { kind: 'refused'; code: string }
  /** Failed after the answer had begun: cut mid-answer. */
  | { kind: 'cut'; code: string };

/**
 * One POST on a connection of its own (`Connection: close`), or on `agent`'s kept-alive ones:
 * either refused, answered in full, or cut after the answer began. `writeBody` sends the body
 * (all at once by default).
 */
function post(
  url: string,
  route: string,
  body: string,
  key: string,
  writeBody: (req: http.ClientRequest) => void | Promise<void> = (req) => void req.end(body),
  agent?: http.Agent,
): Promise<Outcome> {
  return new Promise((resolve) => {
    let answering = false;
    const req = http.request(`${url}${route}`, {
      method: 'POST',
      agent: agent ?? false,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), authorization: `Bearer ${key}`, ...(agent ? {} : { connection: 'close' }) },
    });
    req.on('response', (res) => {
      answering = true;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        let complete = res.complete;
        try {
          JSON.parse(text);
        } catch {
          complete = false;
        }
        resolve({ kind: 'answered', status: res.statusCode!, complete });
      });
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ kind: 'cut', code: error.code ?? error.message }));
      res.on('aborted', () => resolve({ kind: 'cut', code: 'aborted' }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(answering ? { kind: 'cut', code: error.code ?? error.message } : { kind: 'refused', code: error.code ?? error.message }));
    void Promise.resolve(writeBody(req)).catch(() => undefined);
  });
}

describe('shutdown of the service process (SIGTERM under load, idle, past the drain deadline)', () => {
  const database = `lsp_test_${randomBytes(6).toString('hex')}`;
  const dbUrl = databaseUrl(database);
  let created = false;
  const started: ServiceProcess[] = [];

  /** Starts the service on the test database with a fresh DATA_DIR; returns it, its DATA_DIR and an API key. */
  async function start(env: Record<string, string> = {}): Promise<{ service: ServiceProcess; dataDir: string; key: string }> {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'shutdown-data-'));
    const service = await spawnService({
      DATA_DIR: dataDir,
      DATABASE_URL: dbUrl,
      INGEST_ON_START: 'false',
      EMBEDDER: 'none',
      // every request is answered 200 (none refused by a plan limit), so 200s and usage rows compare one to one
      RATE_LIMITS: 'off',
      SESSION_SECRET: 'a shutdown test secret of 32+ characters',
      ...env,
    });
    started.push(service);
    await service.ready(START_TIMEOUT_MS);
    const email = `shutdown-${randomBytes(4).toString('hex')}@example.org`;
    const password = 'a sturdy passphrase 42';
    expect((await call(`${service.url}/auth/register`, 'POST', { email, password, accept_terms: true, acknowledge_privacy: true })).status).toBeLessThan(300);
    const login = await call(`${service.url}/auth/login`, 'POST', { email, password });
    const cookie = login.headers.getSetCookie().find((c) => c.startsWith('session='))!.split(';')[0]!;
    const key = (await call(`${service.url}/v1/keys`, 'POST', {}, { cookie })).body.key as string;
    expect(key).toEqual(expect.any(String));
    return { service, dataDir, key };
  }

  const searchRows = async (): Promise<number> =>
    Number((await sql<{ n: string }>(dbUrl, `select count(*) as n from usage_event where endpoint = 'search'`))[0]!.n);

  beforeAll(async () => {
    await sql(TEST_POSTGRES_ADMIN_URL, `create database "${database}"`);
    created = true;
  }, 60_000);

  afterAll(async () => {
    await Promise.all(started.map((s) => s.stop(5_000)));
    if (created) await sql(TEST_POSTGRES_ADMIN_URL, `drop database if exists "${database}" with (force)`);
  }, 60_000);

  it('an idle service exits 0 on SIGTERM and leaves no data-folder lock behind', async () => {
    const { service, dataDir } = await start();
    expect(existsSync(path.join(dataDir, '.lock'))).toBe(true);
    const exit = await signalAndWait(service, ['SIGTERM']);
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(existsSync(path.join(dataDir, '.lock'))).toBe(false);
    expect(service.messages()).toContainEqual(expect.stringMatching(/^shutdown: done/));
  }, START_TIMEOUT_MS + 60_000);

  it('under load: SIGTERM (twice) exits 0, every accepted request is answered in full, and usage rows equal the 200s', async () => {
    const { service, dataDir, key } = await start({ SHUTDOWN_DRAIN_SECONDS: '20' });
    const before = await searchRows();
    const body = JSON.stringify({ q: 'Vertrag Schadensersatz', top_k: 3 });
    const outcomes: Outcome[] = [];
    let signalled = false;
    // several clients, each sending one request after the other until the service refuses them
    // (and two more on kept-alive connections, which must not hold the drain open: 20 s here)
    const keepAlive = new http.Agent({ keepAlive: true });
    const clients = Array.from({ length: 8 }, async (_, i) => {
      for (;;) {
        const outcome = await post(service.url, '/v1/search', body, key, undefined, i < 2 ? keepAlive : undefined);
        outcomes.push(outcome);
        if (outcome.kind !== 'answered' && signalled) return;
        if (outcome.kind !== 'answered') throw new Error(`request failed before the signal: ${JSON.stringify(outcome)}`);
      }
    });
    // and one request in flight when the signal comes: its body arrives a second after it
    let sendRest: () => void = () => undefined;
    const restCanGo = new Promise<void>((resolve) => (sendRest = resolve));
    const slow = post(service.url, '/v1/search', body, key, async (req) => {
      req.write(body.slice(0, 10));
      await restCanGo;
      req.end(body.slice(10));
    });
    while (outcomes.filter((o) => o.kind === 'answered').length < 40) await sleep(50);
    await sleep(200); // the slow request's first bytes have long reached the service
    signalled = true;
    const exiting = signalAndWait(service, ['SIGTERM', 'SIGTERM']);
    await sleep(1_000);
    sendRest();
    const exit = await exiting;
    await Promise.all(clients);
    const slowOutcome = await slow;
    keepAlive.destroy();

    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit.ms).toBeLessThan(10_000);
    expect(slowOutcome).toEqual({ kind: 'answered', status: 200, complete: true });
    // nothing cut mid-answer, every answer complete and 200, every failure a refusal
    expect(outcomes.filter((o) => o.kind === 'cut')).toEqual([]);
    const answered = outcomes.filter((o) => o.kind === 'answered');
    expect(answered.every((o) => o.status === 200 && o.complete)).toBe(true);
    for (const o of outcomes.filter((o) => o.kind === 'refused')) expect(o.code).toMatch(/^(ECONNREFUSED|ECONNRESET|EPIPE)$/);
    expect((await searchRows()) - before).toBe(answered.length + 1);
    expect(existsSync(path.join(dataDir, '.lock'))).toBe(false);
    expect(service.messages()).toContainEqual(expect.stringMatching(/already stopping/));
  }, START_TIMEOUT_MS + 120_000);

  it('past SHUTDOWN_DRAIN_SECONDS a request still running is cut, and an open SSE stream is ended at once: it exits 0 at the deadline', async () => {
    const { service, dataDir, key } = await start({ SHUTDOWN_DRAIN_SECONDS: '3' });
    // an MCP SSE stream, open until the server ends it
    const sse = await fetch(`${service.url}/sse`, { headers: { authorization: `Bearer ${key}` } });
    expect(sse.status).toBe(200);
    const sseReader = sse.body!.getReader();
    await sseReader.read(); // the endpoint event
    let signalledAt = 0;
    const sseEnded = (async () => {
      try {
        while (!(await sseReader.read()).done);
      } catch {
        // ended by a reset: ended all the same
      }
      return Date.now() - signalledAt;
    })();
    // a client that sends its body one byte every 300 ms: it would keep a request open for minutes
    const body = JSON.stringify({ q: 'Vertrag', top_k: 3, padding: 'x'.repeat(500) });
    let trickling = true;
    const slow = post(service.url, '/v1/search', body, key, async (req) => {
      for (let i = 0; i < body.length && trickling; i++) {
        req.write(body[i]);
        await sleep(300);
      }
    });
    await sleep(1_000);
    signalledAt = Date.now();
    const exit = await signalAndWait(service, ['SIGTERM']);
    trickling = false;

    expect(exit).toMatchObject({ code: 0, signal: null });
    // it waited for the deadline (3 s), not much longer
    expect(exit.ms).toBeGreaterThanOrEqual(2_800);
    expect(exit.ms).toBeLessThan(10_000);
    // the stream was ended at the start of the shutdown, not at the deadline
    expect(await sseEnded).toBeLessThan(2_500);
    expect((await slow).kind).not.toBe('answered');
    expect(existsSync(path.join(dataDir, '.lock'))).toBe(false);
    expect(service.messages()).toContainEqual(expect.stringMatching(/still open after the 3 s drain deadline/));
  }, START_TIMEOUT_MS + 60_000);

  it('a third signal during a shutdown exits 1 at once (the second is only logged)', async () => {
    const { service, key } = await start({ SHUTDOWN_DRAIN_SECONDS: '120' });
    // a request that would hold the drain for its whole 120 s
    const body = JSON.stringify({ q: 'Vertrag', padding: 'x'.repeat(1000) });
    let trickling = true;
    const slow = post(service.url, '/v1/search', body, key, async (req) => {
      for (let i = 0; i < body.length && trickling; i++) {
        req.write(body[i]);
        await sleep(300);
      }
    });
    await sleep(1_000);
    const exit = await signalAndWait(service, ['SIGTERM', 'SIGINT', 'SIGTERM'], 500);
    trickling = false;
    await slow;
    expect(exit).toMatchObject({ code: 1, signal: null });
    expect(exit.ms).toBeLessThan(10_000);
    expect(service.messages()).toContainEqual(expect.stringMatching(/already stopping/));
    expect(service.messages()).toContainEqual(expect.stringMatching(/signal 3 while stopping: exiting now/));
  }, START_TIMEOUT_MS + 60_000);

  it('stops the training child of EMBEDDER=auto on SIGTERM and waits for it: none outlives the service', async () => {
    const corpus = await writeCorpusSlice(DEFAULT_SLICES);
    const { service, dataDir } = await start({ EMBEDDER: 'auto', INGEST_ON_START: 'true', CORPUS_DIR: corpus.dir });
    // the trainer's command line names its output folder under this DATA_DIR
    const deadline = Date.now() + 60_000;
    while (processesMentioning(`${dataDir}/models`).length === 0) {
      if (Date.now() > deadline) throw new Error(`no training child seen:\n${service.lines.slice(-20).join('\n')}`);
      await sleep(100);
    }
    const exit = await signalAndWait(service, ['SIGTERM']);
    expect(processesMentioning(`${dataDir}/models`)).toEqual([]);
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(existsSync(path.join(dataDir, '.lock'))).toBe(false);
  }, START_TIMEOUT_MS + 120_000);
});
