/** Sign-in with e-mail and password, the configured identity providers and dev-login. */
import { type FormEvent, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { auth, type SignInAnswer } from '../../api/auth';
import { useAction } from '../../app/hooks';
import { config } from '../../app/config';
import { useSession } from '../../app/session';
import { Field, Page } from '../../components/Page';
import { FormError } from '../../components/states';
import { continuationOf, continuationQuery, finishSignIn } from './continue';

export const PROVIDER_LABELS: Record<string, string> = { github: 'GitHub', google: 'Google', microsoft: 'Microsoft' };

export default function SignInPage() {
  const [params] = useSearchParams();
  const cont = continuationOf(params);
  const navigate = useNavigate();
  const location = useLocation();
  const { refresh } = useSession();
  const [email, setEmail] = useState(params.get('email') ?? '');
  const [password, setPassword] = useState('');
  const login = useAction(auth.login);
  const state = location.state as { expired?: boolean; signedOut?: boolean; reset?: boolean } | null;

  const finish = (answer: SignInAnswer | undefined) => finishSignIn(answer, cont, navigate, refresh);

  async function submit(e: FormEvent) {
    e.preventDefault();
    await finish(await login.run(email, password));
  }

  return (
    <Page title="Sign in">
      {state?.expired && (
        <p className="notice" role="status">
          Your session ended. Sign in again to continue where you were.
        </p>
      )}
      {state?.signedOut && (
        <p className="success" role="status">
          You are signed out.
        </p>
      )}
      <form onSubmit={submit} className="card" aria-label="Sign in with e-mail and password">
        <Field id="email" label="E-mail">
          <input id="email" name="email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </Field>
        <Field id="password" label="Password">
          <input id="password" name="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
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
      {config.devLogin && <DevSignIn onSignedIn={finish} />}
      <p>
        No account yet? <Link to={`/register${continuationQuery(cont)}`}>Create one</Link>
      </p>
    </Page>
  );
}

/** DEV_LOGIN=true only: sign in as any e-mail without a password. */
function DevSignIn({ onSignedIn }: { onSignedIn(answer: SignInAnswer | undefined): Promise<void> }) {
  const [devEmail, setDevEmail] = useState('');
  const devLogin = useAction(auth.devLogin);
  return (
    <form
      className="card"
      style={{ marginTop: '1rem' }}
      aria-label="Development sign-in"
      onSubmit={async (e) => {
        e.preventDefault();
        await onSignedIn(await devLogin.run(devEmail));
      }}
    >
      <h2 style={{ marginTop: 0 }}>Development sign-in</h2>
      <p className="hint">This server runs with DEV_LOGIN=true: sign in as any e-mail without a password. Never enabled in production.</p>
      <Field id="dev-email" label="E-mail">
        <input id="dev-email" type="email" required value={devEmail} onChange={(e) => setDevEmail(e.target.value)} />
      </Field>
      <FormError error={devLogin.error} />
      <button type="submit" className="secondary" disabled={devLogin.pending}>
        Sign in (development)
      </button>
    </form>
  );
}
