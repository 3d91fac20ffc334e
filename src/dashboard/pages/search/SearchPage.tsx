/**
 * Search: the query with the filters discovery offers (collection, countries, sources, dates,
 * court, language, court tier), the alpha slider (keyword ↔ semantic) explained, result detail,
 * and hits with snippet, score and source licence, each opening the document view. The search
 * lives in the address (?q=…&country=DE…): back, reload and shared links show the same results.
 * Searches from here count as the account's usage like any API call.
 */
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQuery } from '../../app/hooks';
import { Field, Page } from '../../components/Page';
import { Empty, ErrorState, Loading, QueryState } from '../../components/states';
import { formatDate, formatNumber } from '../../components/format';
import { SearchDiscoveryDocument, SearchDocument, SourceFiltersDocument, type SearchDiscoveryQuery, type SearchInput, type SearchQuery } from '../../gql/graphql';
import { documentPath } from './links';
import { ResolveBox } from './ResolveBox';

const NAMESPACES: Record<string, string> = { case_law: 'Case law', legislation: 'Legislation', doctrine: 'Doctrine' };
const DETAILS: Record<string, string> = {
  snippet: 'Snippet around the match',
  summary_only: 'Summary only',
  full_text: 'Full text',
  full_metadata: 'Full text and every field',
};
const TIERS: Record<string, string> = { '1': 'Supreme / apex courts', '2': 'Appellate courts', '3': 'First instance' };

interface FormState {
  q: string;
  namespace: string;
  countries: string[];
  sources: string[];
  dateStart: string;
  dateEnd: string;
  court: string;
  language: string;
  courtTier: string;
  alpha: number;
  detail: string;
  topK: number;
}

function formFromParams(p: URLSearchParams): FormState {
  const alpha = Number(p.get('alpha') ?? '0.7');
  return {
    q: p.get('q') ?? '',
    namespace: p.get('namespace') ?? 'case_law',
    countries: p.getAll('country'),
    sources: p.getAll('source'),
    dateStart: p.get('date_start') ?? '',
    dateEnd: p.get('date_end') ?? '',
    court: p.get('court') ?? '',
    language: p.get('language') ?? '',
    courtTier: p.get('court_tier') ?? '',
    alpha: Number.isFinite(alpha) ? Math.min(1, Math.max(0, alpha)) : 0.7,
    detail: p.get('result_detail') ?? 'snippet',
    topK: Number(p.get('top_k') ?? '10') || 10,
  };
}

function paramsFromForm(f: FormState): URLSearchParams {
  const p = new URLSearchParams();
  p.set('q', f.q.trim());
  p.set('namespace', f.namespace);
  f.countries.forEach((c) => p.append('country', c));
  f.sources.forEach((s) => p.append('source', s));
  if (f.dateStart) p.set('date_start', f.dateStart);
  if (f.dateEnd) p.set('date_end', f.dateEnd);
  if (f.court) p.set('court', f.court);
  if (f.language) p.set('language', f.language);
  if (f.courtTier) p.set('court_tier', f.courtTier);
  p.set('alpha', String(f.alpha));
  if (f.detail !== 'snippet') p.set('result_detail', f.detail);
  if (f.topK !== 10) p.set('top_k', String(f.topK));
  return p;
}

function inputFromForm(f: FormState): SearchInput {
  return {
    q: f.q.trim(),
    namespace: f.namespace,
    alpha: f.alpha,
    top_k: f.topK,
    result_detail: f.detail,
    country: f.countries.length ? f.countries : null,
    source: f.sources.length ? f.sources : null,
    date_start: f.dateStart || null,
    date_end: f.dateEnd || null,
    court: f.court || null,
    language: f.language || null,
    court_tier: f.courtTier ? Number(f.courtTier) : null,
    // every hit says why it ranks where it does (score parts) and under what licence
    explain: true,
  };
}

export function alphaMeaning(alpha: number): string {
  if (alpha <= 0.05) return 'Keyword only: documents containing your words (exact terms, names, numbers).';
  if (alpha >= 0.95) return 'Semantic only: documents about the same thing, even in other words or languages.';
  if (alpha < 0.5) return 'Mostly keyword, with some weight on meaning.';
  if (alpha > 0.5) return 'Mostly meaning, with some weight on your exact words.';
  return 'Keyword and meaning weighed equally.';
}

type Discovery = SearchDiscoveryQuery;

