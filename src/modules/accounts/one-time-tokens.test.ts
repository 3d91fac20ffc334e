import { randomUUID } from 'node:crypto';
import { openMigratedTestDatabase, type TestDatabase } from '../../../test/helpers/test-databases.js';
import { consumeOneTimeToken, issueOneTimeToken } from './one-time-tokens.js';

describe('one-time tokens', () => {
  let db: TestDatabase;
  const rows = async () =>
    (await db.orm.em.getConnection().execute('select expires_at from password_reset order by expires_at', [], 'all')) as { expires_at: Date }[];

  beforeAll(async () => {
    db = await openMigratedTestDatabase('pglite');
  });
  afterAll(async () => {
    await db?.dispose();
  });

  it('is consumed once, by its own purpose only', async () => {
    const user = randomUUID();
    const token = await issueOneTimeToken(db.orm.em.fork(), user, 'verify_email', 60_000);
    expect(await consumeOneTimeToken(db.orm.em.fork(), 'password_reset', token)).toBeNull();
    expect(await consumeOneTimeToken(db.orm.em.fork(), 'verify_email', token)).toBe(user);
    expect(await consumeOneTimeToken(db.orm.em.fork(), 'verify_email', token)).toBeNull();
  });

  it('clears rows expired for more than a day when a new token is issued, keeps the recent ones', async () => {
    const em = db.orm.em.fork();
    const expiredAt = async () => (await rows()).map((r) => new Date(r.expires_at).getTime());
    const dayAgo = () => Date.now() - 24 * 3600_000;
    const stale = await issueOneTimeToken(em, randomUUID(), 'password_reset', -2 * 24 * 3600_000);
    expect((await expiredAt()).some((t) => t < dayAgo())).toBe(true);
    await issueOneTimeToken(em, randomUUID(), 'password_reset', -3600_000);
    const after = await expiredAt();
    expect(after.some((t) => t < dayAgo())).toBe(false);
    expect(after.filter((t) => t < Date.now())).toHaveLength(1); // expired an hour ago: kept
    expect(await consumeOneTimeToken(em, 'password_reset', stale)).toBeNull();
  });
});
