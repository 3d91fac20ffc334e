/** The team page's invites: many addresses pasted at once, the pending invites with revoke. */
import { type FormEvent, useState } from 'react';
import { useMutation } from '../../app/hooks';
import { formatDate } from '../../components/format';
import { Field } from '../../components/Page';
import { FormError } from '../../components/states';
import { InviteMembersDocument, RevokeInviteDocument, type InviteMembersMutation } from '../../gql/graphql';
import type { Team } from './team-types';

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

export function InviteSection({ team, reload }: { team: Team; reload(): void }) {
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
                  if (await revoke.run({ inviteId: i.id })) reload();
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