export default function SearchPage() {
  const [params, setParams] = useSearchParams();
  const discovery = useQuery(SearchDiscoveryDocument);
  const submitted = useMemo(() => formFromParams(params), [params]);
  const [form, setForm] = useState<FormState>(submitted);
  useEffect(() => setForm(submitted), [submitted]);
  const hasQuery = submitted.q.trim().length > 0;
  const results = useQuery(SearchDocument, { input: inputFromForm(submitted) }, { skip: !hasQuery });

  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setForm((f) => ({ ...f, [key]: value }));
  const activeFilters =
    submitted.countries.length + submitted.sources.length + [submitted.dateStart, submitted.dateEnd, submitted.court, submitted.language, submitted.courtTier].filter(Boolean).length;
  // open beside the results on wide screens; folded on phones (results first) unless the search has no query yet
  const [filtersOpen, setFiltersOpen] = useState(() => window.matchMedia('(min-width: 1000px)').matches || !hasQuery);

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!form.q.trim()) return;
    if (paramsFromForm(form).toString() === params.toString()) results.reload();
    else setParams(paramsFromForm(form));
  }

  return (
    <Page title="Search" lead="Hybrid keyword and semantic search over legislation, case law and doctrine. Each search counts as one request of your plan.">
      <div className="search-layout">
        <form onSubmit={submit} className="card search-form" role="search" aria-label="Search the corpus">
          <div className="query-row">
            <Field id="q" label="Query">
              <input id="q" type="search" value={form.q} onChange={(e) => set('q', e.target.value)} placeholder="e.g. Schadensersatz bei Verletzung des Eigentums" maxLength={1000} />
            </Field>
            <button type="submit" disabled={!form.q.trim()}>
              Search
            </button>
          </div>
          {discovery.error && !discovery.data ? <ErrorState error={discovery.error} onRetry={discovery.reload} /> : null}
          <details className="filters-panel" open={filtersOpen} onToggle={(e) => setFiltersOpen((e.target as HTMLDetailsElement).open)}>
            <summary>
              Filters and ranking{activeFilters > 0 ? ` (${activeFilters} set)` : ''}
            </summary>
            <Filters discovery={discovery.data} form={form} set={set} />
            <AlphaSlider alpha={form.alpha} onChange={(a) => set('alpha', a)} hybrid={discovery.data?.manifest.search.hybrid ?? true} />
            <div className="grid two">
              <Field id="detail" label="Result detail">
                <select id="detail" value={form.detail} onChange={(e) => set('detail', e.target.value)}>
                  {Object.entries(DETAILS).map(([v, l]) => (
                    <option key={v} value={v}>
                      {l}
                    </option>
                  ))}
                </select>
              </Field>
              <Field id="top-k" label="Results">
                <select id="top-k" value={form.topK} onChange={(e) => set('topK', Number(e.target.value))}>
                  {[5, 10, 20, 50, 100].map((n) => (
                    <option key={n} value={n}>
                      {n}
                    </option>
                  ))}
                </select>
              </Field>
            </div>
            <div className="actions">
              <button type="submit" disabled={!form.q.trim()}>
                Search with these filters
              </button>
              <button type="button" className="secondary" onClick={() => setForm({ ...formFromParams(new URLSearchParams()), q: form.q })}>
                Clear filters
              </button>
            </div>
          </details>
        </form>

        <section className="search-results" aria-labelledby="results-title" aria-busy={results.loading}>
          <h2 id="results-title">Results</h2>
          {!hasQuery ? (
            <Empty title="Search the corpus">
              <p>Type a question or words in any language. Filters narrow the collection; the slider chooses between exact words and meaning.</p>
            </Empty>
          ) : results.loading && !results.data ? (
            <Loading label="Searching…" />
          ) : (
            <QueryState result={results}>{(data) => <Hits data={data} discovery={discovery.data} />}</QueryState>
          )}
        </section>
      </div>
      <ResolveBox countries={discovery.data?.countries.map((c) => c.code) ?? []} />
    </Page>
  );
}

function Filters({ discovery, form, set }: { discovery: Discovery | undefined; form: FormState; set: <K extends keyof FormState>(k: K, v: FormState[K]) => void }) {
  const countries = discovery?.countries ?? [];
  const sources = (discovery?.manifest.sources ?? []).filter((s) => form.countries.length === 0 || form.countries.includes(s.country)).filter((s) => s.total_documents > 0);
  const one = form.sources.length === 1 ? form.sources[0] : null;
  const filters = useQuery(SourceFiltersDocument, { source: one ?? '', namespace: form.namespace }, { skip: !one });
  const f = filters.data?.filters;
  const collections = discovery?.manifest.collections ?? [];
  const toggle = (list: string[], v: string) => (list.includes(v) ? list.filter((x) => x !== v) : [...list, v]);

  return (
    <>
      <Field id="namespace" label="Collection">
        <select id="namespace" value={form.namespace} onChange={(e) => set('namespace', e.target.value)}>
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
      <fieldset className="filter-group">
        <legend>Countries {form.countries.length > 0 && <span className="muted small">({form.countries.length} chosen)</span>}</legend>
        {countries.length === 0 ? (
          <p className="hint">{discovery ? 'No jurisdictions indexed yet.' : 'Loading…'}</p>
        ) : (
          <div className="chips">
            {countries.map((c) => (
              <label key={c.code} className="chip">
                <input
                  type="checkbox"
                  checked={form.countries.includes(c.code)}
                  onChange={() => {
                    set('countries', toggle(form.countries, c.code));
                    set('sources', []);
                  }}
                />
                {c.code}
              </label>
            ))}
          </div>
        )}
      </fieldset>
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
        <Field id="date-end" label="To date" hint={f?.date_range.max ? `Latest: ${formatDate(f.date_range.max)}` : undefined}>
          <input id="date-end" type="date" value={form.dateEnd} onChange={(e) => set('dateEnd', e.target.value)} max={f?.date_range.max ?? undefined} />
        </Field>
      </div>
      <details className="more-filters" open={Boolean(form.court || form.language || form.courtTier)}>
        <summary>More filters: court, language, court tier</summary>
        <Field id="court" label="Court" hint={one ? undefined : 'Choose one source to pick from its courts.'}>
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
    </>
  );
}

