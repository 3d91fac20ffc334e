/**
 * The first page's work, started when the entry script runs, before React renders: the page's
 * code (its chunks), the session check (`me`) and the data the page declares
 * (`PageRoute.prefetch`): beside the session check when the server found the page's session
 * live (`<meta name="dashboard-session" content="live">`, src/http/dashboard.ts), else only once
 * `me` answers signed in, so a signed-out visitor's link sends nothing (no anonymous search). React then
 * finds the code loaded and takes the requests in flight (api/early-requests.ts) instead of
 * starting each after the one before.
 */
import { matchPath } from 'react-router';
import { requestEarly } from '../api/early-requests';
import { MeDocument } from '../gql/graphql';
import { areas } from './areas';
import { loadRoute } from './route-modules';
import type { PageRoute } from './types';

/** Where the router is mounted (the service serves the app under it). */
export const BASENAME = '/dashboard';

/** The route the address opens (undefined for an unknown path: "Page not found" needs no code). */
export function routeAt(pathname: string): PageRoute | undefined {
  const inApp = pathname === BASENAME || pathname.startsWith(`${BASENAME}/`) ? pathname.slice(BASENAME.length) || '/' : null;
  if (inApp === null) return undefined;
  return areas.flatMap((a) => a.routes).find((r) => matchPath({ path: `/${r.path}`, end: true }, inApp) !== null);
}

/** Whether index.html came with the server's mark of a live session. */
export function sessionMarkedLive(): boolean {
  return document.querySelector<HTMLMetaElement>('meta[name="dashboard-session"]')?.content === 'live';
}

export function startFirstLoad(location: Pick<Location, 'pathname' | 'search'>): void {
  const route = routeAt(location.pathname);
  // a failed download is shown by the router, which tries again
  if (route) loadRoute(route).catch(() => undefined);
  const session = requestEarly(MeDocument);
  const prefetch = route?.prefetch;
  if (prefetch && (route.access ?? 'account') !== 'public') {
    const params = new URLSearchParams(location.search);
    if (sessionMarkedLive()) prefetch(params);
    // signed out (401) or failed: nothing is sent; the page asks for itself when it renders
    else session.then(() => prefetch(params)).catch(() => undefined);
  }
}
