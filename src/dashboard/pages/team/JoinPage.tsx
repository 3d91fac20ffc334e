/**
 * The page an invite or join link opens (/team/join?token=…). Signed-out visitors are sent to
 * sign-in first and come back here (access 'account'); then one button joins.
 */
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useMutation } from '../../app/hooks';
import { useSession } from '../../app/session';
import { Page } from '../../components/Page';
import { ErrorState } from '../../components/states';
import { JoinTeamDocument, type JoinTeamMutation } from '../../gql/graphql';

export default function JoinPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const join = useMutation(JoinTeamDocument);
  const { me, refresh } = useSession();
  const [result, setResult] = useState<JoinTeamMutation | null>(null);
  return (
    <Page title="Join a team">
      {!token ? (
        <p className="notice" role="alert">
          This link has no invitation in it. Open the link from the invitation e-mail again, or ask for a new one.
        </p>
      ) : result ? (
        <section className="success" role="status">
          <p style={{ marginTop: 0 }}>
            {result.joinTeam.joined ? 'You joined' : 'You are already a member of'} <strong>{result.joinTeam.name}</strong> as {result.joinTeam.role}.
          </p>
          <Link to="/team">Go to the team</Link>
        </section>
      ) : (
        <section className="card">
          <p>
            You are signed in as <strong>{me?.user.email}</strong>. Joining puts this account in the team workspace: you use its plan and its shared allowance. Invitations sent by e-mail work
            only for the address they were sent to (verified).
          </p>
          {join.error && <ErrorState error={join.error} />}
          <div className="actions">
            <button
              type="button"
              disabled={join.pending}
              onClick={async () => {
                const answer = await join.run({ token });
                if (answer) {
                  setResult(answer);
                  void refresh();
                }
              }}
            >
              {join.pending ? 'Joining…' : 'Join the team'}
            </button>
            <Link to="/">Not now</Link>
          </div>
        </section>
      )}
    </Page>
  );
}
