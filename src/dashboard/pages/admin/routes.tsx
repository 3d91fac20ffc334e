import type { PageArea } from '../../app/types';

// administrators only: others get "not found" and never see the link (the server refuses their calls too)
export const area: PageArea = {
  routes: [
    { path: 'admin', title: 'Administration', access: 'admin', load: () => import('./StatsPage') },
    { path: 'admin/users', title: 'Users', access: 'admin', load: () => import('./UsersPage') },
    { path: 'admin/feedback', title: 'Feedback', access: 'admin', load: () => import('./FeedbackPage') },
    { path: 'admin/audit', title: 'Audit log', access: 'admin', load: () => import('./AuditPage') },
  ],
  nav: [{ to: '/admin', label: 'Administration', order: 90, access: 'admin' }],
};
