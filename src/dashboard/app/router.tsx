/**
 * The route table: every page area (app/areas.ts: src/dashboard/pages/<area>/routes.tsx, found
 * by import.meta.glob) contributes routes; a new area adds a folder and touches nothing here.
 * Pages load lazily; access is checked here (signed-out → sign-in and back; admin → only
 * administrators).
 */
import { lazy, type ComponentType, type LazyExoticComponent, Suspense, useMemo } from 'react';
import { createBrowserRouter, Navigate, Outlet, type RouteObject, useLocation } from 'react-router';
import { ErrorState, Loading } from '../components/states';
import { ApiError } from '../api/errors';
import { Shell, BareShell } from './Shell';
import { SessionProvider, here, signInPath, useSession } from './session';
import type { PageRoute } from './types';
import { NotFound } from './NotFound';
import { VerifyToAdminister } from './VerifyToAdminister';
import { areas } from './areas';

function Guarded({ route, Page }: { route: PageRoute; Page: LazyExoticComponent<ComponentType> }) {
  const { me, error, ended } = useSession();
  const location = useLocation();
  const access = route.access ?? 'account';
  // fetch the page's code while the session is checked, not after (one round trip less before the first paint)
  useMemo(() => void route.load().catch(() => undefined), [route]);
  if (access !== 'public') {
    if (me === undefined) return <Loading label="Checking your session…" />;
    if (me === null) {
      if (error) return <ErrorState error={error} onRetry={() => window.location.reload()} />;
      if (ended === 'signed-out') return <Navigate to="/sign-in" replace state={{ signedOut: true }} />;
      return <Navigate to={signInPath(here(location))} replace state={ended === 'expired' ? { expired: true } : undefined} />;
    }
    // an unverified address is never an administrator yet: say why, with the way out
    if (access === 'admin' && !me.user.is_admin) return me.user.email_verified ? <NotFound /> : <VerifyToAdminister email={me.user.email} />;
  }
  return (
    <Suspense fallback={<Loading />}>
      <Page />
    </Suspense>
  );
}

function toRoute(route: PageRoute): RouteObject {
  const Page = lazy(route.load);
  return { path: route.path, element: <Guarded route={route} Page={Page} />, errorElement: <RouteError /> };
}

function RouteError() {
  return <ErrorState error={new ApiError('server', 'This page failed to load. Reload the page to try again.')} onRetry={() => window.location.reload()} />;
}

function Root() {
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
  return createBrowserRouter(buildRoutes(), { basename: '/dashboard' });
}
