/**
 * Partner analytics (issue #35 item 5b): usage of sources or countries over time (chart, table,
 * CSV of what the chart shows), the top documents of a source, and resolver outcomes. Partners
 * pick within their own scope (`partnerScope`: the pickers offer nothing else, and the server
 * refuses anything else, shown next to the field), administrators pick from the whole catalogue.
 * Anyone else is told why there is nothing to see.
 */
import { type FormEvent, useMemo, useState } from 'react';
import { type PartnerScope, useAnalyticsAccess } from '../../app/analytics-access';
import { useSession } from '../../app/session';
import { type Catalogue, countryLabel, useCatalogue } from '../../components/catalogue';
import { Field, Page } from '../../components/Page';
import { ErrorState, Loading } from '../../components/states';
import { TypeAheadPicker } from '../../components/TypeAheadPicker';
import type { ApiError } from '../../api/errors';
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
  const { allowed, scope, error } = useAnalyticsAccess(me);
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
  return me?.user.is_admin || !scope ? <AdminAnalytics /> : <PartnerAnalytics scope={scope} />;
}

/** A partner's pickers offer its own scope only (countries named as the catalogue names them). */
function choicesOf(scope: PartnerScope): Catalogue {
  return {
    sources: [...scope.sources].sort().map((s) => ({ value: s, label: s })),
    countries: scope.countries.map((c) => ({ value: c, label: countryLabel(c) })).sort((a, b) => a.label.localeCompare(b.label)),
  };
}

function PartnerAnalytics({ scope }: { scope: PartnerScope }) {
  const choices = useMemo(() => choicesOf(scope), [scope]);
  return <Analytics admin={false} choices={choices} catalogueError={null} />;
}

/** An administrator picks from the whole catalogue. */
function AdminAnalytics() {
  const { catalogue, error } = useCatalogue();
  return <Analytics admin choices={catalogue} catalogueError={error} />;
}

function Analytics({ admin, choices, catalogueError }: { admin: boolean; choices: Catalogue | undefined; catalogueError: ApiError | null }) {
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
  const offered = (draft.dimension === 'sources' ? choices?.sources : choices?.countries) ?? [];
  const hint = admin ? `Any ${dimensionWord} of the catalogue.` : offered.length > 0 ? `The ${dimensionWord} of your partnership.` : `Your partnership holds no ${dimensionWord}.`;

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
          hint={hint}
          choices={offered}
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
