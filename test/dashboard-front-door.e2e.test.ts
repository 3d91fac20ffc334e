/**
 * The front door in real headless Chromium against a real platform (small corpus slice, real SMTP,
 * the Anonymous plan on): the public landing page at / (live figures of /v1/stats, the example
 * search run anonymously giving the hits of the same REST call, the ways in, the legal texts);
 * registration mails the verification link by itself; the signed-in home's getting-started
 * checklist progresses as each step is done (verify, key, first call, agent); the invite path for
 * a new, an unverified and a verified invitee. axe-core on every page.
 */
import type { Page } from 'playwright-core';
import type { Platform } from '../src/platform.js';
import { expectAccessible, launchChromium, overflowsHorizontally, screenshot, type TestBrowser } from './helpers/chromium.js';
import { expectHeading, startDashboardPlatform } from './helpers/dashboard.js';
import { call, cookieFrom } from './helpers/http.js';
import { authorizeAgentWithPassword } from './helpers/oauth-grant.js';
import { mailText, startTestSmtp, type TestSmtp } from './helpers/smtp.js';
import { createTeam } from './helpers/team-fixtures.js';

const PASSWORD = 'correct horse battery staple';
/** The BGB with §§ 823-830 and two decisions: the landing page's example query finds § 826 BGB. */
const SLICES = [
  { file: 'legislation/DE-GesetzeImInternet.jsonl.gz', lines: 9, keep: (r: Record<string, unknown>) => /^bgb(\/82[3-9]|\/830)?$/.test(String(r.source_id)) },
  { file: 'case_law/DE-BGH.jsonl.gz', lines: 2 },
];

