/** The cited-by list's filters: collection, country, court tier, date range, and the sort; applied with the button. */
import { type FormEvent, useState } from 'react';
import { Field } from '../../../components/Page';
import { countryLabel } from '../../../components/catalogue';
import type { CitedBySort, Namespace } from '../../../gql/graphql';
import { TIERS } from '../search-form';
import { type CitedByFilters, filterErrors, NO_FILTERS } from './cited-by-filters';

export function CitedByFilterForm({ countries, applied, onApply }: { countries: readonly string[]; applied: CitedByFilters; onApply(f: CitedByFilters): void }) {
  const [draft, setDraft] = useState<CitedByFilters>(applied);
  const [checked, setChecked] = useState(false);
  const errors = checked ? filterErrors(draft) : {};
  const set = <K extends keyof CitedByFilters>(key: K, value: CitedByFilters[K]) => setDraft((d) => ({ ...d, [key]: value }));

  function submit(e: FormEvent) {
    e.preventDefault();
    setChecked(true);
    if (Object.keys(filterErrors(draft)).length === 0) onApply(draft);
  }

  return (
    <form className="cited-by-filters" onSubmit={submit} aria-label="Filter the citing documents" noValidate>
      <Field id="cb-namespace" label="Collection">
        <select id="cb-namespace" value={draft.namespace} onChange={(e) => set('namespace', e.target.value as '' | Namespace)}>
          <option value="">Any</option>
          <option value="case_law">Case law</option>
          <option value="doctrine">Doctrine</option>
        </select>
      </Field>
      <Field id="cb-country" label="Country">
        <select id="cb-country" value={draft.country} onChange={(e) => set('country', e.target.value)}>
          <option value="">Any</option>
          {countries.map((c) => (
            <option key={c} value={c}>
              {countryLabel(c)}
            </option>
          ))}
        </select>
      </Field>
      <Field id="cb-tier" label="Court tier">
        <select id="cb-tier" value={draft.courtTier} onChange={(e) => set('courtTier', e.target.value as CitedByFilters['courtTier'])}>
          <option value="">Any</option>
          {Object.entries(TIERS).map(([t, l]) => (
            <option key={t} value={t}>
              {t}: {l}
            </option>
          ))}
        </select>
      </Field>
      <Field id="cb-from" label="From">
        <input id="cb-from" type="date" value={draft.dateStart} onChange={(e) => set('dateStart', e.target.value)} />
      </Field>
      <Field id="cb-to" label="To" error={errors.dateEnd}>
        <input id="cb-to" type="date" value={draft.dateEnd} onChange={(e) => set('dateEnd', e.target.value)} aria-invalid={Boolean(errors.dateEnd)} aria-describedby={errors.dateEnd ? 'cb-to-error' : undefined} />
      </Field>
      <Field id="cb-sort" label="Sort">
        <select id="cb-sort" value={draft.sort} onChange={(e) => set('sort', e.target.value as CitedBySort)}>
          <option value="date">Newest first</option>
          <option value="court_tier">Highest court first</option>
        </select>
      </Field>
      <div className="cited-by-actions">
        <button type="submit">Apply</button>
        <button
          type="button"
          className="secondary"
          onClick={() => {
            setDraft(NO_FILTERS);
            setChecked(false);
            onApply(NO_FILTERS);
          }}
        >
          Clear
        </button>
      </div>
    </form>
  );
}
