import type { PageArea } from '../../app/types';

export const area: PageArea = {
  routes: [
    { path: 'search', title: 'Search', load: () => import('./SearchPage') },
    { path: 'documents', title: 'Document', load: () => import('./DocumentPage') },
    { path: 'resolve', title: 'Resolve a citation', load: () => import('./ResolvePage') },
  ],
  nav: [
    { to: '/search', label: 'Search', order: 5 },
    { to: '/resolve', label: 'Resolve', order: 6 },
  ],
};
