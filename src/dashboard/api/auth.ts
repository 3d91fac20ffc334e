/**
 * The /auth endpoints: the only REST calls of the dashboard (signing in and out, registration,
 * legal acceptance, password reset, e-mail verification). Everything else goes through GraphQL.
 */
import { errorFromResponse } from './errors';
import { postJson } from './http';

export interface SignedInUser {
  id: string;
  email: string;
  name: string | null;
  plan: string;
  is_admin: boolean;
  email_verified: boolean;
  created_at: string;
}

export interface LegalAcceptanceRequired {
  legal_acceptance_required: true;
  legal_acceptance_token: string;
  terms_version: string;
}

export type SignInAnswer = SignedInUser | LegalAcceptanceRequired;

export function needsLegalAcceptance(answer: SignInAnswer): answer is LegalAcceptanceRequired {
  return 'legal_acceptance_required' in answer && answer.legal_acceptance_required === true;
}

// A 401 here is an answer (a wrong password, an expired link), not the end of a session: it is
// not reported to client.ts's signed-out listeners.
async function post<T>(path: string, body?: unknown): Promise<T> {
  const res = await postJson(path, body);
  if (!res.ok) throw await errorFromResponse(res);
  return (await res.json()) as T;
}

export const auth = {
  login: (email: string, password: string) => post<SignInAnswer>('/auth/login', { email, password }),
  devLogin: (email: string, name?: string) => post<SignInAnswer>('/auth/dev-login', { email, name: name || null }),
  register: (body: { email: string; password: string; name?: string | null; accept_terms: boolean; acknowledge_privacy: boolean; invite_token?: string }) =>
    post<SignedInUser>('/auth/register', body),
  logout: () => post<{ detail: string }>('/auth/logout'),
  /** `token` undefined: the token is in the HttpOnly cookie an identity-provider sign-in set. */
  acceptLegal: (token: string | undefined, accept_terms: boolean, acknowledge_privacy: boolean) =>
    post<SignInAnswer>('/auth/legal-acceptance', { ...(token ? { legal_acceptance_token: token } : {}), accept_terms, acknowledge_privacy }),
  requestPasswordReset: (email: string) => post<{ detail: string }>('/auth/password-reset/request', { email }),
  /** `revoke_api_keys`: also end the API keys made after the address was proven (a reset keeps them otherwise). */
  confirmPasswordReset: (token: string, password: string, revoke_api_keys = false) =>
    post<{ detail: string }>('/auth/password-reset/confirm', { token, password, revoke_api_keys }),
  requestEmailVerification: () => post<{ detail: string }>('/auth/verify-email/request'),
  confirmEmailVerification: (token: string) => post<{ detail: string }>('/auth/verify-email/confirm', { token }),
  /** A pending team invite's token verifies the signed-in account's address when it is the invited one (a fresh session). */
  verifyWithInvite: (token: string) => post<{ detail: string }>('/auth/verify-email/invite', { token }),
};
