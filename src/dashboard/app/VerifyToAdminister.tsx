/**
 * What an administration page says to an account whose address is not verified yet: the
 * server treats an ADMIN_EMAILS address as an administrator only once it is proven, so instead
 * of "Page not found" it says so, with the button that sends the verification mail. It says the
 * same to any unverified account (whether the address is listed is not told to the browser).
 */
import { useState } from 'react';
import { auth } from '../api/auth';
import { Page } from '../components/Page';
import { FormError } from '../components/states';
import { useAction } from './hooks';

export function VerifyToAdminister({ email }: { email: string }) {
  const request = useAction(auth.requestEmailVerification);
  const [sent, setSent] = useState<string | null>(null);
  return (
    <Page title="Verify your e-mail address first">
      <p data-testid="admin-verify-first">
        The administration is open to administrators' addresses once they are verified, and {email} is not verified yet. If it is an administrator's address,
        verify it and this page opens.
      </p>
      {sent ? (
        <p className="success" role="status">
          {sent} Open the link in the mail sent to {email}, then come back here.
        </p>
      ) : (
        <div className="card">
          <p>We send a link to {email}. Opening it confirms the address is yours.</p>
          <FormError error={request.error} />
          <button type="button" disabled={request.pending} onClick={async () => setSent((await request.run())?.detail ?? null)}>
            {request.pending ? 'Sending…' : 'Send the verification mail'}
          </button>
        </div>
      )}
    </Page>
  );
}
