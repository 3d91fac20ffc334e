import type { PageArea } from '../../app/types';

export const area: PageArea = {
  routes: [{ path: '', title: 'Overview', load: () => import('./HomePage') }],
  nav: [{ to: '/', label: 'Overview', order: 0 }],
};
