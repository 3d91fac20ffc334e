/** Password reset, step one: ask for a link by e-mail (the same answer whether or not the account exists). */
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { auth } from '../../api/auth';
import { useAction } from '../../app/hooks';
import { Field, Page } from '../../components/Page';
import { FormError } from '../../components/states';

export default function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const request = useAction(auth.requestPasswordReset);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const answer = await request.run(email);
    if (answer) setSent(answer.detail);
  }

  return (
    <Page title="Reset your password" lead="We send a link to set a new password. It is valid for a limited time and works once.">
      {sent ? (
        <div className="success" role="status">
          <p>{sent}</p>
          <p>Open the link in the mail to choose a new password.</p>
        </div>
      ) : (
        <form onSubmit={submit} className="card">
          <Field id="reset-email" label="E-mail">
            <input id="reset-email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
          </Field>
          <FormError error={request.error} />
          <button type="submit" disabled={request.pending}>
            Send the link
          </button>
        </form>
      )}
      <p>
        <Link to="/sign-in">Back to sign-in</Link>
      </p>
    </Page>
  );
}
