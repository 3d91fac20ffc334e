/**
 * Where a person goes after signing in: `next` (a dashboard path) or `return_to` (the OAuth
 * consent page an MCP client opened, /oauth/interaction/<uid>, same origin only), which is a full
 * page load outside the single-page app.
 */
import type { NavigateFunction } from 'react-router';
import { needsLegalAcceptance, type SignInAnswer } from '../../api/auth';
import { safeNext } from '../../app/session';

export interface Continuation {
  next: string;
  returnTo: string | null;
}

export function continuationOf(params: URLSearchParams): Continuation {
  const returnTo = params.get('return_to');
  return {
    next: safeNext(params.get('next')),
    returnTo: returnTo && /^\/oauth\/interaction\/[A-Za-z0-9_-]+$/.test(returnTo) ? returnTo : null,
  };
}

/**
 * The invite token of a continuation back to the invite page (/team/join?token=…), or null: a
 * registration from an invite sends it, so no verification mail goes to an address the invite proves.
 */
export function inviteTokenOf(c: Continuation): string | null {
  const url = new URL(c.next, 'http://dashboard.invalid');
  return url.pathname === '/team/join' ? url.searchParams.get('token') || null : null;
}

/** The query string that carries a continuation to the next page of the flow ('' when there is none). */
export function continuationQuery(c: Continuation): string {
  const q = new URLSearchParams();
  if (c.next !== '/') q.set('next', c.next);
  if (c.returnTo) q.set('return_to', c.returnTo);
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** Goes on to `return_to` (a full page load) or to `next` inside the app, replacing the sign-in page in history. */
export function continueTo(c: Continuation, navigate: NavigateFunction): void {
  if (c.returnTo) {
    window.location.assign(c.returnTo);
    return;
  }
  navigate(c.next, { replace: true });
}

/**
 * What follows a sign-in answer (a login, or a registration that signs in): the legal-acceptance
 * step when the person has yet to accept the current terms (the continuation travels along),
 * else the session is reloaded and the person continues. Nothing when the call failed (undefined).
 */
export async function finishSignIn(answer: SignInAnswer | undefined, c: Continuation, navigate: NavigateFunction, refresh: () => Promise<unknown>): Promise<void> {
  if (!answer) return;
  if (needsLegalAcceptance(answer)) {
    navigate(`/legal-acceptance${continuationQuery(c)}`, { state: { token: answer.legal_acceptance_token, terms: answer.terms_version } });
    return;
  }
  await refresh();
  continueTo(c, navigate);
}
