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
});

/** POST /oauth/interaction/{uid}/approve: accepting the terms while approving (after an identity-provider sign-in). */
export const approveSchema = z.object({
  accept_terms: laxBool().prefault(false),
  acknowledge_privacy: laxBool().prefault(false),
});
