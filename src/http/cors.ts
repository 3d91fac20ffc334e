/**
 * CORS: which endpoints pages of other origins may call, with which headers, and what they may
 * read of the answer. One table for the whole service, applied before anything authenticates,
 * so a preflight (OPTIONS) is answered 204 here, never by a 401 or a 405 further on.
 *
 * - Any origin (`Access-Control-Allow-Origin: *`): the REST API (`/v1/…`), GraphQL, the OpenAPI
 *   document, the OAuth endpoints a browser-based MCP client calls (`/oauth/register`, `/token`,
 *   `/revoke`, `/jwks`) and the metadata under `/.well-known/`. Their credentials are API keys
 *   and tokens the page holds and sends in `Authorization`: nothing ambient that another site
 *   could borrow.
 * - The MCP endpoints (`/mcp`, `/sse`, `/sse/messages`): only BASE_URL's origin and
 *   MCP_ALLOWED_ORIGINS, the origin reflected with `Vary: Origin` (other origins are refused
 *   before this, src/mcp/allowed-origins.ts).
 * - Nowhere else: the dashboard's cookie endpoints (`/auth/…`), the consent page and
 *   `/oauth/authorize` stay same-origin.
 *
 * Never `Access-Control-Allow-Credentials`: a page of another origin cannot read an answer to a
 * request that carried the session cookie, and such a request is not authenticated by it anyway
 * (src/http/cross-site.ts).
 */
import cors from 'cors';
import type { RequestHandler } from 'express';
import { OAUTH_PATH, OAUTH_ROUTES } from '../oauth/authorization-server.js';
import { PROTECTED_RESOURCE_PATHS } from '../oauth/protected-resource.js';

/** Request headers a page may send: credentials, JSON, conditional reads, the MCP transport's own. */
export const CORS_ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Accept', 'If-None-Match', 'If-Modified-Since', 'Mcp-Session-Id', 'MCP-Protocol-Version', 'Last-Event-ID'];

/** Response headers a page may read beyond the safelisted ones: limits, challenges, validators, timings. */
export const CORS_EXPOSED_HEADERS = ['RateLimit', 'RateLimit-Policy', 'Retry-After', 'WWW-Authenticate', 'ETag', 'Mcp-Session-Id', 'Server-Timing', 'Location'];

/** How long a browser may keep a preflight's answer (Chromium caps it at 2 hours). */
const PREFLIGHT_MAX_AGE_SECONDS = 3600;

/** Paths open to any origin: exact paths and prefixes (a prefix ends with `/`). */
const OPEN_PATHS = ['/v1/', '/graphql', '/openapi.json', '/.well-known/', ...(['registration', 'token', 'revocation', 'jwks'] as const).map((r) => `${OAUTH_PATH}${OAUTH_ROUTES[r]}`)];

const under = (path: string, entries: readonly string[]) => entries.some((p) => (p.endsWith('/') ? path.startsWith(p) : path === p || path.startsWith(`${p}/`)));

/** The CORS middleware of the service; `mcpOriginAllowed` says which origins may call the MCP endpoints. */
export function corsForBrowserApps(mcpOriginAllowed: (origin: string) => boolean): RequestHandler {
  const common = { allowedHeaders: CORS_ALLOWED_HEADERS, exposedHeaders: CORS_EXPOSED_HEADERS, maxAge: PREFLIGHT_MAX_AGE_SECONDS, credentials: false, optionsSuccessStatus: 204 };
  const anyOrigin = cors({ ...common, origin: '*', methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] });
  // `true` reflects the request's Origin (none without one: not a browser's CORS request)
  const mcpOrigins = cors({ ...common, origin: (origin, done) => done(null, origin === undefined || mcpOriginAllowed(origin)), methods: ['GET', 'POST', 'DELETE'] });
  return (req, res, next) => {
    if (under(req.path, PROTECTED_RESOURCE_PATHS)) return mcpOrigins(req, res, next);
    if (under(req.path, OPEN_PATHS)) return anyOrigin(req, res, next);
    next();
  };
}
