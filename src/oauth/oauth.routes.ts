/**
 * The authorization server's HTTP door: oidc-provider under /oauth, the RFC 8414 metadata, and
 * the consent step (its page, approve, deny, identity-provider sign-in, and
 * POST /auth/password-authorize). Each handler calls one ConsentService method.
 *
 * CSRF. Every POST of the consent step (password-authorize, approve, deny) must come from a page
 * of this origin: a cross-site `Origin` or `Sec-Fetch-Site: cross-site` is refused (403). Beyond
 * that, approve and deny act on the interaction named by oidc-provider's `oauth_interaction`
 * cookie (HttpOnly, SameSite=Lax, path of that interaction, signed), which only the browser that
 * started the authorization holds; password-authorize takes an `mcp_flow` that is HMAC-signed and
 * bound to the `oauth_browser` cookie (HttpOnly, SameSite=Lax, sent only to that endpoint) of the
 * browser that loaded the page. Cross-site POSTs carry neither cookie. The page also forbids
 * framing (clickjacking).
 */
import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import { errors, type Interaction } from 'oidc-provider';
import type Provider from 'oidc-provider';
import { IDENTITY_PROVIDERS, type IdentityProviderName } from '../config.js';
import { DomainError, httpStatusOf } from '../errors.js';
import { readCookie } from '../util/cookies.js';
import type { IdentityProviderService } from '../modules/accounts/identity-providers.js';
import { LEGAL_ACCEPTANCE_COOKIE } from '../http/session-cookies.js';
import { jsonBody, methodNotAllowed, withLoc } from '../rest/errors.js';
import { startProviderSignIn } from '../http/identity-provider-sign-in.js';
import { contextOf } from '../http/request-context.js';
import type { CounterStore } from '../modules/usage/counter-store.js';
import { REGISTER_CLIENT_LIMIT, throttleOperation } from '../modules/usage/throttle.js';
import { INTERACTION_PATH, OAUTH_PATH, OAUTH_ROUTES, PASSWORD_AUTHORIZE_PATH } from './authorization-server.js';
import { authorizationServerMetadataRouter } from './authorization-server-metadata.js';
import { renderConsentPage, renderErrorPage } from './consent-page.js';
import type { ConsentService } from './consent.service.js';
import { acceptPublicClientCredentials } from './public-clients.js';
import { protectedResources } from './protected-resource.js';
import type { RestApi } from '../rest/rest-api.js';
import { passwordAuthorizedSchema, passwordAuthorizeSchema, passwordAuthorizeTermsRequiredSchema } from './consent.schema.js';
import { BROWSER_COOKIE, newBrowserBinding } from './mcp-flow.js';
import { isCrossSite } from '../http/cross-site.js';

/** How long the browser-binding cookie lives (longer than an interaction: 10 minutes). */
const BROWSER_COOKIE_MAX_AGE_MS = 3600_000;

export interface OAuthRoutesOptions {
  provider: Provider;
  consent: ConsentService;
  identityProviders: IdentityProviderService;
  /** The usage counters (registrations are throttled per IP on them). */
  counters: CounterStore;
  baseUrl: string;
}

