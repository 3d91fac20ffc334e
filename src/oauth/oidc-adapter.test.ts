import { openMigratedTestDatabase, TEST_BACKENDS, type TestDatabase } from '../../test/helpers/test-databases.js';
import { createLogger } from '../logger.js';
import { endAccountSessions, OidcAdapter } from './oidc-adapter.js';
import { loadOrCreateSigningKey } from './signing-key.js';

describe.each(TEST_BACKENDS)('authorization-server storage on %s', (backend) => {
  let db: TestDatabase;
  let adapter: (model: string) => ReturnType<ReturnType<typeof OidcAdapter.factory>>;

  beforeAll(async () => {
    db = await openMigratedTestDatabase(backend);
    adapter = OidcAdapter.factory(db.orm, createLogger('silent'));
  });
  afterAll(async () => {
    await db?.dispose();
  });

  it('stores, updates and finds a model by id, uid and user code; models do not see each other', async () => {
    const sessions = adapter('Session');
    await sessions.upsert('s1', { uid: 'uid-1', accountId: 'a1' }, 60);
    expect(await sessions.find('s1')).toEqual({ uid: 'uid-1', accountId: 'a1' });
    expect(await sessions.findByUid('uid-1')).toEqual({ uid: 'uid-1', accountId: 'a1' });
    await sessions.upsert('s1', { uid: 'uid-1', accountId: 'a2' }, 60);
    expect(await sessions.find('s1')).toMatchObject({ accountId: 'a2' });
    expect(await adapter('Grant').find('s1')).toBeUndefined();
    const codes = adapter('DeviceCode');
    await codes.upsert('d1', { userCode: 'ABCD-EFGH' }, 60);
    expect(await codes.findByUserCode('ABCD-EFGH')).toEqual({ userCode: 'ABCD-EFGH' });
  });

  it('ends every authorization-server session of one account (logout), and nothing else', async () => {
    const sessions = adapter('Session');
    await sessions.upsert('leaving-1', { uid: 'leaving-uid-1', accountId: 'leaving' }, 60);
    await sessions.upsert('leaving-2', { uid: 'leaving-uid-2', accountId: 'leaving' }, 60);
    await sessions.upsert('staying', { uid: 'staying-uid', accountId: 'staying' }, 60);
    await adapter('Grant').upsert('leaving-grant', { accountId: 'leaving', clientId: 'c' }, 60);
    await endAccountSessions(db.orm, 'leaving');
    expect(await sessions.find('leaving-1')).toBeUndefined();
    expect(await sessions.findByUid('leaving-uid-2')).toBeUndefined();
    expect(await sessions.find('staying')).toMatchObject({ accountId: 'staying' });
    // the account's agents keep their grant: a logout is not a revocation
    expect(await adapter('Grant').find('leaving-grant')).toMatchObject({ accountId: 'leaving' });
  });

  it('refuses a NUL character (jsonb cannot hold it) with the OAuth error oidc-provider answers 400 with', async () => {
    await expect(adapter('Client').upsert('client-nul', { client_id: 'client-nul', client_name: 'a\u0000b' })).rejects.toMatchObject({
      error: 'invalid_client_metadata',
      error_description: 'client_name must not contain the NUL character',
      statusCode: 400,
    });
    await expect(adapter('Interaction').upsert('i-nul', { params: { state: '\u0000' } }, 60)).rejects.toMatchObject({ error: 'invalid_request', statusCode: 400 });
    expect(await adapter('Client').find('client-nul')).toBeUndefined();
  });

  it('never returns an expired row, and keeps rows without expiry (clients)', async () => {
    const codes = adapter('AuthorizationCode');
    await codes.upsert('expired', { jti: 'expired' }, -1);
    expect(await codes.find('expired')).toBeUndefined();
    const clients = adapter('Client');
    await clients.upsert('client-1', { client_id: 'client-1', redirect_uris: ['https://a.example/cb'] });
    expect(await clients.find('client-1')).toMatchObject({ client_id: 'client-1' });
  });

  it('marks a code consumed in its payload, destroys, and revokes everything of a grant', async () => {
    const codes = adapter('AuthorizationCode');
    const tokens = adapter('RefreshToken');
    await codes.upsert('c1', { jti: 'c1', grantId: 'g1' }, 60);
    await codes.consume('c1');
    expect((await codes.find('c1'))!.consumed).toEqual(expect.any(Number));
    await tokens.upsert('r1', { jti: 'r1', grantId: 'g1' }, 60);
    await tokens.upsert('r2', { jti: 'r2', grantId: 'g2' }, 60);
    await tokens.revokeByGrantId('g1');
    expect(await tokens.find('r1')).toBeUndefined();
    expect(await tokens.find('r2')).toBeDefined();
    expect(await codes.find('c1')).toBeDefined(); // another model's rows of the grant are revoked by its own adapter
    await codes.destroy('c1');
    expect(await codes.find('c1')).toBeUndefined();
  });

  it('creates one signing key, even when several processes start at once, and keeps it', async () => {
    // on PostgreSQL each call runs in its own pooled connection: a real race on the empty table
    const [a, b, c] = await Promise.all([loadOrCreateSigningKey(db.orm), loadOrCreateSigningKey(db.orm), loadOrCreateSigningKey(db.orm)]);
    expect(new Set([a.kid, b.kid, c.kid]).size).toBe(1);
    expect(a.publicJwk).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', kid: a.kid });
    expect(a.publicJwk.d).toBeUndefined();
    expect(a.privateJwk.d).toEqual(expect.any(String));
    const rows = await db.orm.em.fork().getConnection().execute('select kid from oauth_signing_key');
    expect(rows).toEqual([{ kid: a.kid }]);
    expect((await loadOrCreateSigningKey(db.orm)).kid).toBe(a.kid);
  });
});
