/**
 * The legal-acceptance step: the terms changed since this account accepted them (or it signed
 * in through an identity provider for the first time). The token comes from the password
 * sign-in (navigation state) or, after an identity provider, from an HttpOnly cookie.
 */
import { type FormEvent, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { auth, needsLegalAcceptance } from '../../api/auth';
import { ApiError } from '../../api/errors';
import { useAction } from '../../app/hooks';
import { useSession } from '../../app/session';
import { Page } from '../../components/Page';
import { FormError } from '../../components/states';
import { continuationOf, continuationQuery, continueTo } from './continue';
import { LegalChecks } from './LegalChecks';

export default function LegalAcceptancePage() {
  const [params] = useSearchParams();
  const cont = continuationOf(params);
  const location = useLocation();
  const navigate = useNavigate();
  const { refresh } = useSession();
  const state = location.state as { token?: string; terms?: string } | null;
  const [terms, setTerms] = useState(false);
  const [privacy, setPrivacy] = useState(false);
  const accept = useAction(auth.acceptLegal);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!terms || !privacy) {
      accept.setError(new ApiError('validation', 'Both boxes must be ticked to continue.'));
      return;
    }
    const answer = await accept.run(state?.token, terms, privacy);
    if (!answer || needsLegalAcceptance(answer)) return;
    await refresh();
    continueTo(cont, navigate);
  }

  return (
    <Page title="Accept the terms" lead="Our terms of service changed since you last accepted them. Accept the current version to continue.">
      <form onSubmit={submit} className="card">
        <LegalChecks terms={terms} privacy={privacy} onTerms={setTerms} onPrivacy={setPrivacy} version={state?.terms} />
        <FormError error={accept.error} />
        {accept.error?.kind === 'unauthenticated' && (
          <p>
            This step expired. <Link to={`/sign-in${continuationQuery(cont)}`}>Sign in again</Link>.
          </p>
        )}
        <div className="actions">
          <button type="submit" disabled={accept.pending}>
            Accept and continue
          </button>
          <Link to="/sign-in">Cancel</Link>
        </div>
      </form>
    </Page>
  );
}
