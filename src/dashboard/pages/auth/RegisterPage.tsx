/**
 * Registration: e-mail, password, optional name and the two legal checkboxes; then signs in and
 * continues (`next`, or the OAuth consent page in `return_to` an MCP client opened).
 */
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { auth } from '../../api/auth';
import { ApiError } from '../../api/errors';
import { config } from '../../app/config';
import { useAction } from '../../app/hooks';
import { passwordHint, passwordTooShort } from '../../app/password-rule';
import { useSession } from '../../app/session';
import { Field, Page } from '../../components/Page';
import { FormError } from '../../components/states';
import { continuationOf, continuationQuery, finishSignIn, inviteTokenOf } from './continue';
import { LegalChecks } from './LegalChecks';

async function registerAndSignIn(body: { email: string; password: string; name: string | null; accept_terms: boolean; acknowledge_privacy: boolean; invite_token?: string }) {
  await auth.register(body);
  return auth.login(body.email, body.password);
}

export default function RegisterPage() {
  const [params] = useSearchParams();
  const cont = continuationOf(params);
  const navigate = useNavigate();
  const { refresh } = useSession();
  const [email, setEmail] = useState(params.get('email') ?? '');
  const [password, setPassword] = useState('');
  const [name, setName] = useState('');
  const [terms, setTerms] = useState(false);
  const [privacy, setPrivacy] = useState(false);
  const action = useAction(registerAndSignIn);
  const error = action.error;

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!terms || !privacy) {
      action.setError(new ApiError('validation', 'Accept the terms of service and acknowledge the privacy policy to create an account.'));
      return;
    }
    const tooShort = passwordTooShort(password);
    if (tooShort) return action.setError(tooShort);
    // from an invite's link: the invite proves the address, the server sends no verification mail
    const inviteToken = inviteTokenOf(cont);
    const body = { email, password, name: name.trim() || null, accept_terms: terms, acknowledge_privacy: privacy, ...(inviteToken ? { invite_token: inviteToken } : {}) };
    await finishSignIn(await action.run(body), cont, navigate, refresh);
  }

  return (
    <Page title="Create an account" lead={cont.returnTo ? 'After creating your account you go back to the AI agent’s authorization page.' : 'Free to start: search, documents and citation resolution through the API, MCP and this dashboard.'}>
      <form onSubmit={submit} className="card" noValidate>
        <Field id="reg-email" label="E-mail" error={error?.fieldMessage('email')}>
          <input id="reg-email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </Field>
        <Field id="reg-password" label="Password" hint={passwordHint()} error={error?.fieldMessage('password')}>
          <input id="reg-password" type="password" autoComplete="new-password" required minLength={config.passwordMinLength ?? undefined} value={password} onChange={(e) => setPassword(e.target.value)} aria-describedby="reg-password-hint" />
        </Field>
        <Field id="reg-name" label="Name (optional)">
          <input id="reg-name" type="text" autoComplete="name" maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <LegalChecks terms={terms} privacy={privacy} onTerms={setTerms} onPrivacy={setPrivacy} termsError={error?.fieldMessage('accept_terms')} privacyError={error?.fieldMessage('acknowledge_privacy')} />
        <FormError error={error} />
        <div className="actions">
          <button type="submit" disabled={action.pending}>
            {action.pending ? 'Creating your account…' : 'Create account'}
          </button>
        </div>
      </form>
      <p>
        Already have an account? <Link to={`/sign-in${continuationQuery(cont)}`}>Sign in</Link>
      </p>
    </Page>
  );
}