function AlphaSlider({ alpha, onChange, hybrid }: { alpha: number; onChange(a: number): void; hybrid: boolean }) {
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

function Hits({ data, discovery }: { data: SearchQuery; discovery: Discovery | undefined }) {
  const r = data.search;
  const licences = new Map((discovery?.manifest.sources ?? []).map((s) => [s.source, s]));
  if (r.hits.length === 0) {
    return (
      <Empty title={`Nothing found for “${r.query}”`}>
        <p>Try other words, fewer filters, or move the slider towards semantic to match meaning rather than exact words.</p>
      </Empty>
    );
  }
  return (
    <>
      <p className="muted small" role="status">
        {formatNumber(r.total_hits)} matching documents, showing {r.hits.length} · {NAMESPACES[r.namespace] ?? r.namespace} · alpha {r.alpha} · {r.elapsed_ms} ms
      </p>
      <ol className="hits">
        {r.hits.map((h) => {
          const fromHit = h.license as { name?: string | null; url?: string | null } | null | undefined;
          const lic = fromHit?.name ? { license_name: fromHit.name, license_url: fromHit.url ?? null } : licences.get(h.source);
          return (
            <li key={h.id} className="card hit">
              <h3>
                <Link to={documentPath(h.source, h.source_id)}>{h.title || h.canonical_path || h.source_id}</Link>
              </h3>
              <p className="hit-meta small">
                <span>{h.source}</span>
                {h.court && <span>{h.court}</span>}
                {h.date && <span>{formatDate(h.date)}</span>}
                {h.ecli && <span>{h.ecli}</span>}
                {h.case_number && <span>{h.case_number}</span>}
                {h.language && <span>{h.language}</span>}
              </p>
              {h.snippet && <p className="snippet">{h.snippet}</p>}
              {!h.snippet && h.summary && <p className="snippet">{h.summary}</p>}
              {h.text && (
                <details>
                  <summary>
                    Text{h.text_truncated ? ` (first ${formatNumber(h.text.length)} of ${formatNumber(h.full_text_size ?? 0)} characters)` : ''}
                  </summary>
                  <div className="doc-body small">{h.text}</div>
                </details>
              )}
              <p className="hit-foot small">
                <ScoreExplanation score={h.score} parts={h.score_parts as ScoreParts | null | undefined} />
                <span>
                  licence:{' '}
                  {lic?.license_name ? (
                    lic.license_url ? (
                      <a href={lic.license_url} target="_blank" rel="noreferrer">
                        {lic.license_name}
                      </a>
                    ) : (
                      lic.license_name
                    )
                  ) : (
                    'not stated'
                  )}
                </span>
              </p>
            </li>
          );
        })}
      </ol>
    </>
  );
}

/** The numbers behind a hit's score, as the API explains them (`explain: true`). */
interface ScoreParts {
  keyword_normalized: number;
  semantic_normalized: number;
  keyword: number;
  semantic: number;
  alpha: number;
  fused: number;
  cited_provision: boolean;
  section_context: { weight: number } | null;
  semantic_feedback?: { weight: number; documents: string[] } | null;
  keyword_coverage?: { concepts: number; complete: boolean; factor: number } | null;
  citation_authority?: { cited_by: number; boost: number } | null;
}

function ScoreExplanation({ score, parts }: { score: number; parts: ScoreParts | null | undefined }) {
  if (!parts) return <span title="Fused relevance score of the keyword and semantic rankings">score {score.toFixed(4)}</span>;
  const f = (n: number) => n.toFixed(3);
  const authority = parts.citation_authority;
  return (
    <span title="score = alpha × semantic + (1 − alpha) × keyword (each leg normalised to 0–1) + citation authority">
      score {f(parts.fused)} = {parts.alpha} × semantic {f(parts.semantic)} + {Number((1 - parts.alpha).toFixed(2))} × keyword {f(parts.keyword)}
      {authority && authority.boost > 0 && ` + authority ${f(authority.boost)} (cited by ${authority.cited_by} ${authority.cited_by === 1 ? 'decision or guidance document' : 'decisions and guidance documents'})`}
      {parts.cited_provision && ' · cited provision'}
      {parts.section_context && ' · section context'}
      {parts.semantic_feedback && ' · semantic leg guided by the best keyword hits'}
      {parts.keyword_coverage && !parts.keyword_coverage.complete && ` · keyword × ${f(parts.keyword_coverage.factor)}: the passage misses a word of the question`}
    </span>
  );
}
