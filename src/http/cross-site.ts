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
 *   credentials): a page of another site can send that header only with a credential it holds
 *   itself (CORS lets it, src/http/cors.ts), never one the browser adds on its own;
 * - requests without any cookie: nothing ambient authenticates them;
 * - requests with neither `Origin` nor `Sec-Fetch-Site` (not sent by a browser: curl, SDKs).
 *
 * And the safe requests a page of another origin sends with the cookie (a `credentials:
 * 'include'` fetch or an `<img>`, which browsers send with a SameSite=Lax cookie within the same
 * site: another port or subdomain) are served as if they carried none: the page could not read
 * the answer (CORS never allows credentials here), but a billable read would still be charged to
 * the signed-in account.
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

/**
 * Drops the Cookie header of a request that a page of another origin sent (`null` included), so
 * that nothing downstream (the authenticator, GraphQL's forwarding to remote subgraphs, the OAuth
 * routes) is authenticated by it: a fetch with `Origin`, and, without one, a no-CORS GET that
 * Fetch Metadata says another site's page embedded or fetched (an image, a script, a no-cors
 * fetch). Navigations keep their cookies (a link followed from a mail, the OAuth and identity
 * provider redirects), as do same-origin fetches (the dashboard) and requests from no browser.
 */
export function ignoreCookiesFromOtherOrigins(baseUrl: string): RequestHandler {
  const origin = new URL(baseUrl).origin;
  return (req, _res, next) => {
    // a top-level navigation only: a frame of another page (`Sec-Fetch-Dest: iframe`) navigates too
    const navigation = req.header('origin') === undefined && req.header('sec-fetch-mode') === 'navigate' && (req.header('sec-fetch-dest') ?? 'document') === 'document';
    if (!navigation && isCrossSite(req, origin)) delete req.headers.cookie;
    next();
  };
}
