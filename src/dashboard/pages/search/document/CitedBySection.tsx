/**
 * "Cited by (N)": the timeline of citing documents per year, the filters and sort, and the list a
 * page at a time ("Load more" follows the cursor). Each item links to the citing document and
 * shows its passage with the citation highlighted, and the pinpoint.
 */
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { useMutation, useQuery } from '../../../app/hooks';
import { formatDate } from '../../../components/format';
import { Empty, ErrorState, FormError, Loading } from '../../../components/states';
import { DocumentCitedByDocument, type DocumentCitedByQuery } from '../../../gql/graphql';
import { documentPath } from '../links';
import { NAMESPACES, TIERS } from '../search-form';
import { type CitedByFilters, citedByVariables, narrows, NO_FILTERS } from './cited-by-filters';
import { CitedByFilterForm } from './CitedByFilterForm';
import { CitedByTimeline } from './CitedByTimeline';

type Item = NonNullable<DocumentCitedByQuery['document']>['citedBy']['items'][number];

function CitedByItem({ item }: { item: Item }) {
  const d = item.document;
  const { start, end } = item.highlight;
  const facts = [d.court, d.court_tier ? TIERS[String(d.court_tier)] : null, d.date ? formatDate(d.date) : null, d.country, NAMESPACES[d.namespace] ?? d.namespace];
  return (
    <li className="cited-by-item">
      <Link to={documentPath(d.source, d.source_id)} className="cited-by-title">
        {d.title}
      </Link>
      <p className="hit-meta small">{facts.filter(Boolean).join(' · ')}</p>
      <p className="snippet">
        {item.snippet.slice(0, start)}
        <mark>{item.snippet.slice(start, end)}</mark>
        {item.snippet.slice(end)}
      </p>
      <p className="small muted">
        Cites it as “{item.citation}”{item.pinpoint && <> · pinpoint <strong>{item.pinpoint}</strong></>}
        {item.occurrences > 1 && <> · {item.occurrences} times in the text</>}
      </p>
    </li>
  );
}

type CitedByPage = NonNullable<DocumentCitedByQuery['document']>['citedBy'];
type CitedByYears = NonNullable<NonNullable<DocumentCitedByQuery['document']>['citedByPerYear']>;

/**
 * `initial`: the first page and timeline without filters, read with the document (DocumentView,
 * one billed read for the page); the list asks again only for other filters or a next page.
 */
export function CitedBySection({ source, sourceId, count, initial, countries }: { source: string; sourceId: string; count: number; initial: { page: CitedByPage; years: CitedByYears }; countries: readonly string[] }) {
  const [filters, setFilters] = useState<CitedByFilters>(NO_FILTERS);
  // pages after the first, for the current filters
  const [more, setMore] = useState<{ items: Item[]; cursor: string | null } | null>(null);
  // the list the page read with the document: no filter, the default sort
  const unfiltered = !narrows(filters) && filters.sort === NO_FILTERS.sort;
  const filtered = useQuery(DocumentCitedByDocument, citedByVariables(source, sourceId, filters, null), { skip: count === 0 || unfiltered });
  const first = unfiltered ? { data: { document: { citedBy: initial.page, citedByPerYear: initial.years } }, error: null, loading: false, reload: filtered.reload } : filtered;
  const next = useMutation(DocumentCitedByDocument);
  // a page asked for before the filters changed is dropped when it arrives
  const asked = useRef(filters);
  asked.current = filters;
  const page = first.data?.document?.citedBy;
  const items = [...(page?.items ?? []), ...(more?.items ?? [])];
  const cursor = more ? more.cursor : (page?.next_cursor ?? null);

  async function loadMore() {
    if (!cursor) return;
    const answer = await next.run(citedByVariables(source, sourceId, filters, cursor));
    const got = answer?.document?.citedBy;
    if (got && asked.current === filters) setMore((m) => ({ items: [...(m?.items ?? []), ...got.items], cursor: got.next_cursor }));
  }

  function apply(f: CitedByFilters) {
    setMore(null);
    next.reset();
    setFilters(f);
  }

  return (
    <section className="card" aria-labelledby="cited-by-title">
      <h2 id="cited-by-title">Cited by ({count})</h2>
      {count === 0 ? (
        <p className="muted">No document of the corpus cites this one.</p>
      ) : (
        <>
          {first.data?.document?.citedByPerYear && <CitedByTimeline years={first.data.document.citedByPerYear} filtered={narrows(filters)} />}
          <CitedByFilterForm countries={countries} applied={filters} onApply={apply} />
          {first.error ? (
            <ErrorState error={first.error} onRetry={first.reload} />
          ) : !page || first.loading ? (
            <Loading label="Loading the citing documents…" />
          ) : page.total === 0 ? (
            <Empty title="No citing document matches these filters." />
          ) : (
            <>
              <p className="small muted" aria-live="polite" data-testid="cited-by-shown">
                Showing {items.length} of {page.total}
                {narrows(filters) ? ` matching the filters (${page.cited_by_count} in all)` : ''}
              </p>
              <ol className="plain-list cited-by-list" data-testid="cited-by-list">
                {items.map((item) => (
                  <CitedByItem key={item.document.id} item={item} />
                ))}
              </ol>
              <FormError error={next.error} />
              {cursor && (
                <button type="button" className="secondary" onClick={loadMore} disabled={next.pending}>
                  {next.pending ? 'Loading…' : 'Load more'}
                </button>
              )}
            </>
          )}
        </>
      )}
    </section>
  );
}
