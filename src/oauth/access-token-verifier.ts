/**
 * Local verification of the JWT access tokens this authorization server issues (RFC 9068
 * `at+jwt`): signature with the persisted signing key, issuer (BASE_URL), expiry, and audience
 * (the protected resource the request is addressed to). No database or network round trip:
 * the caller's account, and whether the token's grant still stands, are looked up afterwards in
 * one query, as for an API key.
 */
import { errors, importJWK, jwtVerify, type JWK } from 'jose';
import { ACCESS_TOKEN_ALG } from './signing-key.js';
import { acceptedAudiences } from './protected-resource.js';
import type { AccessTokenCheck } from '../modules/accounts/access-token.js';

export type { AccessTokenCheck, VerifiedAccessToken } from '../modules/accounts/access-token.js';

/**
 * The claim naming the grant an access token was issued under (authorization-server.ts adds it).
 * The token stands only while its grant does: revoking a client's authorization deletes the grant,
 * and the account lookup that follows the signature check (one query, src/modules/accounts/sessions.ts)
 * sees that. Tokens without it (issued before the claim existed) are refused: clients refresh.
 */
export const GRANT_ID_CLAIM = 'grant_id';

/** Seconds of clock skew tolerated on `exp`/`iat`. */
const CLOCK_TOLERANCE_SECONDS = 5;

export class AccessTokenVerifier {
  private readonly key: ReturnType<typeof importJWK>;

  constructor(private readonly options: { publicJwk: JWK; issuer: string }) {
    this.key = importJWK(options.publicJwk, ACCESS_TOKEN_ALG);
  }

  /** Checks `token` for the protected resource `resource`; the reason says what is wrong otherwise. */
  async verify(token: string, resource: string): Promise<AccessTokenCheck> {
    try {
      const { payload } = await jwtVerify(token, await this.key, {
        algorithms: [ACCESS_TOKEN_ALG],
        issuer: this.options.issuer,
        audience: acceptedAudiences(this.options.issuer, resource),
        typ: 'at+jwt',
        requiredClaims: ['sub', 'exp', 'iat', GRANT_ID_CLAIM],
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
      });
      return {
        ok: true,
        token: {
          userId: payload.sub!,
          clientId: typeof payload.client_id === 'string' ? payload.client_id : null,
          scope: typeof payload.scope === 'string' ? payload.scope : '',
          issuedAtMs: payload.iat! * 1000,
          grantId: String(payload[GRANT_ID_CLAIM]),
        },
      };
    } catch (error) {
      return { ok: false, reason: rejection(error, resource) };
    }
  }
}

function rejection(error: unknown, resource: string): string {
  if (error instanceof errors.JWTExpired) return 'Access token expired; refresh it or authorize again';
  if (error instanceof errors.JWTClaimValidationFailed && error.claim === 'aud') {
    return `Access token was issued for another resource; ask for one with resource=${resource}`;
  }
  return 'Invalid access token';
}
