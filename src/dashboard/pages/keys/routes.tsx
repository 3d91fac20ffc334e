import type { PageArea } from '../../app/types';

export const area: PageArea = {
  routes: [{ path: 'keys', title: 'API keys', load: () => import('./KeysPage') }],
  nav: [{ to: '/keys', label: 'API keys', order: 10 }],
};
