/**
 * What the accounts module needs to know of an OAuth access token: the port its authenticator
 * checks tokens through. The authorization server (src/oauth) implements it; the module does not
 * import the authorization server.
 */

/** What a valid access token says. */
export interface VerifiedAccessToken {
  /** `sub`: the user the token was issued to. */
  userId: string;
  clientId: string | null;
  scope: string;
  /** `iat` in milliseconds (tokens issued before a password reset are void). */
  issuedAtMs: number;
  /** The grant the token was issued under (GRANT_ID_CLAIM): the token ends when the user revokes it. */
  grantId: string;
}

export type AccessTokenCheck = { ok: true; token: VerifiedAccessToken } | { ok: false; reason: string };

/** True when `token` has the shape of a JWT (three base64url parts), i.e. may be an access token. */
export function looksLikeJwt(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token);
}
