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
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { HttpServerLimits } from '../config.js';
import { limitConnectionsPerAddress } from './connection-limits.js';

/**
 * How often Node looks for requests past their headers or request timeout. Its default (30 s)
 * would let a 10 s headers timeout run up to 40 s; once a second keeps every timeout within a
 * second of its setting, for the cost of walking the list of requests still being received.
 */
const TIMEOUT_CHECK_INTERVAL_MS = 1000;

/** An HTTP server for `handler` with the configured timeouts and connection caps; `isTrustedProxy` exempts a proxy's address from the per-address cap. */
export function createHttpServer(handler: RequestListener, limits: HttpServerLimits, options: { isTrustedProxy: (address: string) => boolean }): Server {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
    },
    handler,
  );
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  // Node closes (without reading) every connection past this one: better than failing to open files
  server.maxConnections = limits.maxConnections;
  limitConnectionsPerAddress(server, { max: limits.maxConnectionsPerIp, exempt: options.isTrustedProxy });
  return server;
}
