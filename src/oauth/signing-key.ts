/**
 * The access-token signing key (ES256): read from `oauth_signing_key`, or generated and stored
 * on the very first start. Generation runs in a transaction holding a PostgreSQL advisory lock,
 * so two processes starting at once on an empty database agree on one key (the second waits,
 * then reads the first one's key).
 */
import type { MikroORM } from '@mikro-orm/core';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';

export const ACCESS_TOKEN_ALG = 'ES256';

/** Arbitrary constant naming the advisory lock that serialises the first key generation. */
const KEY_LOCK = 7_310_421;

export interface SigningKey {
  kid: string;
  alg: typeof ACCESS_TOKEN_ALG;
  /** Private JWK with `kid`, `alg` and `use` set: what oidc-provider's `jwks` option takes. */
  privateJwk: JWK;
  /** The same key without its private member `d`: what /oauth/jwks publishes and verifiers use. */
  publicJwk: JWK;
}

/** The current signing key, created (once, race-safe) when the table is empty. */
export async function loadOrCreateSigningKey(orm: MikroORM): Promise<SigningKey> {
  const row = await orm.em.fork().transactional(async (tx) => {
    const connection = tx.getConnection();
    const trx = tx.getTransactionContext();
    await connection.execute('select pg_advisory_xact_lock(?)', [KEY_LOCK], 'all', trx);
    const [existing] = (await connection.execute(
      'select kid, private_jwk from oauth_signing_key order by created_at desc, kid limit 1',
      [],
      'all',
      trx,
    )) as { kid: string; private_jwk: JWK }[];
    if (existing) return existing;
    const created = await generateSigningJwk();
    await connection.execute(
      'insert into oauth_signing_key (kid, alg, private_jwk, created_at) values (?, ?, ?::jsonb, ?)',
      [created.kid, ACCESS_TOKEN_ALG, JSON.stringify(created.private_jwk), new Date()],
      'run',
      trx,
    );
    return created;
  });
  const privateJwk: JWK = { ...row.private_jwk, kid: row.kid, alg: ACCESS_TOKEN_ALG, use: 'sig' };
  const { d: _private, ...publicJwk } = privateJwk;
  return { kid: row.kid, alg: ACCESS_TOKEN_ALG, privateJwk, publicJwk };
}

async function generateSigningJwk(): Promise<{ kid: string; private_jwk: JWK }> {
  const { privateKey } = await generateKeyPair(ACCESS_TOKEN_ALG, { extractable: true });
  const jwk = await exportJWK(privateKey);
  const { d: _private, ...publicMembers } = jwk;
  return { kid: await calculateJwkThumbprint(publicMembers), private_jwk: jwk };
}
