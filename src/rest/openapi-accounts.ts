/**
 * The accounts part of /openapi.json: request and response schemas (the same zod schemas the
 * services validate with), the operations of /auth/*, /v1/keys and /v1/usage/me, and the two
 * security schemes (API key as Bearer, session cookie) that billable operations accept.
 */
import { z } from 'zod';
import {
  apiKeyRecordSchema,
  createdApiKeySchema,
  createKeyBodySchema,
  deleteAccountBodySchema,
  keyRevocationSchema,
  devLoginBodySchema,
  emailVerificationConfirmSchema,
  legalAcceptanceBodySchema,
  legalAcceptanceRequiredSchema,
  loginBodySchema,
  meRecordSchema,
  oauthGrantRecordSchema,
  oauthGrantRevocationSchema,
  passwordResetConfirmSchema,
  passwordResetRequestSchema,
  registerBodySchema,
  userRecordSchema,
} from '../modules/accounts/account.schema.js';
import { passwordAuthorizeSchema } from '../oauth/consent.schema.js';

const usageRecordSchema = z.object({
  plan: z.string(),
  period_start: z.string(),
  period_end: z.string().nullable(),
  period_type: z.enum(['rolling_30d', 'billing_period']),
  requests_today: z.number().int().describe('Counted requests in the last 24 hours.'),
  requests_in_period: z.number().int(),
  daily_limit: z.number().int().nullable(),
  period_limit: z.number().int().nullable(),
  per_minute_limit: z.number().int(),
  limits_enforced: z.boolean(),
  daily_history: z.array(z.object({ date: z.string(), count: z.number().int() })),
});

/** Request bodies (described as clients send them). */
export const ACCOUNTS_REQUEST_SCHEMAS: Record<string, z.ZodType> = {
  _EmailPasswordBody: registerBodySchema,
  LoginBody: loginBodySchema,
  // after an identity-provider sign-in the token comes in the HttpOnly legal_acceptance cookie instead
  LegalAcceptanceBody: legalAcceptanceBodySchema.partial({ legal_acceptance_token: true }),
  PasswordResetRequest: passwordResetRequestSchema,
  PasswordResetConfirm: passwordResetConfirmSchema,
  EmailVerificationConfirm: emailVerificationConfirmSchema,
  DeleteAccountBody: deleteAccountBodySchema,
  DevLoginBody: devLoginBodySchema,
  CreateKeyBody: createKeyBodySchema,
  PasswordAuthorizeBody: passwordAuthorizeSchema,
};

/** Response records. */
export const ACCOUNTS_RESPONSE_SCHEMAS: Record<string, z.ZodType> = {
  User: userRecordSchema,
  Me: meRecordSchema,
  LegalAcceptanceRequired: legalAcceptanceRequiredSchema,
  ApiKey: apiKeyRecordSchema,
  CreatedApiKey: createdApiKeySchema,
  KeyRevocation: keyRevocationSchema,
  OAuthGrant: oauthGrantRecordSchema,
  OAuthGrantRevocation: oauthGrantRevocationSchema,
  Usage: usageRecordSchema,
  PasswordAuthorized: z.object({ redirect_url: z.url().describe('Where to send the browser: the authorization server, which redirects to the client with the code.') }),
  PasswordAuthorizeTermsRequired: z.object({ detail: z.string(), legal_acceptance_required: z.literal(true), terms_version: z.string() }),
};

export const SECURITY_SCHEMES = {
  HTTPBearer: { type: 'http', scheme: 'bearer', description: 'An API key: `Authorization: Bearer sk-...`' },
  SessionCookie: { type: 'apiKey', in: 'cookie', name: 'session', description: 'The session cookie set by /auth/login' },
};

