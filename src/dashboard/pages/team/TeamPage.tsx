/**
 * Team: members with roles and their usage, invites by e-mail (paste many), pending invites with
 * revoke, the join link (copy, rotate, disable), allowed domains with their DNS proof (record to
 * copy, check now), seats (owner) and leaving.
 * Owner and admins manage; the server keeps every rule and says why when it refuses.
 */
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { useMutation, useQuery } from '../../app/hooks';
import { useSession } from '../../app/session';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CopyButton } from '../../components/CopyButton';
import { formatDate, formatNumber } from '../../components/format';
import { Field, Page } from '../../components/Page';
import { Empty, FormError, QueryState } from '../../components/states';
import {
  ChangeMemberRoleDocument,
  CheckAllowedDomainDocument,
  DisableJoinLinkDocument,
  InviteMembersDocument,
  RemoveMemberDocument,
  RevokeInviteDocument,
  RotateJoinLinkDocument,
  SetAllowedDomainsDocument,
  SetSeatsDocument,
  TeamDocument,
  type InviteMembersMutation,
  type TeamDomainFieldsFragment,
  type TeamQuery,
} from '../../gql/graphql';
import { planLabel } from '../billing/money';
import './team.css';

type Team = NonNullable<TeamQuery['team']>;
type Member = Team['members'][number];

/** Addresses pasted in any shape: one per line, or separated by commas, semicolons or spaces; "Name <a@b>" kept as a@b. */
export function parseEmails(text: string): string[] {
  const out: string[] = [];
  for (const part of text.split(/[\s,;]+/)) {
    const e = part.replace(/^<|>$/g, '').trim();
    if (e.includes('@') && !out.includes(e.toLowerCase())) out.push(e.toLowerCase());
  }
  return out;
}

