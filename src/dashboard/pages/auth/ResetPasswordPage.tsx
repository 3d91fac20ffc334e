/**
 * Password reset, step two: the page the mail links to (/reset-password?token=…); signs in
 * afterwards. The reset ends every session and OAuth authorisation; API keys stay unless the
 * box is ticked (integrations would break on every reset otherwise).
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
import { ErrorState, FormError } from '../../components/states';

export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const { refresh } = useSession();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [revokeKeys, setRevokeKeys] = useState(false);
  const confirm = useAction(auth.confirmPasswordReset);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (password !== repeat) {
      confirm.setError(new ApiError('validation', 'The two passwords differ.'));
      return;
    }
    const tooShort = passwordTooShort(password);
    if (tooShort) return confirm.setError(tooShort);
    const answer = await confirm.run(token, password, revokeKeys);
    if (!answer) return;
    await refresh();
    navigate('/', { replace: true, state: { passwordChanged: true } });
  }

  if (!token) {
    return (
      <Page title="Choose a new password">
        <ErrorState error={new ApiError('validation', 'This link has no reset token. Open the link from the mail again, or ask for a new one.')} />
        <Link to="/forgot-password">Ask for a new link</Link>
      </Page>
    );
  }
  return (
    <Page title="Choose a new password" lead="Your other sessions and the AI agents you authorised are signed out when the password changes.">
      <form onSubmit={submit} className="card" noValidate>
        <Field id="new-password" label="New password" hint={passwordHint()} error={confirm.error?.fieldMessage('password')}>
          <input id="new-password" type="password" autoComplete="new-password" required minLength={config.passwordMinLength ?? undefined} value={password} onChange={(e) => setPassword(e.target.value)} aria-describedby="new-password-hint" />
        </Field>
        <Field id="repeat-password" label="Repeat the new password">
          <input id="repeat-password" type="password" autoComplete="new-password" required value={repeat} onChange={(e) => setRepeat(e.target.value)} />
        </Field>
        <div className="check">
          <input id="revoke-api-keys" type="checkbox" checked={revokeKeys} onChange={(e) => setRevokeKeys(e.target.checked)} aria-describedby="revoke-api-keys-hint" />
          <label htmlFor="revoke-api-keys">Also revoke all API keys</label>
        </div>
        <p className="hint" id="revoke-api-keys-hint">
          Tick it if someone else may have used your account: programs that use your keys stop working until you create new ones. Otherwise the mail lists the keys that stay active.
        </p>
        <FormError error={confirm.error} />
        {confirm.error?.status === 400 && (
          <p>
            <Link to="/forgot-password">Ask for a new link</Link>
          </p>
        )}
        <button type="submit" disabled={confirm.pending}>
          Set the password and sign in
        </button>
      </form>
    </Page>
  );
}
