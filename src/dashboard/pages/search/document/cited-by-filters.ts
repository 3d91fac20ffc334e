/** The cited-by list's filters as the form holds them, their check, and the query variables they make. */
import type { CitedBySort, DocumentCitedByQueryVariables, Namespace } from '../../../gql/graphql';

export interface CitedByFilters {
  namespace: '' | Namespace;
  country: string;
  courtTier: '' | '1' | '2' | '3';
  dateStart: string;
  dateEnd: string;
  sort: CitedBySort;
}

export const NO_FILTERS: CitedByFilters = { namespace: '', country: '', courtTier: '', dateStart: '', dateEnd: '', sort: 'date' };

/** Items per page of the list. */
export const PAGE_SIZE = 10;

/** Per field, what is wrong with the form (empty: nothing); checked before anything is sent. */
export function filterErrors(f: CitedByFilters): Partial<Record<keyof CitedByFilters, string>> {
  if (f.dateStart && f.dateEnd && f.dateStart > f.dateEnd) return { dateEnd: 'The end date is before the start date.' };
  return {};
}

/** Whether any filter narrows the list (the sort does not). */
export function narrows(f: CitedByFilters): boolean {
  return Boolean(f.namespace || f.country || f.courtTier || f.dateStart || f.dateEnd);
}

/** The query's variables for these filters; `after` for a next page, the timeline with the first page only. */
export function citedByVariables(source: string, sourceId: string, f: CitedByFilters, after: string | null): DocumentCitedByQueryVariables {
  return {
    source,
    sourceId,
    namespace: f.namespace || null,
    country: f.country || null,
    courtTier: f.courtTier ? Number(f.courtTier) : null,
    dateStart: f.dateStart || null,
    dateEnd: f.dateEnd || null,
    sort: f.sort,
    first: PAGE_SIZE,
    after,
    withYears: after === null,
  };
}
