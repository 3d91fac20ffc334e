/**
 * Slow clients cannot exhaust the process (issue #31 item 5): a request whose headers or body
 * trickle in is closed after HTTP_HEADERS_TIMEOUT_SECONDS / HTTP_REQUEST_TIMEOUT_SECONDS, one
 * client address holds at most HTTP_MAX_CONNECTIONS_PER_IP sockets (a trusted proxy's address,
 * which speaks for many clients, is exempt), the process at most HTTP_MAX_CONNECTIONS, and
 * /health keeps answering other clients meanwhile.
 *
 * Raw TCP sockets from several loopback addresses (127.0.0.2 plays the attacker, 127.0.0.3 the
 * same-host proxy that TRUST_PROXY names, 127.0.0.1 everyone else) against one platform.
 */
import { connect, type Socket } from 'node:net';
import type { Platform } from '../src/platform.js';
import { startTestPlatform } from './helpers/platform.js';
import { stopNetworkGuardForRawSockets } from './helpers/network-guard.js';

// Raw sockets from 127.0.0.x, watched until the server closes them: the stray-network guard's
// socket interception would connect them from 127.0.0.1 and hide their close (no outbound
// request is made here).
stopNetworkGuardForRawSockets();

const PER_IP = 8;
const OVERALL = 24;
const ATTACKER = '127.0.0.2';
const PROXY = '127.0.0.3';

interface OpenSocket {
  socket: Socket;
  /** Milliseconds from connecting to the server's close; null while open. */
  closedAfterMs(): number | null;
  /** What the server sent before closing. */
  received(): string;
}

describe('HTTP connection limits and timeouts', () => {
  let platform: Platform;
  let port: number;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    platform = await startTestPlatform([{ file: 'legislation/EU-EUR-Lex.jsonl.gz', lines: 5 }], {
      TRUST_PROXY: PROXY,
      HTTP_HEADERS_TIMEOUT_SECONDS: '1',
      HTTP_REQUEST_TIMEOUT_SECONDS: '2',
      HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: '1',
      HTTP_MAX_CONNECTIONS_PER_IP: String(PER_IP),
      HTTP_MAX_CONNECTIONS: String(OVERALL),
      DEV_LOGIN: 'true',
    });
    port = Number(new URL(platform.url!).port);
  });

  afterEach(async () => {
    for (const s of sockets.splice(0)) s.destroy();
    await sleep(200);
  });

  afterAll(async () => {
    await platform?.stop();
  });

  /** A socket from `localAddress` that sends `text` and then nothing more. */
  async function openSocket(localAddress: string, text: string): Promise<OpenSocket> {
    const socket = connect({ host: '127.0.0.1', port, localAddress });
    sockets.push(socket);
    const started = Date.now();
    let closedAt: number | null = null;
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined); // a reset by the server is what some tests expect
    socket.on('close', () => (closedAt = Date.now()));
    await new Promise<void>((resolve) => {
      socket.once('connect', () => resolve());
      socket.once('close', () => resolve());
    });
    if (closedAt === null) socket.write(text);
    return { socket, closedAfterMs: () => (closedAt === null ? null : closedAt - started), received: () => received };
  }

  /** The first part of a sign-in whose body never completes (the slow body). */
  const partialLogin = 'POST /auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email": "a@example.org"';
  const health = () => fetch(`http://127.0.0.1:${port}/health`).then((r) => r.status);

  it('closes a request whose body never completes after HTTP_REQUEST_TIMEOUT_SECONDS (408)', async () => {
    const slow = await openSocket('127.0.0.1', partialLogin);
    await sleep(1500);
    expect(slow.closedAfterMs()).toBeNull(); // not before its time
    await until(() => slow.closedAfterMs() !== null, 6000);
    // 2 s, checked every second by the server
    expect(slow.closedAfterMs()).toBeLessThan(2000 + 1000 + 1500);
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('does not cut a long-lived response (an MCP SSE stream) at the request timeout: it bounds receiving the request only', async () => {
    const login = await fetch(`http://127.0.0.1:${port}/auth/dev-login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'streamer@example.org' }) });
    const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
    const created = await fetch(`http://127.0.0.1:${port}/v1/keys`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ name: 'agent' }) });
    const { key } = (await created.json()) as { key: string };
    const abort = new AbortController();
    const res = await fetch(`http://127.0.0.1:${port}/sse`, { headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' }, signal: abort.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let ended = false;
    const reading = (async () => {
      try {
        while (!(await reader.read()).done);
        ended = true;
      } catch {
        /* aborted below */
      }
    })();
    await sleep(2000 + 1000 + 1000);
    expect(ended).toBe(false);
    abort.abort();
    await reading;
  });

  it('closes a request whose headers never complete after HTTP_HEADERS_TIMEOUT_SECONDS', async () => {
    const slow = await openSocket('127.0.0.1', 'GET /health HTTP/1.1\r\nHost: localhost\r\nX-Slow: ');
    await until(() => slow.closedAfterMs() !== null, 6000);
    expect(slow.closedAfterMs()).toBeLessThan(1000 + 1000 + 1500);
  });

  it('closes at once the sockets of one address past HTTP_MAX_CONNECTIONS_PER_IP; /health still answers others', async () => {
    const flood: OpenSocket[] = [];
    for (let i = 0; i < PER_IP + 6; i++) flood.push(await openSocket(ATTACKER, partialLogin));
    await sleep(400); // well before the request timeout closes the rest
    const closed = flood.filter((s) => s.closedAfterMs() !== null);
    expect({ closed: closed.length, open: flood.length - closed.length }).toEqual({ closed: 6, open: PER_IP });
    expect(await health()).toBe(200);
    // a socket of the address frees its place when it closes
    flood.filter((s) => s.closedAfterMs() === null)[0]!.socket.destroy();
    await sleep(200);
    const next = await openSocket(ATTACKER, partialLogin);
    await sleep(300);
    expect(next.closedAfterMs()).toBeNull();
  });

  it('does not count the address of a trusted proxy (it speaks for many clients), but caps the process with HTTP_MAX_CONNECTIONS', async () => {
    const viaProxy: OpenSocket[] = [];
    for (let i = 0; i < OVERALL + 4; i++) viaProxy.push(await openSocket(PROXY, partialLogin));
    await sleep(400);
    const open = viaProxy.filter((s) => s.closedAfterMs() === null).length;
    expect(open).toBe(OVERALL);
    // at the overall cap nobody else gets in; once the proxy's sockets end, /health answers again
    for (const s of viaProxy) s.socket.destroy();
    await sleep(200);
    expect(await health()).toBe(200);
  });
});

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await sleep(20);
}
