/**
 * Accounts, sessions, API keys, usage counting and plan limits end to end over real HTTP: a
 * platform on a small slice of the real corpus (embedded PGlite, in-process counters), a real
 * SMTP server receiving the password-reset mail.
 */
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../src/config.js';
import type { AccountCaller } from '../src/context.js';
import { createLogger } from '../src/logger.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { argon2Work } from '../src/modules/accounts/passwords.js';
import { PASSWORD_RESET_ADDRESS_LIMIT, PASSWORD_RESET_IP_LIMIT, REGISTER_LIMIT } from '../src/modules/usage/throttle.js';
import { writeCorpusSlice } from './fixtures/corpus-slice.js';
import { call, cookieFrom } from './helpers/http.js';
import { mailText, startTestSmtp, type TestSmtp } from './helpers/smtp.js';
import { makeTestDataDir } from './helpers/pglite-template.js';

const PASSWORD = 'a sturdy passphrase 42';

describe('accounts, keys, usage and limits (in-process counters)', () => {
  let platform: Platform;
  let smtp: TestSmtp;
  let url: string;
  let seq = 0;
  const api = (method: string, route: string, body?: unknown, auth?: { key?: string; cookie?: string }) => call(`${url}${route}`, method, body, auth);
  /** A call from another client address (the server trusts X-Forwarded-For from loopback, its proxy). */
  const from = (ip: string, method: string, route: string, body?: unknown) => call(`${url}${route}`, method, body, { headers: { 'x-forwarded-for': ip } });

  /** A new account with accepted terms, signed in: its session cookie. */
  async function newAccount(prefix = 'user'): Promise<{ email: string; cookie: string; id: string }> {
    const email = `${prefix}${++seq}@example.org`;
    // each from its own address: registrations are limited per IP (tested below)
    const reg = await from(`10.0.${Math.floor(seq / 200)}.${(seq % 200) + 1}`, 'POST', '/auth/register', { email, password: PASSWORD, name: 'Test', accept_terms: true, acknowledge_privacy: true });
    expect(reg.status).toBe(200);
    const login = await api('POST', '/auth/login', { email, password: PASSWORD });
    expect(login.status).toBe(200);
    return { email, cookie: cookieFrom(login.headers, 'session')!, id: reg.body.id };
  }
  async function newKey(cookie: string, name?: string): Promise<{ id: string; key: string; key_prefix: string; created_at: string }> {
    const res = await api('POST', '/v1/keys', name === undefined ? {} : { name }, { cookie });
    expect(res.status).toBe(200);
    return res.body;
  }

  beforeAll(async () => {
    smtp = await startTestSmtp();
    const corpus = await writeCorpusSlice([{ file: 'legislation/EU-EUR-Lex.jsonl.gz', lines: 30 }]);
    const dataDir = await makeTestDataDir('accounts-e2e-');
    const config = loadConfig({
      DATA_DIR: dataDir,
      CORPUS_DIR: corpus.dir,
      PORT: '0',
      EMBEDDER: 'none',
      ADMIN_EMAILS: 'Admin@Example.org, other-admin@example.org',
      SMTP_URL: smtp.url,
    });
    platform = await startPlatform(config, createLogger('silent'));
    url = platform.url!;
    await platform.ingestDone;
  });

  afterAll(async () => {
    await platform?.stop();
    await smtp?.stop();
  });

  describe('registration', () => {
    it('registers and answers with the user; 409 for the same e-mail in any case', async () => {
      const res = await api('POST', '/auth/register', { email: 'Ann.Smith@Example.org', password: PASSWORD, name: 'Ann', accept_terms: true, acknowledge_privacy: true });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: expect.any(String),
        email: 'Ann.Smith@Example.org',
        name: 'Ann',
        plan: 'free',
        is_admin: false,
        email_verified: false,
        created_at: expect.any(String),
      });
      expect(JSON.stringify(res.body)).not.toMatch(/argon|password/);
      const again = await api('POST', '/auth/register', { email: 'ann.smith@example.ORG', password: PASSWORD });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ detail: 'An account with this email already exists' });
    });

    it('looks the e-mail up before hashing: a taken address costs no argon2 work', async () => {
      const { email } = await newAccount('taken');
      const hashes = argon2Work.hashes;
      const again = await from('203.0.113.20', 'POST', '/auth/register', { email: email.toUpperCase(), password: 'another sturdy passphrase' });
      expect(again).toMatchObject({ status: 409, body: { detail: 'An account with this email already exists' } });
      expect(argon2Work.hashes).toBe(hashes);
    });

    it('limits registrations per IP, with the same answer for taken and new addresses', async () => {
      const ip = '203.0.113.21';
      const { email } = await newAccount('register-limit');
      for (let i = 0; i < REGISTER_LIMIT.limit; i++) {
        expect((await from(ip, 'POST', '/auth/register', { email, password: 'a sturdy passphrase 43' })).status).toBe(409);
      }
      const taken = await from(ip, 'POST', '/auth/register', { email, password: 'a sturdy passphrase 43' });
      const fresh = await from(ip, 'POST', '/auth/register', { email: 'never-registered@example.org', password: 'a sturdy passphrase 43' });
      expect(taken.status).toBe(429);
      expect([fresh.status, fresh.body]).toEqual([taken.status, taken.body]);
      expect(Number(taken.headers.get('retry-after'))).toBeGreaterThan(0);
      // another address still registers
      expect((await from('203.0.113.22', 'POST', '/auth/register', { email: 'never-registered@example.org', password: 'a sturdy passphrase 43' })).status).toBe(200);
    });

    it('answers 422 with FastAPI bodies for bad e-mails, short and common passwords, and missing fields', async () => {
      const res = await api('POST', '/auth/register', { email: 'not-an-email', password: 'short' });
      expect(res.status).toBe(422);
      expect(res.body.detail).toEqual([
        expect.objectContaining({ type: 'value_error', loc: ['body', 'email'], input: 'not-an-email' }),
        expect.objectContaining({ type: 'string_too_short', loc: ['body', 'password'], ctx: { min_length: 10 }, msg: 'String should have at least 10 characters' }),
      ]);
      const common = await api('POST', '/auth/register', { email: 'c@example.org', password: 'Password123' });
      expect(common.status).toBe(422);
      expect(common.body.detail).toEqual([expect.objectContaining({ type: 'value_error', loc: ['body', 'password'], msg: expect.stringMatching(/too common/) })]);
      const missing = await api('POST', '/auth/register', {});
      expect(missing.body.detail.map((d: any) => [d.type, d.loc.join('.')])).toEqual([
        ['missing', 'body.email'],
        ['missing', 'body.password'],
      ]);
    });
  });

  describe('sessions', () => {
    it('sets a 7-day HttpOnly SameSite=Lax session cookie (not Secure on http) and /auth/me reads it', async () => {
      const { email } = await newAccount();
      const login = await api('POST', '/auth/login', { email: email.toUpperCase(), password: PASSWORD });
      expect(login.status).toBe(200);
      expect(login.body.email).toBe(email);
      const set = login.headers.getSetCookie().find((c) => c.startsWith('session='))!;
      expect(set).toMatch(/; HttpOnly/);
      expect(set).toMatch(/; SameSite=Lax/);
      expect(set).toMatch(/; Max-Age=604800/);
      expect(set).toMatch(/; Path=\//);
      expect(set).not.toMatch(/Secure/);
      const me = await api('GET', '/auth/me', undefined, { cookie: set.split(';')[0] });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({
        user: { email, plan: 'free', is_admin: false },
        plan: 'free',
        workspace_role: 'owner',
        legal_acceptance: { accepted: true, terms_version: '2025-01', current_terms_version: '2025-01', accepted_at: expect.any(String) },
      });
      expect((await api('GET', '/auth/me')).status).toBe(401);
      expect((await api('GET', '/auth/me', undefined, { cookie: 'session=forged.jwt.value' })).status).toBe(401);
    });

    it('gives the same 401 for a wrong e-mail and a wrong password; past the free failures one account is slowed down, never locked: a colleague behind the same IP gets in within seconds', async () => {
      const { email } = await newAccount('throttle');
      const { freeFailuresPerAccount } = platform.config.accounts.signInThrottle;
      const office = '203.0.113.50'; // one NAT address for everybody in the office
      const wrongEmail = await from(office, 'POST', '/auth/login', { email: `nobody${seq}@example.org`, password: PASSWORD });
      const wrongPassword = await from(office, 'POST', '/auth/login', { email, password: 'not the password at all' });
      expect(wrongEmail.status).toBe(401);
      expect(wrongPassword.status).toBe(401);
      expect(wrongEmail.body).toEqual(wrongPassword.body);
      expect(wrongEmail.headers.getSetCookie()).toEqual([]);
      for (let i = 1; i < freeFailuresPerAccount; i++) expect((await from(office, 'POST', '/auth/login', { email, password: 'still not it!!' })).status).toBe(401);
      // the owner, from the same address, with the right password: at most a second or two to wait
      let owner = await from(office, 'POST', '/auth/login', { email, password: PASSWORD });
      if (owner.status === 429) {
        const retry = Number(owner.headers.get('retry-after'));
        expect(retry).toBeGreaterThanOrEqual(1);
        expect(retry).toBeLessThanOrEqual(2);
        await new Promise((r) => setTimeout(r, retry * 1000 + 100));
        owner = await from(office, 'POST', '/auth/login', { email, password: PASSWORD });
      }
      expect(owner.status).toBe(200);
      // and the other people of the office were never affected
      const colleague = await newAccount('colleague');
      expect((await from(office, 'POST', '/auth/login', { email: colleague.email, password: PASSWORD })).status).toBe(200);
    });

    it('names the way out in the 429: a password-reset link signs the owner in and clears the failures of the account', async () => {
      const { email } = await newAccount('locked-out');
      const { freeFailuresPerAccount } = platform.config.accounts.signInThrottle;
      // an attacker spends the account's free failures from addresses of its own
      for (let i = 0; i < freeFailuresPerAccount; i++) expect((await from(`192.0.2.${200 + i}`, 'POST', '/auth/login', { email, password: `guess ${i}` })).status).toBe(401);
      const paced = await from('198.51.100.77', 'POST', '/auth/login', { email, password: PASSWORD });
      expect(paced.status).toBe(429);
      expect(paced.body.detail).toMatch(/^Too many failed sign-in attempts on this account: try again in \d+ seconds?, or reset your password \(POST \/auth\/password-reset\/request\): the link in the e-mail signs you in$/);
      expect(Number(paced.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

      expect((await from('198.51.100.77', 'POST', '/auth/password-reset/request', { email })).status).toBe(200);
      // registration mailed a verification link first: wait for the reset mail itself
      const token = /Reset token: ([A-Za-z0-9_-]{43})/.exec(await smtp.waitForText(email, /Reset token: /))![1]!;
      const confirm = await from('198.51.100.77', 'POST', '/auth/password-reset/confirm', { token, password: 'a fresh passphrase 77' });
      expect(confirm.status).toBe(200);
      expect((await api('GET', '/auth/me', undefined, { cookie: cookieFrom(confirm.headers, 'session')! })).status).toBe(200);
      // the reset cleared the account's failures: the free ones are free again, nothing is paced
      for (let i = 1; i < freeFailuresPerAccount; i++) expect((await from('198.51.100.78', 'POST', '/auth/login', { email, password: `typo ${i}` })).status).toBe(401);
      expect((await from('198.51.100.78', 'POST', '/auth/login', { email, password: 'a fresh passphrase 77' })).status).toBe(200);
    });

    it('ends the session server-side at logout: the old cookie is refused, other sessions go on', async () => {
      const { email, cookie } = await newAccount('logout');
      const other = cookieFrom((await api('POST', '/auth/login', { email, password: PASSWORD })).headers, 'session')!;
      expect((await api('GET', '/auth/me', undefined, { cookie })).status).toBe(200);
      const out = await api('POST', '/auth/logout', undefined, { cookie });
      expect(out).toMatchObject({ status: 200, body: { detail: 'Signed out' } });
      expect(out.headers.getSetCookie().find((c) => c.startsWith('session='))).toMatch(/Expires=Thu, 01 Jan 1970/);
      // a client that kept the cookie (or a thief who copied it) is refused, everywhere a session counts
      const me = await api('GET', '/auth/me', undefined, { cookie });
      expect(me).toMatchObject({ status: 401, body: { detail: 'Session expired or signed out; sign in again' } });
      expect((await api('GET', '/v1/keys', undefined, { cookie })).status).toBe(401);
      expect((await api('POST', '/v1/search', { q: 'x' }, { cookie })).status).toBe(401);
      expect((await api('GET', '/auth/me', undefined, { cookie: other })).status).toBe(200);
      // logging out again, or without a session, is harmless
      expect((await api('POST', '/auth/logout', undefined, { cookie })).status).toBe(200);
      expect((await api('POST', '/auth/logout')).status).toBe(200);
    });

    it('lets no cache store credentials or personal data: no-store on /auth/*, /v1/keys, /v1/usage/me and every credentialed response; no HSTS on http', async () => {
      const email = `no-store${++seq}@example.org`;
      const register = await from('10.9.9.9', 'POST', '/auth/register', { email, password: PASSWORD, accept_terms: true, acknowledge_privacy: true });
      const login = await api('POST', '/auth/login', { email, password: PASSWORD });
      const cookie = cookieFrom(login.headers, 'session')!;
      const created = await api('POST', '/v1/keys', { name: 'cache test' }, { cookie });
      expect(created.status).toBe(200);
      const answers = {
        register,
        login,
        me: await api('GET', '/auth/me', undefined, { cookie }),
        createKey: created,
        listKeys: await api('GET', '/v1/keys', undefined, { cookie }),
        usage: await api('GET', '/v1/usage/me', undefined, { cookie }),
        usageWithKey: await api('GET', '/v1/usage/me', undefined, { key: created.body.key }),
        searchWithKey: await api('POST', '/v1/search', { q: 'data protection' }, { key: created.body.key }),
        unauthenticatedMe: await api('GET', '/auth/me'),
        logout: await api('POST', '/auth/logout', undefined, { cookie }),
      };
      for (const [name, res] of Object.entries(answers)) expect([name, res.headers.get('cache-control')]).toEqual([name, 'no-store']);
      // public, anonymous reads stay cacheable, and an http BASE_URL sends no HSTS
      const stats = await api('GET', '/v1/stats');
      expect(stats.status).toBe(200);
      expect(stats.headers.get('cache-control')).not.toBe('no-store');
      expect(stats.headers.get('strict-transport-security')).toBeNull();
      expect(stats.headers.get('x-content-type-options')).toBe('nosniff');
    });

    it('counts sign-in attempts before argon2: 50 parallel wrong guesses verify at most the free failures and one paced attempt', async () => {
      const { email } = await newAccount('parallel');
      const { freeFailuresPerAccount } = platform.config.accounts.signInThrottle;
      const before = argon2Work.verifications;
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => from('203.0.113.7', 'POST', '/auth/login', { email, password: `wrong guess number ${i}` })),
      );
      const verified = argon2Work.verifications - before;
      expect(verified).toBeGreaterThanOrEqual(freeFailuresPerAccount);
      expect(verified).toBeLessThanOrEqual(freeFailuresPerAccount + 1);
      expect(answers.filter((a) => a.status === 401)).toHaveLength(verified);
      expect(answers.filter((a) => a.status === 429)).toHaveLength(50 - verified);
      // the owner waits seconds, from anywhere, the guessing address included
      let owner = await from('203.0.113.7', 'POST', '/auth/login', { email, password: PASSWORD });
      if (owner.status === 429) {
        const wait = Number(owner.headers.get('retry-after'));
        expect(wait).toBeLessThanOrEqual(3);
        await new Promise((r) => setTimeout(r, wait * 1000 + 100));
        owner = await from('203.0.113.7', 'POST', '/auth/login', { email, password: PASSWORD });
      }
      expect(owner.status).toBe(200);
    });

    it('paces guesses on one e-mail from many addresses with short growing delays, never a lock on the owner', async () => {
      const { email } = await newAccount('botnet');
      const before = argon2Work.verifications;
      const started = Date.now();
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => from(`192.0.2.${i + 1}`, 'POST', '/auth/login', { email, password: `botnet guess ${i}` })),
      );
      const verified = argon2Work.verifications - before;
      const { freeFailuresPerAccount, maxDelaySeconds } = platform.config.accounts.signInThrottle;
      // the free failures, then paced attempts at least a second apart
      expect(verified).toBeGreaterThanOrEqual(freeFailuresPerAccount);
      expect(verified).toBeLessThanOrEqual(freeFailuresPerAccount + Math.ceil((Date.now() - started) / 1000));
      expect(answers.filter((a) => a.status === 401)).toHaveLength(verified);
      const refused = answers.filter((a) => a.status === 429);
      expect(refused.length).toBe(50 - verified);
      for (const r of refused) expect(Number(r.headers.get('retry-after'))).toBeLessThanOrEqual(maxDelaySeconds);
      // the owner waits seconds, not a quarter of an hour
      let owner = await from('198.51.100.2', 'POST', '/auth/login', { email, password: PASSWORD });
      if (owner.status === 429) {
        const wait = Number(owner.headers.get('retry-after'));
        expect(wait).toBeLessThanOrEqual(4);
        await new Promise((r) => setTimeout(r, wait * 1000 + 100));
        owner = await from('198.51.100.2', 'POST', '/auth/login', { email, password: PASSWORD });
      }
      expect(owner.status).toBe(200);
    });

    it('DEV_LOGIN is off by default: /auth/dev-login is 404', async () => {
      expect((await api('POST', '/auth/dev-login', { email: 'dev@example.org' })).status).toBe(404);
    });

    it('ADMIN_EMAILS marks administrators (case-insensitive) only once the e-mail is verified', async () => {
      await api('POST', '/auth/register', { email: 'admin@example.org', password: PASSWORD, accept_terms: true, acknowledge_privacy: true });
      const login = await api('POST', '/auth/login', { email: 'admin@example.org', password: PASSWORD });
      // anyone could register a listed address first: listing alone makes no administrator
      expect(login.body).toMatchObject({ is_admin: false, email_verified: false });
      const cookie = cookieFrom(login.headers, 'session')!;
      const usage = await api('GET', '/v1/usage/me', undefined, { cookie });
      expect(usage.body.limits_enforced).toBe(true);

      expect((await api('POST', '/auth/verify-email/request')).status).toBe(401);
      const requested = await api('POST', '/auth/verify-email/request', undefined, { cookie });
      expect(requested.status).toBe(200);
      const mail = await smtp.waitFor('admin@example.org');
      const text = mail.raw.replace(/=\r?\n/g, ""); // quoted-printable soft line breaks
      const token = /Verification token: ([A-Za-z0-9_-]{43})/.exec(text)![1]!;
      const stored = await platform.orm.em.fork().getConnection().execute('select token_hash, expires_at, created_at from password_reset where user_id = (select id from app_user where email_lower = ?)', ['admin@example.org']);
      // one token mailed at registration, one on request; each stored hashed, each valid 24 hours
      expect(stored).toHaveLength(2);
      for (const row of stored) {
        expect(row.token_hash).not.toContain(token);
        expect(new Date(row.expires_at).getTime() - new Date(row.created_at).getTime()).toBe(24 * 3600_000);
      }
      // a verification token is no password-reset token
      expect((await api('POST', '/auth/password-reset/confirm', { token, password: 'a brand new passphrase' })).status).toBe(400);

      const confirmed = await api('POST', '/auth/verify-email/confirm', { token });
      expect(confirmed).toMatchObject({ status: 200, body: { detail: 'Email address verified.' } });
      const again = await api('POST', '/auth/verify-email/confirm', { token });
      expect(again).toMatchObject({ status: 400, body: { detail: 'Invalid or expired email verification token' } });
      const verified = await api('POST', '/auth/login', { email: 'admin@example.org', password: PASSWORD });
      expect(verified.body).toMatchObject({ is_admin: true, email_verified: true });
      // the session from before the verification ended with it (it could be a squatter's: test/account-takeover.e2e.test.ts);
      // the link's holder got a fresh one, an administrator's
      expect((await api('GET', '/auth/me', undefined, { cookie })).status).toBe(401);
      const fresh = cookieFrom(confirmed.headers, 'session')!;
      expect((await api('GET', '/auth/me', undefined, { cookie: fresh })).body.user.is_admin).toBe(true);
      expect((await api('POST', '/auth/verify-email/request', undefined, { cookie: fresh })).body.detail).toMatch(/already verified/);
    });

    it('treats a malformed cookie as invalid credentials: 401, never 500', async () => {
      for (const cookie of ['session=%', 'session=%E0%A4%A', 'a=1; session=%zz']) {
        const me = await api('GET', '/auth/me', undefined, { cookie });
        expect([cookie, me.status]).toEqual([cookie, 401]);
        expect(me.body.detail).toBe('Invalid session cookie; sign in again');
        expect((await api('POST', '/v1/search', { q: 'x' }, { cookie })).status).toBe(401);
      }
      const callback = await api('GET', '/auth/github/callback?code=a&state=b', undefined, { cookie: 'oauth_state=%' });
      expect(callback.status).toBeLessThan(500);
      const legal = await api('POST', '/auth/legal-acceptance', { accept_terms: true, acknowledge_privacy: true }, { cookie: 'legal_acceptance=%' });
      expect(legal.status).toBe(422);
    });
  });

  describe('legal acceptance', () => {
    it('gives no session but a legal_acceptance_token until the terms are accepted, then records acceptance once', async () => {
      const email = `legal${++seq}@example.org`;
      await api('POST', '/auth/register', { email, password: PASSWORD });
      const login = await api('POST', '/auth/login', { email, password: PASSWORD });
      expect(login.status).toBe(200);
      expect(login.body).toEqual({ legal_acceptance_required: true, legal_acceptance_token: expect.any(String), terms_version: '2025-01' });
      expect(cookieFrom(login.headers, 'session')).toBeNull();

      const refused = await api('POST', '/auth/legal-acceptance', { legal_acceptance_token: login.body.legal_acceptance_token, accept_terms: false, acknowledge_privacy: true });
      expect(refused.status).toBe(422);
      expect(refused.body.detail[0].loc).toEqual(['body', 'accept_terms']);
      const forged = await api('POST', '/auth/legal-acceptance', { legal_acceptance_token: 'x.y.z', accept_terms: true, acknowledge_privacy: true });
      expect(forged.status).toBe(401);

      const accepted = await api('POST', '/auth/legal-acceptance', { legal_acceptance_token: login.body.legal_acceptance_token, accept_terms: true, acknowledge_privacy: true });
      expect(accepted.status).toBe(200);
      // single use: the exchange consumed the token
      const replayed = await api('POST', '/auth/legal-acceptance', { legal_acceptance_token: login.body.legal_acceptance_token, accept_terms: true, acknowledge_privacy: true });
      expect(replayed).toMatchObject({ status: 401, body: { detail: 'Invalid or expired legal acceptance token' } });
      expect(cookieFrom(replayed.headers, 'session')).toBeNull();
      expect(accepted.body.email).toBe(email);
      const cookie = cookieFrom(accepted.headers, 'session')!;
      const me = await api('GET', '/auth/me', undefined, { cookie });
      expect(me.body.legal_acceptance).toMatchObject({ accepted: true, terms_version: '2025-01' });
      const [row] = await platform.orm.em.fork().getConnection().execute('select legal_accepted_ip, legal_accepted_at from app_user where email_lower = ?', [email]);
      expect(row.legal_accepted_ip).toMatch(/127\.0\.0\.1/);
      // a second sign-in goes straight to a session
      expect(cookieFrom((await api('POST', '/auth/login', { email, password: PASSWORD })).headers, 'session')).not.toBeNull();
    });
  });

  describe('API keys', () => {
    it('creates sk- keys shown once, lists them without the key, and stops at 10 active keys (revoked ones do not count)', async () => {
      const { cookie } = await newAccount('keys');
      const first = await newKey(cookie);
      expect(first.key).toMatch(/^sk-[0-9A-Za-z]{40}$/);
      expect(first).toEqual({
        id: expect.any(String),
        name: 'Default',
        key_prefix: `sk-${first.key.slice(3, 7)}...${first.key.slice(-4)}`,
        created_at: expect.any(String),
        last_used_at: first.created_at, // not used yet: the spec's timestamp is never null
        revoked: false,
        key: first.key,
        // beside the spec's fields: the account has not proven its address, so the key ends when it does
        ends_when_email_verified: true,
        warning: expect.stringMatching(/revoked when it is/),
      });
      const long = await api('POST', '/v1/keys', { name: 'x'.repeat(101) }, { cookie });
      expect(long.status).toBe(422);
      expect(long.body.detail[0]).toMatchObject({ type: 'string_too_long', loc: ['body', 'name'] });
      for (let i = 2; i <= 10; i++) await newKey(cookie, `key ${i}`);
      const eleventh = await api('POST', '/v1/keys', { name: 'one too many' }, { cookie });
      expect(eleventh.status).toBe(409);
      expect(eleventh.body.detail).toMatch(/at most 10 active keys/);
      const list = await api('GET', '/v1/keys', undefined, { cookie });
      expect(list.body).toHaveLength(10);
      expect(JSON.stringify(list.body)).not.toContain(first.key);
      expect(list.body.every((k: any) => !('key' in k) && k.revoked === false)).toBe(true);
      // revoking one makes room again: the limit counts active keys only
      const revoked = await api('DELETE', `/v1/keys/${first.id}`, undefined, { cookie });
      expect(revoked).toMatchObject({ status: 200, body: { status: 'revoked', id: first.id } });
      const replacement = await newKey(cookie, 'replacement');
      expect((await api('POST', '/v1/keys', {}, { cookie })).status).toBe(409);
      // the revoked key stays listed (11 keys, 10 of them active), newest first
      const after = (await api('GET', '/v1/keys', undefined, { cookie })).body;
      expect(after).toHaveLength(11);
      expect(after[0]).toMatchObject({ id: replacement.id, revoked: false });
      expect(after.find((k: any) => k.id === first.id)).toEqual({
        id: first.id,
        name: 'Default',
        key_prefix: first.key_prefix,
        created_at: first.created_at,
        last_used_at: first.created_at,
        revoked: true,
      });
      expect(after.filter((k: any) => !k.revoked)).toHaveLength(10);
    });

    it('never lets one account see or revoke another account\'s keys', async () => {
      const alice = await newAccount('alice');
      const bob = await newAccount('bob');
      const aliceKey = await newKey(alice.cookie, 'alice');
      expect((await api('GET', '/v1/keys', undefined, { cookie: bob.cookie })).body).toEqual([]);
      const steal = await api('DELETE', `/v1/keys/${aliceKey.id}`, undefined, { cookie: bob.cookie });
      expect(steal.status).toBe(404);
      expect(steal.body).toEqual({ detail: 'API key not found' });
      expect((await api('DELETE', '/v1/keys/not-a-uuid', undefined, { cookie: bob.cookie })).status).toBe(404);
      expect((await api('DELETE', `/v1/keys/${randomUUID()}`, undefined, { cookie: bob.cookie })).status).toBe(404);
      // Alice's key still works
      expect((await api('GET', '/v1/documents/EU/EUR-Lex/none', undefined, { key: aliceKey.key })).status).toBe(404);
    });

    it('revocation takes effect at once, and last_used_at is recorded', async () => {
      const { cookie } = await newAccount('revoke');
      const key = await newKey(cookie);
      expect((await api('POST', '/v1/search', { q: 'regulation', namespace: 'legislation' }, { key: key.key })).status).toBe(200);
      await new Promise((r) => setTimeout(r, 100));
      const listed = (await api('GET', '/v1/keys', undefined, { cookie })).body[0];
      expect(Date.parse(listed.last_used_at)).toBeGreaterThan(Date.parse(listed.created_at));
      expect((await api('DELETE', `/v1/keys/${key.id}`, undefined, { cookie })).body).toEqual({ status: 'revoked', id: key.id });
      const after = await api('POST', '/v1/search', { q: 'regulation', namespace: 'legislation' }, { key: key.key });
      expect(after.status).toBe(401);
      expect(after.body).toEqual({ detail: 'Invalid or revoked API key' });
      // revoking again answers the same; the record keeps its last use
      expect(await api('DELETE', `/v1/keys/${key.id}`, undefined, { cookie })).toMatchObject({ status: 200, body: { status: 'revoked', id: key.id } });
      expect((await api('GET', '/v1/keys', undefined, { cookie })).body).toEqual([{ ...listed, revoked: true }]);
    });
  });

  describe('authentication of billable calls', () => {
    it('refuses search, documents and resolve without credentials (401 + WWW-Authenticate), keeps discovery open', async () => {
      for (const [method, route, body] of [
        ['POST', '/v1/search', { q: 'x' }],
        ['GET', '/v1/documents/EU/EUR-Lex/x', undefined],
        ['GET', '/v1/documents/EU/EUR-Lex?source_id=x', undefined],
        ['POST', '/v1/resolve', { citation: 'Art. 5 GDPR' }],
      ] as const) {
        const res = await api(method, route, body);
        expect([route, res.status]).toEqual([route, 401]);
        expect(res.headers.get('www-authenticate')).toBe('Bearer');
        expect(res.body.detail).toMatch(/Not authenticated/);
      }
      for (const route of ['/v1/stats', '/v1/manifest', '/v1/discover/countries', '/health']) {
        expect([route, (await api('GET', route)).status]).toEqual([route, 200]);
      }
      expect((await api('POST', '/v1/search', { q: 'x' }, { key: 'sk-unknown' })).body).toEqual({ detail: 'Invalid or revoked API key' });
    });

    it('serves a key or a session, with RateLimit headers, and counts every call once (422 too, 429 not)', async () => {
      const { cookie } = await newAccount('count');
      const key = await newKey(cookie);
      const search = await api('POST', '/v1/search', { q: 'regulation', namespace: 'legislation', top_k: 3 }, { key: key.key });
      expect(search.status).toBe(200);
      expect(search.body.hits.length).toBeGreaterThan(0);
      expect(search.headers.get('ratelimit-policy')).toBe('"minute";q=10;w=60, "day";q=20;w=86400, "period";q=600;w=2592000');
      expect(search.headers.get('ratelimit')).toMatch(/^"minute";r=9;t=(59|60)$/);
      expect((await api('POST', '/v1/search', { q: 'regulation', namespace: 'legislation' }, { cookie })).status).toBe(200);
      expect((await api('POST', '/v1/search', { q: '', top_k: 0 }, { key: key.key })).status).toBe(422);
      expect((await api('GET', '/v1/documents/EU/EUR-Lex/missing', undefined, { key: key.key })).status).toBe(404);

      const usage = await api('GET', '/v1/usage/me', undefined, { key: key.key });
      expect(usage.status).toBe(200);
      expect(usage.body).toMatchObject({
        plan: 'free',
        period_type: 'rolling_30d',
        period_end: null,
        requests_today: 4,
        requests_in_period: 4,
        per_minute_limit: 10,
        per_day_limit: 20,
        per_period_limit: 600,
        has_daily_limit: true,
      });
      expect(usage.body.daily_history).toHaveLength(31);
      expect(usage.body.daily_history.at(-1)).toEqual({ date: new Date().toISOString().slice(0, 10), count: 4 });
      expect(usage.body.daily_history.slice(0, -1).every((d: any) => d.count === 0)).toBe(true);
      const rows = await platform.orm.em.fork().getConnection().execute('select endpoint, status, api_key_id from usage_event where user_id = (select id from app_user where email_lower = ?) order by id', [usage.body && (await api('GET', '/auth/me', undefined, { cookie })).body.user.email]);
      expect(rows.map((r: any) => [r.endpoint, r.status, r.api_key_id === key.id])).toEqual([
        ['search', 200, true],
        ['search', 200, false],
        ['search', 422, true],
        ['documents', 404, true],
      ]);
    });

    it('stops at the per-minute limit with 429, a Retry-After until the window frees a slot, and does not count the refusals', async () => {
      const { cookie } = await newAccount('limit');
      const key = await newKey(cookie);
      const started = Date.now();
      for (let i = 0; i < 10; i++) expect((await api('GET', `/v1/documents/EU/EUR-Lex/n${i}`, undefined, { key: key.key })).status).toBe(404);
      const refused = await api('GET', '/v1/documents/EU/EUR-Lex/n10', undefined, { key: key.key });
      expect(refused.status).toBe(429);
      expect(refused.body.detail).toBe('Rate limit exceeded: the Free plan allows 10 requests per minute');
      const retry = Number(refused.headers.get('retry-after'));
      const elapsed = (Date.now() - started) / 1000;
      expect(retry).toBeGreaterThanOrEqual(Math.floor(60 - elapsed) - 1);
      expect(retry).toBeLessThanOrEqual(61);
      expect(refused.headers.get('ratelimit')).toMatch(/^"minute";r=0;t=\d+$/);
      expect((await api('POST', '/v1/search', { q: 'x' }, { cookie })).status).toBe(429);
      const usage = await api('GET', '/v1/usage/me', undefined, { cookie });
      expect(usage.body.requests_today).toBe(10);
    });

    it('counts administrators but never limits them', async () => {
      const login = await api('POST', '/auth/login', { email: 'admin@example.org', password: PASSWORD });
      const cookie = cookieFrom(login.headers, 'session')!;
      for (let i = 0; i < 12; i++) expect((await api('GET', `/v1/documents/EU/EUR-Lex/a${i}`, undefined, { cookie })).status).toBe(404);
      const usage = await api('GET', '/v1/usage/me', undefined, { cookie });
      expect(usage.body).toMatchObject({ requests_today: 12, limits_enforced: false });
    });
  });

  describe('account operation limits (service rule, every door)', () => {
    it('limits GET /v1/usage/me per account with 429 + Retry-After', async () => {
      const { cookie } = await newAccount('usage-limit');
      for (let i = 0; i < 30; i++) expect((await api('GET', '/v1/usage/me', undefined, { cookie })).status).toBe(200);
      const refused = await api('GET', '/v1/usage/me', undefined, { cookie });
      expect(refused.status).toBe(429);
      expect(refused.body.detail).toBe('Too many requests: at most 30 usage requests per 60 seconds');
      const retry = Number(refused.headers.get('retry-after'));
      expect(retry).toBeGreaterThanOrEqual(1);
      expect(retry).toBeLessThanOrEqual(61);
    });

    it('limits key creation per account (refused attempts count too) with 429', async () => {
      const { cookie } = await newAccount('key-limit');
      for (let i = 1; i <= 20; i++) expect((await api('POST', '/v1/keys', {}, { cookie })).status).toBe(i <= 10 ? 200 : 409);
      const refused = await api('POST', '/v1/keys', {}, { cookie });
      expect(refused.status).toBe(429);
      expect(refused.body.detail).toBe('Too many requests: at most 20 create_key requests per 60 seconds');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    });
  });

  describe('password reset', () => {
    it('always answers 200, mails a one-time token, ends other sessions, and refuses the token a second time', async () => {
      const { email, cookie: oldSession } = await newAccount('reset');
      const unknown = await api('POST', '/auth/password-reset/request', { email: 'nobody-here@example.org' });
      const known = await api('POST', '/auth/password-reset/request', { email: email.toUpperCase() });
      expect(unknown.status).toBe(200);
      expect(known.status).toBe(200);
      expect(known.body).toEqual(unknown.body);
      const mail = await smtp.waitForText(email, /Reset token: /);
      expect(smtp.mails.some((m) => m.to.includes('nobody-here@example.org'))).toBe(false);
      const token = /Reset token: ([A-Za-z0-9_-]{43})/.exec(mail)![1]!;
      const [stored] = await platform.orm.em.fork().getConnection().execute('select token_hash from password_reset where user_id = (select id from app_user where email_lower = ?)', [email]);
      expect(stored.token_hash).not.toContain(token);

      const weak = await api('POST', '/auth/password-reset/confirm', { token, password: 'short' });
      expect(weak.status).toBe(422);
      const confirm = await api('POST', '/auth/password-reset/confirm', { token, password: 'a brand new passphrase' });
      expect(confirm.status).toBe(200);
      const newSession = cookieFrom(confirm.headers, 'session')!;
      expect((await api('GET', '/auth/me', undefined, { cookie: newSession })).status).toBe(200);
      expect((await api('GET', '/auth/me', undefined, { cookie: oldSession })).status).toBe(401);
      const again = await api('POST', '/auth/password-reset/confirm', { token, password: 'yet another passphrase' });
      expect(again.status).toBe(400);
      expect(again.body).toEqual({ detail: 'Invalid or expired password reset token' });
      expect((await api('POST', '/auth/login', { email, password: PASSWORD })).status).toBe(401);
      expect((await api('POST', '/auth/login', { email, password: 'a brand new passphrase' })).status).toBe(200);
    });
  });

  describe('password reset throttle', () => {
    it('mails one address at most a few times, answering the same 200 every time', async () => {
      const { email } = await newAccount('reset-bomb');
      const answers = [];
      for (let i = 0; i < PASSWORD_RESET_ADDRESS_LIMIT.limit + 3; i++) answers.push(await from(`198.51.100.${50 + i}`, 'POST', '/auth/password-reset/request', { email }));
      expect(new Set(answers.map((a) => `${a.status} ${JSON.stringify(a.body)}`)).size).toBe(1);
      expect(answers[0]!.status).toBe(200);
      // the mails go out after the answers (src/modules/accounts/mail-outbox.ts): wait until the outbox is empty
      await platform.accounts.outbox.drain();
      // the reset mails only (registration mailed a verification link too)
      expect(smtp.mails.filter((m) => m.to.includes(email) && /Reset token: /.test(mailText(m)))).toHaveLength(PASSWORD_RESET_ADDRESS_LIMIT.limit);
    });

    it('limits reset requests per IP with a 429 that does not depend on the address', async () => {
      const { email } = await newAccount('reset-ip');
      const ip = '198.51.100.90';
      for (let i = 0; i < PASSWORD_RESET_IP_LIMIT.limit; i++) {
        expect((await from(ip, 'POST', '/auth/password-reset/request', { email: `nobody${i}@example.org` })).status).toBe(200);
      }
      const known = await from(ip, 'POST', '/auth/password-reset/request', { email });
      const unknown = await from(ip, 'POST', '/auth/password-reset/request', { email: 'nobody-at-all@example.org' });
      expect(known.status).toBe(429);
      expect([unknown.status, unknown.body]).toEqual([known.status, known.body]);
    });
  });

  describe('account deletion', () => {
    it('needs the exact word DELETE, then removes the account and its keys and anonymises its usage', async () => {
      const { cookie, id } = await newAccount('delete');
      const key = await newKey(cookie);
      expect((await api('GET', '/v1/documents/EU/EUR-Lex/zz', undefined, { key: key.key })).status).toBe(404);
      const wrong = await api('DELETE', '/auth/me', { confirmation: 'delete' }, { cookie });
      expect(wrong.status).toBe(422);
      expect(wrong.body.detail[0]).toMatchObject({ loc: ['body', 'confirmation'], msg: "Input should be 'DELETE'" });
      const ok = await api('DELETE', '/auth/me', { confirmation: 'DELETE' }, { cookie });
      expect(ok.status).toBe(200);
      expect((await api('GET', '/auth/me', undefined, { cookie })).status).toBe(401);
      expect((await api('GET', '/v1/documents/EU/EUR-Lex/zz', undefined, { key: key.key })).status).toBe(401);
      const connection = platform.orm.em.fork().getConnection();
      expect(await connection.execute('select id from api_key where user_id = ?', [id])).toEqual([]);
      expect(await connection.execute('select id from usage_event where user_id = ?', [id])).toEqual([]);
      const [{ n }] = await connection.execute("select count(*) as n from usage_event where user_id is null and endpoint = 'documents'");
      expect(Number(n)).toBeGreaterThanOrEqual(1);
    });

    it('anonymises the account\'s feedback reports in the same deletion', async () => {
      const { cookie, id } = await newAccount('delete-feedback');
      const key = await newKey(cookie);
      const connection = platform.orm.em.fork().getConnection();
      await connection.execute(
        `insert into feedback_report (id, user_id, api_key_id, source, source_id, issue_type, description, status, channel, created_at)
         values (?, ?, ?, 'EU/EUR-Lex', null, 'other', 'a report that outlives its reporter', 'open', 'rest', ?)`,
        [randomUUID(), id, key.id, new Date()],
        'run',
      );
      expect((await api('DELETE', '/auth/me', { confirmation: 'DELETE' }, { cookie })).status).toBe(200);
      expect(await connection.execute('select id from feedback_report where user_id = ? or api_key_id = ?', [id, key.id])).toEqual([]);
      const [{ n }] = await connection.execute("select count(*) as n from feedback_report where description = 'a report that outlives its reporter' and user_id is null and api_key_id is null");
      expect(Number(n)).toBe(1);
    });

    it('anonymises usage rows of calls still running or queued when the account goes', async () => {
      const { cookie, id } = await newAccount('delete-inflight');
      const ctx = platform.contexts.forCaller((await platform.accounts.authenticator.authenticate({ authorization: undefined, cookie, ip: '127.0.0.1' })) as AccountCaller);
      // a billable call whose work outlasts the account: its row is queued after the deletion
      await platform.accounts.usage.charge(ctx, 'search', () => platform.accounts.accounts.deleteMe(ctx, { confirmation: 'DELETE' }));
      await platform.accounts.usage.flush();
      const connection = platform.orm.em.fork().getConnection();
      expect(await connection.execute('select id from usage_event where user_id = ?', [id])).toEqual([]);
      const rows = await connection.execute("select user_id, api_key_id from usage_event where endpoint = 'search' and client_ip is null and user_id is null");
      expect(rows.length).toBeGreaterThanOrEqual(1);
    });
  });
});
