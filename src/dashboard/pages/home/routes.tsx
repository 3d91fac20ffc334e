import type { PageArea } from '../../app/types';

export const area: PageArea = {
  routes: [{ path: '', title: 'Home', load: () => import('./HomePage') }],
  nav: [{ to: '/', label: 'Home', order: 0 }],
};
