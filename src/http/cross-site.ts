/**
 * Cross-site request forgery defence for cookie-authenticated state changes.
 *
 * A browser attaches the session cookie to any request for this host, including a form post or
 * a no-CORS fetch that a page of another site sends. Every unsafe request (POST, PUT, PATCH,
 * DELETE) that carries cookies and no `Authorization` header must therefore come from a page of
 * BASE_URL's own origin, which browsers say in `Origin` (every modern browser sends it on unsafe
 * requests) and in Fetch Metadata (`Sec-Fetch-Site`). What passes:
 *
 * - safe methods (GET, HEAD, OPTIONS), which change nothing;
 * - requests with `Authorization` (API keys, OAuth access tokens, HTTP Basic client
 *   credentials): a page of another site cannot set that header without a CORS preflight this
 *   service never grants;
 * - requests without any cookie: nothing ambient authenticates them;
 * - requests with neither `Origin` nor `Sec-Fetch-Site` (not sent by a browser: curl, SDKs).
 */
import type { Request, RequestHandler } from 'express';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a browser says this request was sent by a page of another origin than `origin`
 * (BASE_URL's). No Origin and no Fetch Metadata: not a browser request, so not cross-site.
 */
export function isCrossSite(req: Request, origin: string): boolean {
  const sentOrigin = req.header('origin');
  if (sentOrigin !== undefined) return sentOrigin !== origin;
  const site = req.header('sec-fetch-site');
  return site === 'cross-site' || site === 'same-site';
}

/** 403 for unsafe requests from another origin that would be authenticated by a cookie. */
export function refuseCrossSiteCookieRequests(baseUrl: string): RequestHandler {
  const origin = new URL(baseUrl).origin;
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method) || req.header('authorization') !== undefined || req.header('cookie') === undefined) return next();
    if (!isCrossSite(req, origin)) return next();
    res.status(403).json({ detail: `Cross-site request refused: a request authenticated by a cookie must come from ${origin}` });
  };
}
