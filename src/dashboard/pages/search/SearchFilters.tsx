/** The search form's filters (collection, countries, sources, dates, court, language, tier) and the alpha slider. */
import { useQuery } from '../../app/hooks';
import { Field } from '../../components/Page';
import { countryLabel } from '../../components/catalogue';
import { TypeAheadPicker } from '../../components/TypeAheadPicker';
import { formatDate, formatNumber } from '../../components/format';
import { SourceFiltersDocument, type Namespace, type SourceFiltersQuery } from '../../gql/graphql';
import { NAMESPACES, TIERS, dateRangeError, type FormState, type Discovery } from './search-form';

export function alphaMeaning(alpha: number): string {
  if (alpha <= 0.05) return 'Keyword only: documents containing your words (exact terms, names, numbers).';
  if (alpha >= 0.95) return 'Semantic only: documents about the same thing, even in other words or languages.';
  if (alpha < 0.5) return 'Mostly keyword, with some weight on meaning.';
  if (alpha > 0.5) return 'Mostly meaning, with some weight on your exact words.';
  return 'Keyword and meaning weighed equally.';
}

/** The search's filters; a single chosen source offers its own courts, languages, tiers and date range. */
export function Filters({ discovery, form, set }: { discovery: Discovery | undefined; form: FormState; set: <K extends keyof FormState>(k: K, v: FormState[K]) => void }) {
  const sources = (discovery?.manifest.sources ?? []).filter((s) => form.countries.length === 0 || form.countries.includes(s.country)).filter((s) => s.total_documents > 0);
  const one = form.sources.length === 1 ? form.sources[0] : null;
  const filters = useQuery(SourceFiltersDocument, { source: one ?? '', namespace: form.namespace }, { skip: !one });
  const f = filters.data?.filters;
  const collections = discovery?.manifest.collections ?? [];
  const toggle = (list: string[], v: string) => (list.includes(v) ? list.filter((x) => x !== v) : [...list, v]);
  const dateError = dateRangeError(form);

  return (
    <>
      <Field id="namespace" label="Collection">
        <select id="namespace" value={form.namespace} onChange={(e) => set('namespace', e.target.value as Namespace)}>
          {(collections.length ? collections.map((c) => c.namespace) : Object.keys(NAMESPACES)).map((ns) => {
            const c = collections.find((x) => x.namespace === ns);
            return (
              <option key={ns} value={ns}>
                {NAMESPACES[ns] ?? ns}
                {c ? ` (${formatNumber(c.total_documents)})` : ''}
              </option>
            );
          })}
        </select>
      </Field>
      <CountryPicker discovery={discovery} form={form} set={set} />
      <fieldset className="filter-group">
        <legend>Sources {form.sources.length > 0 && <span className="muted small">({form.sources.length} chosen)</span>}</legend>
        {sources.length === 0 ? (
          <p className="hint">{discovery ? 'No sources with documents for these countries.' : 'Loading…'}</p>
        ) : (
          <div className="source-list">
            {sources.slice(0, 60).map((s) => (
              <div className="check" key={s.source}>
                <input id={`src-${s.source}`} type="checkbox" checked={form.sources.includes(s.source)} onChange={() => set('sources', toggle(form.sources, s.source))} />
                <label htmlFor={`src-${s.source}`}>
                  {s.name} <span className="muted small">({s.source}, {formatNumber(s.total_documents)})</span>
                </label>
              </div>
            ))}
            {sources.length > 60 && <p className="hint">{sources.length - 60} more: choose a country to narrow the list.</p>}
          </div>
        )}
      </fieldset>
      <div className="grid two">
        <Field id="date-start" label="From date" hint={f?.date_range.min ? `Earliest: ${formatDate(f.date_range.min)}` : undefined}>
          <input id="date-start" type="date" value={form.dateStart} onChange={(e) => set('dateStart', e.target.value)} min={f?.date_range.min ?? undefined} />
        </Field>
        <Field id="date-end" label="To date" hint={f?.date_range.max ? `Latest: ${formatDate(f.date_range.max)}` : undefined} error={dateError ?? undefined}>
          <input
            id="date-end"
            type="date"
            value={form.dateEnd}
            onChange={(e) => set('dateEnd', e.target.value)}
            max={f?.date_range.max ?? undefined}
            aria-invalid={dateError ? true : undefined}
            aria-describedby={[f?.date_range.max ? 'date-end-hint' : '', dateError ? 'date-end-error' : ''].filter(Boolean).join(' ') || undefined}
          />
        </Field>
      </div>
      <MoreFilters form={form} set={set} filters={f} oneSource={one !== null} />
    </>
  );
}

