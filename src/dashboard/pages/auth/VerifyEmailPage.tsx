/**
 * E-mail verification: the landing page of the mail's link (/verify-email?token=…) confirms the
 * token; without a token a signed-in person can ask for the mail.
 */
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { auth } from '../../api/auth';
import { useAction } from '../../app/hooks';
import { useSession } from '../../app/session';
import { Page } from '../../components/Page';
import { ErrorState, FormError, Loading } from '../../components/states';

export default function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const { me, refresh } = useSession();
  const confirm = useAction(auth.confirmEmailVerification);
  const request = useAction(auth.requestEmailVerification);
  const [done, setDone] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (!token || started.current) return;
    started.current = true;
    void confirm.run(token).then((answer) => {
      if (answer) {
        setDone(answer.detail);
        void refresh();
      }
    });
  }, [token, confirm, refresh]);

  if (token) {
    return (
      <Page title="Verify your e-mail">
        {done ? (
          <div className="success" role="status">
            <p>{done}</p>
            <Link to="/">Go to the dashboard</Link>
          </div>
        ) : confirm.error ? (
          <>
            <ErrorState error={confirm.error} />
            <p>The link may be used already or expired (links are valid 24 hours). {me ? 'Ask for a new one below.' : <Link to="/sign-in?next=%2Fverify-email">Sign in to ask for a new one.</Link>}</p>
          </>
        ) : (
          <Loading label="Verifying your e-mail…" />
        )}
      </Page>
    );
  }
  return (
    <Page title="Verify your e-mail">
      {me === undefined ? (
        <Loading />
      ) : me === null ? (
        <p>
          <Link to="/sign-in?next=%2Fverify-email">Sign in</Link> to verify your e-mail address.
        </p>
      ) : me.user.email_verified ? (
        <p className="success">Your e-mail address {me.user.email} is verified.</p>
      ) : sent ? (
        <p className="success" role="status">
          {sent} Open the link in the mail sent to {me.user.email}.
        </p>
      ) : (
        <div className="card">
          <p>We send a link to {me.user.email}. Opening it confirms the address is yours.</p>
          <FormError error={request.error} />
          <button type="button" disabled={request.pending} onClick={async () => setSent((await request.run())?.detail ?? null)}>
            Send the verification mail
          </button>
        </div>
      )}
    </Page>
  );
}
