/**
 * What an e-mail invite's token tells, and what it proves. The token (256 random bits, stored as
 * its SHA-256) was mailed to one address, so whoever holds it can read that mailbox: the same
 * evidence as a verification link.
 *
 * - Preview (no account needed): the team's name and, for an e-mail invite, the invited address,
 *   so the invite page can name the team and pre-fill the address for sign-up or sign-in. Only
 *   the token's holder learns them; unknown, used, expired and revoked tokens answer the same 404.
 * - Proof: the signed-in account whose address is the invited one (any case) gets it verified,
 *   only while the invite is pending (not accepted, not expired, not revoked: a revoked invite is
 *   deleted). Any other account, or a used or expired invite, proves nothing. The proof is the
 *   accounts' one (src/modules/accounts/email-proof.ts): the first proof ends every session, key
 *   and OAuth grant made before it, as a verification link does, and the owner is mailed.
 */
import type { EntityManager } from '@mikro-orm/core';
import { DomainError, NotFoundError } from '../../errors.js';
import { sha256 } from '../accounts/hashing.js';
import { proveEmail, type ProofOutcome } from '../accounts/email-proof.js';
import { findAccountAddress } from './team-accounts.queries.js';
import { inviteStillValid } from './team-rules.js';
import { findInviteByTokenHash } from './workspace-invite.queries.js';
import { findWorkspaceIdByJoinToken, findWorkspaceName } from './workspace.queries.js';

/** What the invite page shows before anyone joins. */
export interface InvitePreview {
  /** `invite`: an e-mail invite (for one address); `join_link`: the team's shareable link. */
  kind: 'invite' | 'join_link';
  team_name: string;
  /** The invited address (e-mail invites only). */
  email: string | null;
  expires_at: string | null;
}

const NOT_VALID = 'This invite or join link is not valid (unknown, used, expired, revoked or rotated)';

/** The preview of a pending invite's or a join link's token; 404 otherwise. */
export async function previewInvite(em: EntityManager, token: string, now: number): Promise<InvitePreview> {
  const invite = await findInviteByTokenHash(em, sha256(token));
  if (invite) {
    const name = inviteStillValid(invite, now) ? await findWorkspaceName(em, invite.workspace_id) : null;
    if (name === null) throw new NotFoundError(NOT_VALID);
    return { kind: 'invite', team_name: name, email: invite.email, expires_at: invite.expires_at.toISOString() };
  }
  const workspaceId = await findWorkspaceIdByJoinToken(em, token);
  const name = workspaceId ? await findWorkspaceName(em, workspaceId) : null;
  if (name === null) throw new NotFoundError(NOT_VALID);
  return { kind: 'join_link', team_name: name, email: null, expires_at: null };
}

/**
 * Whether `token` is a pending e-mail invite sent to `emailLower`: a registration from its link
 * needs no verification mail, the invite page proves the address with the same token.
 */
export async function isPendingInviteTo(em: EntityManager, emailLower: string, token: string, now: number): Promise<boolean> {
  const invite = await findInviteByTokenHash(em, sha256(token));
  return invite !== null && inviteStillValid(invite, now) && invite.email_lower === emailLower;
}

/**
 * Proves the address of `userId` with a pending e-mail invite's token sent to it, in `tx` (a
 * transaction). 404 for a token that is no pending invite; 403 when the account's address is not
 * the invited one. An address proven before is answered as it is (nothing ends).
 */
export async function proveAddressWithInvite(tx: EntityManager, userId: string, token: string, now: number): Promise<ProofOutcome> {
  const invite = await findInviteByTokenHash(tx, sha256(token));
  if (!invite || !inviteStillValid(invite, now)) throw new NotFoundError('This invite is not valid any more (used, expired or revoked): ask for a new one, or verify your address by e-mail');
  const account = await findAccountAddress(tx, userId);
  if (!account || account.email_lower !== invite.email_lower) {
    throw new DomainError('forbidden', 'This invite was sent to another address: sign in with the address it was sent to');
  }
  const outcome = await proveEmail(tx, userId, 'team_invite', { now: new Date(now) });
  if (!outcome) throw new DomainError('unauthorized', 'Account no longer exists');
  return outcome;
}
