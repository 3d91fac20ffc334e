import type { PageArea } from '../../app/types';

export const area: PageArea = {
  routes: [{ path: 'connect', title: 'Connect an AI agent', load: () => import('./ConnectPage') }],
  nav: [{ to: '/connect', label: 'Connect an agent', order: 30 }],
};
