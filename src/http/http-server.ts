/**
 * The service's HTTP server, with its limits set deliberately (issue #31 item 5) rather than
 * left at Node's defaults, under which one client holding thousands of sockets, each trickling
 * a request body, exhausted the file descriptors and a slow body stayed open for 300 s:
 *
 * - `headersTimeout` and `requestTimeout` bound the time to RECEIVE a request (headers, then the
 *   whole body); Node answers 408 and closes. They do not bound the response: a long-lived SSE
 *   stream (GET /sse) is a complete request whose response goes on, and is not cut.
 * - `keepAliveTimeout` closes an idle kept-alive socket between requests.
 * - `maxConnections` caps the sockets of the whole process below its file-descriptor limit, so
 *   the database, Redis and the search engine's files can still be opened when it is crowded.
 * - per peer address, at most `maxConnectionsPerIp` sockets (src/http/connection-limits.ts).
 * - what the parser refuses (headers too large, a malformed request, a timeout) is answered
 *   with a JSON `detail` like every other refusal (src/http/client-errors.ts).
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { HttpServerLimits } from '../config.js';
import type { Logger } from '../logger.js';
import { answerClientErrorsWithDetail } from './client-errors.js';
import { limitConnectionsPerAddress } from './connection-limits.js';

/**
 * How often Node looks for requests past their headers or request timeout. Its default (30 s)
 * would let a 10 s headers timeout run up to 40 s; once a second keeps every timeout within a
 * second of its setting, for the cost of walking the list of requests still being received.
 */
const TIMEOUT_CHECK_INTERVAL_MS = 1000;

/** Refused sockets are logged as one summary line per this window, not one line each (a flood would flood the log). */
const REFUSAL_REPORT_WINDOW_MS = 10_000;

/**
 * An HTTP server for `handler` with the configured timeouts and connection caps; `isTrustedProxy`
 * exempts a proxy's address from the per-address cap; refused sockets are summarised in the log.
 */
export function createHttpServer(
  handler: RequestListener,
  limits: HttpServerLimits,
  options: { isTrustedProxy: (address: string) => boolean; logger: Pick<Logger, 'warn'>; reportEveryMs?: number },
): Server {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
    },
    handler,
  );
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  answerClientErrorsWithDetail(server);
  // Node closes (without reading) every connection past this one: better than failing to open files
  server.maxConnections = limits.maxConnections;
  const refusals = refusalReport(options.logger, options.reportEveryMs ?? REFUSAL_REPORT_WINDOW_MS);
  server.on('drop', () => refusals.overall());
  limitConnectionsPerAddress(server, { max: limits.maxConnectionsPerIp, exempt: options.isTrustedProxy, onRefused: refusals.perAddress });
  return server;
}

/** Counts refused sockets and logs what a window saw, with the address refused most (what an operator would block). */
function refusalReport(logger: Pick<Logger, 'warn'>, windowMs: number): { perAddress(key: string): void; overall(): void } {
  let byAddress = new Map<string, number>();
  let overall = 0;
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    timer = null;
    const perAddress = [...byAddress.values()].reduce((a, b) => a + b, 0);
    const [top, topCount] = [...byAddress.entries()].reduce((a, b) => (b[1] > a[1] ? b : a), ['', 0]);
    const parts = [];
    if (perAddress > 0) parts.push(`${perAddress} past HTTP_MAX_CONNECTIONS_PER_IP from ${byAddress.size} address(es), most from ${top} (${topCount})`);
    if (overall > 0) parts.push(`${overall} past HTTP_MAX_CONNECTIONS`);
    logger.warn(`http: refused sockets in the last ${windowMs / 1000} s: ${parts.join('; ')}`);
    byAddress = new Map();
    overall = 0;
  };
  const schedule = () => {
    if (timer) return;
    timer = setTimeout(flush, windowMs);
    timer.unref();
  };
  return {
    perAddress(key) {
      byAddress.set(key, (byAddress.get(key) ?? 0) + 1);
      schedule();
    },
    overall() {
      overall++;
      schedule();
    },
  };
}