/** Either credential: an API key or the session cookie. */
export const AUTHENTICATED: Record<string, string[]>[] = [{ HTTPBearer: [] }, { SessionCookie: [] }];

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const ok = (schema: unknown, description = 'Successful Response') => ({ description, content: { 'application/json': { schema } } });
const error = (description: string) => ok(ref('HTTPError'), description);
const body = (name: string) => ({ content: { 'application/json': { schema: ref(name) } }, required: true });
const detail = ok({ type: 'object', properties: { detail: { type: 'string' } }, required: ['detail'] });
const signIn = ok({ anyOf: [ref('User'), ref('LegalAcceptanceRequired')] }, 'The user (with the session cookie), or a legal-acceptance token');

export const UNAUTHORIZED = error('Not authenticated (WWW-Authenticate: Bearer)');
export const RATE_LIMITED = error('Over a plan limit (Retry-After)');

export interface AccountsOperation {
  method: 'get' | 'post' | 'delete';
  path: string;
  name: string;
  summary: string;
  description?: string;
  parameters?: Record<string, unknown>[];
  requestBody?: Record<string, unknown>;
  responses: Record<string, unknown>;
  security?: Record<string, string[]>[];
}

/** Every accounts operation, in the order of the README. */
export function accountsOperations(): AccountsOperation[] {
  const keyId = { name: 'key_id', in: 'path', required: true, schema: { type: 'string' } };
  return [
    { method: 'post', path: '/auth/register', name: 'register', summary: 'Register', requestBody: body('_EmailPasswordBody'), responses: { '200': ok(ref('User')), '409': error('E-mail already registered'), '429': error('Too many registrations from this IP (Retry-After)') } },
    { method: 'post', path: '/auth/login', name: 'login', summary: 'Login', requestBody: body('LoginBody'), responses: { '200': signIn, '401': error('Invalid email or password'), '429': error('Too many failed attempts (Retry-After)') } },
    { method: 'post', path: '/auth/logout', name: 'logout', summary: 'Logout', description: 'Ends the session server-side (its cookie is refused afterwards) and clears the cookie.', responses: { '200': detail } },
    { method: 'post', path: '/auth/legal-acceptance', name: 'legal_acceptance', summary: 'Legal Acceptance', requestBody: body('LegalAcceptanceBody'), responses: { '200': ok(ref('User')), '401': error('Invalid or expired token') } },
    { method: 'post', path: '/auth/password-reset/request', name: 'password_reset_request', summary: 'Password Reset Request', description: 'Always 200 for any address: no account enumeration (past the per-address budget no mail is sent). 429 past the per-IP budget.', requestBody: body('PasswordResetRequest'), responses: { '200': detail, '429': error('Too many requests from this IP (Retry-After)') } },
    { method: 'post', path: '/auth/password-reset/confirm', name: 'password_reset_confirm', summary: 'Password Reset Confirm', requestBody: body('PasswordResetConfirm'), responses: { '200': detail, '400': error('Invalid or expired token') } },
    { method: 'post', path: '/auth/verify-email/request', name: 'verify_email_request', summary: 'Verify Email Request', description: 'Mails the signed-in account a one-time token valid 24 hours.', security: AUTHENTICATED, responses: { '200': detail, '401': UNAUTHORIZED, '503': error('The e-mail could not be sent') } },
    { method: 'post', path: '/auth/verify-email/confirm', name: 'verify_email_confirm', summary: 'Verify Email Confirm', description: 'Consumes the token once and marks the e-mail verified.', requestBody: body('EmailVerificationConfirm'), responses: { '200': detail, '400': error('Invalid or expired token') } },
    { method: 'post', path: '/auth/dev-login', name: 'dev_login', summary: 'Dev Login', description: 'Only with DEV_LOGIN=true; 404 otherwise.', requestBody: body('DevLoginBody'), responses: { '200': signIn, '404': error('Not Found') } },
    {
      method: 'post',
      path: '/auth/password-authorize',
      name: 'password_authorize',
      summary: 'Password Authorize',
      description:
        'The OAuth consent page signs in with e-mail and password and approves the pending authorization in `mcp_flow` (signed, bound to the page\'s browser cookie). ' +
        'Accepts JSON or a form; a form posted by a browser (Accept: text/html) gets a 303 to the same URL instead.',
      requestBody: body('PasswordAuthorizeBody'),
      responses: {
        '200': ok(ref('PasswordAuthorized')),
        '400': error('mcp_flow invalid, altered or expired'),
        '401': error('Invalid email or password'),
        '403': ok(ref('PasswordAuthorizeTermsRequired'), 'The terms must be accepted (send accept_terms and acknowledge_privacy), or a cross-site / other-browser request'),
        '429': error('Too many failed attempts (Retry-After)'),
      },
    },
    { method: 'get', path: '/auth/me', name: 'me', summary: 'Me', security: AUTHENTICATED, responses: { '200': ok(ref('Me')), '401': UNAUTHORIZED } },
    { method: 'delete', path: '/auth/me', name: 'delete_me', summary: 'Delete Me', description: 'Body `{"confirmation": "DELETE"}`.', security: AUTHENTICATED, requestBody: body('DeleteAccountBody'), responses: { '200': detail, '401': UNAUTHORIZED } },
    ...(['github', 'google', 'microsoft'] as const).flatMap((idp): AccountsOperation[] => [
      { method: 'get', path: `/auth/${idp}`, name: `${idp}_login`, summary: `${idp} Login`, responses: { '302': { description: 'Redirect to the provider' } } },
      {
        method: 'get',
        path: `/auth/${idp}/callback`,
        name: `${idp}_callback`,
        summary: `${idp} Callback`,
        parameters: ['code', 'state'].map((name) => ({ name, in: 'query', required: true, schema: { type: 'string' } })),
        responses: { '302': { description: 'Signed in: redirect to the dashboard' }, '400': error('Invalid state or code') },
      },
    ]),
    { method: 'get', path: '/v1/keys', name: 'list_keys', summary: 'List Keys', security: AUTHENTICATED, responses: { '200': ok({ type: 'array', items: ref('ApiKey') }), '401': UNAUTHORIZED } },
    { method: 'post', path: '/v1/keys', name: 'create_key', summary: 'Create Key', security: AUTHENTICATED, requestBody: { ...body('CreateKeyBody'), required: false }, responses: { '200': ok(ref('CreatedApiKey')), '401': UNAUTHORIZED, '409': error('10 active keys already (revoked keys do not count)') } },
    { method: 'delete', path: '/v1/keys/{key_id}', name: 'revoke_key', summary: 'Revoke Key', security: AUTHENTICATED, parameters: [keyId], responses: { '200': ok(ref('KeyRevocation'), 'Revoked (also when it already was); the key stays listed with revoked: true'), '401': UNAUTHORIZED, '404': error('Not Found') } },
    { method: 'get', path: '/v1/oauth/grants', name: 'list_oauth_grants', summary: 'List OAuth Grants', description: 'The OAuth clients (MCP agents) the caller authorised, one entry per client.', security: AUTHENTICATED, responses: { '200': ok({ type: 'array', items: ref('OAuthGrant') }), '401': UNAUTHORIZED } },
    {
      method: 'delete',
      path: '/v1/oauth/grants/{id}',
      name: 'revoke_oauth_grant',
      summary: 'Revoke OAuth Grant',
      description: "Ends the client's access at once: its access tokens are refused and its refresh tokens deleted.",
      security: AUTHENTICATED,
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: 'The client id (`id` of the listing).' }],
      responses: { '200': ok(ref('OAuthGrantRevocation')), '401': UNAUTHORIZED, '404': error('No authorisation of this client') },
    },
    { method: 'get', path: '/v1/usage/me', name: 'usage_me', summary: 'Usage Me', security: AUTHENTICATED, responses: { '200': ok(ref('Usage')), '401': UNAUTHORIZED } },
  ];
}
