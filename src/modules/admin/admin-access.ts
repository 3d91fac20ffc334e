/** The administrators' rule: every administrative call goes through `requireAdmin` first. */
import { type AccountCaller, type RequestContext, requireAccount } from '../../context.js';
import { DomainError } from '../../errors.js';

/**
 * The calling administrator: 401 without credentials, 403 for any account whose verified
 * e-mail is not in ADMIN_EMAILS (the authenticator sets `isAdmin`).
 */
export function requireAdmin(ctx: RequestContext): AccountCaller {
  const caller = requireAccount(ctx);
  if (!caller.isAdmin) throw new DomainError('forbidden', 'Administrators only');
  return caller;
}
