/** Sign-in with e-mail and password, the configured identity providers and dev-login. */
import { type FormEvent, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { auth, needsLegalAcceptance } from '../../api/auth';
import { useAction } from '../../app/hooks';
import { config } from '../../app/config';
import { safeNext, useSession } from '../../app/session';
import { Field, Page } from '../../components/Page';
import { FormError } from '../../components/states';

const PROVIDER_LABELS: Record<string, string> = { github: 'GitHub', google: 'Google', microsoft: 'Microsoft' };

export default function SignInPage() {
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const navigate = useNavigate();
  const location = useLocation();
  const { refresh } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const login = useAction(auth.login);
  const state = location.state as { expired?: boolean; signedOut?: boolean } | null;

  async function submit(e: FormEvent) {
    e.preventDefault();
    const answer = await login.run(email, password);
    if (!answer) return;
    if (needsLegalAcceptance(answer)) {
      navigate(`/legal-acceptance?next=${encodeURIComponent(next)}`, { state: { token: answer.legal_acceptance_token, terms: answer.terms_version } });
      return;
    }
    await refresh();
    navigate(next, { replace: true });
  }

  return (
    <Page title="Sign in">
      {state?.expired && <p className="notice">Your session ended. Sign in again to continue where you were.</p>}
      {state?.signedOut && <p className="success">You are signed out.</p>}
      <form onSubmit={submit} noValidate className="card">
        <Field id="email" label="E-mail">
          <input id="email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </Field>
        <Field id="password" label="Password">
          <input id="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        </Field>
        <FormError error={login.error} />
        <div className="actions">
          <button type="submit" disabled={login.pending}>
            {login.pending ? 'Signing in…' : 'Sign in'}
          </button>
          <Link to="/forgot-password">Forgot your password?</Link>
        </div>
      </form>
      {config.identityProviders.length > 0 && (
        <>
          <p className="or">or</p>
          <div className="provider-buttons">
            {config.identityProviders.map((name) => (
              <a key={name} className="button secondary" href={`/auth/${name}`}>
                Continue with {PROVIDER_LABELS[name] ?? name}
              </a>
            ))}
          </div>
        </>
      )}
      <p>
        No account yet? <Link to={`/register${next !== '/' ? `?next=${encodeURIComponent(next)}` : ''}`}>Create one</Link>
      </p>
    </Page>
  );
}
