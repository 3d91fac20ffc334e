/**
 * Sign-in with an identity provider end to end: a local OpenID provider (oidc-provider, started
 * by the test, logging the user in and granting consent automatically) plays Google (discovery
 * from GOOGLE_ISSUER), Microsoft (Entra-shaped claims: `xms_edov`, no `email_verified`) and
 * GitHub (explicit authorization/token/userinfo URLs). The browser is
 * this test following redirects with a cookie jar.
 */
import { createHash, randomBytes } from 'node:crypto';
import express from 'express';
import Provider from 'oidc-provider';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { Browser, formAction } from './helpers/browser.js';
import { startTestDns, type TestDns } from './helpers/dns-server.js';
import { call, cookieFrom, freePort } from './helpers/http.js';
import { authorizeAgentWithPassword, mcpStatus, refreshStatus } from './helpers/oauth-grant.js';
import { startTestSmtp, type TestSmtp } from './helpers/smtp.js';
import { makeTestDataDir } from './helpers/pglite-template.js';

/** The identity the local provider signs in as (changed by the tests). */
const identity = { sub: 'idp-user-1', email: 'idp.user@example.org', email_verified: true, name: 'Idp User' };
/**
 * What Microsoft Entra ID adds: no `email_verified`, but the optional claim `xms_edov` (true when
 * the e-mail's domain owner is verified); `email_verified` here makes a token that carries it anyway.
 */
const entra: { xms_edov?: unknown; email_verified?: boolean } = { xms_edov: true };
/** The primary verified address GitHub's /user/emails reports. */
const githubEmail = { value: 'IDP.User@example.org' };

