/**
 * Signed tokens of the accounts module (HS256 JWTs with jose): the 7-day session carried by the
 * session cookie and the short-lived legal-acceptance token. The secret is SESSION_SECRET, or in
 * development a random secret generated once into DATA_DIR and reused (never logged).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { jwtVerify, SignJWT } from 'jose';

export const SESSION_COOKIE = 'session';
export const SESSION_TTL_SECONDS = 7 * 24 * 3600;
export const LEGAL_TOKEN_TTL_SECONDS = 15 * 60;

export type TokenPurpose = 'session' | 'legal_acceptance' | 'oauth_state';

export interface VerifiedToken {
  userId: string;
  /** Issue time in milliseconds (sessions issued before a password reset are void). */
  issuedAtMs: number;
  /** The token id, when it was signed with one (single-use tokens). */
  jti: string | null;
  /** Expiry in milliseconds. */
  expiresAtMs: number;
}

/** Reads SESSION_SECRET, or the development secret in `dataDir` (created on first use). */
export function resolveSessionSecret(configured: string | undefined, dataDir: string): Uint8Array {
  if (configured) return new TextEncoder().encode(configured);
  const file = path.join(dataDir, 'session-secret');
  if (!existsSync(file)) {
    writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600 });
    chmodSync(file, 0o600);
  }
  return new TextEncoder().encode(readFileSync(file, 'utf8').trim());
}

export class TokenSigner {
  constructor(private readonly secret: Uint8Array) {}

  /**
   * A key for another use of the server secret (the authorization server's cookie signatures,
   * the consent page's signed flow), derived with HMAC-SHA256 so each purpose gets its own key
   * and the secret itself never leaves this class.
   */
  derivedKey(purpose: string): Buffer {
    return createHmac('sha256', this.secret).update(`legal-search:${purpose}`).digest();
  }

  /** A signed token for `userId`, valid `ttlSeconds`; `jti` identifies a single-use token. */
  sign(purpose: TokenPurpose, userId: string, ttlSeconds: number, jti?: string): Promise<string> {
    const now = Date.now();
    const jwt = new SignJWT({ typ: purpose, iat_ms: now });
    if (jti) jwt.setJti(jti);
    return jwt
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
      .setIssuedAt(Math.floor(now / 1000))
      .setExpirationTime(Math.floor(now / 1000) + ttlSeconds)
      .sign(this.secret);
  }

  /** A signed token carrying `data` (e.g. an identity-provider round trip's state and PKCE verifier). */
  signData(purpose: TokenPurpose, data: Record<string, string>, ttlSeconds: number): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ typ: purpose, data }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt(now).setExpirationTime(now + ttlSeconds).sign(this.secret);
  }

  /** The data of a token made by signData, or null. */
  async verifyData(purpose: TokenPurpose, token: string): Promise<Record<string, string> | null> {
    try {
      const { payload } = await jwtVerify(token, this.secret, { algorithms: ['HS256'] });
      if (payload.typ !== purpose || typeof payload.data !== 'object' || payload.data === null) return null;
      return payload.data as Record<string, string>;
    } catch {
      return null;
    }
  }

  /** The token's user and issue time, or null when it is forged, expired or of another purpose. */
  async verify(purpose: TokenPurpose, token: string): Promise<VerifiedToken | null> {
    try {
      const { payload } = await jwtVerify(token, this.secret, { algorithms: ['HS256'] });
      if (payload.typ !== purpose || typeof payload.sub !== 'string') return null;
      const issuedAtMs = typeof payload.iat_ms === 'number' ? payload.iat_ms : (payload.iat ?? 0) * 1000;
      return { userId: payload.sub, issuedAtMs, jti: typeof payload.jti === 'string' ? payload.jti : null, expiresAtMs: (payload.exp ?? 0) * 1000 };
    } catch {
      return null;
    }
  }
}
