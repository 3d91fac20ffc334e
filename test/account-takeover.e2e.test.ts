/**
 * Account pre-hijacking (issue #31 item 2; Sudhodanan & Paverd 2022): someone registers an
 * address that is not theirs, here one listed in ADMIN_EMAILS, and arms the account with
 * credentials (a session, an API key, an OAuth grant) before the real owner proves the address.
 * At the proof (a verification link, a password-reset link, a verified identity-provider sign-in)
 * every credential made before it ends, in the proof's transaction, and the owner's mail says
 * what ended. Real HTTP, a real SMTP server, the real OAuth flow, embedded PGlite.
 */
import { loadConfig } from '../src/config.js';
import type { AccountCaller } from '../src/context.js';
import { createLogger } from '../src/logger.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { writeCorpusSlice } from './fixtures/corpus-slice.js';
import { call, cookieFrom, freePort } from './helpers/http.js';
import { authorizeAgentWithPassword, mcpStatus, refreshStatus } from './helpers/oauth-grant.js';
import { mailText, startTestSmtp, type TestSmtp } from './helpers/smtp.js';
import { makeTestDataDir } from './helpers/pglite-template.js';

const SQUATTER_PASSWORD = 'the squatter passphrase 1';
const OWNER_PASSWORD = 'the real owner passphrase 2';

