/**
 * The signed-in account for every page: `useSession()` gives `me` (null when signed out), a
 * `refresh()` after signing in or out, and `signedOut()` which the API client triggers on any
 * 401: the person is sent to sign-in with `next` set to where they were, and comes back there.
 */
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { request, onSignedOut } from '../api/client';
import { takeEarly } from '../api/early-requests';
import { ApiError } from '../api/errors';
import { MeDocument, type MeQuery } from '../gql/graphql';

export type Me = MeQuery['me'];

interface SessionState {
  /** undefined while the first answer is pending. */
  me: Me | null | undefined;
  error: ApiError | null;
  refresh(): Promise<Me | null>;
  /** Forget the account locally (after POST /auth/logout). */
  clear(): void;
  /** Why the account is gone: a call answered 401 while signed in (`expired`), or the person signed out. */
  ended: 'expired' | 'signed-out' | null;
}

const SessionContext = createContext<SessionState | null>(null);

/** The path + query + hash of the current location under /dashboard (for `next`). */
export function here(location: { pathname: string; search: string; hash: string }): string {
  return `${location.pathname}${location.search}${location.hash}`;
}

/** The sign-in page that brings the person back to `next` afterwards. */
export function signInPath(next: string): string {
  return next && next !== '/' && !next.startsWith('/sign-in') ? `/sign-in?next=${encodeURIComponent(next)}` : '/sign-in';
}

/** A `next` parameter is only ever a path of the dashboard (never another origin). */
export function safeNext(next: string | null | undefined): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  return next;
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  const [error, setError] = useState<ApiError | null>(null);
  const [ended, setEnded] = useState<SessionState['ended']>(null);
  const meRef = useRef(me);
  meRef.current = me;

  const refresh = useCallback(async () => {
    try {
      // the first check was sent before React rendered (app/first-load.ts)
      const data = await (takeEarly(MeDocument) ?? request(MeDocument));
      setMe(data.me);
      setError(null);
      setEnded(null);
      return data.me;
    } catch (e) {
      const err = e instanceof ApiError ? e : new ApiError('server', String(e));
      if (err.kind === 'unauthenticated') {
        setMe(null);
        setError(null);
      } else {
        setError(err);
        setMe((m) => (m === undefined ? null : m));
      }
      return null;
    }
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  // a call answered 401 while signed in: the session ended mid-way; the page's guard sends the
  // person to sign-in with `next` (app/router.tsx), and sign-in says why
  useEffect(
    () =>
      onSignedOut(() => {
        if (!meRef.current) return;
        setEnded('expired');
        setMe(null);
      }),
    [],
  );

  const value = useMemo<SessionState>(() => ({ me, error, refresh, ended, clear: () => (setEnded('signed-out'), setMe(null)) }), [me, error, refresh, ended]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside <SessionProvider>');
  return value;
}
