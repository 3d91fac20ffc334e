/**
 * Response headers that protect browsers, set once for every response through helmet (a
 * maintained middleware, so new browser defences arrive with its updates):
 *
 * - HSTS only when BASE_URL is https (a plain-http deployment, local development, must not tell
 *   browsers to insist on https); `upgrade-insecure-requests` likewise.
 * - Referrer-Policy `same-origin`, not helmet's `no-referrer`: under `no-referrer` a browser sends
 *   `Origin: null` with same-origin form posts and fetches, which the cross-site defence
 *   (src/http/cross-site.ts) must refuse when a session cookie rides along.
 * - The pages that know better set their own headers after this and win: the dashboard
 *   (src/http/dashboard.ts) and the consent page (src/oauth/oauth.routes.ts) send stricter CSPs.
 * - Under /oauth (oidc-provider) no `form-action` and no Cross-Origin-Opener-Policy: the
 *   `form_post` response mode posts the code to the client's own origin, and a client that opened
 *   the authorization in a popup waits for it through `window.opener`.
 *
 * And `Cache-Control: no-store` on every response that carries credentials or personal data, so
 * neither a shared cache nor the browser's disk keeps a session, an API key or a usage record:
 * every response under the paths of accounts, keys, usage, billing, teams, administration, OAuth
 * and GraphQL, and every response to a request that carries a credential (an Authorization header
 * or the session cookie), except the dashboard's content-hashed assets. Public anonymous reads
 * (stats, discovery) stay cacheable. A route that sets its own Cache-Control afterwards (the
 * dashboard's index.html, the public OAuth metadata) keeps it.
 */
import type { RequestHandler } from 'express';
import helmet, { type HelmetOptions } from 'helmet';
import { readCookie } from '../util/cookies.js';
import { SESSION_COOKIE } from '../modules/accounts/tokens.js';

/** Path prefixes whose every response is `no-store` (credentials, personal data, account state). */
export const NO_STORE_PATHS = ['/auth/', '/oauth/', '/graphql', '/mcp', '/sse', '/v1/keys', '/v1/usage', '/v1/admin', '/v1/billing', '/v1/team', '/v1/oauth'];

/** The dashboard's content-hashed files: the same for everyone, cached for a year even for signed-in browsers. */
const PUBLIC_ASSETS_PREFIX = '/dashboard/assets/';

/** Where oidc-provider answers (its form_post page and popup flows need the relaxed variant). */
const AUTHORIZATION_SERVER_PREFIX = '/oauth/';

/** helmet, configured for this service: HSTS only behind an https BASE_URL (see the module comment). */
export function securityHeaders(options: { baseUrl: string; hstsMaxAgeSeconds: number }): RequestHandler {
  const https = options.baseUrl.startsWith('https://');
  const directives = {
    ...helmet.contentSecurityPolicy.getDefaultDirectives(),
    'upgrade-insecure-requests': https ? [] : null,
  };
  const common: HelmetOptions = {
    strictTransportSecurity: https ? { maxAge: options.hstsMaxAgeSeconds, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'same-origin' },
  };
  const everywhere = helmet({ ...common, contentSecurityPolicy: { useDefaults: false, directives } });
  const authorizationServer = helmet({
    ...common,
    contentSecurityPolicy: { useDefaults: false, directives: { ...directives, 'form-action': null } },
    crossOriginOpenerPolicy: false,
  });
  return (req, res, next) => (req.path.startsWith(AUTHORIZATION_SERVER_PREFIX) ? authorizationServer : everywhere)(req, res, next);
}

/** `Cache-Control: no-store` on the responses the module comment lists; anything else is left to its route. */
export function noStoreForPrivateResponses(): RequestHandler {
  return (req, res, next) => {
    if (req.path.startsWith(PUBLIC_ASSETS_PREFIX)) return next();
    const credentialed = Boolean(req.header('authorization')) || readCookie(req.header('cookie'), SESSION_COOKIE) !== null;
    if (credentialed || NO_STORE_PATHS.some((prefix) => req.path.startsWith(prefix))) {
      res.setHeader('Cache-Control', 'no-store');
    }
    next();
  };
}
