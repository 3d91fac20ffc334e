/**
 * The cookies that carry a sign-in across the browser doors: the session cookie, and the
 * legal-acceptance token that an identity-provider sign-in hands to the terms page. The REST
 * account routes, the identity-provider callback and the OAuth consent page all set or clear
 * them, so they live here, in the HTTP layer both doors share, and never in one door's routes.
 */
import type { Response } from 'express';
import type { IssuedSession } from '../modules/accounts/accounts.service.js';
import { LEGAL_TOKEN_TTL_SECONDS, SESSION_COOKIE } from '../modules/accounts/tokens.js';

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

/** Clears the session cookie (sign-out), with the attributes it was set with. */
export function clearSessionCookie(res: Response, baseUrl: string): void {
  res.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', secure: baseUrl.startsWith('https://'), path: '/' });
}

/**
 * After an identity-provider sign-in the legal-acceptance token travels in this HttpOnly cookie
 * (not in the redirect URL, where logs, history and Referer would keep it); it is sent only to
 * POST /auth/legal-acceptance, which consumes the token once and clears the cookie.
 */
export const LEGAL_ACCEPTANCE_COOKIE = 'legal_acceptance';
/** The only path the legal-acceptance cookie is sent to, unless an OAuth consent page takes it. */
export const LEGAL_ACCEPTANCE_PATH = '/auth/legal-acceptance';

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
