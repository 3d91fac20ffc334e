/**
 * Partner analytics (issue #35 item 5b): usage of sources or countries over time (chart, table,
 * CSV of what the chart shows), the top documents of a source, and resolver outcomes. Partners
 * pick within their scope (the server refuses anything else, and the page says so next to the
 * field), administrators pick anything. Anyone else is told why there is nothing to see.
 */
import { type FormEvent, useState } from 'react';
import { useAnalyticsAccess } from '../../app/analytics-access';
import { useSession } from '../../app/session';
import { useCatalogue } from '../../components/catalogue';
import { Field, Page } from '../../components/Page';
import { ErrorState, Loading } from '../../components/states';
import { TypeAheadPicker } from '../../components/TypeAheadPicker';
import type { AnalyticsGranularity } from '../../gql/graphql';
import { type Dimension, MEASURES, type MeasureKey, utcDay } from './analytics-data';
import { ResolverOutcomesSection } from './ResolverOutcomesSection';
import { TopDocumentsSection } from './TopDocumentsSection';
import { type Selection, UsageSection } from './UsageSection';

const GRANULARITIES: { value: AnalyticsGranularity; label: string }[] = [
  { value: 'DAY', label: 'Day' },
  { value: 'WEEK', label: 'Week (ISO, from Monday)' },
  { value: 'MONTH', label: 'Month' },
];

export default function AnalyticsPage() {
  const { me } = useSession();
  const { allowed, error } = useAnalyticsAccess(me);
  if (error) {
    return (
      <Page title="Analytics">
        <ErrorState error={error} onRetry={() => window.location.reload()} />
      </Page>
    );
  }
  if (allowed === undefined) return <Loading label="Checking your access…" />;
  if (!allowed) {
    return (
      <Page title="Analytics">
        <div className="state state-error" role="alert">
          <p className="state-title">Analytics are for partners and administrators</p>
          <p>
            Your account is not a partner, so it may not read usage analytics. Partners (courts, publishers, open-data portals and researchers we work with) are set up by an
            administrator; write to us if you should be one.
          </p>
        </div>
      </Page>
    );
  }
  return <Analytics admin={Boolean(me?.user.is_admin)} />;
}

function Analytics({ admin }: { admin: boolean }) {
  const { catalogue, error: catalogueError } = useCatalogue();
  const [draft, setDraft] = useState<Selection>({ dimension: 'sources', sources: [], countries: [], from: utcDay(-29), to: utcDay(0), granularity: 'DAY' });
  const [shown, setShown] = useState<Selection | null>(null);
  const [measure, setMeasure] = useState<MeasureKey>('documentsFetched');
  const [refusal, setRefusal] = useState<{ field: string; message: string } | null>(null);
  const picks = draft.dimension === 'sources' ? draft.sources : draft.countries;

  function show(e: FormEvent) {
    e.preventDefault();
    setRefusal(null);
    setShown({ ...draft });
  }
  const set = (patch: Partial<Selection>) => setDraft((d) => ({ ...d, ...patch }));
  const fieldError = (field: string) => (refusal?.field === field ? refusal.message : undefined);
  const dimensionWord = draft.dimension === 'sources' ? 'sources' : 'countries';

  return (
    <Page title="Analytics" lead={admin ? 'Usage of any source or country (administrator).' : 'How the sources and countries of your partnership are used. Figures from fewer than 5 distinct accounts are withheld.'}>
      <form className="card stack" onSubmit={show} aria-labelledby="choose-title">
        <h2 id="choose-title">What to show</h2>
        <fieldset className="inline-form">
          <legend>Usage of</legend>
          {(['sources', 'countries'] as Dimension[]).map((d) => (
            <label key={d} className="chip">
              <input type="radio" name="dimension" value={d} checked={draft.dimension === d} onChange={() => set({ dimension: d })} /> {d === 'sources' ? 'Sources' : 'Countries'}
            </label>
          ))}
        </fieldset>
        {catalogueError && <ErrorState error={catalogueError} />}
        <TypeAheadPicker
          key={draft.dimension}
          id="analytics-items"
          label={draft.dimension === 'sources' ? 'Sources' : 'Countries'}
          hint={admin ? `Any ${dimensionWord} of the catalogue.` : `The ${dimensionWord} of your partnership.`}
          choices={(draft.dimension === 'sources' ? catalogue?.sources : catalogue?.countries) ?? []}
          values={picks}
          onChange={(values) => set(draft.dimension === 'sources' ? { sources: values } : { countries: values })}
          error={fieldError(draft.dimension)}
        />
        <div className="inline-form">
          <Field id="analytics-from" label="From (UTC day)" error={fieldError('from')}>
            <input id="analytics-from" type="date" required value={draft.from} onChange={(e) => set({ from: e.target.value })} aria-describedby={fieldError('from') ? 'analytics-from-error' : undefined} />
          </Field>
          <Field id="analytics-to" label="To (UTC day, at most 400 days after From)" error={fieldError('to')}>
            <input id="analytics-to" type="date" required value={draft.to} onChange={(e) => set({ to: e.target.value })} aria-describedby={fieldError('to') ? 'analytics-to-error' : undefined} />
          </Field>
          <Field id="analytics-granularity" label="Per">
            <select id="analytics-granularity" value={draft.granularity} onChange={(e) => set({ granularity: e.target.value as AnalyticsGranularity })}>
              {GRANULARITIES.map((g) => (
                <option key={g.value} value={g.value}>
                  {g.label}
                </option>
              ))}
            </select>
          </Field>
          <Field id="analytics-measure" label="Measure">
            <select id="analytics-measure" value={measure} onChange={(e) => setMeasure(e.target.value as MeasureKey)}>
              {MEASURES.map((m) => (
                <option key={m.key} value={m.key}>
                  {m.label}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <div className="actions">
          <button type="submit" disabled={picks.length === 0}>
            Show
          </button>
          {picks.length === 0 && <span className="small muted">Choose at least one of the {dimensionWord} first.</span>}
        </div>
      </form>
      {shown && <UsageSection selection={shown} measure={measure} onRefused={setRefusal} />}
      {shown && !refusal && shown.dimension === 'sources' && <TopDocumentsSection sources={shown.sources} from={shown.from} to={shown.to} />}
      {shown && !refusal && <ResolverOutcomesSection countries={shown.dimension === 'countries' ? shown.countries : null} from={shown.from} to={shown.to} />}
    </Page>
  );
}
