import type { PageArea } from '../../app/types';

export const area: PageArea = {
  routes: [{ path: 'usage', title: 'Usage', load: () => import('./UsagePage') }],
  nav: [{ to: '/usage', label: 'Usage', order: 20 }],
};
