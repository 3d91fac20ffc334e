/**
 * The route table: every page area (app/areas.ts: src/dashboard/pages/<area>/routes.tsx, found
 * by import.meta.glob) contributes routes; a new area adds a folder and touches nothing here.
 * Pages load lazily (app/route-modules.ts, started early by app/first-load.ts); access is checked here (signed-out → sign-in and back; admin → only
 * administrators).
 */
import { useEffect, useRef, useState } from 'react';
import { createBrowserRouter, Navigate, Outlet, type RouteObject, useLocation } from 'react-router';
import { ErrorState, Loading } from '../components/states';
import { Page as PageFrame } from '../components/Page';
import { ApiError } from '../api/errors';
import { forgetEarly } from '../api/early-requests';
import { Shell, BareShell } from './Shell';
import { SessionProvider, here, signInPath, useSession } from './session';
import type { PageRoute } from './types';
import { NotFound } from './NotFound';
import { VerifyToAdminister } from './VerifyToAdminister';
import { areas } from './areas';
import { BASENAME } from './first-load';
import { loadRoute, loadedRoute } from './route-modules';

/** The route's page component once its code is loaded (started at once, beside the session check); `failed` when the download failed. */
function useRoutePage(route: PageRoute) {
  const [, setLoaded] = useState(0);
  // kept per route: the router may hand this component another route's page on navigation
  const [failedRoute, setFailedRoute] = useState<PageRoute | null>(null);
  const Page = loadedRoute(route);
  useEffect(() => {
    if (loadedRoute(route)) return;
    let live = true;
    loadRoute(route).then(
      () => live && setLoaded((n) => n + 1),
      () => live && setFailedRoute(route),
    );
    return () => {
      live = false;
    };
  }, [route]);
  return { Page, failed: failedRoute === route };
}

/**
 * While the session is checked or the page's code loads: the page's heading and lead when its
 * route declares them, so the text a person reads first paints without waiting for either.
 */
function Pending({ route, label }: { route: PageRoute; label?: string }) {
  if (!route.lead) return <Loading label={label} />;
  return (
    <PageFrame title={route.title} lead={route.lead}>
      <Loading label={label} />
    </PageFrame>
  );
}

function Guarded({ route }: { route: PageRoute }) {
  const { me, error, ended } = useSession();
  const location = useLocation();
  const { Page, failed } = useRoutePage(route);
  const access = route.access ?? 'account';
  if (access !== 'public') {
    if (me === undefined) return <Pending route={route} label="Checking your session…" />;
    if (me === null) {
      if (error) return <ErrorState error={error} onRetry={() => window.location.reload()} />;
      if (ended === 'signed-out') return <Navigate to="/sign-in" replace state={{ signedOut: true }} />;
      return <Navigate to={signInPath(here(location))} replace state={ended === 'expired' ? { expired: true } : undefined} />;
    }
    // an unverified address is never an administrator yet: say why, with the way out
    if (access === 'admin' && !me.user.is_admin) return me.user.email_verified ? <NotFound /> : <VerifyToAdminister email={me.user.email} />;
  }
  if (failed) return <RouteError />;
  return Page ? <Page /> : <Pending route={route} />;
}

function toRoute(route: PageRoute): RouteObject {
  return { path: route.path, element: <Guarded route={route} />, errorElement: <RouteError /> };
}

function RouteError() {
  return <ErrorState error={new ApiError('server', 'This page failed to load. Reload the page to try again.')} onRetry={() => window.location.reload()} />;
}

/** Early requests (app/first-load.ts) belong to the first page only: forgotten when the person moves on. */
function useForgetEarlyOnNavigate() {
  const location = useLocation();
  const first = useRef(location.key);
  useEffect(() => {
    if (location.key !== first.current) forgetEarly();
  }, [location.key]);
}

function Root() {
  useForgetEarlyOnNavigate();
  return (
    <SessionProvider>
      <Outlet />
    </SessionProvider>
  );
}

export function buildRoutes(): RouteObject[] {
  const all = areas.flatMap((a) => a.routes);
  return [
    {
      element: <Root />,
      children: [
        { element: <BareShell />, children: all.filter((r) => r.bare).map(toRoute) },
        { element: <Shell />, children: [...all.filter((r) => !r.bare).map(toRoute), { path: '*', element: <NotFound /> }] },
      ],
    },
  ];
}

export function createRouter() {
  return createBrowserRouter(buildRoutes(), { basename: BASENAME });
}
