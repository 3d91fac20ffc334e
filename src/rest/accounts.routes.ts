/**
 * The accounts REST routes: /auth/* (register, sign-in, legal acceptance, password reset,
 * development sign-in, me), /v1/keys, /v1/oauth/grants and /v1/usage/me. Each handler calls one service method
 * with the request context; the session cookie is set here from the session the service issued.
 */
import express, { type Request, type Response } from 'express';
import type { AccountsService, IssuedSession, SignInResult } from '../modules/accounts/accounts.service.js';
import type { ApiKeyService } from '../modules/accounts/api-key.service.js';
import type { OAuthGrantService } from '../modules/accounts/oauth-grants.service.js';
import { readCookie } from '../modules/accounts/cookies.js';
import { LEGAL_TOKEN_TTL_SECONDS, SESSION_COOKIE } from '../modules/accounts/tokens.js';
import type { UsageService } from '../modules/usage/usage.service.js';
import { jsonBody, methodNotAllowed, withLoc } from './errors.js';
import { contextOf } from './request-context.js';

export interface AccountsRoutesOptions {
  accounts: AccountsService;
  apiKeys: ApiKeyService;
  oauthGrants: OAuthGrantService;
  usage: UsageService;
  /** config.baseUrl: the cookie is Secure when it is https. */
  baseUrl: string;
}

/** Sets the session cookie: HttpOnly, SameSite=Lax, 7 days, Secure behind https. */
export function setSessionCookie(res: Response, session: IssuedSession, baseUrl: string): void {
  res.cookie(SESSION_COOKIE, session.token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: baseUrl.startsWith('https://'),
    maxAge: session.maxAgeSeconds * 1000,
    path: '/',
  });
}

export function clearSessionCookie(res: Response, baseUrl: string): void {
  res.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', secure: baseUrl.startsWith('https://'), path: '/' });
}

/**
 * After an identity-provider sign-in the legal-acceptance token travels in this HttpOnly cookie
 * (not in the redirect URL, where logs, history and Referer would keep it); it is sent only to
 * POST /auth/legal-acceptance, which consumes the token once and clears the cookie.
 */
export const LEGAL_ACCEPTANCE_COOKIE = 'legal_acceptance';
const LEGAL_ACCEPTANCE_PATH = '/auth/legal-acceptance';

/**
 * Sets the legal-acceptance cookie (HttpOnly, SameSite=Lax, 15 minutes), sent only to POST
 * /auth/legal-acceptance, or to `path` (the OAuth consent page that accepts the terms itself).
 */
export function setLegalAcceptanceCookie(res: Response, token: string, baseUrl: string, path: string = LEGAL_ACCEPTANCE_PATH): void {
  res.cookie(LEGAL_ACCEPTANCE_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: baseUrl.startsWith('https://'),
    maxAge: LEGAL_TOKEN_TTL_SECONDS * 1000,
    path,
  });
}

/** The legal-acceptance body with the token taken from the cookie when the body has none. */
function withLegalToken(req: Request): unknown {
  const body: unknown = req.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  if ((body as Record<string, unknown>).legal_acceptance_token !== undefined) return body;
  const fromCookie = readCookie(req.header('cookie'), LEGAL_ACCEPTANCE_COOKIE);
  return fromCookie ? { ...body, legal_acceptance_token: fromCookie } : body;
}

/** A sign-in's answer: the user with a session cookie, or the legal-acceptance token without one. */
export function sendSignIn(res: Response, result: SignInResult, baseUrl: string): void {
  if (result.kind === 'session') {
    setSessionCookie(res, result.session, baseUrl);
    res.json(result.user);
    return;
  }
  res.json({ legal_acceptance_required: true, legal_acceptance_token: result.legal_acceptance_token, terms_version: result.terms_version });
}