export function AlphaSlider({ alpha, onChange, hybrid }: { alpha: number; onChange(a: number): void; hybrid: boolean }) {
  return (
    <div className="field alpha">
      <label htmlFor="alpha">
        Keyword ↔ semantic: <strong>{alpha.toFixed(1)}</strong>
      </label>
      <div className="alpha-row">
        <span aria-hidden="true" className="small">
          Keyword
        </span>
        <input
          id="alpha"
          type="range"
          min={0}
          max={1}
          step={0.1}
          value={alpha}
          onChange={(e) => onChange(Number(e.target.value))}
          aria-describedby="alpha-hint"
          aria-valuetext={`${alpha.toFixed(1)}: ${alphaMeaning(alpha)}`}
        />
        <span aria-hidden="true" className="small">
          Semantic
        </span>
      </div>
      <p className="hint" id="alpha-hint">
        {alphaMeaning(alpha)} Alpha is the weight of the semantic ranking (0 = keyword only, 1 = meaning only; default 0.7).
        {!hybrid && ' This server has no semantic index: every setting gives keyword results.'}
      </p>
    </div>
  );
}

type SetField = <K extends keyof FormState>(k: K, v: FormState[K]) => void;

/** The countries to search in, by name or code ("Germany (DE)"); changing them clears the chosen sources (they belong to countries). */
function CountryPicker({ discovery, form, set }: { discovery: Discovery | undefined; form: FormState; set: SetField }) {
  const countries = discovery?.countries ?? [];
  if (countries.length === 0) {
    return <p className="hint">{discovery ? 'No jurisdictions indexed yet.' : 'Loading countries…'}</p>;
  }
  const choices = countries.map((c) => ({ value: c.code, label: countryLabel(c.code) })).sort((a, b) => a.label.localeCompare(b.label));
  return (
    <TypeAheadPicker
      id="countries"
      label="Countries"
      hint="Type a name or a code; none chosen searches every country."
      choices={choices}
      values={form.countries}
      onChange={(values) => {
        set('countries', values);
        set('sources', []);
      }}
    />
  );
}

/** Court, language and court tier: folded unless one is set. */
function MoreFilters({ form, set, filters: f, oneSource }: { form: FormState; set: SetField; filters: SourceFiltersQuery['filters'] | undefined; oneSource: boolean }) {
  return (
    <details className="more-filters" open={Boolean(form.court || form.language || form.courtTier)}>
      <summary>More filters: court, language, court tier</summary>
      <Field id="court" label="Court" hint={oneSource ? undefined : 'Choose one source to pick from its courts.'}>
        <input id="court" type="text" list="court-options" value={form.court} onChange={(e) => set('court', e.target.value)} />
        <datalist id="court-options">{f?.courts.map((c) => <option key={c} value={c} />)}</datalist>
      </Field>
      <div className="grid two">
        <Field id="language" label="Language">
          <select id="language" value={form.language} onChange={(e) => set('language', e.target.value)}>
            <option value="">Any</option>
            {(f?.languages.length ? f.languages : ['de', 'en', 'fr', 'it', 'es', 'nl', 'pl']).map((l) => (
              <option key={l} value={l}>
                {l}
              </option>
            ))}
          </select>
        </Field>
        <Field id="court-tier" label="Court tier">
          <select id="court-tier" value={form.courtTier} onChange={(e) => set('courtTier', e.target.value)}>
            <option value="">Any</option>
            {Object.entries(TIERS)
              .filter(([t]) => !f || f.court_tiers.length === 0 || f.court_tiers.includes(Number(t)))
              .map(([t, l]) => (
                <option key={t} value={t}>
                  {t}: {l}
                </option>
              ))}
          </select>
        </Field>
      </div>
    </details>
  );
}
