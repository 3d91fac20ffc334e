/** The team page's invites: many addresses pasted at once, the pending invites with revoke. */
import { type FormEvent, useState } from 'react';
import { useMutation } from '../../app/hooks';
import { formatDate } from '../../components/format';
import { Field } from '../../components/Page';
import { FormError } from '../../components/states';
import { InviteMembersDocument, RevokeInviteDocument, type InviteMembersMutation } from '../../gql/graphql';
import type { Team } from './team-types';

/**
 * Addresses pasted in any shape: one per line, or separated by commas, semicolons or spaces;
 * "Name <a@b>" and "\"Last, First\" <a@b>" kept as a@b. Anything else is kept as typed, so a
 * mistyped address reaches the server and comes back named, instead of vanishing.
 */
export function parseEmails(text: string): string[] {
  const out: string[] = [];
  const bare = text.replace(/"[^"]*"/g, ' ').replace(/[^,;\n<>]*<([^<>]*)>/g, ' $1 ');
  for (const part of bare.split(/[\s,;]+/)) {
    const e = part.trim().toLowerCase();
    if (e && !out.includes(e)) out.push(e);
  }
  return out;
}

const SKIP_WORDS: Record<string, string> = { already_member: 'already a member', already_invited: 'already invited', duplicate: 'listed twice' };

export function InviteSection({ team, reload }: { team: Team; reload(): void }) {
  const invite = useMutation(InviteMembersDocument);
  const [text, setText] = useState('');
  const [result, setResult] = useState<{ answer: InviteMembersMutation['inviteMembers']; refused: string[] } | null>(null);
  // the list last sent: the server's issues point into it by index (emails.1)
  const [sent, setSent] = useState<string[]>([]);
  const emails = parseEmails(text);
  const free = team.seat_limit - team.seats_used;
  const bad = invite.error?.itemIssues('emails') ?? [];
  const badAddresses = bad.map((b) => sent[b.index]).filter((a): a is string => a !== undefined);
  const valid = sent.filter((a) => !badAddresses.includes(a));

  async function send(list: string[], refused: string[]) {
    setResult(null);
    setSent(list);
    const answer = await invite.run({ emails: list });
    if (answer) {
      setResult({ answer: answer.inviteMembers, refused });
      // the refused addresses stay in the box to be corrected
      setText(refused.join('\n'));
      reload();
    }
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    void send(emails, []);
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
        {bad.length > 0 ? <RefusedAddresses bad={bad} sent={sent.length} valid={valid} pending={invite.pending} onInviteValid={() => void send(valid, badAddresses)} /> : <FormError error={invite.error} />}
        <div className="actions">
          <button type="submit" disabled={invite.pending || emails.length === 0}>
            {invite.pending ? 'Sending…' : emails.length > 1 ? `Invite ${emails.length} people` : 'Invite'}
          </button>
        </div>
      </form>
      {result && (
        <div role="status" className="stack">
          {result.answer.invites.length > 0 && <p>Invited: {result.answer.invites.map((i) => i.email).join(', ')}.</p>}
          {result.answer.skipped.length > 0 && <p>Skipped: {result.answer.skipped.map((s) => `${s.email} (${SKIP_WORDS[s.reason] ?? s.reason})`).join(', ')}.</p>}
          {result.refused.length > 0 && <p>Not invited (not a valid address, left in the box to correct): {result.refused.join(', ')}.</p>}
        </div>
      )}

      <PendingInvites team={team} reload={reload} />
    </section>
  );
}

/** The addresses the server refused (it invited nobody then), each in a sentence, and the offer to invite the rest. */
function RefusedAddresses({ bad, sent, valid, pending, onInviteValid }: { bad: { index: number; sentence: string }[]; sent: number; valid: string[]; pending: boolean; onInviteValid(): void }) {
  return (
    <div className="form-error" role="alert" data-testid="invite-refused">
      <p>
        {bad.length === 1 ? 'One address' : `${bad.length} addresses`} of {sent} cannot be invited, so nobody was invited yet:
      </p>
      <ul>
        {bad.map((b) => (
          <li key={b.index}>{b.sentence}</li>
        ))}
      </ul>
      {valid.length > 0 && (
        <button type="button" disabled={pending} onClick={onInviteValid}>
          {valid.length === 1 ? `Invite ${valid[0]} only` : `Invite the other ${valid.length}`}
        </button>
      )}
    </div>
  );
}

/** The invites not accepted yet, each with Revoke. */
function PendingInvites({ team, reload }: { team: Team; reload(): void }) {
  const revoke = useMutation(RevokeInviteDocument);
  return (
    <>
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
    </>
  );
}
