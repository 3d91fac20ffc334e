/**
 * The app shell: skip link, header with the navigation (administration only for
 * administrators, billing only when it is on), the account menu with sign-out, and the main
 * region. Focus moves to the page heading after each navigation (screen readers announce it).
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { auth } from '../api/auth';
import { config } from './config';
import { navItems } from './areas';
import { useSession } from './session';
import { useAnalyticsAccess } from './analytics-access';
import { NavMore, splitNav } from './NavMore';

function useFocusHeadingOnNavigate() {
  const location = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const t = setTimeout(() => document.getElementById('page-title')?.focus(), 50);
    return () => clearTimeout(t);
  }, [location.pathname]);
}

export function Shell() {
  const { me, clear } = useSession();
  const analytics = useAnalyticsAccess(me).allowed;
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const location = useLocation();
  useFocusHeadingOnNavigate();
  useEffect(() => setOpen(false), [location.pathname]);
  const items = navItems.filter(
    (i) => (i.access !== 'admin' || me?.user.is_admin) && (i.access !== 'analytics' || analytics === true) && (!i.requiresBilling || config.billing) && (i.access === 'public' || me),
  );
  const { visible, overflow } = splitNav(items);
  return (
    <Frame>
      {me && (
        <button type="button" className="menu-toggle secondary" aria-expanded={open} aria-controls="main-nav" onClick={() => setOpen((o) => !o)}>
          Menu
        </button>
      )}
      {me && (
        <nav id="main-nav" aria-label="Main" className={open ? 'open' : undefined}>
          <ul>
            {visible.map((i) => (
              <li key={i.to}>
                <NavLink to={i.to} end={i.to === '/'}>
                  {i.label}
                </NavLink>
              </li>
            ))}
            {/* the phone's column menu lists them all; from 760 px they are under More */}
            {overflow.map((i) => (
              <li key={i.to} className="nav-inline-overflow">
                <NavLink to={i.to}>{i.label}</NavLink>
              </li>
            ))}
            {overflow.length > 0 && <NavMore items={overflow} />}
          </ul>
          <div className="account">
            <span className="account-email" title={me.user.email}>
              {me.user.email}
            </span>
            <button
              type="button"
              className="secondary"
              onClick={async () => {
                try {
                  await auth.logout();
                } finally {
                  // the page's guard then sends the person to sign-in ("You are signed out.")
                  clear();
                  navigate('/sign-in', { replace: true, state: { signedOut: true } });
                }
              }}
            >
              Sign out
            </button>
          </div>
        </nav>
      )}
      {me === null && (
        <nav aria-label="Account" className="signed-out-nav">
          <Link to="/sign-in">Sign in</Link>
          <Link to="/register">Create account</Link>
        </nav>
      )}
    </Frame>
  );
}

/** Sign-in, registration and the other pages without navigation. */
export function BareShell() {
  useFocusHeadingOnNavigate();
  return <Frame bare />;
}

/** What every page has: the skip link, the header with the brand (then `children`: the navigation), the main region with the page. */
function Frame({ bare = false, children }: { bare?: boolean; children?: ReactNode }) {
  return (
    <div className={bare ? 'app bare' : 'app'}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link to="/" className="brand">
          Legal Search
        </Link>
        {children}
      </header>
      <main id="main" tabIndex={-1} className={bare ? 'narrow' : undefined}>
        <Outlet />
      </main>
    </div>
  );
}