describe('credentials made before an address is proven end when it is proven', () => {
  let platform: Platform;
  let smtp: TestSmtp;
  let base: string;
  let seq = 0;
  /** Each registration from its own client address (registrations are limited per IP). */
  const register = (email: string, password: string) =>
    call(`${base}/auth/register`, 'POST', { email, password, accept_terms: true, acknowledge_privacy: true }, { headers: { 'x-forwarded-for': `10.31.0.${++seq}` } });
  const login = async (email: string, password: string) => {
    const res = await call(`${base}/auth/login`, 'POST', { email, password });
    expect(res.status).toBe(200);
    return cookieFrom(res.headers, 'session')!;
  };
  const createKey = async (cookie: string, name: string) => {
    const res = await call(`${base}/v1/keys`, 'POST', { name }, { cookie });
    expect(res.status).toBe(200);
    return res.body as { id: string; key: string; key_prefix: string; ends_when_email_verified?: boolean; warning?: string };
  };
  const token = (text: string, label: string) => new RegExp(`${label}: ([A-Za-z0-9_-]{43})`).exec(text)![1]!;
  const usedResetTokens = new Set<string>();
  /** The reset token of the newest reset mail to `email` not used yet. */
  const nextResetToken = async (email: string) => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      for (const mail of smtp.mails.filter((m) => m.to.includes(email))) {
        const found = /Reset token: ([A-Za-z0-9_-]{43})/.exec(mailText(mail))?.[1];
        if (found && !usedResetTokens.has(found)) {
          usedResetTokens.add(found);
          return found;
        }
      }
      if (Date.now() > deadline) throw new Error(`no new reset mail to ${email}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  /** Asks a reset for `email` and confirms it from the mail (with `extra` body fields); the new session. */
  const resetPassword = async (email: string, extra: Record<string, unknown> = {}) => {
    expect((await call(`${base}/auth/password-reset/request`, 'POST', { email })).status).toBe(200);
    const confirmed = await call(`${base}/auth/password-reset/confirm`, 'POST', { token: await nextResetToken(email), password: OWNER_PASSWORD, ...extra });
    expect(confirmed.status).toBe(200);
    return cookieFrom(confirmed.headers, 'session')!;
  };
  const userId = async (email: string) =>
    ((await platform.orm.em.fork().getConnection().execute('select id from app_user where email_lower = ?', [email])) as { id: string }[])[0]!.id;
  const grantCount = async (email: string) => {
    const [{ n }] = (await platform.orm.em
      .fork()
      .getConnection()
      .execute("select count(*)::int as n from oauth_model where model = 'Grant' and payload->>'accountId' = ?", [await userId(email)])) as { n: number }[];
    return n;
  };

  beforeAll(async () => {
    smtp = await startTestSmtp();
    const corpus = await writeCorpusSlice([{ file: 'legislation/EU-EUR-Lex.jsonl.gz', lines: 5 }]);
    const dataDir = await makeTestDataDir('takeover-e2e-');
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const config = loadConfig({
      DATA_DIR: dataDir,
      CORPUS_DIR: corpus.dir,
      PORT: String(port),
      BASE_URL: base,
      EMBEDDER: 'none',
      ADMIN_EMAILS: 'boss@firm.example',
      SMTP_URL: smtp.url,
    });
    platform = await startPlatform(config, createLogger('silent'));
    await platform.ingestDone;
  });

  afterAll(async () => {
    smtp?.release();
    await platform?.stop();
    await smtp?.stop();
  });

  it("refuses the squatter's key, session and OAuth grant once the owner resets the password and verifies the address", async () => {
    const email = 'boss@firm.example';
    // the squatter registers the administrator's address first and arms the account
    expect((await register(email, SQUATTER_PASSWORD)).body).toMatchObject({ email_verified: false, is_admin: false });
    const squatterSession = await login(email, SQUATTER_PASSWORD);
    const key = await createKey(squatterSession, 'squatter integration');
    const agent = await authorizeAgentWithPassword(base, email, SQUATTER_PASSWORD, 'Squatter agent');
    expect(await mcpStatus(base, agent.accessToken)).toBe(200);
    // and asks for the verification mail the owner may click, which would make the account an administrator
    expect((await call(`${base}/auth/verify-email/request`, 'POST', undefined, { cookie: squatterSession })).status).toBe(200);
    const verification = token(await smtp.waitForText(email, /Verification token: /), 'Verification token');

    // the owner takes the address back: a reset from the mail, then the verification link
    const ownerSession = await resetPassword(email);
    expect((await call(`${base}/auth/verify-email/confirm`, 'POST', { token: verification })).status).toBe(200);

    expect((await call(`${base}/v1/admin/users`, 'GET', undefined, { key: key.key })).status).toBe(401);
    expect((await call(`${base}/auth/me`, 'GET', undefined, { key: key.key })).status).toBe(401);
    expect((await call(`${base}/auth/me`, 'GET', undefined, { cookie: squatterSession })).status).toBe(401);
    expect(await mcpStatus(base, agent.accessToken)).toBe(401);
    expect(await refreshStatus(base, agent)).toBe(400);
    expect(await grantCount(email)).toBe(0);
    expect((await call(`${base}/v1/keys`, 'GET', undefined, { cookie: ownerSession })).body).toEqual([expect.objectContaining({ id: key.id, revoked: true })]);

    // the mail after the proof says what ended, without any secret
    const ended = await smtp.waitForText(email, /were ended/);
    expect(ended).toMatch(/all sessions/i);
    expect(ended).toContain(`squatter integration (${key.key_prefix})`);
    expect(ended).toContain('Squatter agent');
    expect(ended).not.toContain(key.key);

    // the owner is the administrator now, with credentials of their own
    const me = await call(`${base}/auth/me`, 'GET', undefined, { cookie: ownerSession });
    expect(me.body.user).toMatchObject({ is_admin: true, email_verified: true });
    const ownerKey = await createKey(ownerSession, 'owner key');
    expect(ownerKey.ends_when_email_verified).toBeUndefined();
    expect((await call(`${base}/v1/admin/users`, 'GET', undefined, { key: ownerKey.key })).status).toBe(200);
    expect((await call(`${base}/auth/login`, 'POST', { email, password: SQUATTER_PASSWORD })).status).toBe(401);
  });

  it('verification alone ends the key and the session made before it, and warns at key creation', async () => {
    const email = 'verify-only@example.org';
    await register(email, SQUATTER_PASSWORD);
    const session = await login(email, SQUATTER_PASSWORD);
    const key = await createKey(session, 'before proof');
    expect(key.ends_when_email_verified).toBe(true);
    expect(key.warning).toMatch(/verif/i);
    expect((await call(`${base}/auth/me`, 'GET', undefined, { key: key.key })).status).toBe(200);

    expect((await call(`${base}/auth/verify-email/request`, 'POST', undefined, { cookie: session })).status).toBe(200);
    const verification = token(await smtp.waitForText(email, /Verification token: /), 'Verification token');
    const confirmed = await call(`${base}/auth/verify-email/confirm`, 'POST', { token: verification });
    expect(confirmed.status).toBe(200);

    expect((await call(`${base}/auth/me`, 'GET', undefined, { key: key.key })).status).toBe(401);
    expect((await call(`${base}/auth/me`, 'GET', undefined, { cookie: session })).status).toBe(401);
    const ended = await smtp.waitForText(email, /were ended/);
    expect(ended).toContain(`before proof (${key.key_prefix})`);
    // the link holder proved the mailbox: they get a fresh session, as from a reset link
    const fresh = cookieFrom(confirmed.headers, 'session')!;
    expect((await call(`${base}/auth/me`, 'GET', undefined, { cookie: fresh })).body.user.email_verified).toBe(true);
    // keys made after the proof stand
    const after = await createKey(fresh, 'after proof');
    expect(after.ends_when_email_verified).toBeUndefined();
    expect((await call(`${base}/auth/me`, 'GET', undefined, { key: after.key })).status).toBe(200);
  });

  it('a reset ends sessions and grants made after the proof, keeps keys made after it unless revoke_api_keys is true', async () => {
    const email = 'proven@example.org';
    await register(email, SQUATTER_PASSWORD);
    // proven by a first reset; everything below is made after the proof
    await resetPassword(email);
    // OAuth codes and tokens carry their issue time in whole seconds: one issued in the second of
    // the reset counts as issued before it (refused, on the safe side), so the agent comes later
    await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 10));
    const session = await login(email, OWNER_PASSWORD);
    const key = await createKey(session, 'ci pipeline');
    expect(key.ends_when_email_verified).toBeUndefined();
    const agent = await authorizeAgentWithPassword(base, email, OWNER_PASSWORD, 'Desk agent');
    expect(await mcpStatus(base, agent.accessToken)).toBe(200);

    const invalid = await call(`${base}/auth/password-reset/confirm`, 'POST', { token: 'x', password: OWNER_PASSWORD, revoke_api_keys: 'perhaps' });
    expect(invalid.status).toBe(422);
    expect(invalid.body.detail[0].loc).toEqual(['body', 'revoke_api_keys']);

    const afterReset = await resetPassword(email);
    expect((await call(`${base}/auth/me`, 'GET', undefined, { cookie: session })).status).toBe(401);
    expect(await mcpStatus(base, agent.accessToken)).toBe(401);
    expect(await refreshStatus(base, agent)).toBe(400);
    expect(await grantCount(email)).toBe(0);
    expect((await call(`${base}/auth/me`, 'GET', undefined, { key: key.key })).status).toBe(200);
    const kept = await smtp.waitForText(email, /still active/);
    expect(kept).toContain(`ci pipeline (${key.key_prefix})`);
    expect(kept).toContain('Desk agent');
    expect(kept).toMatch(/revoke/i);
    expect((await call(`${base}/auth/me`, 'GET', undefined, { cookie: afterReset })).status).toBe(200);

    await resetPassword(email, { revoke_api_keys: true });
    expect((await call(`${base}/auth/me`, 'GET', undefined, { key: key.key })).status).toBe(401);
    const revoked = await smtp.waitForText(email, /API keys revoked: .*ci pipeline/);
    expect(revoked).toContain(key.key_prefix);
  });

  it('leaves no key behind from a request authenticated just before the proof committed', async () => {
    const email = 'race@example.org';
    await register(email, SQUATTER_PASSWORD);
    const session = await login(email, SQUATTER_PASSWORD);
    const key = await createKey(session, 'squatter');
    const authenticate = async (credentials: { cookie?: string; authorization?: string }) =>
      (await platform.accounts.authenticator.authenticate({ authorization: credentials.authorization, cookie: credentials.cookie, ip: '127.0.0.1' })) as AccountCaller;
    // both requests passed authentication; then the owner's reset commits; then they reach the key store
    const bySession = await authenticate({ cookie: session });
    const byKey = await authenticate({ authorization: `Bearer ${key.key}` });
    expect([bySession.kind, byKey.kind]).toEqual(['user', 'api_key']);
    await resetPassword(email);
    for (const caller of [bySession, byKey]) {
      await expect(platform.accounts.apiKeys.create(platform.contexts.forCaller(caller), { name: 'slipped in' })).rejects.toMatchObject({ code: 'unauthorized' });
    }
    const names = ((await platform.orm.em.fork().getConnection().execute('select name from api_key where user_id = ?', [await userId(email)])) as { name: string }[]).map((r) => r.name);
    expect(names).toEqual(['squatter']);
  });

  it('answers a reset request before the mail is handed to the mail server, for a known address as for an unknown one', async () => {
    const email = 'slow-mail@example.org';
    await register(email, SQUATTER_PASSWORD);
    smtp.hold();
    try {
      const timeout = new Promise<'timed out'>((resolve) => setTimeout(() => resolve('timed out'), 5000).unref());
      for (const address of [email, 'nobody-at-all@example.org']) {
        const answer = await Promise.race([call(`${base}/auth/password-reset/request`, 'POST', { email: address }), timeout]);
        expect(answer).toMatchObject({ status: 200 });
      }
    } finally {
      smtp.release();
    }
    await smtp.waitForText(email, /Reset token: /);
  });
});
