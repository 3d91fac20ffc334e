/** Request bodies and response records of the accounts module (zod: validation and /openapi.json). */
import { z } from 'zod';
import { laxBool, mustBeTrue } from '../../validation.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordWeakness } from './passwords.js';

/** Roughly "one @, something on each side, a dot in the domain": what the first message is about. */
const EMAIL_SHAPE = /^[^@]+@[^@]+\.[^@]+$/;
/**
 * A plain addr-spec (RFC 5322 dot-atom, international letters allowed as in RFC 6531): the local
 * part is atext with single dots between, the domain two or more host-name labels. No display
 * name, angle brackets, quoted strings, comments, spaces, control characters, address lists or
 * address literals: an address is stored, mailed to (it reaches the mail headers) and shown to
 * a team as it was typed, so `Boss <boss@example.org>` or `<a@b.example>` must never pass.
 */
const ATEXT = "[\\p{L}\\p{N}\\p{M}!#$%&'*+/=?^_`{|}~-]+";
const LABEL = '[\\p{L}\\p{N}](?:[\\p{L}\\p{N}\\p{M}-]{0,61}[\\p{L}\\p{N}\\p{M}])?';
const TLD = '(?:[\\p{L}\\p{M}]{2,63}|xn--[A-Za-z0-9-]{1,59})';
const ADDR_SPEC = new RegExp(`^${ATEXT}(?:\\.${ATEXT})*@(?:${LABEL}\\.)+${TLD}$`, 'u');

export const emailField = z
  .string()
  .max(254)
  .superRefine((value, ctx) => {
    // a NUL gets the service-wide NUL message instead (src/validation.ts)
    if (value.includes('\u0000')) return;
    if (!EMAIL_SHAPE.test(value)) {
      ctx.addIssue({ code: 'custom', message: 'value is not a valid email address: An email address must have an @-sign and a domain.' });
    } else if (!ADDR_SPEC.test(value)) {
      ctx.addIssue({
        code: 'custom',
        message: 'value is not a valid email address: only a plain address (name@example.org) is accepted, without a display name, angle brackets, quotes, spaces or control characters.',
      });
    }
  })
  .describe('E-mail address (compared case-insensitively): a plain address such as name@example.org.');

export const newPasswordField = z
  .string()
  .min(PASSWORD_MIN_LENGTH)
  .max(PASSWORD_MAX_LENGTH)
  .superRefine((password, ctx) => {
    const weakness = passwordWeakness(password);
    if (weakness) ctx.addIssue({ code: 'custom', message: weakness });
  })
  .describe(`At least ${PASSWORD_MIN_LENGTH} characters, not a common password.`);

/** `_EmailPasswordBody` of POST /auth/register. */
export const registerBodySchema = z.object({
  email: emailField,
  password: newPasswordField,
  name: z.string().max(100).nullable().optional(),
  accept_terms: laxBool().prefault(false).describe('Accept the current terms of service.'),
  acknowledge_privacy: laxBool().prefault(false).describe('Acknowledge the privacy policy.'),
  invite_token: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe(
      'Additive to the spec: the token of the team invite whose link this registration starts from. When it is a pending invite to this address, no verification e-mail is sent: the invite proves the address (POST /auth/verify-email/invite).',
    ),
}).meta({ id: '_EmailPasswordBody' });

/** POST /auth/login: the same body; name and the legal flags are ignored. */
export const loginBodySchema = z.object({
  email: z.string().max(254),
  password: z.string().max(PASSWORD_MAX_LENGTH),
  name: z.string().nullable().optional(),
  accept_terms: z.unknown().optional(),
  acknowledge_privacy: z.unknown().optional(),
}).meta({ id: 'LoginBody' });

/**
 * `_LegalAcceptanceBody`; the token may also come in the legal_acceptance cookie (see
 * accounts.routes). Both flags default to false, as the spec says, and must be true.
 */
export const legalAcceptanceBodySchema = z
  .object({
    legal_acceptance_token: z.string().min(1),
    accept_terms: laxBool().prefault(false),
    acknowledge_privacy: laxBool().prefault(false),
  })
  .refine(...mustBeTrue('accept_terms', 'the terms must be accepted'))
  .refine(...mustBeTrue('acknowledge_privacy', 'the privacy policy must be acknowledged'))
  .meta({ id: '_LegalAcceptanceBody' });

export const passwordResetRequestSchema = z.object({ email: z.string().max(254) }).meta({ id: '_PasswordResetRequestBody' });

export const passwordResetConfirmSchema = z.object({
  token: z.string().min(1),
  password: newPasswordField,
  // beside the spec's fields: a reset keeps API keys made after the address was proven unless asked
  revoke_api_keys: laxBool()
    .prefault(false)
    .describe('Also revoke every API key (default false: keys made after the address was proven keep working; the mail lists them).'),
}).meta({ id: '_PasswordResetConfirmBody' });

