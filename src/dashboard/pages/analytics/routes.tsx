import type { PageArea } from '../../app/types';

// partners and administrators: the link only for them; anyone else who opens the page is told why
export const area: PageArea = {
  routes: [{ path: 'analytics', title: 'Analytics', access: 'analytics', load: () => import('./AnalyticsPage') }],
  nav: [{ to: '/analytics', label: 'Analytics', order: 85, access: 'analytics' }],
};
