/**
 * Which browser pages may call the MCP endpoints (`/mcp`, `/sse`, `/sse/messages`): the Origin
 * check the MCP Streamable HTTP transport asks servers to make, against DNS rebinding and pages
 * that would drive a user's tools from another site.
 *
 * A request whose `Origin` is BASE_URL's own, or one of MCP_ALLOWED_ORIGINS (`*`: any), passes;
 * any other `Origin`, `null` included, is refused 403 with a JSON-RPC error body before it is
 * authenticated. A request without `Origin` is not from a web page (the SDKs, curl, the
 * Inspector's CLI and proxy, agents on servers) and passes: its token is its only credential.
 *
 * Not the SDK's transport options (`allowedOrigins` with `enableDnsRebindingProtection`): they
 * are deprecated in favour of a middleware, cover one transport each, and run only once the
 * transport handles the request, after authentication. The answer keeps their shape (403, code
 * -32000, `id: null`). No Host check beside it: every URL this service builds comes from
 * BASE_URL, and a rebound page is refused by its Origin.
 */
import type { RequestHandler } from 'express';
import type { AllowedOrigins } from '../config.js';

/** Whether a page of `origin` may call the MCP endpoints of the service at `baseUrl`. */
export function mcpOriginPolicy(baseUrl: string, allowed: AllowedOrigins): (origin: string) => boolean {
  if (allowed === '*') return () => true;
  const origins = new Set([new URL(baseUrl).origin, ...allowed]);
  return (origin) => origins.has(origin);
}

/** 403 (JSON-RPC error) for a request whose `Origin` the policy refuses; mount it on the MCP paths. */
export function refuseUnlistedOrigins(allows: (origin: string) => boolean): RequestHandler {
  return (req, res, next) => {
    const origin = req.header('origin');
    if (origin === undefined || allows(origin)) return next();
    res.status(403).json({
      jsonrpc: '2.0',
      error: { code: -32000, message: `Forbidden: pages of Origin ${origin} may not call this MCP server (the operator lists the allowed origins in MCP_ALLOWED_ORIGINS)` },
      id: null,
    });
  };
}