describe('web dashboard: the front door', () => {
  let platform: Platform;
  let chromium: TestBrowser;
  let smtp: TestSmtp;
  let base: string;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    [platform, chromium] = await Promise.all([startDashboardPlatform(SLICES, { SMTP_URL: smtp.url, ALLOW_ANONYMOUS: 'true' }), launchChromium()]);
    base = platform.config.baseUrl;
  }, 180_000);

  afterAll(async () => {
    await chromium?.close();
    await platform?.stop();
    await smtp?.stop();
  });

  async function open(width = 1280, cookie?: string): Promise<Page> {
    const { context, page } = await chromium.newPage({ baseURL: base, width, height: width < 500 ? 844 : 860 });
    if (cookie) await context.addCookies([{ name: 'session', value: cookie.slice(cookie.indexOf('=') + 1), url: base }]);
    page.on('pageerror', (e) => {
      throw e;
    });
    return page;
  }

  const verificationLink = async (email: string) =>
    (await smtp.waitForText(email, /verify-email\?token=/)).replace(/=3D/g, '=').match(/https?:\/\/\S+\/verify-email\?token=[\w-]+/)![0];

  it('serves the landing page at /: what it is, live figures, an anonymous example search with the hits of the same REST call, the ways in', async () => {
    const stats = (await call(`${base}/v1/stats`, 'GET')).body;
    const page = await open();
    const answer = await page.goto('/');
    expect(answer!.status()).toBe(200);
    expect(page.url()).toBe(`${base}/`);
    await expectHeading(page, 'Search EU case law, legislation and doctrine');
    expect(Number((await page.locator('[data-stat="documents"]').innerText()).replace(/\D/g, ''))).toBe(stats.total_documents);
    expect(Number((await page.locator('[data-stat="countries"]').innerText()).replace(/\D/g, ''))).toBe(stats.countries);
    for (const [name, href] of [
      ['REST API reference', '/openapi.json'],
      ['GraphQL explorer', '/graphql'],
      ['Connect an AI agent', '/dashboard/connect'],
      ['Create a free account', '/dashboard/register'],
      ['Terms of service', '/legal/terms'],
      ['Privacy notice', '/legal/privacy'],
    ]) {
      expect(await page.getByRole('link', { name, exact: true }).first().getAttribute('href')).toBe(href);
    }
    await expectAccessible(page, 'landing');
    await screenshot(page, 'landing', { fullPage: true });

    // the example search, pre-filled, runs without an account; its hits are those of POST /v1/search
    const query = await page.getByLabel('Search', { exact: true }).inputValue();
    await page.getByRole('button', { name: 'Search' }).click();
    const hits = page.locator('#example-results .hits li');
    await hits.first().waitFor({ timeout: 30_000 });
    const rest = await call(`${base}/v1/search`, 'POST', { q: query, namespace: 'legislation', top_k: 5 });
    expect(rest.status).toBe(200);
    expect(rest.body.hits.length).toBeGreaterThan(0);
    const shown = await hits.locator('strong').allInnerTexts();
    expect(shown).toEqual(rest.body.hits.map((h: { title?: string; source_id: string }) => h.title || h.source_id));
    await expectAccessible(page, 'landing with hits');

    // the curl command on the page is the same request
    expect(await page.locator('pre code').innerText()).toContain(`${base}/v1/search`);
    // the legal texts it links to are served
    const terms = await open();
    await terms.goto('/legal/terms');
    await expectHeading(terms, 'Terms of service');
    await expectAccessible(terms, 'terms');
    // a phone does not scroll sideways
    const phone = await open(390);
    await phone.goto('/');
    await expectHeading(phone, /Search EU case law/);
    expect(await overflowsHorizontally(phone)).toBe(false);
  }, 120_000);

  it('registration mails the verification link by itself; the home checklist progresses as each step is done', async () => {
    const email = 'newcomer@example.org';
    const page = await open();
    await page.goto('/dashboard/register');
    await expectHeading(page, 'Create an account');
    // the documents people accept are linked where they accept them
    expect(await page.getByRole('link', { name: /Read the terms/ }).getAttribute('href')).toBe('/legal/terms');
    expect(await page.getByRole('link', { name: /Read the privacy policy/ }).getAttribute('href')).toBe('/legal/privacy');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel(/I accept the terms of service/).check();
    await page.getByLabel(/I have read the privacy policy/).check();
    await page.getByRole('button', { name: 'Create account' }).click();
    await expectHeading(page, 'Home');
    // no button pressed: registration sent the mail
    const link = await verificationLink(email);

    const step = (id: string) => page.getByTestId(`step-${id}`);
    const done = async (id: string) => (await step(id).getAttribute('data-done')) === 'true';
    await step('verify').waitFor();
    expect(await page.getByTestId('steps-done').innerText()).toBe('0 of 4 steps done.');
    expect([await done('verify'), await done('key'), await done('first-call'), await done('agent')]).toEqual([false, false, false, false]);
    await page.getByRole('button', { name: 'Send the verification e-mail again' }).waitFor();
    expect(await page.getByTestId('remaining-today').innerText()).toBe('20');
    await expectAccessible(page, 'home (new account)');
    await screenshot(page, 'home', { fullPage: true });

    // 1. verify: the mail's link (it signs this browser in anew)
    await page.goto(link);
    await page.getByRole('status').filter({ hasText: /verified/i }).waitFor();
    await page.getByRole('link', { name: 'Go to the dashboard' }).click();
    await expectHeading(page, 'Home');
    await page.getByText('1 of 4 steps done.').waitFor();
    expect(await done('verify')).toBe(true);

    // 2. a key
    await page.getByRole('link', { name: 'Create a key' }).click();
    await expectHeading(page, 'API keys');
    await page.getByLabel('Name').fill('first key');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.getByTestId('new-key').innerText();
    await page.goto('/dashboard/');
    await page.getByText('2 of 4 steps done.').waitFor();
    expect(await done('key')).toBe(true);
    expect(await step('key').innerText()).toContain(key.slice(0, 7));

    // 3. the first call: the page's curl command, sent as it reads
    const curl = await page.getByTestId('first-call-curl').innerText();
    const body = JSON.parse(/-d '(.*)'/.exec(curl)![1]!);
    expect(curl).toContain(`${base}/v1/search`);
    const first = await call(`${base}/v1/search`, 'POST', body, { key });
    expect(first.status).toBe(200);
    await platform.accounts.usage.flush();
    await page.getByRole('button', { name: 'Check again' }).click();
    await page.getByText('3 of 4 steps done.').waitFor();
    expect(await done('first-call')).toBe(true);
    expect(await page.getByTestId('remaining-today').innerText()).toBe('19');

    // 4. an agent: an MCP client authorised through OAuth
    await authorizeAgentWithPassword(base, email, PASSWORD, 'Claude Code');
    await page.getByRole('button', { name: 'Check again' }).click();
    await page.getByText('4 of 4 steps done.').waitFor();
    expect(await done('agent')).toBe(true);
    await expectAccessible(page, 'home (all done)');
  }, 120_000);

  it('GraphQL me.getting_started is the caller\'s own state, and needs a signed-in caller', async () => {
    const reg = await call(`${base}/auth/register`, 'POST', { email: 'gql-checklist@example.org', password: PASSWORD, accept_terms: true, acknowledge_privacy: true });
    expect(reg.status).toBe(200);
    const cookie = cookieFrom((await call(`${base}/auth/login`, 'POST', { email: 'gql-checklist@example.org', password: PASSWORD })).headers, 'session')!;
    const query = '{ me { getting_started { verified has_key first_call_at agent_connected } } }';
    const mine = await call(`${base}/graphql`, 'POST', { query }, { cookie });
    expect(mine.body).toEqual({ data: { me: { getting_started: { verified: false, has_key: false, first_call_at: null, agent_connected: false } } } });
    const anonymous = await call(`${base}/graphql`, 'POST', { query });
    expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('a signed-in visitor of / is offered the dashboard', async () => {
    const email = 'returning@example.org';
    await call(`${base}/auth/register`, 'POST', { email, password: PASSWORD, accept_terms: true, acknowledge_privacy: true });
    const cookie = cookieFrom((await call(`${base}/auth/login`, 'POST', { email, password: PASSWORD })).headers, 'session')!;
    const page = await open(1280, cookie);
    await page.goto('/');
    await page.getByRole('link', { name: 'Go to your dashboard' }).click();
    await expectHeading(page, 'Home');
  });

  describe('invites that just work', () => {
    let team: Awaited<ReturnType<typeof createTeam>>;
    /** Invites `email` through the service (the mail goes out over SMTP) and answers the link in the mail. */
    async function invite(email: string): Promise<string> {
      await platform.teams.invites.invite(team.owner.ctx, { emails: [email] });
      return (await smtp.waitForText(email, /invited to join/)).replace(/=3D/g, '=').match(/https?:\/\/\S+\/dashboard\/team\/join\?token=[\w-]+/)![0];
    }
    const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
    const registered = async (email: string) => {
      expect((await call(`${base}/auth/register`, 'POST', { email, password: PASSWORD, accept_terms: true, acknowledge_privacy: true })).status).toBe(200);
      return cookieFrom((await call(`${base}/auth/login`, 'POST', { email, password: PASSWORD })).headers, 'session')!;
    };
    const joined = async (page: Page) =>
      page.getByText('You joined Team of lead@firm.example as member.').waitFor({ timeout: 15_000 }).catch(async (e) => {
        throw new Error(`${e}\n${await page.locator('main').innerText()}`);
      });

    beforeAll(async () => {
      team = await createTeam(platform.orm, 'lead@firm.example', 10);
    });

    it('a new invitee: the page names the team and the address, sign-up pre-filled, back to the page, the invite verifies the address and joins', async () => {
      const email = 'new-invitee@firm.example';
      const link = await invite(email);
      const page = await open();
      await page.goto(link);
      await expectHeading(page, 'Join a team');
      expect(await page.getByTestId('invite-team').innerText()).toBe('Team of lead@firm.example');
      expect(await page.getByTestId('invite-email').innerText()).toBe(email);
      await expectAccessible(page, 'invite (signed out)');
      await screenshot(page, 'team-invite');
      await page.getByRole('main').getByRole('link', { name: 'Create an account' }).click();
      await expectHeading(page, 'Create an account');
      expect(await page.getByLabel('E-mail').inputValue()).toBe(email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByLabel(/I accept the terms of service/).check();
      await page.getByLabel(/I have read the privacy policy/).check();
      await page.getByRole('button', { name: 'Create account' }).click();
      await expectHeading(page, 'Join a team');
      await page.getByRole('button', { name: `Verify ${email} and join` }).click();
      await joined(page);
      // the sign-up came from the invite (it sent its token): the invite proved the address, no verification mail went out
      await platform.accounts.outbox.drain();
      expect(smtp.mails.filter((m) => m.to.includes(email)).map(mailText).filter((text) => /verify-email\?token=/.test(text))).toEqual([]);
      const me = await call(`${base}/auth/me`, 'GET', undefined, { cookie: `session=${(await page.context().cookies()).find((c) => c.name === 'session')!.value}` });
      expect(me.body.user.email_verified).toBe(true);
      expect(me.body.workspace_role).toBe('member');
      await expectAccessible(page, 'invite (joined)');
    }, 120_000);

    it('an unverified invitee signed in with the invited address is never told "another address": the link verifies and joins', async () => {
      const email = 'unverified-invitee@firm.example';
      const cookie = await registered(email);
      const link = await invite(email);
      // the API says plainly what to do, not "another address"
      const refused = await call(`${base}/v1/team/join`, 'POST', { token: tokenOf(link) }, { cookie });
      expect(refused.status).toBe(403);
      expect(refused.body.detail).toMatch(/^Verify your e-mail address first/);
      const page = await open(1280, cookie);
      await page.goto(link);
      await expectHeading(page, 'Join a team');
      await page.getByText('this invitation, sent to it, verifies it').waitFor();
      expect(await page.locator('main').innerText()).not.toMatch(/another address/);
      await expectAccessible(page, 'invite (unverified)');
      await page.getByRole('button', { name: `Verify ${email} and join` }).click();
      await joined(page);
    }, 120_000);

    it('a verified invitee signed in joins with one button; the invite proves nothing for another account', async () => {
      const email = 'verified-invitee@firm.example';
      await registered(email);
      await call(`${base}/auth/verify-email/confirm`, 'POST', { token: /Verification token: ([A-Za-z0-9_-]{43})/.exec(await smtp.waitForText(email, /Verification token: /))![1] });
      const cookie = cookieFrom((await call(`${base}/auth/login`, 'POST', { email, password: PASSWORD })).headers, 'session')!;
      const link = await invite(email);

      // another account holding the link: no proof, no join, and it is told which address the invite is for
      const other = await registered('someone-else@example.org');
      const proof = await call(`${base}/auth/verify-email/invite`, 'POST', { token: tokenOf(link) }, { cookie: other });
      expect(proof.status).toBe(403);
      expect((await call(`${base}/auth/me`, 'GET', undefined, { cookie: other })).body.user.email_verified).toBe(false);
      const otherPage = await open(1280, other);
      await otherPage.goto(link);
      await otherPage.getByText(`to use this invitation`).waitFor();

      const page = await open(1280, cookie);
      await page.goto(link);
      await expectHeading(page, 'Join a team');
      await page.getByRole('button', { name: 'Join the team', exact: true }).click();
      await joined(page);
      // used: the link proves nothing any more, and the preview says it is not valid
      expect((await call(`${base}/auth/verify-email/invite`, 'POST', { token: tokenOf(link) }, { cookie: other })).status).toBe(404);
      const preview = await call(`${base}/graphql`, 'POST', { query: 'query($t: String!) { teamInvite(token: $t) { team_name } }', variables: { t: tokenOf(link) } });
      expect(preview.body.errors[0].extensions.code).toBe('NOT_FOUND');
    }, 120_000);
  });
});
