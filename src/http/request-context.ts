/**
 * The REST door's authentication: a middleware that turns the request's credentials (Bearer API
 * key or session cookie) into the RequestContext every handler passes to its service, and that
 * writes the usage guard's limit state as IETF RateLimit-Policy / RateLimit headers just before
 * the response headers go out (so handlers stay one line).
 */
import type { RequestHandler, Request, Response } from 'express';
import { contextsWithoutDatabase, type RequestContext, type RequestContexts } from '../context.js';
import { Authenticator } from '../modules/accounts/authenticator.js';
import { DomainError } from '../errors.js';

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
 * the only requests where an OAuth access token can authenticate (its `aud` must name it).
 */
export function authenticateRequests(
  authenticator: Pick<Authenticator, 'authenticate'>,
  contexts: RequestContexts,
  options: { protectedResourceOf?: (path: string) => string | null } = {},
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
    authenticator.authenticate(credentials).then((caller) => {
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
