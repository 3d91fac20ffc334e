import type { PageArea } from '../../app/types';

export const area: PageArea = {
  routes: [
    { path: 'team', title: 'Team', load: () => import('./TeamPage') },
    // invite mails and the join link point here (BASE_URL/dashboard/team/join?token=…); public, so a
    // signed-out visitor sees the team and the invited address, then signs up or in and comes back
    { path: 'team/join', title: 'Join a team', access: 'public', load: () => import('./JoinPage') },
  ],
  nav: [{ to: '/team', label: 'Team', order: 50 }],
};
