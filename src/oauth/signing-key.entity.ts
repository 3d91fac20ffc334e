/**
 * The private key that signs the authorization server's JWT access tokens, generated once on
 * the first start and kept in the database, so tokens issued by one process (or before a
 * restart) verify in every other. Its public half is published at /oauth/jwks.
 */
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const SigningKeyEntity = defineEntity({
  name: 'SigningKey',
  tableName: 'oauth_signing_key',
  properties: {
    /** RFC 7638 thumbprint of the public key. */
    kid: p.text().primary(),
    alg: p.text(),
    /** The private JWK (never served: /oauth/jwks publishes the public members only). */
    private_jwk: p.json<Record<string, unknown>>(),
    created_at: p.datetime(),
  },
});

export type SigningKey = InferEntity<typeof SigningKeyEntity>;
