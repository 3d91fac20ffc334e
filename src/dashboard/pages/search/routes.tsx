import { requestEarly } from '../../api/early-requests';
import type { PageArea } from '../../app/types';
import { SearchDiscoveryDocument, SearchDocument } from '../../gql/graphql';
import { formFromParams, inputFromForm, searchRuns, SEARCH_LEAD } from './search-form';

export const area: PageArea = {
  routes: [
    {
      path: 'search',
      title: 'Search',
      lead: SEARCH_LEAD,
      load: () => import('./SearchPage'),
      // what SearchPage asks for first: the filters' catalogue and, when the address holds a search, its hits
      prefetch: (params) => {
        requestEarly(SearchDiscoveryDocument);
        const form = formFromParams(params);
        if (searchRuns(form)) requestEarly(SearchDocument, { input: inputFromForm(form) });
      },
    },
    { path: 'documents', title: 'Document', load: () => import('./DocumentPage') },
    { path: 'resolve', title: 'Resolve a citation', load: () => import('./ResolvePage') },
  ],
  nav: [
    { to: '/search', label: 'Search', order: 5 },
    { to: '/resolve', label: 'Resolve', order: 6 },
  ],
};