describe('identity providers against a local OpenID provider', () => {
  let platform: Platform;
  let dns: TestDns;
  let smtp: TestSmtp;
  let idpServer: import('node:http').Server;
  let base: string;
  let issuer: string;

  beforeAll(async () => {
    const [idpPort, appPort] = [await freePort(), await freePort()];
    issuer = `http://127.0.0.1:${idpPort}`;
    base = `http://127.0.0.1:${appPort}`;
    const provider = new Provider(issuer, {
      clients: ['google', 'github', 'microsoft'].map((name) => ({
        client_id: `${name}-client`,
        client_secret: `${name}-secret`,
        redirect_uris: [`${base}/auth/${name}/callback`],
        token_endpoint_auth_method: 'client_secret_post',
      })),
      findAccount: async (ctx: { oidc?: { client?: { clientId: string } } }, sub: string) => ({
        accountId: sub,
        claims: async () => {
          if (ctx.oidc?.client?.clientId !== 'microsoft-client') return { ...identity, sub };
          // Entra-shaped: the address, and whether its domain owner is verified; no email_verified
          const { email_verified: _absent, ...rest } = identity;
          return { ...rest, sub, ...entra };
        },
      }),
      claims: { openid: ['sub'], email: ['email', 'email_verified', 'xms_edov'], profile: ['name'] },
      // the requested claims go into the ID token, as Google and Entra ID (optional claims) put them
      conformIdTokenClaims: false,
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
      cookies: { keys: ['test-cookie-key'] },
      // GitHub's OAuth app scopes, so the same provider can play GitHub's authorization server
      scopes: ['openid', 'offline_access', 'read:user', 'user:email'],
    } as never);
    const app = express();
    // the user "logs in" and consents at once
    app.get('/interaction/:uid', async (req, res, next) => {
      try {
        const details = await provider.interactionDetails(req, res);
        if (details.prompt.name === 'login') {
          await provider.interactionFinished(req, res, { login: { accountId: identity.sub } }, { mergeWithLastSubmission: false });
          return;
        }
        const grant = new provider.Grant({ accountId: details.session!.accountId, clientId: details.params.client_id as string });
        grant.addOIDCScope(String(details.params.scope));
        await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
      } catch (error) {
        next(error);
      }
    });
    // GitHub's REST API stand-in: /user and /user/emails behind the provider's access tokens
    const githubUser = async (req: express.Request) => {
      const token = /^Bearer (.+)$/i.exec(req.header('authorization') ?? '')?.[1];
      const found = token ? await provider.AccessToken.find(token) : undefined;
      return found ? String(found.accountId) : null;
    };
    app.get('/github/user', async (req, res) => {
      const login = await githubUser(req);
      if (!login) return void res.status(401).json({ message: 'Bad credentials' });
      res.json({ id: 583231, login: 'octo', name: 'Octo Cat', email: null });
    });
    app.get('/github/user/emails', async (req, res) => {
      if (!(await githubUser(req))) return void res.status(401).json({ message: 'Bad credentials' });
      res.json([
        { email: 'octo-unverified@example.org', primary: false, verified: false },
        { email: githubEmail.value, primary: true, verified: true },
      ]);
    });
    app.use(provider.callback());
    idpServer = app.listen(idpPort, '127.0.0.1');

    const dataDir = await makeTestDataDir('idp-e2e-');
    // allowed domains are proven through a DNS server on a local port
    dns = await startTestDns();
    smtp = await startTestSmtp();
    platform = await startPlatform(
      loadConfig({
        SMTP_URL: smtp.url,
        DATA_DIR: dataDir,
        INGEST_ON_START: 'false',
        PORT: String(appPort),
        BASE_URL: base,
        GOOGLE_CLIENT_ID: 'google-client',
        GOOGLE_CLIENT_SECRET: 'google-secret',
        GOOGLE_ISSUER: issuer,
        GITHUB_CLIENT_ID: 'github-client',
        GITHUB_CLIENT_SECRET: 'github-secret',
        GITHUB_AUTHORIZATION_URL: `${issuer}/auth`,
        GITHUB_TOKEN_URL: `${issuer}/token`,
        GITHUB_USERINFO_URL: `${issuer}/github/user`,
        MICROSOFT_CLIENT_ID: 'microsoft-client',
        MICROSOFT_CLIENT_SECRET: 'microsoft-secret',
        MICROSOFT_ISSUER: issuer,
        DNS_SERVERS: dns.servers,
      }),
      createLogger('silent'),
    );
  });

  afterAll(async () => {
    await platform?.stop();
    await dns?.stop();
    idpServer?.close();
    await smtp?.stop();
  });

  /** Follows the whole redirect chain like a browser, keeping cookies per host; returns the last response. */
  async function browse(start: string): Promise<{ status: number; location: string | null; jar: Map<string, Map<string, string>>; trail: string[] }> {
    const jar = new Map<string, Map<string, string>>();
    const trail: string[] = [];
    let next = start;
    for (let hop = 0; hop < 20; hop++) {
      const url = new URL(next);
      const cookies = jar.get(url.host) ?? new Map();
      const res = await fetch(url, { redirect: 'manual', headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
      for (const set of res.headers.getSetCookie()) {
        const [pair] = set.split(';');
        const eq = pair!.indexOf('=');
        const value = pair!.slice(eq + 1);
        if (/expires=Thu, 01 Jan 1970/i.test(set) || value === '') cookies.delete(pair!.slice(0, eq));
        else cookies.set(pair!.slice(0, eq), value);
      }
      jar.set(url.host, cookies);
      trail.push(`${res.status} ${url.pathname}`);
      const location = res.headers.get('location');
      if (res.status >= 400) throw new Error(`${trail.join(' -> ')}: ${await res.text()}`);
      // stop where the service hands the browser to its dashboard pages
      const target = location ? new URL(location, url) : null;
      if (res.status < 300 || !target || (target.origin === base && !target.pathname.startsWith('/auth/'))) {
        return { status: res.status, location, jar, trail };
      }
      next = target!.href;
    }
    throw new Error(`too many redirects: ${trail.join(' -> ')}`);
  }

  it('redirects to the provider with state and PKCE', async () => {
    const res = await call(`${base}/auth/google`, 'GET');
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(location.origin).toBe(issuer);
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    expect(location.searchParams.get('state')).toBeTruthy();
    expect(location.searchParams.get('redirect_uri')).toBe(`${base}/auth/google/callback`);
    expect(res.headers.getSetCookie().some((c) => c.startsWith('oauth_state=') && /HttpOnly/.test(c))).toBe(true);
  });

  it('signs in with Google (OpenID discovery), creating the account and setting the session', async () => {
    const done = await browse(`${base}/auth/google`);
    expect([done.status, done.trail]).toEqual([302, expect.any(Array)]);
    // a new account has not accepted the terms: the legal-acceptance token comes in a short-lived
    // HttpOnly cookie (never in the URL), then the exchange gives a session, once
    expect(done.location).toBe(`${base}/legal-acceptance`);
    const token = done.jar.get(new URL(base).host)!.get('legal_acceptance')!;
    expect(token).toBeTruthy();
    expect(done.trail.join(' ')).not.toContain(token);
    const accepted = await call(`${base}/auth/legal-acceptance`, 'POST', { accept_terms: true, acknowledge_privacy: true }, { cookie: `legal_acceptance=${token}` });
    expect(accepted.status).toBe(200);
    expect(accepted.headers.getSetCookie().some((c) => c.startsWith('legal_acceptance=;'))).toBe(true);
    const replayed = await call(`${base}/auth/legal-acceptance`, 'POST', { accept_terms: true, acknowledge_privacy: true }, { cookie: `legal_acceptance=${token}` });
    expect(replayed.status).toBe(401);
    expect(accepted.body).toMatchObject({ email: 'idp.user@example.org', email_verified: true, name: 'Idp User' });
    // the second sign-in goes straight to the dashboard with a session cookie
    const again = await browse(`${base}/auth/google`);
    expect(again.location).toBe(`${base}/`);
    const session = again.jar.get(new URL(base).host)!.get('session')!;
    const me = await call(`${base}/auth/me`, 'GET', undefined, { cookie: `session=${session}` });
    expect(me.body.user.email).toBe('idp.user@example.org');
  });

  it('links GitHub (OAuth app flow, e-mail from /user/emails) and Microsoft to the same account by verified e-mail', async () => {
    const github = await browse(`${base}/auth/github`);
    expect(github.location).toBe(`${base}/`);
    const microsoft = await browse(`${base}/auth/microsoft`);
    expect(microsoft.location).toBe(`${base}/`);
    const connection = platform.orm.em.fork().getConnection();
    const [{ n }] = await connection.execute('select count(*) as n from app_user');
    expect(Number(n)).toBe(1);
    const links = await connection.execute('select provider, subject from identity_link order by provider');
    expect(links).toEqual([
      { provider: 'github', subject: '583231' },
      { provider: 'google', subject: 'idp-user-1' },
      { provider: 'microsoft', subject: 'idp-user-1' },
    ]);
    const session = github.jar.get(new URL(base).host)!.get('session')!;
    expect((await call(`${base}/auth/me`, 'GET', undefined, { cookie: `session=${session}` })).body.user.email).toBe('idp.user@example.org');
  });

  it('Microsoft: follows xms_edov, not email_verified: an unverified domain owner is refused and never linked', async () => {
    await call(`${base}/auth/register`, 'POST', { email: 'entra.taken@example.org', password: 'a sturdy passphrase 42' });
    const links = async () => Number((await platform.orm.em.fork().getConnection().execute("select count(*) as n from identity_link where subject like 'entra-%'"))[0].n);
    try {
      for (const [sub, claims] of [
        ['entra-false', { xms_edov: false }],
        ['entra-absent', {}],
        // a token that says email_verified without xms_edov: not Microsoft's statement of ownership
        ['entra-email-verified-only', { email_verified: true }],
      ] as const) {
        Object.assign(identity, { sub, email: 'Entra.Taken@example.org' });
        for (const key of Object.keys(entra)) delete (entra as Record<string, unknown>)[key];
        Object.assign(entra, claims);
        await expect(browse(`${base}/auth/microsoft`)).rejects.toThrow(/403 \/auth\/microsoft\/callback: .*no verified email address/);
      }
      expect(await links()).toBe(0);
      const [row] = await platform.orm.em.fork().getConnection().execute('select email_verified, password_hash is not null as has_password from app_user where email_lower = ?', ['entra.taken@example.org']);
      expect(row).toEqual({ email_verified: false, has_password: true });

      // verified by the domain owner: a new account, created verified (string form as some tenants send it too)
      Object.assign(identity, { sub: 'entra-true', email: 'entra.new@example.org' });
      for (const key of Object.keys(entra)) delete (entra as Record<string, unknown>)[key];
      Object.assign(entra, { xms_edov: 'true' });
      const done = await browse(`${base}/auth/microsoft`);
      expect(done.location).toBe(`${base}/legal-acceptance`);
      const [created] = await platform.orm.em.fork().getConnection().execute('select u.email_verified, l.provider from app_user u join identity_link l on l.user_id = u.id where l.subject = ?', ['entra-true']);
      expect(created).toEqual({ email_verified: true, provider: 'microsoft' });
    } finally {
      Object.assign(identity, { sub: 'idp-user-1', email: 'idp.user@example.org', email_verified: true });
      for (const key of Object.keys(entra)) delete (entra as Record<string, unknown>)[key];
      entra.xms_edov = true;
    }
  });

  it('sets the legal-acceptance cookie HttpOnly, short-lived and only for the exchange', async () => {
    Object.assign(identity, { sub: 'idp-user-cookie', email: 'cookie.user@example.org', email_verified: true });
    try {
      const start = await call(`${base}/auth/google`, 'GET');
      const state = start.headers.getSetCookie().find((c) => c.startsWith('oauth_state='))!.split(';')[0]!;
      // let the provider run the round trip, then call the callback ourselves to see its headers
      const jar = await browseUntilCallback(start.headers.get('location')!);
      const callback = await fetch(jar.callback, { redirect: 'manual', headers: { cookie: state } });
      expect(callback.status).toBe(302);
      expect(callback.headers.get('location')).toBe(`${base}/legal-acceptance`);
      const set = callback.headers.getSetCookie().find((c) => c.startsWith('legal_acceptance='))!;
      expect(set).toMatch(/HttpOnly/i);
      expect(set).toMatch(/Path=\/auth\/legal-acceptance/);
      expect(set).toMatch(/SameSite=Lax/i);
      expect(set).toMatch(/Max-Age=900/);
    } finally {
      Object.assign(identity, { sub: 'idp-user-1', email: 'idp.user@example.org', email_verified: true });
    }
  });

  /** Follows the provider's redirects (keeping its cookies) until it sends the browser back to our callback. */
  async function browseUntilCallback(authorizationUrl: string): Promise<{ callback: string }> {
    const cookies = new Map<string, string>();
    let next = authorizationUrl;
    for (let hop = 0; hop < 20; hop++) {
      const res = await fetch(next, { redirect: 'manual', headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
      for (const set of res.headers.getSetCookie()) {
        const [pair] = set.split(';');
        const eq = pair!.indexOf('=');
        cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
      }
      const target = new URL(res.headers.get('location')!, next);
      if (target.origin === base) return { callback: target.href };
      next = target.href;
    }
    throw new Error('the provider did not redirect back');
  }

  it('signs in from the OAuth consent page and returns to it, where the new account accepts the terms and approves', async () => {
    Object.assign(identity, { sub: 'idp-oauth-1', email: 'oauth.idp@example.org', email_verified: true });
    try {
      const redirectUri = 'http://127.0.0.1:9/oauth/callback';
      const client = await call(`${base}/oauth/register`, 'POST', { client_name: 'IdP agent', redirect_uris: [redirectUri] });
      const verifier = randomBytes(32).toString('base64url');
      const authorize = new URL(`${base}/oauth/authorize`);
      authorize.search = new URLSearchParams({
        response_type: 'code',
        client_id: client.body.client_id,
        redirect_uri: redirectUri,
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
        resource: `${base}/mcp`,
        state: 'idp-state',
      }).toString();
      const browser = new Browser();
      const { page } = await browser.follow(authorize.href, () => false);
      const consentPath = new URL(page.url).pathname;
      const google = /<a href="([^"]+)">Google<\/a>/.exec(page.text)![1]!;
      expect(google).toBe(`${base}${consentPath}/login/google`);
      // the provider's round trip ends on the consent page again, not on the dashboard
      const { page: back, trail } = await browser.follow(google, () => false);
      expect([new URL(back.url).pathname, back.status]).toEqual([consentPath, 200]);
      expect(trail.join(' ')).toContain('/auth/google/callback');
      expect(back.text).toContain('Terms of service (version 2025-01)');
      expect(back.text).toContain('<h2 id="signed-in">Signed in</h2>');
      const approve = formAction(back.text, /Allow access</)!;
      const done = await browser.postForm(approve, { accept_terms: 'true', acknowledge_privacy: 'true' });
      expect(done.status).toBe(303);
      const { stoppedAt } = await browser.follow(new URL(done.location!, base).href, (l) => l.href.startsWith(redirectUri));
      expect(Object.fromEntries(stoppedAt!.searchParams)).toMatchObject({ code: expect.any(String), state: 'idp-state' });
      const [row] = await platform.orm.em.fork().getConnection().execute('select terms_version from app_user where email_lower = ?', ['oauth.idp@example.org']);
      expect(row.terms_version).toBe('2025-01');
    } finally {
      Object.assign(identity, { sub: 'idp-user-1', email: 'idp.user@example.org', email_verified: true });
    }
  });

  it('refuses a callback whose state was not issued to this browser', async () => {
    const start = await call(`${base}/auth/github`, 'GET');
    expect(new URL(start.headers.get('location') ?? '').searchParams.get('scope')).toBe('read:user user:email');
    const forged = await call(`${base}/auth/github/callback?code=abc&state=forged`, 'GET');
    expect(forged.status).toBe(400);
    expect(forged.body.detail).toMatch(/start again/);
    // a state cookie from another provider's round trip does not fit either
    const googleState = (await call(`${base}/auth/google`, 'GET')).headers.getSetCookie().find((c) => c.startsWith('oauth_state='))!.split(';')[0]!;
    const crossed = await call(`${base}/auth/github/callback?code=abc&state=x`, 'GET', undefined, { cookie: googleState });
    expect(crossed.status).toBe(400);
  });

  it('refuses to link an unverified e-mail to an existing account', async () => {
    await call(`${base}/auth/register`, 'POST', { email: 'taken@example.org', password: 'a sturdy passphrase 42' });
    Object.assign(identity, { sub: 'idp-user-2', email: 'TAKEN@example.org', email_verified: false });
    await expect(browse(`${base}/auth/google`)).rejects.toThrow(/403 \/auth\/google\/callback: .*no verified email address/);
    const [{ n }] = await platform.orm.em.fork().getConnection().execute("select count(*) as n from identity_link where subject = 'idp-user-2'");
    expect(Number(n)).toBe(0);
    Object.assign(identity, { sub: 'idp-user-1', email: 'idp.user@example.org', email_verified: true });
  });

  it('takes an unverified password account over for the verified owner: password, sessions, keys and OAuth grants of the first registrant end', async () => {
    const email = 'squatted@example.org';
    const password = 'a sturdy passphrase 42';
    const reg = await call(`${base}/auth/register`, 'POST', { email, password, accept_terms: true, acknowledge_privacy: true });
    expect(reg.body.email_verified).toBe(false);
    const login = await call(`${base}/auth/login`, 'POST', { email, password });
    const squatterSession = cookieFrom(login.headers, 'session')!;
    const created = (await call(`${base}/v1/keys`, 'POST', { name: 'squatter key' }, { cookie: squatterSession })).body;
    const key = created.key as string;
    expect((await call(`${base}/auth/me`, 'GET', undefined, { key })).status).toBe(200);
    const agent = await authorizeAgentWithPassword(base, email, password, 'Squatter agent');
    expect(await mcpStatus(base, agent.accessToken)).toBe(200);

    Object.assign(identity, { sub: 'idp-owner-3', email: 'Squatted@example.org', email_verified: true });
    try {
      const done = await browse(`${base}/auth/google`);
      // the owner accepts the terms themselves (the first registrant's acceptance is not theirs)
      expect(done.location).toBe(`${base}/legal-acceptance`);
      const token = done.jar.get(new URL(base).host)!.get('legal_acceptance')!;
      const accepted = await call(`${base}/auth/legal-acceptance`, 'POST', { accept_terms: true, acknowledge_privacy: true }, { cookie: `legal_acceptance=${token}` });
      expect(accepted.status).toBe(200);
      expect(accepted.body).toMatchObject({ id: reg.body.id, email_verified: true });
      const ownerSession = cookieFrom(accepted.headers, 'session')!;
      expect((await call(`${base}/auth/me`, 'GET', undefined, { cookie: ownerSession })).status).toBe(200);
    } finally {
      Object.assign(identity, { sub: 'idp-user-1', email: 'idp.user@example.org', email_verified: true });
    }
    expect((await call(`${base}/auth/me`, 'GET', undefined, { cookie: squatterSession })).status).toBe(401);
    expect((await call(`${base}/auth/me`, 'GET', undefined, { key })).status).toBe(401);
    expect((await call(`${base}/auth/login`, 'POST', { email, password })).status).toBe(401);
    expect(await mcpStatus(base, agent.accessToken)).toBe(401);
    expect(await refreshStatus(base, agent)).toBe(400);
    const [row] = await platform.orm.em.fork().getConnection().execute('select password_hash, email_verified from app_user where email_lower = ?', [email]);
    expect(row).toEqual({ password_hash: null, email_verified: true });
    const [{ n }] = await platform.orm.em.fork().getConnection().execute("select count(*)::int as n from oauth_model where model = 'Grant' and payload->>'accountId' = ?", [reg.body.id]);
    expect(n).toBe(0);
    // the owner's mail says what ended
    const mail = await smtp.waitForText(email, /were ended/);
    expect(mail).toContain(`squatter key (${created.key_prefix})`);
    expect(mail).toContain('Squatter agent');
  });

  it('joins a team workspace listing the address\'s domain at sign-in, up to its seat limit and not past it', async () => {
    // The team as billing leaves it after a 2-seat Professional checkout (this platform has no
    // Stripe: billing's own tests cover that part): the owner on the plan, the workspace, its
    // owner membership; the domain is listed and proven through the REST endpoints.
    const password = 'a sturdy passphrase 42';
    const owner = await call(`${base}/auth/register`, 'POST', { email: 'owner@idp-firm.example', password, accept_terms: true, acknowledge_privacy: true });
    const connection = platform.orm.em.fork().getConnection();
    const workspaceId = '6f1d7c1e-2b1a-4f7e-9a51-3c1f2b8d9e01';
    await connection.execute("update app_user set plan = 'professional' where id = ?", [owner.body.id]);
    await connection.execute("insert into workspace (id, owner_user_id, name, kind, seat_limit, created_at) values (?, ?, 'IdP Firm', 'team', 2, now())", [workspaceId, owner.body.id]);
    await connection.execute("insert into workspace_member (user_id, workspace_id, role, joined_at) values (?, ?, 'owner', now())", [owner.body.id, workspaceId]);
    const ownerCookie = cookieFrom((await call(`${base}/auth/login`, 'POST', { email: 'owner@idp-firm.example', password })).headers, 'session')!;
    const listed = await call(`${base}/v1/team/domains`, 'PUT', { domains: ['IDP-Firm.example'] }, { cookie: ownerCookie });
    expect(listed.status).toBe(200);
    // the domain proven: its TXT record published, then checked
    const { verification } = listed.body.domains[0];
    dns.setTxt(verification.name, [verification.value]);
    expect((await call(`${base}/v1/team/domains/idp-firm.example/check`, 'POST', undefined, { cookie: ownerCookie })).body.status).toBe('verified');

    const signInAs = async (sub: string, email: string) => {
      Object.assign(identity, { sub, email, email_verified: true });
      const done = await browse(`${base}/auth/google`);
      const token = done.jar.get(new URL(base).host)!.get('legal_acceptance')!;
      const accepted = await call(`${base}/auth/legal-acceptance`, 'POST', { accept_terms: true, acknowledge_privacy: true }, { cookie: `legal_acceptance=${token}` });
      expect(accepted.status).toBe(200);
      return cookieFrom(accepted.headers, 'session')!;
    };
    try {
      const ann = await signInAs('idp-team-ann', 'Ann@idp-firm.example');
      expect((await call(`${base}/v1/team`, 'GET', undefined, { cookie: ann })).body).toMatchObject({ workspace: { id: workspaceId, seats_used: 2 }, role: 'member' });
      expect((await call(`${base}/v1/usage/me`, 'GET', undefined, { cookie: ann })).body.plan).toBe('professional');
      // both seats are taken: the next sign-in goes on, without joining
      const bob = await signInAs('idp-team-bob', 'bob@idp-firm.example');
      expect((await call(`${base}/v1/team`, 'GET', undefined, { cookie: bob })).body.workspace).toMatchObject({ id: null, kind: 'personal', plan: 'free' });
    } finally {
      Object.assign(identity, { sub: 'idp-user-1', email: 'idp.user@example.org', email_verified: true });
    }
    const [{ n }] = await connection.execute('select count(*)::int as n from workspace_member where workspace_id = ?', [workspaceId]);
    expect(n).toBe(2);
  });
});
