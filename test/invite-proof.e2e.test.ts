/**
 * An invitee's address over real HTTP, on embedded PGlite and on real PostgreSQL, the mails read
 * by a real SMTP server started here:
 *
 * - A registration from an invite's link (`invite_token`, what the invite page's sign-up sends)
 *   for the invited address gets no verification mail: the invite proves the address. A token
 *   that is no pending invite to the registering address vouches for nothing: the mail goes out.
 * - The proof with the invite (POST /auth/verify-email/invite) and the fresh session it issues
 *   are one unit of work: a failure injected in the database at commit (a deferred constraint
 *   trigger, the last step of the transaction) rolls the proof back, and the caller keeps the
 *   session and the key it had; nothing is mailed. Without the trigger the same call proves the
 *   address, ends the old session and key, and signs the browser in anew.
 */
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { WorkspaceEntity, WorkspaceMemberEntity } from '../src/modules/teams/workspace.entity.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { call, cookieFrom } from './helpers/http.js';
import { makeTestDataDir } from './helpers/pglite-template.js';
import { mailText, startTestSmtp, type TestSmtp } from './helpers/smtp.js';
import { openTestDatabase, TEST_BACKENDS, type TestDatabase } from './helpers/test-databases.js';

const PASSWORD = 'a sturdy passphrase 42';