// size: a route table: one registration per endpoint, in the order /openapi.json lists them, each handler a few lines that build the request context and call one service method; split by endpoint, the table would be scattered over files without making any handler shorter
/** The router of the authorization server: metadata, consent step, registration throttle, oidc-provider. */
export function oauthRouter(options: OAuthRoutesOptions, rest: RestApi): Router {
  const { provider, consent, identityProviders, counters, baseUrl } = options;
  const router = Router();
  const secure = baseUrl.startsWith('https://');
  const sameOrigin = sameOriginOnly(baseUrl);
  const form = express.urlencoded({ extended: false, limit: '64kb' });

  router.use(authorizationServerMetadataRouter(baseUrl));

  /** The pending interaction of this browser (oidc-provider's interaction cookie) for `:uid`. */
  const interactionOf = async (req: Request, res: Response): Promise<Interaction> => {
    let details: Interaction | undefined;
    try {
      details = (await provider.interactionDetails(req, res)) as Interaction;
    } catch (error) {
      // no interaction cookie, or its interaction expired; anything else is a real failure
      if (!(error instanceof errors.SessionNotFound)) throw error;
    }
    if (!details || details.uid !== req.params.uid) {
      throw new DomainError('bad_request', 'This authorization request expired or was started in another browser: start again from your application');
    }
    return details;
  };

  /** The browser-binding cookie, set when the browser has none yet. */
  const browserBinding = (req: Request, res: Response): string => {
    const existing = readCookie(req.header('cookie'), BROWSER_COOKIE);
    if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
    const value = newBrowserBinding();
    res.cookie(BROWSER_COOKIE, value, { httpOnly: true, sameSite: 'lax', secure, path: PASSWORD_AUTHORIZE_PATH, maxAge: BROWSER_COOKIE_MAX_AGE_MS });
    return value;
  };

  /** The legal-acceptance token an identity-provider sign-in left for this consent page, if any. */
  const legalToken = (req: Request) => readCookie(req.header('cookie'), LEGAL_ACCEPTANCE_COOKIE);

  const sendPage = (res: Response, status: number, html: string) => {
    res.status(status);
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'");
    res.type('html').send(html);
  };

  /** A DomainError of the consent step as a page (the steps a browser takes without JavaScript). */
  const sendErrorPage = (res: Response, error: unknown) => {
    if (!(error instanceof DomainError)) throw error;
    sendPage(res, httpStatusOf(error), renderErrorPage({ title: 'Authorization failed', message: error.message }));
  };

  router
    .route(`${INTERACTION_PATH}/:uid`)
    .get(async (req, res) => {
      try {
        const interaction = await interactionOf(req, res);
        const view = await consent.view(contextOf(req), interaction, { browser: browserBinding(req, res), legalPending: Boolean(legalToken(req)) });
        sendPage(res, 200, renderConsentPage(view));
      } catch (error) {
        sendErrorPage(res, error);
      }
    })
    .all(methodNotAllowed(['GET', 'HEAD']));

  router
    .route(`${INTERACTION_PATH}/:uid/approve`)
    .post(sameOrigin, form, async (req, res) => {
      try {
        const interaction = await interactionOf(req, res);
        const token = legalToken(req);
        const returnTo = await withLoc('body', () => consent.approve(contextOf(req), interaction, req.body, token));
        if (token) res.clearCookie(LEGAL_ACCEPTANCE_COOKIE, { httpOnly: true, sameSite: 'lax', secure, path: new URL(`${baseUrl}${INTERACTION_PATH}/${interaction.uid}`).pathname });
        res.redirect(303, returnTo);
      } catch (error) {
        sendErrorPage(res, error);
      }
    })
    .all(methodNotAllowed(['POST']));

  router
    .route(`${INTERACTION_PATH}/:uid/deny`)
    .post(sameOrigin, async (req, res) => {
      try {
        res.redirect(303, await consent.deny(await interactionOf(req, res)));
      } catch (error) {
        sendErrorPage(res, error);
      }
    })
    .all(methodNotAllowed(['POST']));

  router
    .route(`${INTERACTION_PATH}/:uid/login/:provider`)
    .get(async (req, res) => {
      try {
        const name = String(req.params.provider);
        if (!(IDENTITY_PROVIDERS as readonly string[]).includes(name)) throw new DomainError('not_found', `Unknown identity provider ${name}`);
        const interaction = await interactionOf(req, res);
        await startProviderSignIn(req, res, {
          identityProviders,
          name: name as IdentityProviderName,
          baseUrl,
          returnTo: `${baseUrl}${INTERACTION_PATH}/${interaction.uid}`,
        });
      } catch (error) {
        sendErrorPage(res, error);
      }
    })
    .all(methodNotAllowed(['GET', 'HEAD']));

  rest.route(router, PASSWORD_AUTHORIZE_PATH, {
    post: [
      {
        name: 'password_authorize',
        summary: 'Password Authorize',
        description:
          "The OAuth consent page signs in with e-mail and password and approves the pending authorization in `mcp_flow` (signed, bound to the page's browser cookie). " +
          'Accepts JSON or a form; a form posted by a browser (Accept: text/html) gets a 303 to the same URL instead.',
        tags: ['auth'],
        access: 'open',
        body: passwordAuthorizeSchema,
        responses: {
          200: passwordAuthorizedSchema,
          400: 'mcp_flow invalid, altered or expired',
          401: 'Invalid email or password',
          403: { description: 'The terms must be accepted (send accept_terms and acknowledge_privacy), or a cross-site / other-browser request', schema: passwordAuthorizeTermsRequiredSchema },
          429: 'Sign-in slowed down: too many failed attempts on this account, or from this IP (Retry-After; a password-reset link always signs the owner in)',
        },
      },
      sameOrigin,
      form,
      jsonBody(),
      async (req, res) => {
        const html = wantsHtml(req);
        const browser = readCookie(req.header('cookie'), BROWSER_COOKIE);
        try {
          const result = await withLoc('body', () => consent.passwordAuthorize(contextOf(req), req.body, browser));
          if (result.kind === 'authorized') {
            if (html) res.redirect(303, result.redirect_url);
            else res.json({ redirect_url: result.redirect_url });
            return;
          }
          const detail = `This account has not accepted the current terms of service (version ${result.terms_version}): send accept_terms=true and acknowledge_privacy=true with the sign-in to accept them and continue`;
          if (html) await renderAgain(req, res, 403, detail, { termsRequired: true });
          else res.status(403).json({ detail, legal_acceptance_required: true, terms_version: result.terms_version });
        } catch (error) {
          if (!html) throw error;
          const message = error instanceof DomainError ? error.message : 'The sign-in could not be processed';
          const retryAfter = error instanceof DomainError ? error.details?.retryAfterSeconds : undefined;
          if (retryAfter !== undefined) res.setHeader('Retry-After', String(Math.max(1, Math.ceil(retryAfter))));
          await renderAgain(req, res, httpStatusOf(error), message, {}).catch((again) => sendErrorPage(res, again instanceof DomainError ? again : error));
        }
      },
    ],
  });

  /** The consent page again, with a message (a browser form that failed: wrong password, terms). */
  async function renderAgain(req: Request, res: Response, status: number, message: string, extra: { termsRequired?: boolean }) {
    const interaction = await consent.interactionOfFlow(String((req.body as Record<string, unknown> | undefined)?.mcp_flow ?? ''));
    const view = await consent.view(contextOf(req), interaction, {
      browser: browserBinding(req, res),
      error: message,
      email: String((req.body as Record<string, unknown>).email ?? ''),
      ...extra,
    });
    sendPage(res, status, renderConsentPage(view));
  }

  // Registration is open to anyone: a budget per client IP keeps the client table from being flooded.
  router.post(`${OAUTH_PATH}${OAUTH_ROUTES.registration}`, (req, res, next) => {
    throttleOperation(counters, req.ip ?? 'unknown', REGISTER_CLIENT_LIMIT).then(
      () => next(),
      (error: unknown) => {
        if (!(error instanceof DomainError) || error.code !== 'rate_limited') return next(error);
        res.setHeader('Retry-After', String(error.details?.retryAfterSeconds ?? 60));
        res.status(429).json({ error: 'too_many_requests', error_description: error.message });
      },
    );
  });

  // oidc-provider itself, with public-client credentials normalised (and unknown resources refused) on the token and revocation endpoints
  const handler = provider.callback() as unknown as Parameters<typeof acceptPublicClientCredentials>[0];
  router.use(OAUTH_PATH, acceptPublicClientCredentials(handler, [OAUTH_ROUTES.token, OAUTH_ROUTES.revocation], protectedResources(baseUrl)));
  return router;
}

/** A form a browser submitted (answer with pages and redirects) rather than an API call (answer JSON). */
function wantsHtml(req: Request): boolean {
  const type = (req.header('content-type') ?? '').toLowerCase();
  return type.startsWith('application/x-www-form-urlencoded') && (req.header('accept') ?? '').includes('text/html');
}

/** 403 for POSTs a page of another site sent (Origin or Fetch Metadata say so); requests without either pass (not a browser). */
function sameOriginOnly(baseUrl: string): RequestHandler {
  const expected = new URL(baseUrl).origin;
  return (req, res, next) => {
    if (isCrossSite(req, expected)) {
      res.status(403).json({ detail: 'Cross-site request refused: submit the form of the authorization page' });
      return;
    }
    next();
  };
}
