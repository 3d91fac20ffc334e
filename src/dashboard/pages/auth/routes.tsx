import type { PageArea } from '../../app/types';

/** Signing in and out, registration, legal acceptance, password reset, e-mail verification. */
export const area: PageArea = {
  routes: [
    { path: 'sign-in', title: 'Sign in', access: 'public', bare: true, load: () => import('./SignInPage') },
  ],
};
