/**
 * GET /auth/{github,google,microsoft} (redirect to the provider with state and PKCE, kept in a
 * short-lived signed HttpOnly cookie) and GET /auth/{provider}/callback (sign in, set the session
 * cookie, redirect to the dashboard; or to the legal-acceptance page, the token in an HttpOnly cookie).
 * A sign-in started from the OAuth consent page returns there instead (see src/http/identity-provider-sign-in.ts).
 */
import express, { type Request } from 'express';
import { IDENTITY_PROVIDERS } from '../config.js';
import { readCookie } from '../util/cookies.js';
import type { IdentityProviderService } from '../modules/accounts/identity-providers.js';
import { z } from 'zod';
import { parseInput } from '../validation.js';
import { withLoc } from './errors.js';
import { contextOf } from '../http/request-context.js';
import { PROVIDER_STATE_COOKIE, providerCallbackPath, startProviderSignIn } from '../http/identity-provider-sign-in.js';
import { setLegalAcceptanceCookie, setSessionCookie } from '../http/session-cookies.js';
import type { OperationDoc, RestApi } from './rest-api.js';

/**
 * The spec's query of the callback: `code` and `state` are required (422 otherwise), except on the
 * provider's error redirect (`?error=access_denied&state=…`), which the service reports itself.
 */
export const callbackQuerySchema = z.object({ code: z.string().min(1), state: z.string().min(1) });

function cookie(req: Request, name: string): string | undefined {
  return readCookie(req.header('cookie'), name) ?? undefined;
}

/** The sign-in and callback routes of every identity provider, documented in /openapi.json. */
export function identityProviderRouter(options: { identityProviders: IdentityProviderService; baseUrl: string }, rest: RestApi): express.Router {
  const { identityProviders, baseUrl } = options;
  const router = express.Router();
  const tags = ['auth'];

  for (const name of IDENTITY_PROVIDERS) {
    rest.route(router, `/auth/${name}`, {
      get: [
        { name: `${name}_login`, summary: `${name} Login`, tags, access: 'open', responses: { 302: { description: 'Redirect to the provider' }, 404: 'Sign-in with this provider is not configured' } },
        async (req, res) => {
          await startProviderSignIn(req, res, { identityProviders, name, baseUrl });
        },
      ],
    });

    const callback: OperationDoc = {
      name: `${name}_callback`,
      summary: `${name} Callback`,
      tags,
      access: 'open',
      query: callbackQuerySchema,
      responses: { 302: { description: 'Signed in: redirect to the dashboard (or the legal-acceptance page)' }, 400: 'Invalid state or code', 404: 'Sign-in with this provider is not configured' },
    };
    rest.route(router, `/auth/${name}/callback`, {
      get: [callback, async (req, res) => {
        if (req.query.error === undefined) await withLoc('query', () => parseInput(callbackQuerySchema, req.query));
        const url = `${baseUrl}${req.originalUrl}`;
        const { signIn: result, returnTo } = await identityProviders.callback(contextOf(req), name, url, cookie(req, PROVIDER_STATE_COOKIE));
        res.clearCookie(PROVIDER_STATE_COOKIE, { path: providerCallbackPath(name) });
        if (result.kind === 'session') {
          setSessionCookie(res, result.session, baseUrl);
          res.redirect(302, returnTo ?? `${baseUrl}/`);
        } else if (returnTo) {
          // the consent page asks for the terms itself: the token goes to it, in a cookie of its path
          setLegalAcceptanceCookie(res, result.legal_acceptance_token, baseUrl, new URL(returnTo).pathname);
          res.redirect(302, returnTo);
        } else {
          // the token goes in a short-lived HttpOnly cookie, never in the URL
          setLegalAcceptanceCookie(res, result.legal_acceptance_token, baseUrl);
          res.redirect(302, `${baseUrl}/legal-acceptance`);
        }
      }],
    });
  }
  return router;
}
