/** The team page's allowed e-mail domains, each with its DNS proof (the record to copy, check now). */
import { type FormEvent, useState } from 'react';
import { useMutation } from '../../app/hooks';
import { CopyButton } from '../../components/CopyButton';
import { formatDate } from '../../components/format';
import { Field } from '../../components/Page';
import { FormError } from '../../components/states';
import { CheckAllowedDomainDocument, SetAllowedDomainsDocument, type TeamDomainFieldsFragment } from '../../gql/graphql';
import type { Team } from './team-types';

const CHECK_ERROR_WORDS: Record<string, string> = {
  record_missing: 'The record was not found (DNS changes can take a while to appear).',
  dns_error: 'The DNS did not answer usably; it is tried again later.',
  verified_elsewhere: 'Another workspace holds this domain and its record is still published.',
};

export function DomainsSection({ team, reload }: { team: Team; reload(): void }) {
  const save = useMutation(SetAllowedDomainsDocument);
  const [text, setText] = useState(team.allowed_domains.join('\n'));
  const [saved, setSaved] = useState(false);
  // the list last sent: the server's issues point into it by index (domains.0)
  const [sent, setSent] = useState<string[]>([]);
  const bad = save.error?.itemIssues('domains') ?? [];
  const badDomains = bad.map((b) => sent[b.index]).filter((d): d is string => d !== undefined);
  const valid = sent.filter((d) => !badDomains.includes(d));

  async function send(domains: string[]) {
    setSaved(false);
    setSent(domains);
    const answer = await save.run({ domains });
    if (answer) {
      setText(answer.setAllowedDomains.allowed_domains.join('\n'));
      setSaved(true);
      reload();
    }
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    void send(
      text
        .split(/[\s,;]+/)
        .map((d) => d.trim().replace(/^@/, ''))
        .filter(Boolean),
    );
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
        {bad.length > 0 ? (
          <div className="form-error" role="alert" data-testid="domains-refused">
            <p>Nothing was saved:</p>
            <ul>
              {bad.map((b) => (
                <li key={b.index}>{b.sentence}</li>
              ))}
            </ul>
            {/* never offer an empty list: it would remove every domain */}
            {valid.length > 0 && (
              <button type="button" disabled={save.pending} onClick={() => void send(valid)}>
                {valid.length === 1 ? `Save ${valid[0]} only` : `Save the other ${valid.length}`}
              </button>
            )}
          </div>
        ) : (
          <FormError error={save.error} />
        )}
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
