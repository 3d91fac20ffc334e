/**
 * The REST door's authentication: a middleware that turns the request's credentials (Bearer API
 * key or session cookie) into the RequestContext every handler passes to its service, and that
 * writes the usage guard's limit state as IETF RateLimit-Policy / RateLimit headers just before
 * the response headers go out (so handlers stay one line).
 */
import type { RequestHandler, Request, Response } from 'express';
import { contextsWithoutDatabase, isAccount, type RequestContext, type RequestContexts } from '../context.js';
import { Authenticator, MALFORMED_AUTHORIZATION, parseBearer } from '../modules/accounts/authenticator.js';
import { DomainError } from '../errors.js';
import { bearerChallenge, type ResourceChallenge } from './bearer-challenge.js';

/** Where the authorization server reads its own Authorization header (HTTP Basic client authentication at /oauth/token). */
const AUTHORIZATION_SERVER_PREFIX = '/oauth/';

const CONTEXT = Symbol('requestContext');

type WithContext = Request & { [CONTEXT]?: RequestContext };

/**
 * The RequestContext of a request (anonymous when no authentication middleware ran; such a
 * context has no unit of work, since every door that reaches the database sits behind the middleware).
 */
export function contextOf(req: Request): RequestContext {
  const withContext = req as WithContext;
  return (withContext[CONTEXT] ??= contextsWithoutDatabase.anonymous(req.ip ?? null));
}

/**
 * Authenticates every request that carries credentials; the rest are anonymous without any lookup.
 * Each request's context comes from `contexts` (one unit of work per request, forked on first use).
 * `protectedResourceOf` names the OAuth protected resource a path belongs to (the MCP endpoints),
 * the only requests where an OAuth access token can authenticate (its `aud` must name it), and
 * `resourceChallengeOf` its RFC 9728 metadata URL and scopes, named in the challenges sent there.
 *
 * RFC 6750, the same for every door behind this middleware (REST, GraphQL, MCP): an Authorization
 * header that is not `Bearer <token>` answers 400 `invalid_request`, and a bearer token that is
 * not valid answers 401 `invalid_token`, on open endpoints too (a client that sends a key expects
 * it to be used: serving it anonymously would hide a revoked or mistyped key). A session cookie
 * that is no longer valid is different: a browser keeps sending it after it expires, so open
 * endpoints (and signing in again) serve it anonymously; endpoints that need an account answer
 * 401. The authorization server's paths are left alone: its token endpoint reads HTTP Basic.
 */
export function authenticateRequests(
  authenticator: Pick<Authenticator, 'authenticate'>,
  contexts: RequestContexts,
  options: { protectedResourceOf?: (path: string) => string | null; resourceChallengeOf?: (path: string) => ResourceChallenge | null } = {},
): RequestHandler {
  return (req, res, next) => {
    const credentials = {
      authorization: req.header('authorization'),
      cookie: req.header('cookie'),
      ip: req.ip ?? null,
      resource: options.protectedResourceOf?.(req.path) ?? null,
    };
    const withContext = req as WithContext;
    rateLimitHeadersOnWrite(res, () => withContext[CONTEXT]);
    const signal = abandonedSignal(res);
    if (!Authenticator.hasCredentials(credentials)) {
      withContext[CONTEXT] = contexts.anonymous(credentials.ip, undefined, signal);
      return next();
    }
    const bearerChecked = Boolean(credentials.authorization) && !req.path.startsWith(AUTHORIZATION_SERVER_PREFIX);
    const refuse = (status: 400 | 401, error: 'invalid_request' | 'invalid_token', detail: string) => {
      res.setHeader('WWW-Authenticate', bearerChallenge({ error, description: detail, ...options.resourceChallengeOf?.(req.path) }));
      res.status(status).json({ detail });
    };
    if (bearerChecked && parseBearer(credentials.authorization!) === null) return refuse(400, 'invalid_request', MALFORMED_AUTHORIZATION);
    authenticator.authenticate(credentials).then((caller) => {
      if (bearerChecked && !isAccount(caller) && caller.rejected) return refuse(401, 'invalid_token', caller.rejected);
      withContext[CONTEXT] = contexts.forCaller(caller, undefined, signal);
      next();
    }, next);
  };
}

/**
 * Aborted when the response's connection closes before the response was sent in full: the
 * client went away, and nothing the request still does can reach it (RequestContext.signal).
 */
function abandonedSignal(res: Response): AbortSignal {
  const abandoned = new AbortController();
  if (res.req?.socket?.destroyed) abandoned.abort(new DomainError('abandoned', 'the client went away before the answer'));
  res.once('close', () => {
    if (!res.writableFinished) abandoned.abort(new DomainError('abandoned', 'the client went away before the answer'));
  });
  return abandoned.signal;
}

/**
 * Adds RateLimit-Policy and RateLimit (draft-ietf-httpapi-ratelimit-headers) when the request
 * went through the usage guard: every window in the policy, the one with the fewest remaining
 * requests in RateLimit.
 */
function rateLimitHeadersOnWrite(res: Response, context: () => RequestContext | undefined): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, ...args: unknown[]) {
    const state = context()?.rateLimit;
    if (state && state.windows.length > 0 && !res.headersSent) {
      res.setHeader('RateLimit-Policy', state.windows.map((w) => `"${w.name}";q=${w.limit};w=${w.windowSeconds}`).join(', '));
      const tightest = state.windows.reduce((a, b) => (b.remaining < a.remaining ? b : a));
      res.setHeader('RateLimit', `"${tightest.name}";r=${tightest.remaining};t=${tightest.resetSeconds}`);
    }
    return (writeHead as (...a: unknown[]) => Response).apply(this, args);
  } as Response['writeHead'];
}
