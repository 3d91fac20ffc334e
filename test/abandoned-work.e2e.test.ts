/**
 * Abandoned work stops (issue #33 item 5). A burst of concurrent GraphQL operations whose aliased
 * resolves all run out of their budget (RESOLVE_TIMEOUT_MS=1) still answers `match_type:
 * "timeout"`, but the engine reads queued behind them are dropped, not run, and no request holds
 * more than ENGINE_CALLS_PER_REQUEST reads at once; once the burst is answered nothing of it waits
 * or runs, and a later search from another account finds the engine free. A REST search whose
 * client disconnects stops its remaining reads and still counts (leaving is no way round the limits).
 *
 * Asserted by what the engine did (LegalDataService.engineWork: reads started, finished,
 * dropped, waiting), never by a duration: the latency figure is `npm run bench:abandoned`.
 */
import net from 'node:net';
import type { Platform } from '../src/platform.js';
import { call, cookieFrom } from './helpers/http.js';
import { startTestPlatform } from './helpers/platform.js';

const CLIENTS = 20;
const ALIASES = 5;
const SLOTS = 2;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what}: not reached in ${timeoutMs} ms`);
    await sleep(10);
  }
}

/** Long references that no identifier or grammar resolves: every one goes to the title search (two keyword reads). */
const reference = (client: number, alias: number) => `regulation on the protection of natural persons processing personal data variant ${client} ${alias}`;

describe('abandoned work stops', () => {
  let platform: Platform;
  let url: string;
  let seq = 0;

  beforeAll(async () => {
    platform = await startTestPlatform(
      [
        { file: 'legislation/EU-EUR-Lex.jsonl.gz', lines: 60 },
        { file: 'legislation/FR-LegifranceCodes.jsonl.gz', lines: 60 },
      ],
      { DEV_LOGIN: 'true', RATE_LIMITS: 'false', RESOLVE_TIMEOUT_MS: '1', ENGINE_CALLS_PER_REQUEST: String(SLOTS) },
    );
    url = platform.url!;
  }, 600_000);

  afterAll(async () => {
    await platform?.stop();
  });

  async function newKey(): Promise<string> {
    const cookie = cookieFrom((await call(`${url}/auth/dev-login`, 'POST', { email: `abandon${++seq}@example.org` })).headers, 'session')!;
    const created = await call(`${url}/v1/keys`, 'POST', { name: 'burst' }, { cookie });
    expect(created.status).toBe(200);
    return created.body.key as string;
  }

  it('a burst of timed-out resolves answers "timeout", drops its queued engine reads, holds at most the slots per request, and leaves the engine free for a later search', async () => {
    const burstKey = await newKey();
    const laterKey = await newKey();
    const work = platform.legalData.engineWork;
    const before = { started: work.started, dropped: work.dropped };
    let peak = 0;
    const watcher = setInterval(() => (peak = Math.max(peak, work.running)), 1);

    const query = (client: number) =>
      `{ ${Array.from({ length: ALIASES }, (_, a) => `r${a}: resolve(input: { reference: ${JSON.stringify(reference(client, a))} }) { match_type }`).join(' ')} }`;
    const answers = await Promise.all(
      Array.from({ length: CLIENTS }, (_, client) => call(`${url}/graphql`, 'POST', { query: query(client) }, { key: burstKey })),
    );
    clearInterval(watcher);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(Object.values(answer.body.data as Record<string, { match_type: string }>).map((r) => r.match_type)).toEqual(Array(ALIASES).fill('timeout'));
    }

    // The reads already inside the engine finish; nothing of the burst waits for a slot.
    await until('the burst reads to settle', () => work.running === 0);
    expect(work.waiting).toBe(0);
    // Each resolution would read twice (its title searches in two namespaces) if it reached them in time.
    const couldAsk = CLIENTS * ALIASES * 2;
    const started = work.started - before.started;
    const dropped = work.dropped - before.dropped;
    expect(dropped).toBeGreaterThan(0);
    expect(started).toBeLessThan(couldAsk);
    // Every request holds at most SLOTS reads at once, so the burst never had more than that many running.
    expect(peak).toBeLessThanOrEqual(CLIENTS * SLOTS);

    // The later search from another account: its reads start at once, nothing ahead of them.
    const startedBefore = work.started;
    const later = await call(`${url}/v1/search`, 'POST', { q: 'protection of personal data', namespace: 'legislation' }, { key: laterKey });
    expect(later.status).toBe(200);
    expect(work.started).toBeGreaterThan(startedBefore);
    expect(work.waiting).toBe(0);
  }, 120_000);

  /** Sends a search on a raw connection and leaves once its first engine read has started; resolves when its reads have settled. */
  async function searchAndLeave(key: string): Promise<{ dropped: number }> {
    const work = platform.legalData.engineWork;
    const before = { started: work.started, dropped: work.dropped };
    const body = JSON.stringify({ q: 'données personnelles protection traitement', namespace: 'legislation', top_k: 50, result_detail: 'full_text' });
    const socket = net.connect(Number(new URL(url).port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /v1/search HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    await until('the search to reach the engine', () => work.started > before.started, 10_000);
    socket.destroy();
    await until('the search to settle', () => work.running === 0 && work.waiting === 0);
    return { dropped: work.dropped - before.dropped };
  }

  it('a REST search whose client disconnects stops its remaining reads and still counts (leaving is no way round the limits)', async () => {
    // The client leaves while the keyword leg runs; the server learns it from the socket's close,
    // which can come after the few milliseconds the whole search takes: then no read is left to
    // drop, and the test tries again with a new account.
    for (let attempt = 0; attempt < 10; attempt++) {
      const key = await newKey();
      const { dropped } = await searchAndLeave(key);
      await platform.accounts.usage.flush();
      const usage = await call(`${url}/v1/usage/me`, 'GET', undefined, { key });
      expect(usage.status).toBe(200);
      // no read dropped: the search had read everything before the server learnt the client left
      if (dropped === 0) continue;
      expect(usage.body.requests_in_period).toBe(1);
      return;
    }
    throw new Error('no attempt left the search before its answer');
  }, 120_000);
});
