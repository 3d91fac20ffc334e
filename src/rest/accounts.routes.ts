/**
 * The accounts REST routes: /auth/* (register, sign-in, legal acceptance, password reset,
 * development sign-in, me), /v1/keys, /v1/oauth/grants and /v1/usage/me. Each handler calls one service method
 * with the request context; the session cookie is set here from the session the service issued
 * (the cookie helpers are in src/http/session-cookies.ts, which the OAuth consent page shares).
 */
import express, { type Request, type Response } from 'express';
import { z } from 'zod';
import {
  apiKeyRecordSchema,
  createdApiKeySchema,
  createKeyBodySchema,
  deleteAccountBodySchema,
  devLoginBodySchema,
  emailVerificationConfirmSchema,
  legalAcceptanceBodySchema,
  keyRevocationSchema,
  legalAcceptanceRequiredSchema,
  loginBodySchema,
  meRecordSchema,
  oauthGrantRecordSchema,
  oauthGrantRevocationSchema,
  passwordResetConfirmSchema,
  passwordResetRequestSchema,
  registerBodySchema,
  renameKeyBodySchema,
  userRecordSchema,
} from '../modules/accounts/account.schema.js';
import type { AccountsService, SignInResult } from '../modules/accounts/accounts.service.js';
import type { ApiKeyService } from '../modules/accounts/api-key.service.js';
import type { OAuthGrantService } from '../modules/accounts/oauth-grants.service.js';
import { readCookie } from '../util/cookies.js';
import { SESSION_COOKIE } from '../modules/accounts/tokens.js';
import { usageRecordSchema } from '../modules/usage/usage.schema.js';
import { usageBreakdownQuerySchema, usageBreakdownSchema } from '../modules/usage/usage-breakdown.js';
import type { UsageService } from '../modules/usage/usage.service.js';
import { jsonBody, withLoc } from './errors.js';
import { contextOf } from '../http/request-context.js';
import type { InvitesService } from '../modules/teams/invites.service.js';
import { joinRequestSchema } from '../modules/teams/teams.schema.js';
import { clearSessionCookie, LEGAL_ACCEPTANCE_COOKIE, LEGAL_ACCEPTANCE_PATH, setSessionCookie } from '../http/session-cookies.js';
import type { RestApi } from './rest-api.js';

export interface AccountsRoutesOptions {
  accounts: AccountsService;
  apiKeys: ApiKeyService;
  oauthGrants: OAuthGrantService;
  usage: UsageService;
  /** config.baseUrl: the cookie is Secure when it is https. */
  baseUrl: string;
  /** Team invites, whose token proves the invited address (POST /auth/verify-email/invite); absent in small test apps. */
  invites?: Pick<InvitesService, 'proveAddress'>;
}

/** The legal-acceptance body with the token taken from the cookie when the body has none. */
function withLegalToken(req: Request): unknown {
  const body: unknown = req.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  if ((body as Record<string, unknown>).legal_acceptance_token !== undefined) return body;
  const fromCookie = readCookie(req.header('cookie'), LEGAL_ACCEPTANCE_COOKIE);
  return fromCookie ? { ...body, legal_acceptance_token: fromCookie } : body;
}

/** A sign-in's answer: the user with a session cookie, or the legal-acceptance token without one. */
/** The query string with scalar parameters (a repeated parameter gives its last value, as FastAPI). */
function lastQueryValues(req: Request): Record<string, unknown> {
  return Object.fromEntries(Object.entries(req.query as Record<string, unknown>).map(([name, value]) => [name, Array.isArray(value) ? value.at(-1) : value]));
}

export function sendSignIn(res: Response, result: SignInResult, baseUrl: string): void {
  if (result.kind === 'session') {
    setSessionCookie(res, result.session, baseUrl);
    res.json(result.user);
    return;
  }
  res.json({ legal_acceptance_required: true, legal_acceptance_token: result.legal_acceptance_token, terms_version: result.terms_version });
}