describe.each(TEST_BACKENDS)('an invitee proven by the invite (%s)', (backend) => {
  let smtp: TestSmtp;
  let platform: Platform;
  let db: TestDatabase | null = null;
  let url: string;
  let ownerCookie: string;
  let seq = 0;
  const api = (method: string, route: string, body?: unknown, auth?: { cookie?: string; key?: string }) => call(`${url}${route}`, method, body, auth);
  const sql = (query: string, params: unknown[] = []) => platform.orm.em.fork().getConnection().execute(query, params) as Promise<any[]>;
  const address = (prefix: string) => `${prefix}${++seq}-${backend}@firm.example`;

  /** Invites `email` from the owner's team and returns the token of the mail it receives. */
  async function invite(email: string): Promise<string> {
    expect((await api('POST', '/v1/team/invites', { emails: [email] }, { cookie: ownerCookie })).status).toBe(200);
    const text = (await smtp.waitForText(email, /join\?token=/)).replace(/=3D/g, '=');
    return decodeURIComponent(/join\?token=([A-Za-z0-9_%-]+)/.exec(text)![1]!);
  }

  /** Registers `email` (with `extra` in the body) and signs it in: its session cookie. */
  async function register(email: string, extra: Record<string, unknown> = {}): Promise<string> {
    const res = await api('POST', '/auth/register', { email, password: PASSWORD, accept_terms: true, acknowledge_privacy: true, ...extra });
    expect([res.status, res.body.email_verified]).toEqual([200, false]);
    return cookieFrom((await api('POST', '/auth/login', { email, password: PASSWORD })).headers, 'session')!;
  }

  /** The verification mails `email` received, every queued mail sent first. */
  async function verificationMailsTo(email: string): Promise<string[]> {
    await platform.accounts.outbox.drain();
    return smtp.mails.filter((m) => m.to.includes(email.toLowerCase())).map(mailText).filter((text) => /verify-email\?token=/.test(text));
  }

  beforeAll(async () => {
    smtp = await startTestSmtp();
    const dataDir = await makeTestDataDir('invite-proof-e2e-', backend);
    if (backend === 'postgresql') db = await openTestDatabase('postgresql');
    const config = loadConfig({
      DATA_DIR: dataDir,
      PORT: '0',
      EMBEDDER: 'none',
      INGEST_ON_START: 'false',
      DEV_LOGIN: 'true',
      SMTP_URL: smtp.url,
      ...(db ? { DATABASE_URL: String(db.orm.config.get('clientUrl')) } : {}),
    });
    platform = await startPlatform(config, createLogger('silent'));
    url = platform.url!;
    // the owner's team, as a checkout leaves it (teams.e2e buys one through Stripe)
    const owner = await api('POST', '/auth/dev-login', { email: `lead-${backend}@firm.example` });
    ownerCookie = cookieFrom(owner.headers, 'session')!;
    const workspaceId = randomUUID();
    const em = platform.orm.em.fork();
    await em.insert(WorkspaceEntity, { id: workspaceId, owner_user_id: owner.body.id, name: 'Firm', kind: 'team', seat_limit: 10, created_at: new Date() });
    await em.insert(WorkspaceMemberEntity, { user_id: owner.body.id, workspace_id: workspaceId, role: 'owner', joined_at: new Date() });
  }, 300_000);

  afterAll(async () => {
    await platform?.stop();
    await db?.dispose();
    await smtp?.stop();
  });

  it('sends no verification mail to a registration from an invite to the same address; any other registration gets one', async () => {
    const invitee = address('invitee');
    const token = await invite(invitee);
    const cookie = await register(invitee.toUpperCase(), { invite_token: token });
    // the invite's token vouches only for the address it was sent to, and an unknown token for none
    const other = address('other');
    await register(other, { invite_token: token });
    const stranger = address('stranger');
    await register(stranger, { invite_token: 'no-such-invite' });
    const plain = address('plain');
    await register(plain);
    expect(await verificationMailsTo(invitee)).toEqual([]);
    for (const email of [other, stranger, plain]) expect(await verificationMailsTo(email)).toHaveLength(1);
    // the invite page goes on: the token proves the address, and the invitee joins
    const proof = await api('POST', '/auth/verify-email/invite', { token }, { cookie });
    expect(proof.status).toBe(200);
    const fresh = cookieFrom(proof.headers, 'session')!;
    expect((await api('GET', '/auth/me', undefined, { cookie: fresh })).body.user.email_verified).toBe(true);
    expect((await api('POST', '/v1/team/join', { token }, { cookie: fresh })).body).toMatchObject({ joined: true, role: 'member' });
    expect(await verificationMailsTo(invitee)).toEqual([]);
  });

  it('rolls back the proof and issues no session when the unit of work fails at commit; the caller stays signed in', async () => {
    const invitee = address('rollback');
    const token = await invite(invitee);
    const cookie = await register(invitee, { invite_token: token });
    const key = (await api('POST', '/v1/keys', { name: 'before the proof' }, { cookie })).body;
    // a failure the database raises at COMMIT, after every statement of the proof ran
    const fn = `lsp_test_refuse_proof_${backend}`;
    await sql(
      `create function ${fn}() returns trigger language plpgsql as $$ begin if new.email_lower = '${invitee}' and new.email_proven_at is not null then raise exception 'injected: proof refused at commit'; end if; return null; end $$`,
    );
    await sql(`create constraint trigger ${fn} after update on app_user deferrable initially deferred for each row execute function ${fn}()`);
    await platform.accounts.outbox.drain();
    const mailsBefore = smtp.mails.length;
    try {
      const failed = await api('POST', '/auth/verify-email/invite', { token }, { cookie });
      expect(failed.status).toBe(500);
      expect(failed.headers.getSetCookie().filter((c) => c.startsWith('session='))).toEqual([]);
    } finally {
      await sql(`drop trigger ${fn} on app_user`);
      await sql(`drop function ${fn}()`);
    }
    const [row] = await sql('select email_verified, email_proven_at, sessions_valid_after from app_user where email_lower = ?', [invitee]);
    expect(row).toEqual({ email_verified: false, email_proven_at: null, sessions_valid_after: null });
    expect((await api('GET', '/auth/me', undefined, { cookie })).status).toBe(200);
    expect((await api('GET', '/v1/usage/me', undefined, { key: key.key })).status).toBe(200);
    await platform.accounts.outbox.drain();
    expect(smtp.mails.length).toBe(mailsBefore);

    // the same call without the injected failure: proven, the old session and key ended, a new session
    const proof = await api('POST', '/auth/verify-email/invite', { token }, { cookie });
    expect(proof.status).toBe(200);
    const fresh = cookieFrom(proof.headers, 'session')!;
    expect((await api('GET', '/auth/me', undefined, { cookie: fresh })).body.user.email_verified).toBe(true);
    expect((await api('GET', '/auth/me', undefined, { cookie })).status).toBe(401);
    expect((await api('GET', '/v1/usage/me', undefined, { key: key.key })).status).toBe(401);
  });
});
