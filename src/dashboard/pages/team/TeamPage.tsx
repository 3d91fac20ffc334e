/**
 * Team: members with roles and their usage, invites by e-mail (paste many), pending invites with
 * revoke, the join link (copy, rotate, disable), allowed domains with their DNS proof (record to
 * copy, check now), seats (owner) and leaving.
 * Owner and admins manage; the server keeps every rule and says why when it refuses.
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { useMutation, useQuery } from '../../app/hooks';
import { useSession } from '../../app/session';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { formatDate, formatNumber } from '../../components/format';
import { Page } from '../../components/Page';
import { Empty, FormError, QueryState } from '../../components/states';
import { ChangeMemberRoleDocument, RemoveMemberDocument, TeamDocument, type AssignableRole } from '../../gql/graphql';
import { planLabel } from '../billing/money';
import { DomainsSection } from './DomainsSection';
import { InviteSection } from './InviteSection';
import { JoinLinkSection } from './JoinLinkSection';
import { SeatsSection } from './SeatsSection';
import type { Member, Team } from './team-types';
import './team.css';

export default function TeamPage() {
  const team = useQuery(TeamDocument);
  return (
    <Page title="Team" lead="The people who share your plan's seats and allowance.">
      <QueryState result={team} loadingLabel="Loading your team…">
        {(data) =>
          data.team ? (
            <TeamView team={data.team} reload={team.reload} />
          ) : (
            <Empty title="You are not in a team workspace">
              <p>
                A team workspace comes with a per-seat plan (Professional, Professional Plus): <Link to="/billing">choose one on the billing page</Link> and invite your colleagues here. To join a
                colleague's team, open the invite link from their e-mail.
              </p>
            </Empty>
          )
        }
      </QueryState>
    </Page>
  );
}

function TeamView({ team, reload }: { team: Team; reload(): void }) {
  const { me } = useSession();
  const manager = team.role === 'owner' || team.role === 'admin';
  const owner = team.role === 'owner';
  const remove = useMutation(RemoveMemberDocument);
  const [toRemove, setToRemove] = useState<Member | null>(null);
  const [leaving, setLeaving] = useState(false);
  const myId = me?.user.id;

  async function confirmRemove() {
    const target = leaving ? myId : toRemove?.user_id;
    if (!target) return;
    const answer = await remove.run({ memberUserId: target });
    if (answer) {
      setToRemove(null);
      setLeaving(false);
      reload();
    }
  }

  return (
    <>
      <WorkspaceCard team={team} onLeave={owner ? null : () => (remove.reset(), setLeaving(true))} />
      <MembersTable team={team} myId={myId} reload={reload} onRemove={(m) => (remove.reset(), setToRemove(m))} />

      {manager && <InviteSection team={team} reload={reload} />}
      {manager && <JoinLinkSection team={team} reload={reload} />}
      {manager && <DomainsSection team={team} reload={reload} />}
      {owner && <SeatsSection team={team} reload={reload} />}

      <ConfirmDialog
        open={toRemove !== null || leaving}
        title={leaving ? 'Leave this team?' : 'Remove this member?'}
        confirmLabel={leaving ? 'Leave team' : 'Remove member'}
        danger
        pending={remove.pending}
        onConfirm={confirmRemove}
        onCancel={() => (setToRemove(null), setLeaving(false))}
      >
        <p>
          {leaving
            ? `You lose the team's plan at once; your own keys keep working on the Free plan. Rejoining needs a new invite.`
            : `${toRemove?.user?.email ?? ''} loses the team's plan at once; their keys keep working on the Free plan. The seat is free again.`}
        </p>
        <FormError error={remove.error} />
      </ConfirmDialog>
    </>
  );
}

/** The workspace's name, plan, seats and the caller's role; members other than the owner may leave. */
function WorkspaceCard({ team, onLeave }: { team: Team; onLeave: (() => void) | null }) {
  return (
    <section className="card" aria-labelledby="ws-title">
      <h2 id="ws-title">{team.name}</h2>
      <dl className="facts">
        <div>
          <dt>Plan</dt>
          <dd>{planLabel(team.plan)}</dd>
        </div>
        <div>
          <dt>Seats</dt>
          <dd data-testid="seats">
            {team.seats_used} of {team.seat_limit} used <span className="muted small">(members and pending invites)</span>
          </dd>
        </div>
        <div>
          <dt>Your role</dt>
          <dd data-testid="my-role">{team.role}</dd>
        </div>
      </dl>
      {onLeave && (
        <button type="button" className="secondary" onClick={onLeave}>
          Leave this team
        </button>
      )}
    </section>
  );
}

/** The members with their role (the owner changes it here), usage and a remove button where the caller may. */
function MembersTable({ team, myId, reload, onRemove }: { team: Team; myId: string | undefined; reload(): void; onRemove(member: Member): void }) {
  const owner = team.role === 'owner';
  const changeRole = useMutation(ChangeMemberRoleDocument);
  return (
    <section aria-labelledby="members-title">
      <h2 id="members-title">Members ({team.members.length})</h2>
      <FormError error={changeRole.error} />
      <div className="table-wrap">
        <table className="responsive" data-testid="members">
          <thead>
            <tr>
              <th scope="col">Member</th>
              <th scope="col">Role</th>
              <th scope="col">Requests this period</th>
              <th scope="col">Joined</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {team.members.map((m) => {
              const who = m.user?.name ? `${m.user.name} (${m.user.email})` : (m.user?.email ?? m.user_id);
              const canRemove = m.user_id !== myId && m.role !== 'owner' && (owner || (team.role === 'admin' && m.role === 'member'));
              return (
                <tr key={m.user_id}>
                  <td data-label="Member">
                    {who}
                    {m.user_id === myId && <span className="muted small"> (you)</span>}
                  </td>
                  <td data-label="Role">
                    {owner && m.role !== 'owner' ? (
                      <select
                        aria-label={`Role of ${m.user?.email ?? m.user_id}`}
                        value={m.role}
                        disabled={changeRole.pending}
                        onChange={async (e) => {
                          if (await changeRole.run({ memberUserId: m.user_id, role: e.target.value as AssignableRole })) reload();
                        }}
                      >
                        <option value="member">member</option>
                        <option value="admin">admin</option>
                      </select>
                    ) : (
                      m.role
                    )}
                  </td>
                  <td data-label="Requests this period">{formatNumber(m.requests_in_period)}</td>
                  <td data-label="Joined">{formatDate(m.joined_at)}</td>
                  <td data-label="Actions">
                    {canRemove && (
                      <button type="button" className="secondary" onClick={() => onRemove(m)} aria-label={`Remove ${m.user?.email ?? m.user_id}`}>
                        Remove
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
