/** Request bodies of the consent step (zod: validation and /openapi.json). */
import { z } from 'zod';
import { laxBool } from '../validation.js';

/** POST /auth/password-authorize. */
export const passwordAuthorizeSchema = z.object({
  email: z.string().min(1).max(254),
  password: z.string().min(1).max(1024),
  mcp_flow: z.string().min(1).max(20_000).describe('The signed pending authorization embedded in the consent page.'),
  accept_terms: laxBool().prefault(false).describe('Accept the current terms of service (needed once per terms version).'),
  acknowledge_privacy: laxBool().prefault(false).describe('Acknowledge the privacy policy (with accept_terms).'),
}).meta({ id: 'PasswordAuthorizeBody' });

/** POST /oauth/interaction/{uid}/approve: accepting the terms while approving (after an identity-provider sign-in). */
export const approveSchema = z.object({
  accept_terms: laxBool().prefault(false),
  acknowledge_privacy: laxBool().prefault(false),
});

/** 200 of POST /auth/password-authorize. */
export const passwordAuthorizedSchema = z
  .object({ redirect_url: z.url().describe('Where to send the browser: the authorization server, which redirects to the client with the code.') })
  .meta({ id: 'PasswordAuthorized' });

/** 403 of POST /auth/password-authorize when the account has not accepted the current terms. */
export const passwordAuthorizeTermsRequiredSchema = z
  .object({ detail: z.string(), legal_acceptance_required: z.literal(true), terms_version: z.string() })
  .meta({ id: 'PasswordAuthorizeTermsRequired' });
