/**
 * One-time tokens (password reset, e-mail verification, legal acceptance): random, stored only as
 * a SHA-256 hash in the `password_reset` table with their user and expiry, consumed at most once
 * by a single conditional UPDATE (so two concurrent uses cannot both succeed). The purposes share
 * the table; the hash is domain-separated by purpose, so a token of one purpose is unknown to the
 * others. Password-reset tokens keep the plain SHA-256 so links mailed before this change work.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { PasswordResetEntity } from './password-reset.entity.js';
import { markOneTimeTokenUsed } from './password-reset.queries.js';

export type OneTimePurpose = 'password_reset' | 'verify_email' | 'legal_acceptance';

export const RESET_TOKEN_TTL_MS = 3600_000;
export const VERIFY_EMAIL_TOKEN_TTL_MS = 24 * 3600_000;
/** How long an expired token's row is kept (for support questions about a late click). */
const PRUNE_AFTER_EXPIRY_MS = 24 * 3600_000;

function tokenHash(purpose: OneTimePurpose, token: string): string {
  const input = purpose === 'password_reset' ? token : `${purpose}:${token}`;
  return createHash('sha256').update(input).digest('hex');
}

/** A new random token (32 bytes, base64url). */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Stores `token` (a new random one by default) for `userId`, valid `ttlMs`; returns it. Runs in
 * `em`'s transaction when it has one.
 */
export async function issueOneTimeToken(
  em: EntityManager,
  userId: string,
  purpose: OneTimePurpose,
  ttlMs: number,
  token: string = randomToken(),
): Promise<string> {
  const now = Date.now();
  // Tokens past their expiry serve no one: each new token clears them, so the table holds
  // only live tokens and those expired within the last day.
  await em.nativeDelete(PasswordResetEntity, { expires_at: { $lt: new Date(now - PRUNE_AFTER_EXPIRY_MS) } });
  const row = em.create(PasswordResetEntity, {
    id: randomUUID(),
    user_id: userId,
    token_hash: tokenHash(purpose, token),
    expires_at: new Date(now + ttlMs),
    used_at: null,
    created_at: new Date(now),
  });
  await em.persist(row).flush();
  return token;
}

/**
 * Marks the token used and returns its user id; null when it is unknown, expired or already used.
 * One conditional update makes the use single (see markOneTimeTokenUsed).
 */
export function consumeOneTimeToken(em: EntityManager, purpose: OneTimePurpose, token: string): Promise<string | null> {
  return markOneTimeTokenUsed(em, tokenHash(purpose, token), new Date());
}
