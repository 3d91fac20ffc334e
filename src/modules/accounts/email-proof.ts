/**
 * The proof of an e-mail address, and the credentials it ends (issue #31; the account
 * pre-hijacking attacks of Sudhodanan & Paverd, 2022). Anyone can register an address that is not
 * theirs and arm the account (a session, an API key, an OAuth grant) before the owner shows up;
 * whatever the address later unlocks (ADMIN_EMAILS, team invites, domain auto-join) would then
 * reach the squatter too. So the moment the address is proven is a line:
 *
 * - Proof: a verification link confirmed, a password-reset link confirmed, a verified
 *   identity-provider sign-in linking to the account, or a pending team invite's link used by the
 *   account with the invited address (src/modules/teams/invite-proof.ts). Recorded once, in `email_proven_at`.
 * - At the first proof every credential made before it ends: every session and OAuth access token
 *   (`sessions_valid_after`), every API key (revoked), every OAuth grant (deleted with its refresh
 *   tokens and codes).
 * - A password reset also ends every session and OAuth grant, whenever made: someone who knew the
 *   old password may hold them. API keys made after the first proof stay (integrations would
 *   break on every reset, and only someone who knew the password after the proof could have made
 *   one, which is a real compromise, not a squatter), unless the reset asks for it
 *   (`revoke_api_keys`); the mail lists the keys that stay.
 *
 * All of it runs in the caller's transaction, with the account row locked (key creation locks the
 * same row, so a key cannot slip in between).
 */
import { type EntityManager, LockMode } from '@mikro-orm/core';
import { ApiKeyEntity } from './api-key.entity.js';
import { revokeAllGrantsOf, type RevokedClient } from './oauth-grants.service.js';
import { UserEntity } from './user.entity.js';

/** How the address was proven. */
/** `team_invite`: a pending team invite's token, mailed to the address, used by the account with that address. */
export type ProofKind = 'email_verification' | 'password_reset' | 'identity_provider' | 'team_invite';

/** A key as the owner's mail names it (never the key itself). */
export interface KeyMention {
  name: string;
  key_prefix: string;
  created_at: Date;
  last_used_at: Date | null;
}

/** What a proof ended, and the keys that stay (the mail's contents). */
export interface ProofOutcome {
  kind: ProofKind;
  userId: string;
  email: string;
  /** False when nothing ended: the address was proven before and this is no reset. */
  ended: boolean;
  /** Every session (and OAuth access token) of the account ended. */
  sessionsEnded: boolean;
  revokedKeys: KeyMention[];
  revokedClients: RevokedClient[];
  /** Keys still active afterwards (made after the first proof). */
  activeKeys: KeyMention[];
}

/**
 * Records that the address of `userId` is proven (`kind`) and ends what the rules above end, in
 * `tx` (which must be a transaction). `revokeApiKeys` (password reset) ends the keys made after
 * the proof too. Null when the account is gone.
 */
export async function proveEmail(
  tx: EntityManager,
  userId: string,
  kind: ProofKind,
  options: { revokeApiKeys?: boolean; now?: Date } = {},
): Promise<ProofOutcome | null> {
  const now = options.now ?? new Date();
  const user = await tx.findOne(UserEntity, { id: userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!user) return null;
  // An address verified before proofs were recorded has no email_proven_at: this proof is its first.
  const firstProof = !user.email_verified || !user.email_proven_at;
  const outcome: ProofOutcome = { kind, userId, email: user.email, ended: false, sessionsEnded: false, revokedKeys: [], revokedClients: [], activeKeys: [] };
  if (!firstProof && kind !== 'password_reset') return outcome;

  const provenAt = firstProof ? now : new Date(user.email_proven_at!);
  Object.assign(user, { email_verified: true, email_proven_at: provenAt, sessions_valid_after: now });
  const keys = await tx.find(ApiKeyEntity, { user_id: userId, revoked_at: null }, { orderBy: { created_at: 'asc', id: 'asc' } });
  for (const key of keys) {
    if (options.revokeApiKeys || new Date(key.created_at) < provenAt) {
      key.revoked_at = now;
      outcome.revokedKeys.push(mention(key));
    } else {
      outcome.activeKeys.push(mention(key));
    }
  }
  await tx.flush();
  outcome.revokedClients = await revokeAllGrantsOf(tx, userId);
  outcome.ended = true;
  outcome.sessionsEnded = true;
  return outcome;
}

function mention(key: { name: string; key_prefix: string; created_at: Date | string; last_used_at?: Date | string | null }): KeyMention {
  return {
    name: key.name,
    key_prefix: key.key_prefix,
    created_at: new Date(key.created_at),
    last_used_at: key.last_used_at ? new Date(key.last_used_at) : null,
  };
}