// size: a route table: one registration per endpoint, in the order /openapi.json lists them, each handler a few lines that build the request context and call one service method; split by endpoint, the table would be scattered over files without making any handler shorter
export function accountsRouter(options: AccountsRoutesOptions, rest: RestApi): express.Router {
  const { accounts, apiKeys, oauthGrants, usage, baseUrl } = options;
  const router = express.Router();
  const ctx = (req: Request) => contextOf(req);
  const auth = ['auth'];
  const detail = z.object({ detail: z.string() });
  const signIn = { description: 'The user (with the session cookie), or a legal-acceptance token', schema: z.union([userRecordSchema, legalAcceptanceRequiredSchema]) };

  rest.route(router, '/auth/register', {
    post: [
      { name: 'register', summary: 'Register', tags: auth, access: 'open', body: registerBodySchema, responses: { 200: userRecordSchema, 409: 'E-mail already registered', 429: 'Too many registrations from this IP (Retry-After)' } },
      jsonBody(),
      async (req, res) => {
        res.json(await withLoc('body', () => accounts.register(ctx(req), req.body)));
      },
    ],
  });

  rest.route(router, '/auth/login', {
    post: [
      { name: 'login', summary: 'Login', tags: auth, access: 'open', body: loginBodySchema, responses: { 200: signIn, 401: 'Invalid email or password', 429: 'Sign-in slowed down: too many failed attempts on this account, or from this IP (Retry-After; a password-reset link always signs the owner in)' } },
      jsonBody(),
      async (req, res) => {
        sendSignIn(res, await withLoc('body', () => accounts.login(ctx(req), req.body)), baseUrl);
      },
    ],
  });

  rest.route(router, '/auth/logout', {
    post: [
      {
        name: 'logout',
        summary: 'Logout',
        description: 'Ends the session server-side (its cookie is refused afterwards) and clears the cookie.',
        tags: auth,
        access: 'open',
        responses: { 200: detail },
      },
      async (req, res) => {
        await accounts.logout(ctx(req), readCookie(req.header('cookie'), SESSION_COOKIE));
        clearSessionCookie(res, baseUrl);
        res.json({ detail: 'Signed out' });
      },
    ],
  });

  rest.route(router, '/auth/legal-acceptance', {
    post: [
      {
        name: 'legal_acceptance',
        summary: 'Legal Acceptance',
        description: 'After an identity-provider sign-in the token may come in the HttpOnly legal_acceptance cookie instead of the body.',
        tags: auth,
        access: 'open',
        body: legalAcceptanceBodySchema,
        responses: { 200: userRecordSchema, 401: 'Invalid or expired token' },
      },
      jsonBody(),
      async (req, res) => {
        const result = await withLoc('body', () => accounts.acceptLegal(ctx(req), withLegalToken(req)));
        res.clearCookie(LEGAL_ACCEPTANCE_COOKIE, { httpOnly: true, sameSite: 'lax', secure: baseUrl.startsWith('https://'), path: LEGAL_ACCEPTANCE_PATH });
        sendSignIn(res, result, baseUrl);
      },
    ],
  });

  rest.route(router, '/auth/password-reset/request', {
    post: [
      {
        name: 'password_reset_request',
        summary: 'Password Reset Request',
        description: 'Always 200 for any address: no account enumeration (past the per-address budget no mail is sent). 429 past the per-IP budget.',
        tags: auth,
        access: 'open',
        body: passwordResetRequestSchema,
        responses: { 200: detail, 429: 'Too many requests from this IP (Retry-After)' },
      },
      jsonBody(),
      async (req, res) => {
        res.json(await withLoc('body', () => accounts.requestPasswordReset(ctx(req), req.body)));
      },
    ],
  });

  rest.route(router, '/auth/password-reset/confirm', {
    post: [
      {
        name: 'password_reset_confirm',
        summary: 'Password Reset Confirm',
        description: 'Ends every session and OAuth grant, and API keys made before the address was proven (all keys with revoke_api_keys); signs this browser in.',
        tags: auth,
        access: 'open',
        body: passwordResetConfirmSchema,
        responses: { 200: detail, 400: 'Invalid or expired token' },
      },
      jsonBody(),
      async (req, res) => {
        const { detail, session } = await withLoc('body', () => accounts.confirmPasswordReset(ctx(req), req.body));
        setSessionCookie(res, session, baseUrl);
        res.json({ detail });
      },
    ],
  });

  rest.route(router, '/auth/verify-email/request', {
    post: [
      { name: 'verify_email_request', summary: 'Verify Email Request', description: 'Mails the signed-in account a one-time token valid 24 hours.', tags: auth, access: 'account', responses: { 200: detail, 503: 'The e-mail could not be sent' } },
      async (req, res) => {
        res.json(await accounts.requestEmailVerification(ctx(req)));
      },
    ],
  });

  rest.route(router, '/auth/verify-email/confirm', {
    post: [
      { name: 'verify_email_confirm', summary: 'Verify Email Confirm', description: 'Consumes the token once and marks the e-mail verified; the first proof ends every session, API key and OAuth grant made before it, and signs this browser in anew.', tags: auth, access: 'open', body: emailVerificationConfirmSchema, responses: { 200: detail, 400: 'Invalid or expired token' } },
      jsonBody(),
      async (req, res) => {
        const { detail, session } = await withLoc('body', () => accounts.confirmEmailVerification(ctx(req), req.body));
        setSessionCookie(res, session, baseUrl);
        res.json({ detail });
      },
    ],
  });

  if (options.invites) {
    const invites = options.invites;
    rest.route(router, '/auth/verify-email/invite', {
      post: [
        {
          name: 'verify_email_invite',
          limited: 'verify_email_invite',
          summary: 'Verify Email With Invite',
          description:
            "A pending team invite's token (mailed to the address) verifies the signed-in account's e-mail when it is the invited address; the invite stays pending (join with POST /v1/team/join). As with a verification link, the first proof ends every session, API key and OAuth grant made before it, and signs this browser in anew.",
          tags: auth,
          access: 'account',
          body: joinRequestSchema,
          responses: { 200: detail, 403: 'The invite was sent to another address', 404: 'Unknown, used, expired or revoked invite' },
        },
        jsonBody(),
        async (req, res) => {
          const { detail, session } = await withLoc('body', () => invites.proveAddress(ctx(req), req.body));
          setSessionCookie(res, session, baseUrl);
          res.json({ detail });
        },
      ],
    });
  }

  rest.route(router, '/auth/dev-login', {
    post: [
      { name: 'dev_login', summary: 'Dev Login', description: 'Only with DEV_LOGIN=true; 404 otherwise.', tags: auth, access: 'open', body: devLoginBodySchema, responses: { 200: signIn, 404: 'Not Found' } },
      jsonBody(),
      async (req, res) => {
        sendSignIn(res, await withLoc('body', () => accounts.devLogin(ctx(req), req.body)), baseUrl);
      },
    ],
  });

  rest.route(router, '/auth/me', {
    get: [
      { name: 'me', summary: 'Me', tags: auth, access: 'account', responses: { 200: meRecordSchema } },
      async (req, res) => {
        res.json(await accounts.me(ctx(req)));
      },
    ],
    delete: [
      { name: 'delete_me', summary: 'Delete Me', description: 'Body `{"confirmation": "DELETE"}`.', tags: auth, access: 'account', body: deleteAccountBodySchema, responses: { 200: detail } },
      jsonBody(),
      async (req, res) => {
        await withLoc('body', () => accounts.deleteMe(ctx(req), req.body));
        clearSessionCookie(res, baseUrl);
        res.json({ detail: 'Account deleted' });
      },
    ],
  });

  const keys = ['keys'];
  rest.route(router, '/v1/keys', {
    get: [
      { name: 'list_keys', summary: 'List Keys', tags: keys, access: 'account', responses: { 200: z.array(apiKeyRecordSchema) } },
      async (req, res) => {
        res.json(await apiKeys.list(ctx(req)));
      },
    ],
    post: [
      { name: 'create_key', limited: 'create_key', summary: 'Create Key', tags: keys, access: 'account', body: createKeyBodySchema, bodyRequired: false, responses: { 200: createdApiKeySchema, 409: '10 active keys already (revoked keys do not count)' } },
      jsonBody(),
      async (req, res) => {
        res.json(await withLoc('body', () => apiKeys.create(ctx(req), req.body)));
      },
    ],
  });

  rest.route(router, '/v1/keys/:key_id', {
    patch: [
      {
        name: 'rename_key',
        limited: 'rename_key',
        summary: 'Rename Key',
        description: 'Additive to the spec: gives one of your keys a new name (revoked keys too); another account\'s key is 404.',
        tags: keys,
        access: 'account',
        body: renameKeyBodySchema,
        responses: { 200: apiKeyRecordSchema, 404: 'Not Found' },
      },
      jsonBody(),
      async (req, res) => {
        res.json(await withLoc('body', () => apiKeys.rename(ctx(req), String(req.params.key_id), req.body)));
      },
    ],
    delete: [
      {
        name: 'revoke_key',
        summary: 'Revoke Key',
        tags: keys,
        access: 'account',
        responses: { 200: { description: 'Revoked (also when it already was); the key stays listed with revoked: true', schema: keyRevocationSchema }, 404: 'Not Found' },
      },
      async (req, res) => {
        res.json(await apiKeys.revoke(ctx(req), String(req.params.key_id)));
      },
    ],
  });

  const grants = ['oauth-grants'];
  rest.route(router, '/v1/oauth/grants', {
    get: [
      { name: 'list_oauth_grants', summary: 'List OAuth Grants', description: 'The OAuth clients (MCP agents) the caller authorised, one entry per client.', tags: grants, access: 'account', responses: { 200: z.array(oauthGrantRecordSchema) } },
      async (req, res) => {
        res.json(await oauthGrants.list(ctx(req)));
      },
    ],
  });

  rest.route(router, '/v1/oauth/grants/:id', {
    delete: [
      {
        name: 'revoke_oauth_grant',
        summary: 'Revoke OAuth Grant',
        description: "Ends the client's access at once: its access tokens are refused and its refresh tokens deleted.",
        tags: grants,
        access: 'account',
        params: { id: 'The client id (`id` of the listing).' },
        responses: { 200: oauthGrantRevocationSchema, 404: 'No authorisation of this client' },
      },
      async (req, res) => {
        res.json(await oauthGrants.revoke(ctx(req), String(req.params.id)));
      },
    ],
  });

  rest.route(router, '/v1/usage/me', {
    get: [
      { name: 'usage_me', limited: 'usage', summary: 'Usage Me', tags: ['usage'], access: 'account', responses: { 200: usageRecordSchema } },
      async (req, res) => {
        res.json(await usage.usageOf(ctx(req)));
      },
    ],
  });

  rest.route(router, '/v1/usage/breakdown', {
    get: [
      {
        name: 'usage_breakdown',
        limited: 'usage_breakdown',
        summary: 'Usage Breakdown',
        description: 'Additive to the spec: your billed requests per API key and endpoint over a range of UTC days (at most 366).',
        tags: ['usage'],
        access: 'account',
        query: usageBreakdownQuerySchema,
        responses: { 200: usageBreakdownSchema },
      },
      async (req, res) => {
        res.json(await withLoc('query', () => usage.breakdownOf(ctx(req), lastQueryValues(req))));
      },
    ],
  });

  return router;
}
