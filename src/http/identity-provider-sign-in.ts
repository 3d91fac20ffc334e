/**
 * The first leg of an identity-provider sign-in (GitHub, Google, Microsoft): a redirect to the
 * provider, its state and PKCE verifier kept in a short-lived signed HttpOnly cookie for the
 * callback. Both the REST sign-in routes (GET /auth/{provider}) and the OAuth consent page
 * ("sign in with …", which comes back to the consent page) start one, so it lives here.
 */
import type { Request, Response } from 'express';
import type { IdentityProviderName } from '../config.js';
import { OAUTH_STATE_TTL_SECONDS, type IdentityProviderService } from '../modules/accounts/identity-providers.js';
import { contextOf } from './request-context.js';

/** The cookie that carries the signed sign-in state to the provider's callback. */
export const PROVIDER_STATE_COOKIE = 'oauth_state';

/** The callback path of provider `name`: the only path the state cookie is sent to. */
export function providerCallbackPath(name: IdentityProviderName): string {
  return `/auth/${name}/callback`;
}

/**
 * Redirects the browser to the provider, the state in a signed HttpOnly cookie for the callback;
 * `returnTo` (an OAuth consent page) is where the callback sends it back.
 */
export async function startProviderSignIn(
  req: Request,
  res: Response,
  options: { identityProviders: IdentityProviderService; name: IdentityProviderName; baseUrl: string; returnTo?: string },
): Promise<void> {
  const { name } = options;
  const start = await options.identityProviders.start(contextOf(req), name, { returnTo: options.returnTo });
  res.cookie(PROVIDER_STATE_COOKIE, start.stateCookie, {
    httpOnly: true,
    sameSite: 'lax',
    secure: options.baseUrl.startsWith('https://'),
    maxAge: OAUTH_STATE_TTL_SECONDS * 1000,
    path: providerCallbackPath(name),
  });
  res.redirect(302, start.url);
}