export function accountsRouter(options: AccountsRoutesOptions): express.Router {
  const { accounts, apiKeys, oauthGrants, usage, baseUrl } = options;
  const router = express.Router();
  const ctx = (req: Request) => contextOf(req);
  const route = (path: string) => router.route(path);

  route('/auth/register')
    .post(jsonBody(), async (req, res) => {
      res.json(await withLoc('body', () => accounts.register(ctx(req), req.body)));
    })
    .all(methodNotAllowed(['POST']));

  route('/auth/login')
    .post(jsonBody(), async (req, res) => {
      sendSignIn(res, await withLoc('body', () => accounts.login(ctx(req), req.body)), baseUrl);
    })
    .all(methodNotAllowed(['POST']));

  route('/auth/logout')
    .post(async (req, res) => {
      await accounts.logout(ctx(req), readCookie(req.header('cookie'), SESSION_COOKIE));
      clearSessionCookie(res, baseUrl);
      res.json({ detail: 'Signed out' });
    })
    .all(methodNotAllowed(['POST']));

  route('/auth/legal-acceptance')
    .post(jsonBody(), async (req, res) => {
      const result = await withLoc('body', () => accounts.acceptLegal(ctx(req), withLegalToken(req)));
      res.clearCookie(LEGAL_ACCEPTANCE_COOKIE, { httpOnly: true, sameSite: 'lax', secure: baseUrl.startsWith('https://'), path: LEGAL_ACCEPTANCE_PATH });
      sendSignIn(res, result, baseUrl);
    })
    .all(methodNotAllowed(['POST']));

  route('/auth/password-reset/request')
    .post(jsonBody(), async (req, res) => {
      res.json(await withLoc('body', () => accounts.requestPasswordReset(ctx(req), req.body)));
    })
    .all(methodNotAllowed(['POST']));

  route('/auth/password-reset/confirm')
    .post(jsonBody(), async (req, res) => {
      const { detail, session } = await withLoc('body', () => accounts.confirmPasswordReset(ctx(req), req.body));
      setSessionCookie(res, session, baseUrl);
      res.json({ detail });
    })
    .all(methodNotAllowed(['POST']));

  route('/auth/verify-email/request')
    .post(async (req, res) => {
      res.json(await accounts.requestEmailVerification(ctx(req)));
    })
    .all(methodNotAllowed(['POST']));

  route('/auth/verify-email/confirm')
    .post(jsonBody(), async (req, res) => {
      res.json(await withLoc('body', () => accounts.confirmEmailVerification(ctx(req), req.body)));
    })
    .all(methodNotAllowed(['POST']));

  route('/auth/dev-login')
    .post(jsonBody(), async (req, res) => {
      sendSignIn(res, await withLoc('body', () => accounts.devLogin(ctx(req), req.body)), baseUrl);
    })
    .all(methodNotAllowed(['POST']));

  route('/auth/me')
    .get(async (req, res) => {
      res.json(await accounts.me(ctx(req)));
    })
    .delete(jsonBody(), async (req, res) => {
      await withLoc('body', () => accounts.deleteMe(ctx(req), req.body));
      clearSessionCookie(res, baseUrl);
      res.json({ detail: 'Account deleted' });
    })
    .all(methodNotAllowed(['GET', 'HEAD', 'DELETE']));

  route('/v1/keys')
    .get(async (req, res) => {
      res.json(await apiKeys.list(ctx(req)));
    })
    .post(jsonBody(), async (req, res) => {
      res.json(await withLoc('body', () => apiKeys.create(ctx(req), req.body)));
    })
    .all(methodNotAllowed(['GET', 'HEAD', 'POST']));

  route('/v1/keys/:key_id')
    .delete(async (req, res) => {
      res.json(await apiKeys.revoke(ctx(req), String(req.params.key_id)));
    })
    .all(methodNotAllowed(['DELETE']));

  route('/v1/oauth/grants')
    .get(async (req, res) => {
      res.json(await oauthGrants.list(ctx(req)));
    })
    .all(methodNotAllowed(['GET', 'HEAD']));

  route('/v1/oauth/grants/:id')
    .delete(async (req, res) => {
      res.json(await oauthGrants.revoke(ctx(req), String(req.params.id)));
    })
    .all(methodNotAllowed(['DELETE']));

  route('/v1/usage/me')
    .get(async (req, res) => {
      res.json(await usage.usageOf(ctx(req)));
    })
    .all(methodNotAllowed(['GET', 'HEAD']));

  return router;
}
