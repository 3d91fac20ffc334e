/**
 * The contract between the shell and the page areas. Every folder src/dashboard/pages/<area>/
 * has a `routes.tsx` exporting `area: PageArea`; the router finds them all
 * (import.meta.glob in app/router.tsx), so adding an area touches no other file.
 */
import type { ComponentType } from 'react';

export type Access =
  /** Anyone, signed in or not (sign-in, registration, reset, verification landing). */
  | 'public'
  /** Signed in (the default): signed-out visitors are sent to sign-in and back. */
  | 'account'
  /** Administrators only: others get "not found" and never see the link. */
  | 'admin'
  /** Signed in; the link only for administrators and partners (the page tells anyone else why). */
  | 'analytics';

export interface PageRoute {
  /** Relative to /dashboard, no leading slash ('' = the overview; 'keys'; 'team/join'). */
  path: string;
  /** Lazily loaded page (keeps the first load small): `() => import('./KeysPage')`. */
  load: () => Promise<{ default: ComponentType }>;
  access?: Access;
  /** The document title ("Keys – Legal Search"). */
  title: string;
  /**
   * The page's lead paragraph, when it has one that needs no data: shown with the title while the
   * session is checked and the code loads (app/router.tsx), so it paints first. The page passes the
   * same text to <Page lead>.
   */
  lead?: string;
  /** Pages outside the shell's chrome (sign-in, registration): no navigation bar. */
  bare?: boolean;
  /**
   * The data the page asks for on its first render, sent early when the address opens it
   * (app/first-load.ts: right after the session check says signed in, before React renders) with
   * `requestEarly` and the same variables as the page's `useQuery`, which then takes it in flight.
   */
  prefetch?: (params: URLSearchParams) => void;
}

export interface NavItem {
  /** Absolute path under the router's basename: '/keys'. */
  to: string;
  label: string;
  /** Position in the navigation (lower first). */
  order: number;
  access?: Access;
  /** Only when billing is configured on the server. */
  requiresBilling?: boolean;
}

export interface PageArea {
  routes: PageRoute[];
  nav?: NavItem[];
}
