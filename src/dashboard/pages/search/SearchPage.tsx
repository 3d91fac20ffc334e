/**
 * Search: the query with the filters discovery offers (collection, countries, sources, dates,
 * court, language, court tier), the alpha slider (keyword ↔ semantic) explained, result detail,
 * and hits with snippet, score and source licence, each opening the document view. The search
 * lives in the address (?q=…&country=DE…): back, reload and shared links show the same results.
 * Searches from here count as the account's usage like any API call.
 */
import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { type QueryResult, useQuery } from '../../app/hooks';
import { Field, Page } from '../../components/Page';
import { Empty, ErrorState, Loading, QueryState } from '../../components/states';
import { SearchDiscoveryDocument, SearchDocument, type ResultDetail, type SearchInput, type SearchQuery } from '../../gql/graphql';
import { CopyRequest } from './CopyRequest';
import { IndexBanner } from './IndexBanner';
import { ResolveBox } from './ResolveBox';
import { DETAILS, type Discovery, type FormState, dateRangeError, formFromParams, paramsFromForm, inputFromForm, searchRuns, SEARCH_LEAD } from './search-form';
import { AlphaSlider, Filters } from './SearchFilters';
import { Hits, Pager } from './SearchHits';

export default function SearchPage() {
  const [params, setParams] = useSearchParams();
  const discovery = useQuery(SearchDiscoveryDocument);
  const submitted = useMemo(() => formFromParams(params), [params]);
  const [form, setForm] = useState<FormState>(submitted);
  useEffect(() => setForm(submitted), [submitted]);
  const hasQuery = submitted.q.trim().length > 0;
  const input = useMemo(() => inputFromForm(submitted), [submitted]);
  // a shared link can carry an inverted range: said at the field, never sent
  const badDates = dateRangeError(submitted) !== null;
  const results = useQuery(SearchDocument, { input }, { skip: !searchRuns(submitted) });

  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setForm((f) => ({ ...f, [key]: value }));
  const activeFilters =
    submitted.countries.length + submitted.sources.length + [submitted.dateStart, submitted.dateEnd, submitted.court, submitted.language, submitted.courtTier].filter(Boolean).length;
  // open beside the results on wide screens; folded on phones (results first) unless the search has no query yet
  const [filtersOpen, setFiltersOpen] = useState(() => window.matchMedia('(min-width: 1000px)').matches || !hasQuery || badDates);

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!form.q.trim() || dateRangeError(form)) return;
    // a changed search starts at its first page
    const next = paramsFromForm({ ...form, page: 1 });
    if (next.toString() === params.toString()) results.reload();
    else setParams(next);
  }

  const goToPage = (page: number) => {
    setParams(paramsFromForm({ ...submitted, page }));
    document.getElementById('results-title')?.focus();
  };

  return (
    <Page title="Search" lead={SEARCH_LEAD}>
      <IndexBanner />
      <div className="search-layout">
        <form onSubmit={submit} className="card search-form" role="search" aria-label="Search the corpus">
          <div className="query-row">
            <Field id="q" label="Query">
              <input id="q" type="search" value={form.q} onChange={(e) => set('q', e.target.value)} placeholder="e.g. Schadensersatz bei Verletzung des Eigentums" maxLength={1000} />
            </Field>
            <button type="submit" disabled={!form.q.trim()}>
              {results.loading && hasQuery ? 'Searching…' : 'Search'}
            </button>
          </div>
          {discovery.error && !discovery.data ? <ErrorState error={discovery.error} onRetry={discovery.reload} /> : null}
          <details className="filters-panel" open={filtersOpen} onToggle={(e) => setFiltersOpen((e.target as HTMLDetailsElement).open)}>
            <summary>
              Filters and ranking{activeFilters > 0 ? ` (${activeFilters} set)` : ''}
            </summary>
            <Filters discovery={discovery.data} form={form} set={set} />
            <AlphaSlider alpha={form.alpha} onChange={(a) => set('alpha', a)} hybrid={discovery.data?.manifest.search.hybrid ?? true} />
            <ResultOptions form={form} set={set} />
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

        <SearchResults results={results} hasQuery={hasQuery && !badDates} submitted={submitted} input={input} discovery={discovery.data} onPage={goToPage} />
      </div>
      <ResolveBox countries={discovery.data?.countries.map((c) => c.code) ?? []} />
    </Page>
  );
}

/** The results of the submitted search: hits of the page, the pager, the request to copy; the previous hits dimmed and marked busy while a new search runs. */
function SearchResults({ results, hasQuery, submitted, input, discovery, onPage }: {
  results: QueryResult<SearchQuery>;
  hasQuery: boolean;
  submitted: FormState;
  input: SearchInput;
  discovery: Discovery | undefined;
  onPage(page: number): void;
}) {
  const stale = results.loading && results.data !== undefined;
  // the page the hits on screen were asked for, taken when their answer arrived: while page 2
  // loads, page 1's answer is still shown as page 1
  const answered = useRef<{ data: unknown; page: number; perPage: number }>({ data: undefined, page: submitted.page, perPage: submitted.topK });
  if (results.data !== answered.current.data) answered.current = { data: results.data, page: submitted.page, perPage: submitted.topK };
  const { page, perPage } = answered.current;
  return (
        <section className={`search-results${stale ? ' stale' : ''}`} aria-labelledby="results-title" aria-busy={results.loading}>
          <h2 id="results-title" tabIndex={-1}>
            Results
          </h2>
          {stale && <Loading label="Searching… the results below are from the previous search." />}
          {!hasQuery ? (
            <Empty title="Search the corpus">
              <p>Type a question or words in any language. Filters narrow the collection; the slider chooses between exact words and meaning.</p>
            </Empty>
          ) : results.loading && !results.data ? (
            <Loading label="Searching…" />
          ) : (
            <QueryState result={results}>
              {(data) => (
                <>
                  <Hits data={data} discovery={discovery} page={page} perPage={perPage} stale={stale} />
                  <Pager total={data.search.total_hits} returned={data.search.hits.length} page={page} perPage={perPage} busy={results.loading} onPage={onPage} />
                  {!stale && <CopyRequest input={input} />}
                </>
              )}
            </QueryState>
          )}
        </section>
  );
}

/** How much of each hit to show, and how many hits. */
function ResultOptions({ form, set }: { form: FormState; set: <K extends keyof FormState>(k: K, v: FormState[K]) => void }) {
  return (
    <div className="result-options">
      <Field id="detail" label="Result detail">
        <select id="detail" value={form.detail} onChange={(e) => set('detail', e.target.value as ResultDetail)}>
          {Object.entries(DETAILS).map(([v, l]) => (
            <option key={v} value={v}>
              {l}
            </option>
          ))}
        </select>
      </Field>
      <Field id="top-k" label="Results per page">
        <select id="top-k" value={form.topK} onChange={(e) => set('topK', Number(e.target.value))}>
          {[5, 10, 20, 50, 100].map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </Field>
    </div>
  );
}