const SKIP_WORDS: Record<string, string> = { already_member: 'already a member', already_invited: 'already invited', duplicate: 'listed twice' };

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
  const changeRole = useMutation(ChangeMemberRoleDocument);
  const [toRemove, setToRemove] = useState<Member | null>(null);
  const [leaving, setLeaving] = useState(false);
  const myId = me?.user.id;

  async function confirmRemove() {
    const target = leaving ? myId : toRemove?.user_id;
    if (!target) return;
    const answer = await remove.run({ member_user_id: target });
    if (answer) {
      setToRemove(null);
      setLeaving(false);
      reload();
    }
  }

  return (
    <>
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
        {!owner && (
          <button type="button" className="secondary" onClick={() => (remove.reset(), setLeaving(true))}>
            Leave this team
          </button>
        )}
      </section>

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
                            if (await changeRole.run({ member_user_id: m.user_id, role: e.target.value })) reload();
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
                        <button type="button" className="secondary" onClick={() => (remove.reset(), setToRemove(m))} aria-label={`Remove ${m.user?.email ?? m.user_id}`}>
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

function InviteSection({ team, reload }: { team: Team; reload(): void }) {
  const invite = useMutation(InviteMembersDocument);
  const revoke = useMutation(RevokeInviteDocument);
  const [text, setText] = useState('');
  const [result, setResult] = useState<InviteMembersMutation['inviteMembers'] | null>(null);
  const emails = parseEmails(text);
  const free = team.seat_limit - team.seats_used;

  async function submit(e: FormEvent) {
    e.preventDefault();
    setResult(null);
    const answer = await invite.run({ emails });
    if (answer) {
      setResult(answer.inviteMembers);
      setText('');
      reload();
    }
  }

  return (
    <section className="card" aria-labelledby="invite-title">
      <h2 id="invite-title">Invite people</h2>
      <form onSubmit={submit} className="stack">
        <Field
          id="invite-emails"
          label="E-mail addresses"
          hint={`Paste one or many (up to 50), separated by lines, commas or spaces. Each gets a mail with a link valid for 14 days. ${free} seat${free === 1 ? '' : 's'} free.`}
        >
          <textarea id="invite-emails" rows={3} value={text} onChange={(e) => setText(e.target.value)} aria-describedby="invite-emails-hint" />
        </Field>
        <FormError error={invite.error} />
        <div className="actions">
          <button type="submit" disabled={invite.pending || emails.length === 0}>
            {invite.pending ? 'Sending…' : emails.length > 1 ? `Invite ${emails.length} people` : 'Invite'}
          </button>
        </div>
      </form>
      {result && (
        <div role="status" className="stack">
          {result.invites.length > 0 && <p>Invited: {result.invites.map((i) => i.email).join(', ')}.</p>}
          {result.skipped.length > 0 && <p>Skipped: {result.skipped.map((s) => `${s.email} (${SKIP_WORDS[s.reason] ?? s.reason})`).join(', ')}.</p>}
        </div>
      )}

      <h3 id="pending-title">Pending invites</h3>
      <FormError error={revoke.error} />
      {team.invites.length === 0 ? (
        <p className="muted">No pending invites.</p>
      ) : (
        <ul className="plain-list" aria-labelledby="pending-title" data-testid="invites">
          {team.invites.map((i) => (
            <li key={i.id}>
              <span>
                {i.email} <span className="muted small">expires {formatDate(i.expires_at)}</span>
              </span>
              <button
                type="button"
                className="secondary"
                aria-label={`Revoke the invite of ${i.email}`}
                disabled={revoke.pending}
                onClick={async () => {
                  if (await revoke.run({ invite_id: i.id })) reload();
                }}
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function JoinLinkSection({ team, reload }: { team: Team; reload(): void }) {
  const rotate = useMutation(RotateJoinLinkDocument);
  const disable = useMutation(DisableJoinLinkDocument);
  const link = team.join_link;
  return (
    <section className="card" aria-labelledby="link-title">
      <h2 id="link-title">Join link</h2>
      <p className="muted">Anyone with the link who signs in can join while seats are free. Rotate it to stop the old link working.</p>
      {link ? (
        <>
          <div className="key-reveal">
            <code data-testid="join-link">{link.url}</code>
            <CopyButton text={link.url} label="Copy link" />
          </div>
          <p className="muted small">Created {formatDate(link.created_at)}.</p>
        </>
      ) : (
        <p>The join link is off.</p>
      )}
      <FormError error={rotate.error ?? disable.error} />
      <div className="actions">
        <button type="button" className="secondary" disabled={rotate.pending} onClick={async () => (await rotate.run({})) && reload()}>
          {link ? 'Rotate link' : 'Create link'}
        </button>
        {link && (
          <button type="button" className="secondary" disabled={disable.pending} onClick={async () => (await disable.run({})) && reload()}>
            Disable link
          </button>
        )}
      </div>
    </section>
  );
}

const CHECK_ERROR_WORDS: Record<string, string> = {
  record_missing: 'The record was not found (DNS changes can take a while to appear).',
  dns_error: 'The DNS did not answer usably; it is tried again later.',
  verified_elsewhere: 'Another workspace holds this domain and its record is still published.',
};

function DomainsSection({ team, reload }: { team: Team; reload(): void }) {
  const save = useMutation(SetAllowedDomainsDocument);
  const [text, setText] = useState(team.allowed_domains.join('\n'));
  const [saved, setSaved] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setSaved(false);
    const domains = text
      .split(/[\s,;]+/)
      .map((d) => d.trim().replace(/^@/, ''))
      .filter(Boolean);
    const answer = await save.run({ domains });
    if (answer) {
      setText(answer.setAllowedDomains.allowed_domains.join('\n'));
      setSaved(true);
      reload();
    }
  }
  return (
    <section className="card" aria-labelledby="domains-title">
      <h2 id="domains-title">Allowed domains</h2>
      <form onSubmit={submit} className="stack">
        <Field
          id="domains"
          label="Domains"
          hint="One per line, e.g. lawfirm.example. Once a domain is verified, anyone signing in with a verified address there joins automatically while seats are free. Public mail domains are refused."
        >
          <textarea id="domains" rows={3} value={text} onChange={(e) => (setText(e.target.value), setSaved(false))} aria-describedby="domains-hint" />
        </Field>
        <FormError error={save.error} />
        {saved && <p role="status">Saved.</p>}
        <div className="actions">
          <button type="submit" className="secondary" disabled={save.pending}>
            {save.pending ? 'Saving…' : 'Save domains'}
          </button>
        </div>
      </form>
      {team.domains.length > 0 && (
        <ul className="plain-list domain-list" aria-label="Domain verification">
          {team.domains.map((d) => (
            <DomainProof key={d.domain} claim={d} reload={reload} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** One listed domain: its state and, until verified, the TXT record to publish and a check button. */
function DomainProof({ claim, reload }: { claim: TeamDomainFieldsFragment; reload(): void }) {
  const check = useMutation(CheckAllowedDomainDocument);
  const [result, setResult] = useState<string | null>(null);
  const verified = claim.status === 'verified';
  return (
    <li data-testid={`domain-${claim.domain}`}>
      <div className="stack domain-proof">
        <p>
          <strong>{claim.domain}</strong> <span className={`badge ${verified ? 'active' : 'pending'}`}>{verified ? 'Verified' : 'Pending verification'}</span>
        </p>
        {verified ? (
          <p className="muted small">Verified {claim.verified_at ? formatDate(claim.verified_at) : ''}. Keep the TXT record published: it is re-checked every day, and auto-join stops when it is gone.</p>
        ) : (
          <>
            <p className="muted small">Nobody joins through this domain until you prove it is yours: add this TXT record at your DNS host, then check.</p>
            <dl className="dns-record">
              <dt>Type</dt>
              <dd>
                <code>{claim.verification.type}</code>
              </dd>
              <dt>Name</dt>
              <dd>
                <code>{claim.verification.name}</code> <CopyButton text={claim.verification.name} label="Copy name" />
              </dd>
              <dt>Value</dt>
              <dd>
                <code>{claim.verification.value}</code> <CopyButton text={claim.verification.value} label="Copy value" />
              </dd>
            </dl>
          </>
        )}
        {claim.check_error && <p className="muted small">Last check{claim.checked_at ? ` (${formatDate(claim.checked_at)})` : ''}: {CHECK_ERROR_WORDS[claim.check_error] ?? claim.check_error}</p>}
        <FormError error={check.error} />
        {result && <p role="status">{result}</p>}
        <div className="actions">
          <button
            type="button"
            className="secondary"
            aria-label={`Check the DNS record of ${claim.domain} now`}
            disabled={check.pending}
            onClick={async () => {
              setResult(null);
              const answer = await check.run({ domain: claim.domain });
              if (answer) {
                const after = answer.checkAllowedDomain;
                setResult(after.status === 'verified' ? `${after.domain} is verified.` : `${after.domain} is not verified yet.`);
                reload();
              }
            }}
          >
            {check.pending ? 'Checking…' : 'Check now'}
          </button>
        </div>
      </div>
    </li>
  );
}

function SeatsSection({ team, reload }: { team: Team; reload(): void }) {
  const seats = useMutation(SetSeatsDocument);
  const [quantity, setQuantity] = useState(team.seat_limit);
  const [answer, setAnswer] = useState<string | null>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setAnswer(null);
    const a = await seats.run({ quantity: Math.floor(quantity) });
    if (a) {
      setAnswer(`Asked for ${a.setSeats.quantity} seats; the limit changes when the payment provider confirms (now ${a.setSeats.seat_limit}).`);
      reload();
    }
  }
  return (
    <section className="card" aria-labelledby="seats-title">
      <h2 id="seats-title">Seats</h2>
      <form onSubmit={submit} className="inline-form">
        <Field id="seat-count" label="Number of seats" hint={`At least the ${team.seats_used} in use. Billed per seat, prorated by Stripe.`}>
          <input id="seat-count" type="number" min={Math.max(1, team.seats_used)} max={10000} value={quantity} onChange={(e) => setQuantity(Number(e.target.value))} aria-describedby="seat-count-hint" />
        </Field>
        <button type="submit" className="secondary" disabled={seats.pending}>
          {seats.pending ? 'Saving…' : 'Change seats'}
        </button>
      </form>
      <FormError error={seats.error} />
      {answer && <p role="status">{answer}</p>}
    </section>
  );
}
