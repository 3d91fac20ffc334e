/**
 * The signed-in home: the getting-started checklist (GettingStarted.tsx), the remaining quota and
 * a usage snapshot (UsageSnapshot.tsx), and links to every area.
 */
import { Link, useLocation } from 'react-router';
import { Page } from '../../components/Page';
import { useSession } from '../../app/session';
import { navItems } from '../../app/areas';
import { config } from '../../app/config';
import { useQuery } from '../../app/hooks';
import { QueryState } from '../../components/states';
import { HomeDocument } from '../../gql/graphql';
import { GettingStarted } from './GettingStarted';
import { UsageSnapshot } from './UsageSnapshot';

export default function HomePage() {
  const { me, refresh } = useSession();
  const home = useQuery(HomeDocument);
  const location = useLocation();
  if (!me) return null;
  const passwordChanged = (location.state as { passwordChanged?: boolean } | null)?.passwordChanged;
  const links = navItems.filter((i) => i.to !== '/' && (i.access !== 'admin' || me.user.is_admin) && (!i.requiresBilling || config.billing));
  return (
    <Page title="Home" lead={<>Signed in as <strong>{me.user.email}</strong> on the <strong>{me.plan}</strong> plan.</>}>
      {passwordChanged && (
        <p className="success" role="status">
          Your password is changed and you are signed in. Your other sessions ended.
        </p>
      )}
      <QueryState result={home} loadingLabel="Loading your account…">
        {(data) => {
          const newest = data.keys.filter((k) => !k.revoked).sort((a, b) => b.created_at.localeCompare(a.created_at))[0];
          return (
            <div className="grid two">
              <GettingStarted
                state={data.me!.getting_started}
                email={me.user.email}
                keyPrefix={newest?.key_prefix ?? null}
                onChange={() => {
                  home.reload();
                  void refresh();
                }}
              />
              {data.usage && <UsageSnapshot usage={data.usage} />}
            </div>
          );
        }}
      </QueryState>
      <h2>Everything else</h2>
      <div className="grid three">
        {links.map((i) => (
          <Link key={i.to} to={i.to} className="card" style={{ textDecoration: 'none' }}>
            <strong>{i.label}</strong>
          </Link>
        ))}
      </div>
    </Page>
  );
}
