/** The overview after signing in: the account, the plan, and where to go next. */
import { Link, useLocation } from 'react-router';
import { Page } from '../../components/Page';
import { useSession } from '../../app/session';
import { navItems } from '../../app/areas';
import { config } from '../../app/config';

export default function HomePage() {
  const { me } = useSession();
  const location = useLocation();
  if (!me) return null;
  const passwordChanged = (location.state as { passwordChanged?: boolean } | null)?.passwordChanged;
  const links = navItems.filter((i) => i.to !== '/' && (i.access !== 'admin' || me.user.is_admin) && (!i.requiresBilling || config.billing));
  return (
    <Page title="Overview" lead={<>Signed in as <strong>{me.user.email}</strong> on the <strong>{me.plan}</strong> plan.</>}>
      {passwordChanged && (
        <p className="success" role="status">
          Your password is changed and you are signed in. Your other sessions ended.
        </p>
      )}
      {!me.user.email_verified && (
        <p className="notice">
          Your e-mail address is not verified yet. <Link to="/verify-email">Verify it</Link> to receive account mail.
        </p>
      )}
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
