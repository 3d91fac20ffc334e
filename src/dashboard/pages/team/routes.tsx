import type { PageArea } from '../../app/types';

export const area: PageArea = {
  routes: [
    { path: 'team', title: 'Team', load: () => import('./TeamPage') },
    // invite mails and the join link point here (BASE_URL/dashboard/team/join?token=…); signed-out visitors sign in first
    { path: 'team/join', title: 'Join a team', load: () => import('./JoinPage') },
  ],
  nav: [{ to: '/team', label: 'Team', order: 50 }],
};
