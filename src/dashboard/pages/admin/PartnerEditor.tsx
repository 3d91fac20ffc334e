/**
 * The partner editor on a user's detail (issue #35 item 5b): the analytics scope by source and
 * by country with type-ahead from the catalogue, saved with adminSetPartner, ended with
 * adminRemovePartner; the answer and any refusal in words. The current scope is read with
 * adminPartner (null: not a partner).
 */
import { type FormEvent, useEffect, useState } from 'react';
import { forgetAnalyticsAccess } from '../../app/analytics-access';
import { useMutation, useQuery } from '../../app/hooks';
import { type Catalogue, countryLabel, sourceName, useCatalogue } from '../../components/catalogue';
import { Field } from '../../components/Page';
import { ErrorState, FormError } from '../../components/states';
import { TypeAheadPicker } from '../../components/TypeAheadPicker';
import { AdminPartnerDocument, AdminRemovePartnerDocument, AdminSetPartnerDocument } from '../../gql/graphql';

interface Scope {
  sources: string[];
  countries: string[];
}

/** The scope in words: the sources by their catalogue names, the countries by theirs. */
function describe(scope: Scope, catalogue: Catalogue | undefined): string {
  const parts = [scope.sources.length > 0 ? `sources ${scope.sources.map((id) => sourceName(id, catalogue)).join(', ')}` : '', scope.countries.length > 0 ? `countries ${scope.countries.map(countryLabel).join(', ')}` : ''];
  return parts.filter(Boolean).join('; ');
}

export function PartnerEditor({ user }: { user: { id: string; email: string } }) {
  const stored = useQuery(AdminPartnerDocument, { userId: user.id });
  const { catalogue, error: catalogueError } = useCatalogue();
  const save = useMutation(AdminSetPartnerDocument);
  const remove = useMutation(AdminRemovePartnerDocument);
  const [current, setCurrent] = useState<Scope | null | undefined>(undefined);
  const [scope, setScope] = useState<Scope>({ sources: [], countries: [] });
  const [reason, setReason] = useState('');
  const [done, setDone] = useState<string | null>(null);

  useEffect(() => {
    if (!stored.data || current !== undefined) return;
    const partner = stored.data.adminPartner;
    const found = partner ? { sources: partner.sources, countries: partner.countries } : null;
    setCurrent(found);
    if (found) setScope(found);
  }, [stored.data, current]);

  async function onSave(e: FormEvent) {
    e.preventDefault();
    setDone(null);
    remove.reset();
    const a = await save.run({ userId: user.id, sources: scope.sources, countries: scope.countries, reason: reason.trim() || null });
    if (!a) return;
    const saved = { sources: a.adminSetPartner.sources, countries: a.adminSetPartner.countries };
    setCurrent(saved);
    forgetAnalyticsAccess();
    setDone(`${user.email} is now a partner with ${describe(saved, catalogue)}.`);
  }

  async function onRemove() {
    setDone(null);
    save.reset();
    const a = await remove.run({ userId: user.id, reason: reason.trim() || null });
    if (!a) return;
    setCurrent(null);
    setScope({ sources: [], countries: [] });
    forgetAnalyticsAccess();
    setDone(`${user.email} is no longer a partner.`);
  }

  const fieldError = (field: 'sources' | 'countries') => save.error?.fieldMessage(field);
  return (
    <form onSubmit={onSave} className="stack" aria-labelledby={`pa-${user.id}`}>
      <h2 id={`pa-${user.id}`}>Partner analytics</h2>
      <p className="muted small" data-testid={`partner-status-${user.email}`}>
        {current === undefined ? 'Reading the current scope…' : current ? `A partner with ${describe(current, catalogue)}.` : 'Not a partner.'}
      </p>
      {stored.error && <ErrorState error={stored.error} onRetry={stored.reload} />}
      {catalogueError && <ErrorState error={catalogueError} />}
      <TypeAheadPicker
        id={`pa-sources-${user.id}`}
        label="Sources"
        hint="Type a source, such as DE/BGH."
        choices={catalogue?.sources ?? []}
        values={scope.sources}
        onChange={(sources) => setScope((s) => ({ ...s, sources }))}
        error={fieldError('sources')}
      />
      <TypeAheadPicker
        id={`pa-countries-${user.id}`}
        label="Countries"
        hint="Type a country's name or code."
        choices={catalogue?.countries ?? []}
        values={scope.countries}
        onChange={(countries) => setScope((s) => ({ ...s, countries }))}
        error={fieldError('countries')}
      />
      <Field id={`pa-reason-${user.id}`} label="Reason (kept in the audit log)">
        <input id={`pa-reason-${user.id}`} type="text" maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
      </Field>
      <FormError error={save.error ?? remove.error} />
      {done && <p role="status">{done}</p>}
      <PartnerActions partner={Boolean(current)} empty={scope.sources.length === 0 && scope.countries.length === 0} saving={save.pending} removing={remove.pending} onRemove={onRemove} />
    </form>
  );
}

function PartnerActions({ partner, empty, saving, removing, onRemove }: { partner: boolean; empty: boolean; saving: boolean; removing: boolean; onRemove(): void }) {
  return (
    <div className="actions">
      <button type="submit" disabled={saving || empty}>
        {saving ? 'Saving…' : partner ? 'Save partner scope' : 'Make partner'}
      </button>
      {partner && (
        <button type="button" className="danger" onClick={onRemove} disabled={removing}>
          {removing ? 'Removing…' : 'Remove partner'}
        </button>
      )}
    </div>
  );
}
