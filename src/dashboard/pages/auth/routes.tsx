import type { PageArea } from '../../app/types';

/** Signing in and out, registration, legal acceptance, password reset, e-mail verification. */
export const area: PageArea = {
  routes: [
    { path: 'sign-in', title: 'Sign in', access: 'public', bare: true, load: () => import('./SignInPage') },
    { path: 'register', title: 'Create an account', access: 'public', bare: true, load: () => import('./RegisterPage') },
    { path: 'legal-acceptance', title: 'Accept the terms', access: 'public', bare: true, load: () => import('./LegalAcceptancePage') },
    { path: 'forgot-password', title: 'Reset your password', access: 'public', bare: true, load: () => import('./ForgotPasswordPage') },
    { path: 'reset-password', title: 'Choose a new password', access: 'public', bare: true, load: () => import('./ResetPasswordPage') },
    { path: 'verify-email', title: 'Verify your e-mail', access: 'public', bare: true, load: () => import('./VerifyEmailPage') },
  ],
};
