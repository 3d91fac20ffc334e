/**
 * Team workspaces end to end over real HTTP, on embedded PGlite and on real PostgreSQL: the team
 * is bought through the real `stripe` client against the local Stripe server (its webhooks
 * signed as Stripe signs them), invite mails are received by a real SMTP server started here,
 * allowed domains are proven through a real DNS server on a local port (DNS_SERVERS).
 */
import Stripe from 'stripe';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { PLANS } from '../src/modules/usage/plans.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { call, cookieFrom } from './helpers/http.js';
import { startTestDns, type TestDns } from './helpers/dns-server.js';
import { startTestSmtp, type TestSmtp } from './helpers/smtp.js';
import { startLocalStripe, type LocalStripe } from './helpers/stripe-server.js';
import { openTestDatabase, TEST_BACKENDS, type TestDatabase } from './helpers/test-databases.js';
import { makeTestDataDir } from './helpers/pglite-template.js';

const PASSWORD = 'a sturdy passphrase 42';
const WEBHOOK_SECRET = 'whsec_test_teams_e2e';
const signer = new Stripe('sk_test_signer');

interface Account {
  id: string;
  email: string;
  cookie: string;
}

describe.each(TEST_BACKENDS)('team workspaces (%s)', (backend) => {
  let stripeServer: LocalStripe;
  let smtp: TestSmtp;
  let dns: TestDns;
  let platform: Platform;
  let db: TestDatabase | null = null;
  let url: string;
  let seq = 0;
  const api = (method: string, route: string, body?: unknown, auth?: { key?: string; cookie?: string }) => call(`${url}${route}`, method, body, auth);
  const sql = (query: string, params: unknown[] = []) => platform.orm.em.fork().getConnection().execute(query, params) as Promise<any[]>;
  const as = (account: Account) => ({ cookie: account.cookie });

  /** A signed-in account with a verified address (DEV_LOGIN). */
  async function verified(prefix: string, domain = 'example.org'): Promise<Account> {
    const email = `${prefix}${++seq}-${backend}@${domain}`;
    const res = await api('POST', '/auth/dev-login', { email });
    expect(res.status).toBe(200);
    return { id: res.body.id, email, cookie: cookieFrom(res.headers, 'session')! };
  }

  async function deliver(event: object) {
    const payload = JSON.stringify(event);
    const header = signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const res = await fetch(`${url}/v1/billing/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': header }, body: payload });
    expect(res.status).toBe(200);
  }

  /** `owner` buys `seats` Professional seats through checkout and Stripe's webhook; returns the subscription id. */
  async function buyTeam(owner: Account, seats: number, name = 'Firm'): Promise<string> {
    const res = await api('POST', '/v1/billing/checkout', { plan: 'professional', interval: 'monthly', quantity: seats, workspace_name: name, legal_accepted: true }, as(owner));
    expect(res.status).toBe(200);
    const sessionId = /\/c\/pay\/(cs_test_\w+)$/.exec(res.body.checkout_url)![1]!;
    const session = stripeServer.completeSession(sessionId);
    await deliver(stripeServer.event('checkout.session.completed', session));
    return session.subscription as string;
  }

  async function team(seats: number): Promise<{ owner: Account; subscriptionId: string; workspaceId: string }> {
    const owner = await verified('owner');
    const subscriptionId = await buyTeam(owner, seats);
    const view = await api('GET', '/v1/team', undefined, as(owner));
    return { owner, subscriptionId, workspaceId: view.body.workspace.id };
  }

  /** Mails the invites, receives them, and returns the token of the mail to `to`. */
  async function tokenMailedTo(to: string): Promise<string> {
    const text = (await smtp.waitForText(to, /join\?token=/)).replace(/=3D/g, '=');
    return decodeURIComponent(/join\?token=([A-Za-z0-9_%-]+)/.exec(text)![1]!);
  }

  async function member(owner: Account, prefix = 'member'): Promise<Account> {
    const account = await verified(prefix);
    expect((await api('POST', '/v1/team/invites', { emails: [account.email] }, as(owner))).status).toBe(200);
    const join = await api('POST', '/v1/team/join', { token: await tokenMailedTo(account.email) }, as(account));
    expect(join.status).toBe(200);
    return account;
  }

  /** The workspace's claim of `domain` as GET /v1/team shows it to `owner`. */
  async function claimOf(owner: Account, domain: string): Promise<any> {
    return (await api('GET', '/v1/team', undefined, as(owner))).body.workspace.domains.find((d: any) => d.domain === domain);
  }

  /** Publishes the TXT record the owner's workspace was given for `domain` (listed already). */
  async function publish(owner: Account, domain: string, alsoKeep: string[] = []): Promise<string> {
    const { verification } = await claimOf(owner, domain);
    expect(verification).toEqual({ type: 'TXT', name: `_legal-search-challenge.${domain}`, value: expect.stringMatching(/^legal-search-domain-verification=[0-9a-f]{32}$/) });
    dns.setTxt(verification.name, [...alsoKeep, verification.value]);
    return verification.value;
  }

  /** Lists `domain`, publishes its record and checks it: verified. */
  async function prove(owner: Account, domain: string): Promise<void> {
    expect((await api('PUT', '/v1/team/domains', { domains: [domain] }, as(owner))).status).toBe(200);
    await publish(owner, domain);
    const checked = await api('POST', `/v1/team/domains/${encodeURIComponent(domain)}/check`, undefined, as(owner));
    expect([checked.status, checked.body.status]).toEqual([200, 'verified']);
  }

  /** Makes the background re-check due for `domain`'s claims now (the interval is 24 h). */
  async function dueNow(domain: string): Promise<void> {
    await sql(`update workspace_domain set next_check_at = now() - interval '1 second' where domain = ?`, [domain]);
  }

  /** Polls `probe` until `done` holds (the timer's sweep runs every second). */
  async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (done(value) || Date.now() > deadline) return value;
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  beforeAll(async () => {
    stripeServer = await startLocalStripe();
    smtp = await startTestSmtp();
    dns = await startTestDns();
    const dataDir = await makeTestDataDir('teams-e2e-', backend);
    if (backend === 'postgresql') db = await openTestDatabase('postgresql');
    const config = loadConfig({
      DATA_DIR: dataDir,
      PORT: '0',
      EMBEDDER: 'none',
      INGEST_ON_START: 'false',
      DEV_LOGIN: 'true',
      SMTP_URL: smtp.url,
      STRIPE_SECRET_KEY: 'sk_test_platform',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: stripeServer.url,
      STRIPE_TIMEOUT_MS: '2000',
      STRIPE_MAX_NETWORK_RETRIES: '0',
      DNS_SERVERS: dns.servers,
      DNS_TIMEOUT_MS: '300',
      DNS_TRIES: '1',
      // the background re-check looks for due domains every second here (24 h stays the re-check interval)
      TEAM_DOMAIN_SWEEP_SECONDS: '1',
      ...(db ? { DATABASE_URL: String(db.orm.config.get('clientUrl')) } : {}),
    });
    platform = await startPlatform(config, createLogger('silent'));
    url = platform.url!;
  }, 300_000);

  afterAll(async () => {
    await platform?.stop();
    await db?.dispose();
    await stripeServer?.stop();
    await smtp?.stop();
    await dns?.stop();
  });

  it('answers 401 without credentials, and the personal workspace for an account in no team', async () => {
    expect((await api('GET', '/v1/team')).status).toBe(401);
    const alone = await verified('alone');
    const view = await api('GET', '/v1/team', undefined, as(alone));
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ workspace: { id: null, kind: 'personal', plan: 'free', seat_limit: 1, seats_used: 1 }, role: 'owner', members: [{ user_id: alone.id, role: 'owner' }], invites: [] });
  });

  it('makes the buyer of a per-seat plan the owner of a team workspace with seat_limit = quantity', async () => {
    const { owner } = await team(3);
    const view = await api('GET', '/v1/team', undefined, as(owner));
    expect(view.body).toMatchObject({
      workspace: { kind: 'team', name: 'Firm', plan: 'professional', seat_limit: 3, seats_used: 1, allowed_domains: [] },
      role: 'owner',
      members: [{ user_id: owner.id, email: owner.email, role: 'owner', requests_in_period: 0 }],
      invites: [],
      join_link: null,
    });
  });

  describe('invites', () => {
    it('accepts 50 addresses and refuses 51, an empty list and an invalid address (its index in loc)', async () => {
      const { owner } = await team(51);
      const fifty = Array.from({ length: 50 }, (_, i) => `Bulk${i}-${backend}@Example.org`);
      const tooMany = await api('POST', '/v1/team/invites', { emails: [...fifty, 'one-more@example.org'] }, as(owner));
      expect([tooMany.status, tooMany.body.detail[0].loc, tooMany.body.detail[0].type]).toEqual([422, ['body', 'emails'], 'too_long']);
      expect((await api('POST', '/v1/team/invites', { emails: [] }, as(owner))).status).toBe(422);
      const invalid = await api('POST', '/v1/team/invites', { emails: ['ok@example.org', 'fine@example.org', 'not-an-address'] }, as(owner));
      expect(invalid.status).toBe(422);
      expect(invalid.body.detail.map((d: any) => d.loc)).toEqual([['body', 'emails', 2]]);
      // only plain addresses: a display name, angle brackets, a space, a control character or a
      // second address would reach the mail headers or show up as someone else in the team list
      const disguised = ['<a@b.example>', 'Boss <boss@example.org>', 'a b@example.org', 'a@example.org\r\nBcc: x@example.org', 'a@example.org,b@example.org', '"a"@example.org'];
      const refused = await api('POST', '/v1/team/invites', { emails: ['ok@example.org', ...disguised] }, as(owner));
      expect(refused.status).toBe(422);
      expect(refused.body.detail.map((d: any) => d.loc)).toEqual(disguised.map((_, i) => ['body', 'emails', i + 1]));
      const ok = await api('POST', '/v1/team/invites', { emails: fifty }, as(owner));
      expect(ok.status).toBe(200);
      expect(ok.body.invites).toHaveLength(50);
      expect(ok.body.invites[0]).toEqual({ id: expect.any(String), email: `bulk0-${backend}@example.org`, invited_by: owner.id, created_at: expect.any(String), expires_at: expect.any(String) });
      const validDays = (Date.parse(ok.body.invites[0].expires_at) - Date.parse(ok.body.invites[0].created_at)) / 86_400_000;
      expect(validDays).toBe(14);
      expect((await api('GET', '/v1/team', undefined, as(owner))).body.workspace.seats_used).toBe(51);
      // tokens are stored hashed: the mailed token appears nowhere in the table
      const token = await tokenMailedTo(`bulk7-${backend}@example.org`);
      const rows = await sql('select token_hash from workspace_invite where email_lower = ?', [`bulk7-${backend}@example.org`]);
      expect(rows).toHaveLength(1);
      expect(rows[0].token_hash).not.toContain(token);
    });

    it('is all or nothing at the seat limit: 409 naming the free seats, nothing stored, no mail sent', async () => {
      const { owner, workspaceId } = await team(3);
      const emails = ['a', 'b', 'c'].map((p) => `${p}-full-${backend}@example.org`);
      // invite mails to these addresses (registrations mail verification links to theirs meanwhile)
      const inviteMails = () => smtp.mails.filter((m) => emails.some((e) => m.to.includes(e))).length;
      const mailsBefore = inviteMails();
      const refused = await api('POST', '/v1/team/invites', { emails }, as(owner));
      expect(refused.status).toBe(409);
      expect(refused.body.detail).toMatch(/2 seat\(s\) free/);
      expect(await sql('select * from workspace_invite where workspace_id = ?', [workspaceId])).toEqual([]);
      await new Promise((r) => setTimeout(r, 300));
      expect(inviteMails()).toBe(mailsBefore);
      // skipped addresses are reported and take no seat
      const first = await api('POST', '/v1/team/invites', { emails: [emails[0], owner.email.toUpperCase()] }, as(owner));
      expect(first.body.skipped).toEqual([{ email: owner.email, reason: 'already_member' }]);
      const second = await api('POST', '/v1/team/invites', { emails: [emails[0], emails[1], emails[1]] }, as(owner));
      expect(second.body).toMatchObject({ invites: [{ email: emails[1] }], skipped: [{ email: emails[0], reason: 'already_invited' }, { email: emails[1], reason: 'duplicate' }] });
      // revoking frees the seat
      const third = await api('POST', '/v1/team/invites', { emails: [emails[2]] }, as(owner));
      expect(third.status).toBe(409);
      const revoked = await api('DELETE', `/v1/team/invites/${first.body.invites[0].id}`, undefined, as(owner));
      expect(revoked.body).toEqual({ status: 'revoked', id: first.body.invites[0].id });
      expect((await api('POST', '/v1/team/invites', { emails: [emails[2]] }, as(owner))).status).toBe(200);
      expect((await api('DELETE', '/v1/team/invites/not-a-uuid', undefined, as(owner))).body.detail[0].loc).toEqual(['path', 'invite_id']);
    });

    it('mails a one-time token bound to the verified address it was sent to', async () => {
      const { owner, workspaceId } = await team(4);
      const invitee = await verified('invitee');
      const stranger = await verified('stranger');
      expect((await api('POST', '/v1/team/invites', { emails: [invitee.email] }, as(owner))).status).toBe(200);
      expect(await smtp.waitForText(invitee.email, /join\?token=/)).toContain('Firm');
      const token = await tokenMailedTo(invitee.email);
      expect((await api('POST', '/v1/team/join', { token }, as(stranger))).status).toBe(403);
      expect((await api('POST', '/v1/team/join', { token })).status).toBe(401);
      expect((await api('POST', '/v1/team/join', {}, as(invitee))).status).toBe(422);
      const joined = await api('POST', '/v1/team/join', { token }, as(invitee));
      expect(joined.body).toEqual({ workspace_id: workspaceId, name: 'Firm', role: 'member', joined: true });
      // joining twice changes nothing; the used token works for nobody else
      expect((await api('POST', '/v1/team/join', { token }, as(invitee))).body).toMatchObject({ joined: false });
      expect((await api('POST', '/v1/team/join', { token }, as(stranger))).status).toBe(404);
      const view = (await api('GET', '/v1/team', undefined, as(invitee))).body;
      expect(view.members.map((m: any) => [m.user_id, m.role])).toEqual([[owner.id, 'owner'], [invitee.id, 'member']]);
      expect(view.invites).toEqual([]);
      expect(view).not.toHaveProperty('join_link');
      // an address that is not verified cannot take its invite
      const unverifiedEmail = `unverified${++seq}-${backend}@example.org`;
      await api('POST', '/auth/register', { email: unverifiedEmail, password: PASSWORD, accept_terms: true, acknowledge_privacy: true });
      const login = await api('POST', '/auth/login', { email: unverifiedEmail, password: PASSWORD });
      await api('POST', '/v1/team/invites', { emails: [unverifiedEmail] }, as(owner));
      const unverifiedToken = await tokenMailedTo(unverifiedEmail);
      expect((await api('POST', '/v1/team/join', { token: unverifiedToken }, { cookie: cookieFrom(login.headers, 'session')! })).status).toBe(403);
    });
  });

  describe('join link', () => {
    it('works for anyone signed in; rotating stops the old one; disabling stops it', async () => {
      const { owner, workspaceId } = await team(5);
      const created = await api('POST', '/v1/team/join-link', undefined, as(owner));
      expect(created.body.join_link).toEqual({ token: expect.any(String), url: expect.stringContaining('/dashboard/team/join?token='), created_at: expect.any(String) });
      const old = created.body.join_link.token;
      expect((await api('GET', '/v1/team', undefined, as(owner))).body.join_link.token).toBe(old);
      const rotated = (await api('POST', '/v1/team/join-link', undefined, as(owner))).body.join_link.token;
      expect(rotated).not.toBe(old);
      const joiner = await verified('linkjoiner');
      expect((await api('POST', '/v1/team/join', { token: old }, as(joiner))).status).toBe(404);
      expect((await api('POST', '/v1/team/join', { token: rotated }, as(joiner))).body).toMatchObject({ workspace_id: workspaceId, joined: true });
      expect((await api('DELETE', '/v1/team/join-link', undefined, as(owner))).body).toEqual({ join_link: null });
      expect((await api('POST', '/v1/team/join', { token: rotated }, as(await verified('late')))).status).toBe(404);
    });

    it('gives the last free seat to exactly one of two concurrent joins', async () => {
      const { owner, workspaceId } = await team(2);
      const token = (await api('POST', '/v1/team/join-link', undefined, as(owner))).body.join_link.token;
      const [a, b] = [await verified('race'), await verified('race')];
      const results = await Promise.all([a, b].map((x) => api('POST', '/v1/team/join', { token }, as(x))));
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(await sql('select count(*)::int as n from workspace_member where workspace_id = ?', [workspaceId])).toEqual([{ n: 2 }]);
    });

    it('refuses a caller in another team workspace (409: leave it first), and an owner with members', async () => {
      const first = await team(3);
      const second = await team(3);
      const joiner = await member(first.owner);
      const token = (await api('POST', '/v1/team/join-link', undefined, as(second.owner))).body.join_link.token;
      expect((await api('POST', '/v1/team/join', { token }, as(joiner))).body.detail).toMatch(/leave it first/);
      expect((await api('POST', '/v1/team/join', { token }, as(first.owner))).body.detail).toMatch(/other members/);
    });
  });

  describe('roles', () => {
    it('applies the role matrix: owner, admin, member and outsider on every endpoint', async () => {
      const { owner, workspaceId } = await team(10);
      const admin = await member(owner, 'admin');
      const plain = await member(owner, 'plain');
      const other = await member(owner, 'other');
      const outsider = await verified('outsider');
      const promoted = await api('PATCH', `/v1/team/members/${admin.id}`, { role: 'admin' }, as(owner));
      expect(promoted.body).toEqual({ user_id: admin.id, role: 'admin' });
      const invite = (await api('POST', '/v1/team/invites', { emails: [`pending${++seq}@example.org`] }, as(owner))).body.invites[0].id;

      const status = async (who: Account, method: string, route: string, body?: unknown) => (await api(method, route, body, as(who))).status;
      // reading: every member; an outsider sees its own personal workspace
      for (const who of [owner, admin, plain]) expect((await api('GET', '/v1/team', undefined, as(who))).body.workspace.id).toBe(workspaceId);
      expect((await api('GET', '/v1/team', undefined, as(outsider))).body.workspace.id).toBeNull();
      expect('join_link' in (await api('GET', '/v1/team', undefined, as(admin))).body).toBe(true);
      // invites, join link, domains: owner and admin; member and outsider 403
      for (const [who, expected] of [[plain, 403], [outsider, 403], [admin, 200]] as const) {
        expect(await status(who, 'POST', '/v1/team/invites', { emails: [`x${++seq}@example.org`] })).toBe(expected);
        expect(await status(who, 'POST', '/v1/team/join-link')).toBe(expected);
        expect(await status(who, 'DELETE', '/v1/team/join-link')).toBe(expected);
        expect(await status(who, 'PUT', '/v1/team/domains', { domains: ['firm.example'] })).toBe(expected);
      }
      expect(await status(plain, 'DELETE', `/v1/team/invites/${invite}`)).toBe(403);
      expect(await status(outsider, 'DELETE', `/v1/team/invites/${invite}`)).toBe(403);
      // another workspace's invite is 404 for its owner
      const elsewhere = await team(2);
      expect(await status(elsewhere.owner, 'DELETE', `/v1/team/invites/${invite}`)).toBe(404);
      expect(await status(admin, 'DELETE', `/v1/team/invites/${invite}`)).toBe(200);
      // roles: the owner only; the owner's own role is fixed
      expect(await status(admin, 'PATCH', `/v1/team/members/${plain.id}`, { role: 'admin' })).toBe(403);
      expect(await status(plain, 'PATCH', `/v1/team/members/${plain.id}`, { role: 'admin' })).toBe(403);
      expect(await status(outsider, 'PATCH', `/v1/team/members/${plain.id}`, { role: 'admin' })).toBe(403);
      expect(await status(owner, 'PATCH', `/v1/team/members/${owner.id}`, { role: 'member' })).toBe(409);
      expect(await status(owner, 'PATCH', `/v1/team/members/${outsider.id}`, { role: 'admin' })).toBe(404);
      expect(await status(owner, 'PATCH', `/v1/team/members/${plain.id}`, { role: 'owner' })).toBe(422);
      expect((await api('PATCH', '/v1/team/members/nope', { role: 'admin' }, as(owner))).body.detail[0].loc).toEqual(['path', 'member_user_id']);
      // removal: admins remove members only; members only themselves; the owner cannot leave
      const secondAdmin = await member(owner, 'admin2');
      await api('PATCH', `/v1/team/members/${secondAdmin.id}`, { role: 'admin' }, as(owner));
      expect(await status(admin, 'DELETE', `/v1/team/members/${owner.id}`)).toBe(403);
      expect(await status(admin, 'DELETE', `/v1/team/members/${secondAdmin.id}`)).toBe(403);
      expect(await status(plain, 'DELETE', `/v1/team/members/${other.id}`)).toBe(403);
      expect(await status(outsider, 'DELETE', `/v1/team/members/${other.id}`)).toBe(404);
      expect(await status(elsewhere.owner, 'DELETE', `/v1/team/members/${other.id}`)).toBe(404);
      expect(await status(owner, 'DELETE', `/v1/team/members/${owner.id}`)).toBe(409);
      expect(await status(admin, 'DELETE', `/v1/team/members/${other.id}`)).toBe(200);
      expect(await status(plain, 'DELETE', `/v1/team/members/${plain.id}`)).toBe(200);
      expect(await status(owner, 'DELETE', `/v1/team/members/${secondAdmin.id}`)).toBe(200);
      // seats: owner only
      for (const who of [admin, outsider]) expect(await status(who, 'POST', '/v1/team/seats', { quantity: 12 })).toBe(403);
      expect((await api('POST', '/v1/team/members/x', undefined, as(owner))).status).toBe(405);
    });

    it("puts a removed member back on Free: their API key keeps working under Free limits", async () => {
      const { owner } = await team(3);
      const m = await member(owner);
      const key = (await api('POST', '/v1/keys', { name: 'k' }, as(m))).body.key;
      const inTeam = await api('GET', '/v1/usage/me', undefined, { key });
      expect(inTeam.body).toMatchObject({ plan: 'professional', per_period_limit: PLANS.professional.perPeriod * 3, my_requests_in_period: 0 });
      expect((await api('DELETE', `/v1/team/members/${m.id}`, undefined, as(owner))).body).toEqual({ status: 'removed', user_id: m.id });
      const after = await api('GET', '/v1/usage/me', undefined, { key });
      expect(after.status).toBe(200);
      expect(after.body).toMatchObject({ plan: 'free', per_period_limit: PLANS.free.perPeriod, per_minute_limit: PLANS.free.perMinute, period_type: 'rolling_30d' });
      expect(after.body).not.toHaveProperty('my_requests_in_period');
      expect((await api('GET', '/v1/team', undefined, { key })).body.workspace.kind).toBe('personal');
    });
  });

  it("reports the member's role and plan in /auth/me; deleting a member's account frees its seat", async () => {
    const { owner, workspaceId } = await team(2);
    const m = await member(owner);
    expect((await api('GET', '/auth/me', undefined, as(m))).body).toMatchObject({ plan: 'professional', workspace_role: 'member' });
    expect((await api('GET', '/auth/me', undefined, as(owner))).body).toMatchObject({ plan: 'professional', workspace_role: 'owner' });
    expect((await api('POST', '/v1/team/invites', { emails: [`after${++seq}@example.org`] }, as(owner))).status).toBe(409);
    expect((await api('DELETE', '/auth/me', { confirmation: 'DELETE' }, as(m))).status).toBe(200);
    expect(await sql('select count(*)::int as n from workspace_member where workspace_id = ?', [workspaceId])).toEqual([{ n: 1 }]);
    expect((await api('POST', '/v1/team/invites', { emails: [`after${++seq}@example.org`] }, as(owner))).status).toBe(200);
  });

  describe('the pooled period allowance', () => {
    it('counts every member in one pool; when it is used up both members get 429', async () => {
      const { owner, workspaceId } = await team(2);
      const m = await member(owner);
      const [ownerKey, memberKey] = await Promise.all([owner, m].map(async (x) => (await api('POST', '/v1/keys', { name: 'pool' }, as(x))).body.key));
      const limit = PLANS.professional.perPeriod * 2;
      // the pool's history: rows of the workspace by a member who has left since (what the
      // counters are rebuilt from at the pool's first call)
      await sql(
        `insert into usage_event (user_id, api_key_id, client_ip, workspace_id, endpoint, status, created_at)
         select ?::uuid, null, null, ?::uuid, 'search', 200, now() from generate_series(1, ?::int)`,
        [(await verified('gone')).id, workspaceId, limit - 2],
      );
      expect((await api('GET', '/v1/documents/EU/EUR-Lex/pool-a', undefined, { key: memberKey })).status).toBe(404);
      expect((await api('GET', '/v1/documents/EU/EUR-Lex/pool-b', undefined, { key: ownerKey })).status).toBe(404);
      const refusedMember = await api('GET', '/v1/documents/EU/EUR-Lex/pool-c', undefined, { key: memberKey });
      const refusedOwner = await api('GET', '/v1/documents/EU/EUR-Lex/pool-d', undefined, { key: ownerKey });
      expect([refusedMember.status, refusedOwner.status]).toEqual([429, 429]);
      expect(Number(refusedMember.headers.get('retry-after'))).toBeGreaterThan(0);
      const usage = await api('GET', '/v1/usage/me', undefined, { key: memberKey });
      expect(usage.body).toMatchObject({ requests_in_period: limit, my_requests_in_period: 1, per_period_limit: limit });
      const view = await api('GET', '/v1/team', undefined, as(owner));
      expect(view.body.members.map((x: any) => x.requests_in_period)).toEqual([1, 1]);
    });
  });

  describe('allowed domains', () => {
    it('validates the list: at most 20, valid names, public mail domains refused, IDN in ASCII', async () => {
      const { owner } = await team(2);
      const tooMany = await api('PUT', '/v1/team/domains', { domains: Array.from({ length: 21 }, (_, i) => `d${i}.example`) }, as(owner));
      expect([tooMany.status, tooMany.body.detail[0].loc]).toEqual([422, ['body', 'domains']]);
      const bad = await api('PUT', '/v1/team/domains', { domains: ['Firm.Example', 'gmail.com', 'no spaces.example', 'localhost', 'Outlook.com'] }, as(owner));
      expect(bad.status).toBe(422);
      expect(bad.body.detail.map((d: any) => d.loc)).toEqual([['body', 'domains', 1], ['body', 'domains', 2], ['body', 'domains', 3], ['body', 'domains', 4]]);
      expect(bad.body.detail[0].msg).toMatch(/public mail domain/);
      const ok = await api('PUT', '/v1/team/domains', { domains: ['Firm.Example', 'bücher.example', 'firm.example'] }, as(owner));
      expect(ok.body.allowed_domains).toEqual(['firm.example', 'xn--bcher-kva.example']);
      expect(ok.body.domains.map((d: any) => [d.domain, d.status, d.verification.name])).toEqual([
        ['firm.example', 'pending', '_legal-search-challenge.firm.example'],
        ['xn--bcher-kva.example', 'pending', '_legal-search-challenge.xn--bcher-kva.example'],
      ]);
      const other = await api('PUT', '/v1/team/domains', { domains: ['other.example'] }, as(owner));
      expect([other.body.allowed_domains, other.body.domains.length]).toEqual([['other.example'], 1]);
      expect((await api('GET', '/v1/team', undefined, as(owner))).body.workspace.allowed_domains).toEqual(['other.example']);
    });

    it("lets no owner claim another organisation's domain: without its TXT record nobody joins, and the victim's own invite works", async () => {
      const domain = `victimcorp${++seq}-${backend}.example`;
      // the victim's own team, bought before anyone lists its domain
      const boss = await verified('boss', domain);
      await buyTeam(boss, 3, 'VictimCorp');
      // a paying stranger lists the victim's domain
      const attacker = await team(5);
      expect((await api('PUT', '/v1/team/domains', { domains: [domain] }, as(attacker.owner))).status).toBe(200);
      // a verified sign-in from that domain joins nobody
      const alice = await verified('alice', domain);
      expect((await api('GET', '/v1/team', undefined, as(alice))).body.workspace.kind).toBe('personal');
      const seen = await api('GET', '/v1/team', undefined, as(attacker.owner));
      expect(seen.body.members.map((m: any) => m.email)).toEqual([attacker.owner.email]);
      // and the victim's own invite is not refused because of the stranger's claim
      expect((await api('POST', '/v1/team/invites', { emails: [alice.email] }, as(boss))).status).toBe(200);
      const joined = await api('POST', '/v1/team/join', { token: await tokenMailedTo(alice.email) }, as(alice));
      expect([joined.status, joined.body.name]).toEqual([200, 'VictimCorp']);
    });

    it('proves a domain through its TXT record: pending until published, verified by a check, dropped when a re-check misses it', async () => {
      const { owner, workspaceId } = await team(5);
      const domain = `proof${++seq}-${backend}.example`;
      const listed = await api('PUT', '/v1/team/domains', { domains: [domain] }, as(owner));
      expect(listed.body.domains).toEqual([
        {
          domain,
          status: 'pending',
          verification: { type: 'TXT', name: `_legal-search-challenge.${domain}`, value: expect.stringMatching(/^legal-search-domain-verification=[0-9a-f]{32}$/) },
          verified_at: null,
          checked_at: null,
          check_error: null,
        },
      ]);
      const { value } = listed.body.domains[0].verification;
      // no record: the check answers pending, and a verified sign-in joins nobody
      const missing = await api('POST', `/v1/team/domains/${domain}/check`, undefined, as(owner));
      expect(missing.body).toMatchObject({ domain, status: 'pending', check_error: 'record_missing', checked_at: expect.any(String) });
      expect(dns.queries).toContain(`TXT _legal-search-challenge.${domain}`);
      const early = await verified('early', domain);
      expect((await api('GET', '/v1/team', undefined, as(early))).body.workspace.kind).toBe('personal');
      // a record with another token proves nothing
      dns.setTxt(`_legal-search-challenge.${domain}`, ['legal-search-domain-verification=0123456789abcdef0123456789abcdef', 'v=spf1 -all']);
      expect((await api('POST', `/v1/team/domains/${domain}/check`, undefined, as(owner))).body.status).toBe('pending');
      // the record published (beside others): verified, through GraphQL's check as well
      dns.setTxt(`_legal-search-challenge.${domain}`, ['v=spf1 -all', value]);
      const gql = await api('POST', '/graphql', { query: 'mutation($d: String!) { checkAllowedDomain(domain: $d) { domain status verified_at check_error verification { type name value } } }', variables: { d: domain } }, as(owner));
      expect(gql.body.data.checkAllowedDomain).toEqual({ domain, status: 'verified', verified_at: expect.any(String), check_error: null, verification: { type: 'TXT', name: `_legal-search-challenge.${domain}`, value } });
      const view = await api('POST', '/graphql', { query: '{ team { allowed_domains domains { domain status } } }' }, as(owner));
      expect(view.body.data.team).toEqual({ allowed_domains: [domain], domains: [{ domain, status: 'verified' }] });
      const joiner = await verified('joiner', domain);
      expect((await api('GET', '/v1/team', undefined, as(joiner))).body).toMatchObject({ workspace: { id: workspaceId }, role: 'member' });
      // saving the list again keeps the proof and its token; a new domain starts pending
      const again = await api('PUT', '/v1/team/domains', { domains: [domain, `second-${domain}`] }, as(owner));
      expect(again.body.domains.map((d: any) => [d.domain, d.status, d.verification.value === value])).toEqual([
        [domain, 'verified', true],
        [`second-${domain}`, 'pending', false],
      ]);
      // the record removed: the next background re-check (the platform's timer) stops the auto-join
      dns.remove(`_legal-search-challenge.${domain}`);
      await dueNow(domain);
      const dropped = await until(() => claimOf(owner, domain), (d) => d.status === 'pending');
      expect(dropped).toMatchObject({ status: 'pending', check_error: 'record_missing', verified_at: null });
      const late = await verified('late', domain);
      expect((await api('GET', '/v1/team', undefined, as(late))).body.workspace.kind).toBe('personal');
      // who joined stays a member (the owner may remove them)
      expect((await api('GET', '/v1/team', undefined, as(joiner))).body.workspace.id).toBe(workspaceId);
    });

    it('keeps a verified domain through DNS failures for the grace period, then drops it', async () => {
      const { owner, workspaceId } = await team(5);
      const domain = `flaky${++seq}-${backend}.example`;
      await prove(owner, domain);
      dns.fail(`_legal-search-challenge.${domain}`, 'servfail');
      await dueNow(domain);
      const failing = await until(() => claimOf(owner, domain), (d) => d.check_error === 'dns_error');
      expect(failing).toMatchObject({ status: 'verified', check_error: 'dns_error' });
      const during = await verified('during', domain);
      expect((await api('GET', '/v1/team', undefined, as(during))).body.workspace.id).toBe(workspaceId);
      // the record last seen longer ago than re-check (24 h) + grace (72 h): no more auto-join,
      // even before the next re-check comes round
      await sql(`update workspace_domain set last_seen_at = now() - interval '97 hours' where domain = ?`, [domain]);
      expect((await claimOf(owner, domain)).status).toBe('pending');
      const after = await verified('after', domain);
      expect((await api('GET', '/v1/team', undefined, as(after))).body.workspace.kind).toBe('personal');
      await dueNow(domain);
      const [row] = await until(() => sql('select status from workspace_domain where domain = ?', [domain]), (rows) => rows[0]?.status === 'pending');
      expect(row.status).toBe('pending');
    });

    it('lets a domain be verified in one workspace at a time; a second proof supersedes nobody while the holder keeps its record', async () => {
      const holder = await team(5);
      const rival = await team(5);
      const domain = `shared${++seq}-${backend}.example`;
      await prove(holder.owner, domain);
      const holderValue = (await claimOf(holder.owner, domain)).verification.value;
      expect((await api('PUT', '/v1/team/domains', { domains: [domain] }, as(rival.owner))).body.domains[0].status).toBe('pending');
      // both records published: the holder keeps the domain, the rival is told why it waits
      await publish(rival.owner, domain, [holderValue]);
      const waiting = await api('POST', `/v1/team/domains/${domain}/check`, undefined, as(rival.owner));
      expect(waiting.body).toMatchObject({ status: 'pending', check_error: 'verified_elsewhere' });
      expect((await claimOf(holder.owner, domain)).status).toBe('verified');
      // the holder's record withdrawn: the rival's check takes the domain over, the holder sees why it lost it
      await publish(rival.owner, domain);
      expect((await api('POST', `/v1/team/domains/${domain}/check`, undefined, as(rival.owner))).body.status).toBe('verified');
      expect(await claimOf(holder.owner, domain)).toMatchObject({ status: 'pending', check_error: 'record_missing' });
      const newcomer = await verified('newcomer', domain);
      expect((await api('GET', '/v1/team', undefined, as(newcomer))).body.workspace.id).toBe(rival.workspaceId);
      expect(await sql(`select count(*)::int as n from workspace_domain where domain = ? and status = 'verified'`, [domain])).toEqual([{ n: 1 }]);
    });

    it('checks for the owner and admins of the listing workspace only, and refuses bad domains with 422', async () => {
      const { owner } = await team(5);
      const admin = await member(owner, 'dadmin');
      await api('PATCH', `/v1/team/members/${admin.id}`, { role: 'admin' }, as(owner));
      const plain = await member(owner, 'dplain');
      const outsider = await verified('doutsider');
      const stranger = await team(2);
      const domain = `authz${++seq}-${backend}.example`;
      await api('PUT', '/v1/team/domains', { domains: [domain] }, as(owner));
      const check = (who: Account | null, name = domain) => api('POST', `/v1/team/domains/${encodeURIComponent(name)}/check`, undefined, who ? as(who) : undefined);
      expect((await check(null)).status).toBe(401);
      expect((await check(plain)).status).toBe(403);
      expect((await check(outsider)).status).toBe(403);
      // another workspace's owner: the domain is not listed there (404), and nothing is looked up
      const before = dns.queries.length;
      expect((await check(stranger.owner)).status).toBe(404);
      expect(dns.queries.length).toBe(before);
      expect((await check(admin)).status).toBe(200);
      expect((await check(owner, `unlisted-${domain}`)).status).toBe(404);
      for (const bad of ['no spaces.example', 'gmail.com', 'localhost']) {
        const res = await check(owner, bad);
        expect([res.status, res.body.detail[0].loc]).toEqual([422, ['path', 'domain']]);
      }
      expect((await check(owner, 'gmail.com')).body.detail[0].msg).toMatch(/public mail domain/);
      const gqlBad = await api('POST', '/graphql', { query: 'mutation { checkAllowedDomain(domain: "not a domain") { status } }' }, as(owner));
      expect(gqlBad.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', issues: [expect.objectContaining({ loc: ['domain'] })] });
      // the IDN's Unicode form names the same claim
      await api('PUT', '/v1/team/domains', { domains: [`bücher-${domain}`] }, as(owner));
      const [ascii] = (await api('GET', '/v1/team', undefined, as(owner))).body.workspace.allowed_domains;
      expect(ascii).toMatch(/^xn--/);
      expect((await check(owner, `bücher-${domain}`)).body).toMatchObject({ domain: ascii, status: 'pending' });
    });

    it('looks each due claim up once when several sweeps run at the same time (processes sharing the database)', async () => {
      const { owner } = await team(5);
      const domains = [1, 2, 3].map((i) => `sweep${i}-${++seq}-${backend}.example`);
      expect((await api('PUT', '/v1/team/domains', { domains }, as(owner))).status).toBe(200);
      const asked = () => dns.queries.filter((q) => domains.some((d) => q === `TXT _legal-search-challenge.${d}`)).length;
      expect(asked()).toBe(0);
      await sql(`update workspace_domain set next_check_at = now() - interval '1 second' where domain in (?, ?, ?)`, domains);
      const counts = await Promise.all([platform.teams.recheckDueDomains(), platform.teams.recheckDueDomains(), platform.teams.recheckDueDomains()]);
      // the platform's own timer may have taken some of them: still one look-up per claim in all
      await until(async () => asked(), (n) => n >= 3, 5000);
      await new Promise((r) => setTimeout(r, 1500));
      expect(asked()).toBe(3);
      expect(counts.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(3);
      const states = (await api('GET', '/v1/team', undefined, as(owner))).body.workspace.domains;
      expect(states.map((d: any) => [d.status, d.check_error])).toEqual(domains.map(() => ['pending', 'record_missing']));
    });

    it('joins accounts signing in with a verified address at a listed domain, up to the seat limit', async () => {
      const { owner, workspaceId } = await team(2);
      const domain = `lawfirm${++seq}-${backend}.example`;
      await prove(owner, domain);
      // password path: no join before the address is verified
      const email = `first@${domain}`;
      await api('POST', '/auth/register', { email, password: PASSWORD, accept_terms: true, acknowledge_privacy: true });
      const unverified = await api('POST', '/auth/login', { email, password: PASSWORD });
      const cookie = cookieFrom(unverified.headers, 'session')!;
      expect((await api('GET', '/v1/team', undefined, { cookie })).body.workspace.kind).toBe('personal');
      await api('POST', '/auth/verify-email/request', undefined, { cookie });
      const mail = (await smtp.waitFor(email)).raw.replace(/=\r?\n/g, '');
      const token = /Verification token: ([A-Za-z0-9_-]{43})/.exec(mail)![1]!;
      expect((await api('POST', '/auth/verify-email/confirm', { token })).status).toBe(200);
      const signedIn = await api('POST', '/auth/login', { email, password: PASSWORD });
      expect(signedIn.status).toBe(200);
      const view = await api('GET', '/v1/team', undefined, { cookie: cookieFrom(signedIn.headers, 'session')! });
      expect(view.body.workspace.id).toBe(workspaceId);
      expect(view.body.role).toBe('member');
      // the seats are full now: the next sign-in goes on without joining
      const second = await api('POST', '/auth/dev-login', { email: `second@${domain}` });
      expect(second.status).toBe(200);
      expect((await api('GET', '/v1/team', undefined, { cookie: cookieFrom(second.headers, 'session')! })).body.workspace.kind).toBe('personal');
      expect(await sql('select count(*)::int as n from workspace_member where workspace_id = ?', [workspaceId])).toEqual([{ n: 2 }]);
    });
  });

  describe('seats', () => {
    it('changes the Stripe quantity; seat_limit follows only with the webhook; below the seats in use is 409', async () => {
      const { owner, subscriptionId } = await team(2);
      await member(owner);
      expect((await api('POST', '/v1/team/seats', { quantity: 0 }, as(owner))).body.detail[0].loc).toEqual(['body', 'quantity']);
      expect((await api('POST', '/v1/team/seats', { quantity: 1 }, as(owner))).status).toBe(409);
      const res = await api('POST', '/v1/team/seats', { quantity: 4 }, as(owner));
      expect(res.body).toEqual({ quantity: 4, seat_limit: 2 });
      const sub = stripeServer.subscriptions.get(subscriptionId)!;
      expect(sub.items.data[0].quantity).toBe(4);
      expect((await api('GET', '/v1/team', undefined, as(owner))).body.workspace.seat_limit).toBe(2);
      await deliver(stripeServer.event('customer.subscription.updated', sub));
      expect((await api('GET', '/v1/team', undefined, as(owner))).body.workspace.seat_limit).toBe(4);
    });

    it('is 502 when Stripe fails to change the quantity, and nothing changes here', async () => {
      const { owner, subscriptionId } = await team(2);
      // Two tries: the client's own retry and the first request.
      stripeServer.failNext(2, 500, `/v1/subscriptions/${subscriptionId}`);
      const res = await api('POST', '/v1/team/seats', { quantity: 5 }, as(owner));
      expect(res.status).toBe(502);
      expect(res.body.detail).toMatch(/payment provider answered 500 while (reading the subscription|changing the seat quantity)/);
      expect(stripeServer.subscriptions.get(subscriptionId)!.items.data[0].quantity).toBe(2);
      expect((await api('GET', '/v1/team', undefined, as(owner))).body.workspace.seat_limit).toBe(2);
    });

    it('is 409 without a subscription to change', async () => {
      const { owner, workspaceId } = await team(2);
      await sql("update billing_subscription set status = 'canceled' where workspace_id = ?", [workspaceId]);
      expect((await api('POST', '/v1/team/seats', { quantity: 3 }, as(owner))).status).toBe(409);
    });
  });
});