export const emailVerificationConfirmSchema = z.object({
  token: z.string().min(1).describe('The token from the verification e-mail.'),
}).meta({ id: 'EmailVerificationConfirm' });

export const deleteAccountBodySchema = z.object({
  confirmation: z.literal('DELETE').describe('The exact word DELETE.'),
}).meta({ id: '_DeleteAccountBody' });

export const devLoginBodySchema = z.object({ email: emailField, name: z.string().max(100).nullable().optional() }).meta({ id: 'DevLoginBody' });

export const userRecordSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  plan: z.string(),
  is_admin: z.boolean(),
  email_verified: z.boolean(),
  created_at: z.string(),
}).meta({ id: 'User' });
export type UserRecord = z.infer<typeof userRecordSchema>;

export const legalStateSchema = z.object({
  accepted: z.boolean().describe('True when the current terms version is accepted.'),
  terms_version: z.string().nullable().describe('The version the account accepted.'),
  current_terms_version: z.string(),
  accepted_at: z.string().nullable(),
});

export const meRecordSchema = z.object({
  user: userRecordSchema,
  plan: z.string(),
  workspace_role: z.string().describe('Role in the current workspace (owner of the personal workspace until teams exist).'),
  legal_acceptance: legalStateSchema,
}).meta({ id: 'Me' });
export type MeRecord = z.infer<typeof meRecordSchema>;

export const legalAcceptanceRequiredSchema = z.object({
  legal_acceptance_required: z.literal(true),
  legal_acceptance_token: z.string(),
  terms_version: z.string(),
}).meta({ id: 'LegalAcceptanceRequired' });

export const apiKeyRecordSchema = z.object({
  id: z.string(),
  name: z.string(),
  key_prefix: z.string(),
  created_at: z.string(),
  last_used_at: z.string().describe('The last authenticated request with this key; its creation time until it is first used.'),
  revoked: z.boolean().describe('Revoked keys stay listed and no longer authenticate.'),
}).meta({ id: 'KeyListingItem' });
export type ApiKeyRecord = z.infer<typeof apiKeyRecordSchema>;

export const createdApiKeySchema = apiKeyRecordSchema
  .extend({
    key: z.string().describe('The full key: shown once.'),
    // beside the spec's fields, only for an account whose address is not verified yet
    ends_when_email_verified: z
      .literal(true)
      .optional()
      .describe('Present when the account has not proven its e-mail address: the key is revoked when the address is verified or the password reset.'),
    warning: z.string().optional().describe('Says the same in a sentence, when ends_when_email_verified is present.'),
  })
  .meta({ id: 'KeyCreationResponse' });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

/** The key revocation response of DELETE /v1/keys/{key_id}. */
export const keyRevocationSchema = z.object({
  status: z.literal('revoked'),
  id: z.string(),
}).meta({ id: 'KeyRevocationResponse' });
export type KeyRevocation = z.infer<typeof keyRevocationSchema>;

export const createKeyBodySchema = z.object({
  name: z.string().min(1).max(100).prefault('Default'),
}).meta({ id: 'CreateKeyRequest' });

/** PATCH /v1/keys/{key_id} (additive to the spec): a new name, the same rule as at creation. */
export const renameKeyBodySchema = z.object({
  name: z.string().trim().min(1).max(100).describe('The new name: 1 to 100 characters (surrounding spaces dropped).'),
}).meta({ id: 'RenameKeyRequest' });

/** An OAuth client the user authorised (GET /v1/oauth/grants). */
export const oauthGrantRecordSchema = z.object({
  id: z.string().describe('The client id: the handle to revoke this authorisation with.'),
  client_id: z.string(),
  client_name: z.string().nullable(),
  client_uri: z.string().nullable(),
  scopes: z.array(z.string()).describe('What the client may do (mcp; offline_access when it asked to stay connected).'),
  resources: z.array(z.string()).describe('The protected resources its tokens are for (BASE_URL/mcp, BASE_URL/sse, BASE_URL).'),
  authorized_at: z.string().describe('The latest authorisation.'),
  expires_at: z.string().nullable().describe('When the authorisation lapses unless renewed.'),
}).meta({ id: 'OAuthGrant' });
export type OAuthGrantRecord = z.infer<typeof oauthGrantRecordSchema>;

/** DELETE /v1/oauth/grants/{id}. */
export const oauthGrantRevocationSchema = z.object({ status: z.literal('revoked'), id: z.string() }).meta({ id: 'OAuthGrantRevocation' });
export type OAuthGrantRevocation = z.infer<typeof oauthGrantRevocationSchema>;
