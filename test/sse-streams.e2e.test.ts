/**
 * No client can hold the MCP SSE streams (GET /sse) of everyone else (issue #31 item 4): idle
 * streams close after SSE_IDLE_TIMEOUT_SECONDS (a message posted on the session is activity),
 * one client address holds at most SSE_MAX_SESSIONS_PER_IP, an account whose e-mail is not
 * verified at most SSE_MAX_SESSIONS_UNVERIFIED, beside the per-account and overall caps.
 *
 * One platform on a tiny slice of the real corpus, real HTTP. TRUST_PROXY=loopback lets the test
 * play clients at several addresses through X-Forwarded-For, as a proxy on the same host would.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { Platform } from '../src/platform.js';
import { call, cookieFrom } from './helpers/http.js';
import { startTestPlatform } from './helpers/platform.js';

const IDLE_SECONDS = 2;
const PASSWORD = 'a sturdy passphrase 42';

interface Stream {
  status: number;
  body: any;
  headers: Headers;
  /** The session's message path (`/sse/messages?sessionId=...`); null when refused. */
  endpoint: string | null;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  isEnded(): boolean;
  close(): void;
}

describe('MCP SSE streams: idle timeout and per-client caps', () => {
  let platform: Platform;
  let url: string;
  let seq = 0;
  const open: Stream[] = [];

  beforeAll(async () => {
    platform = await startTestPlatform([{ file: 'legislation/EU-EUR-Lex.jsonl.gz', lines: 5 }], {
      DEV_LOGIN: 'true',
      TRUST_PROXY: 'loopback',
      SSE_MAX_SESSIONS: '4',
      SSE_MAX_SESSIONS_PER_ACCOUNT: '3',
      SSE_MAX_SESSIONS_PER_IP: '2',
      SSE_MAX_SESSIONS_UNVERIFIED: '1',
      SSE_IDLE_TIMEOUT_SECONDS: String(IDLE_SECONDS),
    });
    url = platform.url!;
  });

  afterEach(async () => {
    // every test starts with no stream open (they share the overall cap of 4)
    for (const s of open.splice(0)) s.close();
    await until(() => platform.app.openStreams() === 0, 5000);
  });

  afterAll(async () => {
    await platform?.stop();
  });

  /** An API key of a new account: verified (dev-login) unless `unverified` (register + login). */
  async function newKey(options: { unverified?: boolean } = {}): Promise<string> {
    const email = `sse${++seq}@example.org`;
    let cookie: string;
    if (options.unverified) {
      expect((await call(`${url}/auth/register`, 'POST', { email, password: PASSWORD, accept_terms: true, acknowledge_privacy: true })).status).toBe(200);
      cookie = cookieFrom((await call(`${url}/auth/login`, 'POST', { email, password: PASSWORD })).headers, 'session')!;
    } else {
      cookie = cookieFrom((await call(`${url}/auth/dev-login`, 'POST', { email })).headers, 'session')!;
    }
    const created = await call(`${url}/v1/keys`, 'POST', { name: 'agent' }, { cookie });
    expect(created.status).toBe(200);
    return created.body.key;
  }

  /** GET /sse as the client at `ip` (named by the loopback proxy); waits for the endpoint event. */
  async function openSse(key: string, ip: string): Promise<Stream> {
    const abort = new AbortController();
    const res = await fetch(`${url}/sse`, { headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream', 'x-forwarded-for': ip }, signal: abort.signal });
    if (res.status !== 200) {
      const body = await res.json();
      return { status: res.status, body, headers: res.headers, endpoint: null, ended: Promise.resolve(), isEnded: () => true, close: () => undefined };
    }
    const reader = res.body!.getReader();
    let text = '';
    while (!/data: (\S+)/.test(text)) text += new TextDecoder().decode((await reader.read()).value);
    let ended = false;
    const endedPromise = (async () => {
      try {
        while (!(await reader.read()).done);
      } catch {
        /* aborted by the test */
      }
      ended = true;
    })();
    const stream: Stream = {
      status: 200,
      body: null,
      headers: res.headers,
      endpoint: /data: (\S+)/.exec(text)![1]!,
      ended: endedPromise,
      isEnded: () => ended,
      close: () => abort.abort(),
    };
    open.push(stream);
    return stream;
  }

  const ping = (stream: Stream, key: string, ip: string) =>
    call(`${url}${stream.endpoint}`, 'POST', { jsonrpc: '2.0', id: ++seq, method: 'ping' }, { key, headers: { 'x-forwarded-for': ip } });

  it('closes idle streams, so the slots a crowd of accounts held go to a new account (the overall cap stays)', async () => {
    // four accounts at two addresses hold every slot and then say nothing
    const holders = await Promise.all([1, 2, 3, 4].map(() => newKey()));
    const held = [];
    for (const [i, key] of holders.entries()) held.push(await openSse(key, `198.51.100.${1 + (i % 2)}`));
    expect(held.map((s) => s.status)).toEqual([200, 200, 200, 200]);

    const newcomer = await newKey();
    const refused = await openSse(newcomer, '198.51.100.50');
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toMatch(/Too many open SSE sessions on this server/);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);

    // past the idle time the server ends the silent streams and frees their slots
    const started = Date.now();
    await Promise.race([Promise.all(held.map((s) => s.ended)), sleep(IDLE_SECONDS * 1000 + 6000)]);
    expect(held.map((s) => s.isEnded())).toEqual([true, true, true, true]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(IDLE_SECONDS * 1000 - 1000);
    const admitted = await openSse(newcomer, '198.51.100.50');
    expect(admitted.status).toBe(200);
  });

  it('counts a message the client posts as activity (a server-sent event is not); a closed session answers 404', async () => {
    const key = await newKey();
    const ip = '198.51.100.60';
    const active = await openSse(key, ip);
    const silent = await openSse(key, ip);
    // posting more often than the idle time keeps a stream open well past it
    for (let i = 0; i < 5; i++) {
      await sleep(IDLE_SECONDS * 400);
      expect((await ping(active, key, ip)).status).toBe(202);
    }
    expect(active.isEnded()).toBe(false);
    // the stream on which nothing was posted was closed meanwhile
    expect(silent.isEnded()).toBe(true);
    expect((await ping(silent, key, ip)).status).toBe(404);
    // once the client stops posting, the active stream closes too
    await Promise.race([active.ended, sleep(IDLE_SECONDS * 1000 + 6000)]);
    expect(active.isEnded()).toBe(true);
  });

  it('an MCP SDK client whose stream was closed as idle reconnects by itself (EventSource) and goes on in the new session', async () => {
    const key = await newKey();
    const client = new Client({ name: 'jest-agent', version: '1.0.0' });
    await client.connect(new SSEClientTransport(new URL(`${url}/sse`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
    try {
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      await until(() => platform.app.openStreams() === 0, IDLE_SECONDS * 1000 + 3000); // closed as idle
      await until(() => platform.app.openStreams() === 1, 8000); // the client's EventSource opened a new one
      await sleep(250); // ...and reads its endpoint event (sent at once; the new stream lives 2 s)
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });

  it('caps the streams of one client address (SSE_MAX_SESSIONS_PER_IP), whatever the accounts', async () => {
    const ip = '198.51.100.70';
    const keys = await Promise.all([1, 2, 3].map(() => newKey()));
    expect((await openSse(keys[0]!, ip)).status).toBe(200);
    expect((await openSse(keys[1]!, ip)).status).toBe(200);
    const third = await openSse(keys[2]!, ip);
    expect(third.status).toBe(429);
    expect(third.body.detail).toMatch(/Too many open SSE sessions from this address \(at most 2\)/);
    expect(third.headers.get('retry-after')).toMatch(/^\d+$/);
    // the same account from another address is let in
    expect((await openSse(keys[2]!, '198.51.100.71')).status).toBe(200);
  });

  it('gives an account whose e-mail is not verified fewer streams (SSE_MAX_SESSIONS_UNVERIFIED); a verified one keeps the per-account cap', async () => {
    const unverified = await newKey({ unverified: true });
    expect((await openSse(unverified, '198.51.100.80')).status).toBe(200);
    const second = await openSse(unverified, '198.51.100.81');
    expect(second.status).toBe(429);
    expect(second.body.detail).toMatch(/not verified.*at most 1/);

    const verified = await newKey();
    expect((await openSse(verified, '198.51.100.82')).status).toBe(200);
    expect((await openSse(verified, '198.51.100.83')).status).toBe(200);
  });
});

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(20);
  }
}
