/**
 * The stray-network guard: while it is on, an outbound HTTP(S) request or WebSocket (node:http,
 * node:https, fetch, XMLHttpRequest, WebSocket: what msw intercepts in Node) to any host that is
 * not loopback fails with `StrayRequestError` naming the host, and is never sent. Every test talks
 * to local servers (PostgreSQL, Redis, the Stripe/GitHub/Elasticsearch/Pinecone/SMTP stand-ins,
 * the service itself), so a request elsewhere is a test leaking to the internet: a flaky, slow or
 * billed test. Loopback requests pass through untouched.
 *
 * Jest turns it on for every test file (test/network-guard.setup.ts); the service spawned as an
 * OS process by test/helpers/service-process.ts gets it through `--import` of
 * test/helpers/network-guard.preload.ts. Not covered: raw TCP/UDP (`net`, `dgram`: ioredis,
 * PostgreSQL, SMTP, DNS), which msw does not see, and browser pages driven by the dashboard tests
 * (Chromium's own network).
 */
import { setupServer } from 'msw/node';

/**
 * The error a stray request fails with; its message names the host. It carries `code` and
 * `errno` like Node's own network errors: msw's interceptors fail the request with such an error
 * (as a connection error: fetch rejects with it as `cause`, node:http emits it as 'error'), where
 * any other error thrown from the guard would be turned into a 500 response.
 */
export class StrayRequestError extends Error {
  readonly code = 'E_STRAY_REQUEST';
  readonly errno = 0;
  constructor(readonly url: string) {
    super(`stray outbound request blocked by the test network guard: ${new URL(url).host} (${url}); tests may only call local servers`);
    this.name = 'StrayRequestError';
  }
}

/** True for names that cannot leave the machine: localhost, 127.0.0.0/8, ::1 and its IPv4-mapped forms. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(host) || host === '::1' || /^::ffff:127(\.\d{1,3}){3}$/.test(host) || /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(host);
}

/** The prefix of the stderr line a spawned service writes for each request it blocked. */
export const STRAY_REQUEST_MARKER = 'network-guard: blocked';

const blocked: string[] = [];

/**
 * The stray requests blocked since the last call, and forgets them. The jest setup fails a test
 * that leaves any (even when the code under test swallowed the error); a test that makes one on
 * purpose takes them first.
 */
export function takeStrayRequests(): string[] {
  return blocked.splice(0);
}

/** The URL an intercepted frame goes to: an HTTP request's, or a WebSocket connection's. */
function frameUrl(data: unknown): string {
  const frame = data as { request?: Request; connection?: { client: { url: URL | string } } };
  return frame.request ? frame.request.url : String(frame.connection!.client.url);
}

/**
 * Starts intercepting in this process (call once per module registry) and returns the stop
 * function. `onBlocked` is told of each blocked request, after it is recorded.
 */
export function startNetworkGuard(onBlocked: (error: StrayRequestError) => void = () => {}): () => void {
  const server = setupServer();
  let stopped = false;
  const stop = () => {
    if (!stopped) server.close();
    stopped = true;
  };
  stopActiveGuard = stop;
  server.listen({
    // msw 3's `onUnhandledFrame` (was `onUnhandledRequest`): returning lets the request through
    // as it is, throwing fails it with that error. No handlers are registered, so every request
    // comes here.
    onUnhandledFrame({ frame }) {
      const url = frameUrl(frame.data);
      if (isLoopbackHost(new URL(url).hostname)) return;
      const error = new StrayRequestError(url);
      blocked.push(url);
      onBlocked(error);
      throw error;
    },
  });
  return stop;
}

/** The stop function of the guard this module registry started (the test file's). */
let stopActiveGuard: (() => void) | null = null;

/**
 * Turns the guard off for the rest of the test file that calls it: only for files that open raw
 * sockets from chosen local addresses (127.0.0.x) and watch them close. msw intercepts sockets
 * too, and its passthrough connects them from 127.0.0.1 and hides their close, so a per-address
 * cap or a timeout closing them can no longer be seen. Such a file must make no outbound request.
 */
export function stopNetworkGuardForRawSockets(): void {
  stopActiveGuard?.();
}
