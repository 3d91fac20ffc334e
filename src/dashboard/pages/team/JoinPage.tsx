/**
 * The page an invite or join link opens (/team/join?token=…), for everyone: it names the team and,
 * for an e-mail invite, the invited address (`teamInvite`, no account needed).
 *
 * - Signed out: *Create an account* and *Sign in*, both with the invited address filled in, and
 *   back here afterwards.
 * - Signed in with the invited address: *Join the team*; when the address is not verified yet the
 *   button says *Verify … and join*: the invite's token proves the address (POST
 *   /auth/verify-email/invite, src/modules/teams/invite-proof.ts), then the page joins.
 * - Signed in with another address: says which address the invite is for.
 */
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { auth } from '../../api/auth';
import type { Answered } from '../../api/client';
import { useAction, useMutation, useQuery } from '../../app/hooks';
import { useSession } from '../../app/session';
import { Page } from '../../components/Page';
import { ErrorState, QueryState } from '../../components/states';
import { JoinTeamDocument, TeamInviteDocument, type JoinTeamMutation, type TeamInviteQuery } from '../../gql/graphql';

type Preview = Answered<TeamInviteQuery>['teamInvite'];

export default function JoinPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const preview = useQuery(TeamInviteDocument, { token }, { skip: !token });
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
        <QueryState result={preview} loadingLabel="Reading the invitation…">
          {(data) => <Invitation token={token} invite={data.teamInvite} onJoined={setResult} />}
        </QueryState>
      )}
    </Page>
  );
}

function Invitation({ token, invite, onJoined }: { token: string; invite: Preview; onJoined(answer: JoinTeamMutation): void }) {
  const { me, refresh } = useSession();
  const join = useMutation(JoinTeamDocument);
  const verify = useAction(auth.verifyWithInvite);
  const back = `/team/join?token=${encodeURIComponent(token)}`;
  const withAddress = (path: string) => `${path}?${new URLSearchParams({ ...(invite.email ? { email: invite.email } : {}), next: back })}`;
  const forMe = invite.email !== null && me?.user.email.toLowerCase() === invite.email.toLowerCase();
  const mustVerify = forMe && !me!.user.email_verified;

  async function joinTeam() {
    // the invite proves the address it was sent to: verify it first (a fresh session), then join
    if (mustVerify) {
      if (!(await verify.run(token))) return;
      await refresh();
    }
    const answer = await join.run({ token });
    if (answer) {
      onJoined(answer);
      void refresh();
    }
  }

  return (
    <section className="card" aria-labelledby="invitation">
      <h2 id="invitation">
        You are invited to join <strong data-testid="invite-team">{invite.team_name}</strong>
      </h2>
      {invite.email && (
        <p>
          This invitation was sent to <strong data-testid="invite-email">{invite.email}</strong> and works for that address only.
        </p>
      )}
      {me === undefined ? null : me === null ? (
        <>
          <p>Create an account{invite.email ? ' with this address' : ''}, or sign in, and you come back here to join.</p>
          <div className="actions">
            <Link className="button" to={withAddress('/register')}>
              Create an account
            </Link>
            <Link to={withAddress('/sign-in')}>Sign in</Link>
          </div>
        </>
      ) : invite.email && !forMe ? (
        <p className="notice" role="alert">
          You are signed in as <strong>{me.user.email}</strong>. Sign out, then sign in or create an account with {invite.email} to use this invitation.
        </p>
      ) : (
        <>
          <p>
            You are signed in as <strong>{me.user.email}</strong>. Joining puts this account in the team workspace: you use its plan and its shared allowance.
            {mustVerify && ' Your address is not verified yet: this invitation, sent to it, verifies it.'}
          </p>
          {verify.error && <ErrorState error={verify.error} />}
          {join.error && <ErrorState error={join.error} />}
          <div className="actions">
            <button type="button" disabled={join.pending || verify.pending} onClick={joinTeam}>
              {join.pending || verify.pending ? 'Joining…' : mustVerify ? `Verify ${me.user.email} and join` : 'Join the team'}
            </button>
            <Link to="/">Not now</Link>
          </div>
        </>
      )}
    </section>
  );
}
