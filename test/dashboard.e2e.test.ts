/**
 * The web dashboard in real headless Chromium against a real platform (small corpus slice, real
 * SMTP server): serving (deep links, `/`), registration with the legal checkboxes, keys (create,
 * copy, revoke), search with filters and the document view, citation resolution, usage counting
 * the dashboard's calls, the legal-acceptance step, password reset through the mail's link, a
 * session ending mid-way, and the 390-pixel phone layout. axe-core runs on every page and fails
 * the test on serious or critical violations. `npm run screenshots` (SCREENSHOTS=1) also writes
 * docs/screenshots/*.png from these steps.
 */
import { auth as mcpAuth } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Page } from 'playwright-core';
import { UserEntity } from '../src/modules/accounts/user.entity.js';
import type { Platform } from '../src/platform.js';
import { expectAccessible, launchChromium, overflowsHorizontally, screenshot, type TestBrowser } from './helpers/chromium.js';
import { expectHeading, freePort, startDashboardPlatform } from './helpers/dashboard.js';
import { startTestSmtp, type TestSmtp } from './helpers/smtp.js';
import { MemoryOAuthClient } from './helpers/oauth-client.js';

const PASSWORD = 'correct horse battery staple';

/** The BGB with §§ 823-830 (9 records, early in the file) and a few decisions (three of them cite § 823 BGB): enough to search, filter and resolve "§ 826 BGB". */
const SLICES = [
  { file: 'legislation/DE-GesetzeImInternet.jsonl.gz', lines: 9, keep: (r: Record<string, unknown>) => /^bgb(\/82[3-9]|\/830)?$/.test(String(r.source_id)) },
  { file: 'case_law/DE-BGH.jsonl.gz', lines: 12 },
];

describe('web dashboard', () => {
  let platform: Platform;
  let chromium: TestBrowser;
  let smtp: TestSmtp;
  let base: string;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    [platform, chromium] = await Promise.all([startDashboardPlatform(SLICES, { SMTP_URL: smtp.url, DEV_LOGIN: 'true' }), launchChromium()]);
    base = platform.config.baseUrl;
  });

  afterAll(async () => {
    await chromium?.close();
    await platform?.stop();
    await smtp?.stop();
  });

  async function open(width = 1280): Promise<Page> {
    const { page } = await chromium.newPage({ baseURL: base, width, height: width < 500 ? 844 : 860 });
    page.on('pageerror', (e) => {
      throw e;
    });
    return page;
  }

  /** Registers through the form (from the registration page already open when `then` is given), then waits for `then` (default: the overview). */
  async function register(page: Page, email: string, then?: string): Promise<void> {
    if (!then) await page.goto('/dashboard/register');
    await expectHeading(page, 'Create an account');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    // the boxes start unticked and are required
    await page.getByText('Accept the terms of service and acknowledge the privacy policy').waitFor();
    await page.getByLabel(/I accept the terms of service/).check();
    await page.getByLabel(/privacy policy/).check();
    await expectAccessible(page, 'registration');
    await screenshot(page, 'register');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expectHeading(page, then ?? 'Home');
  }

  async function signIn(page: Page, email: string, password: string): Promise<void> {
    const form = page.getByRole('form', { name: 'Sign in with e-mail and password' });
    await form.getByLabel('E-mail').fill(email);
    await form.getByLabel('Password').fill(password);
    await form.getByRole('button', { name: 'Sign in', exact: true }).click();
  }

  /** The first Tab reaches the skip link, and following it puts the focus in the main region (both shells share it). */
  async function expectSkipLink(page: Page): Promise<void> {
    await page.locator('body').focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.textContent?.trim()')).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate('document.activeElement?.id')).toBe('main');
  }

  const nav = (page: Page, label: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true });

  const requestsInPeriod = async (page: Page) => Number(await page.locator('.meter', { hasText: 'Requests in this period' }).locator('strong').innerText());

  it('serves the app at /dashboard, deep links included; `/` (the landing page) and the mail links lead there', async () => {
    // `/` is the public landing page (test/dashboard-front-door.e2e.test.ts), linking to the dashboard
    const root = await fetch(`${base}/`, { redirect: 'manual' });
    expect(root.status).toBe(200);
    expect(await root.text()).toContain('href="/dashboard/sign-in"');
    const deep = await fetch(`${base}/dashboard/keys/anything`);
    expect(deep.status).toBe(200);
    const html = await deep.text();
    expect(html).toContain('<div id="root"></div>');
    expect(html).toContain('name="dashboard-config"');
    const reset = await fetch(`${base}/reset-password?token=abc`, { redirect: 'manual' });
    expect(reset.headers.get('location')).toBe('/dashboard/reset-password?token=abc');
    const asset = html.match(/src="(\/dashboard\/assets\/[^"]+\.js)"/)![1]!;
    const js = await fetch(`${base}${asset}`);
    expect(js.status).toBe(200);
    expect(js.headers.get('cache-control')).toContain('immutable');
  });

  it('sends a signed-out visitor of a deep link to sign-in, and back there after signing in', async () => {
    const page = await open();
    await page.goto('/dashboard/usage');
    await expectHeading(page, 'Sign in');
    expect(new URL(page.url()).search).toBe('?next=%2Fusage');
    await expect(page.getByRole('button', { name: /Sign in \(development\)/ }).isVisible()).resolves.toBe(true);
    await expectAccessible(page, 'sign-in');
    await screenshot(page, 'sign-in');
    await expectSkipLink(page);
    await signIn(page, 'nobody@example.org', 'wrong password');
    await page.getByRole('alert').filter({ hasText: /invalid/i }).waitFor();
    await page.context().close();
  });

  it('register → key created and copied → search with filters → document → resolve → usage shows the calls', async () => {
    const page = await open();
    const email = `journey-${Date.now()}@example.org`;
    await register(page, email);
    await expectAccessible(page, 'overview');
    await expectSkipLink(page);

    // keys: empty, create, the full key once with a copy button
    await nav(page, 'API keys').click();
    await expectHeading(page, 'API keys');
    await page.getByText('No keys yet').waitFor();
    await expectAccessible(page, 'keys (empty)');
    await page.getByLabel('Name').fill('research laptop');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.getByTestId('new-key').innerText();
    expect(key).toMatch(/^sk-/);
    await page.getByText('you will not see it again').waitFor();
    await page.getByRole('button', { name: 'Copy key' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(key);
    const row = page.getByRole('row', { name: /research laptop/ });
    await expect(row.innerText()).resolves.toContain(key.slice(0, 7));
    await expect(row.innerText()).resolves.not.toContain(key);
    await expectAccessible(page, 'keys (new key)');
    await screenshot(page, 'keys');
    // the key works against the API
    const me = await fetch(`${base}/v1/usage/me`, { headers: { authorization: `Bearer ${key}` } });
    expect(me.status).toBe(200);

    // search: collection, country and source from discovery, keyword end of the slider
    await nav(page, 'Search').click();
    await expectHeading(page, 'Search');
    await page.getByText('Search the corpus', { exact: true }).waitFor();
    await page.getByLabel('Collection').selectOption('legislation');
    await page.getByRole('combobox', { name: 'Countries' }).fill('DE');
    await page.getByRole('option', { name: 'Germany (DE)' }).click();
    await page.getByLabel(/Gesetze im Internet/).check();
    await page.getByLabel('Keyword ↔ semantic').fill('0');
    await page.getByText('Keyword only: documents containing your words').waitFor();
    await page.getByLabel('Query').fill('Eigentum widerrechtlich verletzt Schaden');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.locator('.hit').first().waitFor();
    const url = new URL(page.url());
    expect(url.searchParams.get('namespace')).toBe('legislation');
    expect(url.searchParams.getAll('country')).toEqual(['DE']);
    expect(url.searchParams.getAll('source')).toEqual(['DE/GesetzeImInternet']);
    expect(url.searchParams.get('alpha')).toBe('0');
    const first = page.locator('.hit').first();
    await expect(first.innerText()).resolves.toMatch(/§ 823 BGB/);
    await expect(first.innerText()).resolves.toMatch(/score \d\.\d{3} = [\d.]+ × semantic \d\.\d{3} \+ [\d.]+ × keyword \d\.\d{3}/);
    // § 823 BGB is cited by decisions of the slice: the citation authority prior is part of the sum.
    await expect(first.innerText()).resolves.toMatch(/\+ authority \d\.\d{3} \(cited by \d+ decisions? (?:or|and) guidance documents?\)/);
    await expect(first.innerText()).resolves.toMatch(/licence: \S/);
    expect(await page.locator('.hit .snippet').count()).toBeGreaterThan(0);
    await expectAccessible(page, 'search results');
    await screenshot(page, 'search', { fullPage: true });

    // the document view
    await first.getByRole('heading').getByRole('link').click();
    await expectHeading(page, /§ 823 BGB/);
    await page.getByText('verpflichtet', { exact: false }).first().waitFor();
    await page.getByText('Licence', { exact: true }).waitFor();
    await expectAccessible(page, 'document');
    await screenshot(page, 'document');

    // resolve a citation: an exact match opens the document
    await nav(page, 'Resolve').click();
    await expectHeading(page, 'Resolve a citation');
    await expectAccessible(page, 'resolve');
    await page.getByLabel('Citation', { exact: true }).fill('§ 826 BGB');
    await page.getByRole('button', { name: 'Resolve', exact: true }).click();
    await expectHeading(page, /§ 826 BGB/);
    await page.getByText('Resolved from “§ 826 BGB”').waitFor();

    // usage counts the dashboard's calls: search, two documents, resolve (and the key's call)
    await nav(page, 'Usage').click();
    await expectHeading(page, 'Usage');
    await page.getByRole('heading', { name: 'Daily history' }).waitFor();
    expect(await requestsInPeriod(page)).toBeGreaterThanOrEqual(4);
    await page.locator('.recharts-bar-rectangle').first().waitFor();
    await expectAccessible(page, 'usage');
    await screenshot(page, 'usage');

    // connect an agent: the MCP URL and snippets
    await nav(page, 'Connect an agent').click();
    await expectHeading(page, 'Connect an AI agent');
    await page.getByText(`${base}/mcp`, { exact: true }).waitFor();
    await page.getByRole('radio', { name: /^API key/ }).check();
    await page.getByLabel('Your API key').fill(key);
    await expect(page.getByLabel('Cursor configuration').innerText()).resolves.toContain(`"Authorization": "Bearer ${key}"`);
    await expectAccessible(page, 'connect');
    await screenshot(page, 'connect');

    // revoke with confirmation
    await nav(page, 'API keys').click();
    await page.getByRole('button', { name: /Revoke key research laptop/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await page.getByRole('row', { name: /research laptop/ }).getByText('revoked').waitFor();
    expect((await fetch(`${base}/v1/usage/me`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);

    // sign out
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expectHeading(page, 'Sign in');
    await page.getByText('You are signed out.').waitFor();
    await page.context().close();
  });

  it('asks for the terms again when they changed, then continues', async () => {
    const page = await open();
    const email = `legal-${Date.now()}@example.org`;
    await register(page, email);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await platform.orm.em.fork().nativeUpdate(UserEntity, { email_lower: email }, { terms_version: '2000-01' });
    await page.goto('/dashboard/keys');
    await expectHeading(page, 'Sign in');
    await signIn(page, email, PASSWORD);
    await expectHeading(page, 'Accept the terms');
    await expectAccessible(page, 'legal acceptance');
    await page.getByLabel(/I accept the terms of service/).check();
    await page.getByLabel(/privacy policy/).check();
    await page.getByRole('button', { name: 'Accept and continue' }).click();
    await expectHeading(page, 'API keys');
    await page.context().close();
  });

  it('resets a password through the link of a real mail', async () => {
    const page = await open();
    const email = `reset-${Date.now()}@example.org`;
    await register(page, email);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await expectHeading(page, 'Reset your password');
    await expectAccessible(page, 'forgot password');
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByText('Open the link in the mail').waitFor();
    const mail = await smtp.waitForText(email, /reset-password\?token=/);
    const link = mail.replace(/=3D/g, '=').match(/https?:\/\/\S+\/reset-password\?token=[\w-]+/)![0];
    await page.goto(link);
    await expectHeading(page, 'Choose a new password');
    await expectAccessible(page, 'reset password');
    // unticked by default: a reset keeps API keys made after the address was proven
    expect(await page.getByLabel('Also revoke all API keys').isChecked()).toBe(false);
    await page.getByLabel('New password', { exact: true }).fill('a brand new password');
    await page.getByLabel('Repeat the new password').fill('a brand new password');
    await page.getByRole('button', { name: 'Set the password and sign in' }).click();
    await expectHeading(page, 'Home');
    await page.getByText('Your password is changed').waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, email, 'a brand new password');
    await expectHeading(page, 'Home');
    // the link works once
    await page.goto(link);
    await page.getByLabel('New password', { exact: true }).fill('yet another password');
    await page.getByLabel('Repeat the new password').fill('yet another password');
    await page.getByRole('button', { name: 'Set the password and sign in' }).click();
    await page.getByRole('alert').filter({ hasText: /invalid or expired/i }).waitFor();
    await page.context().close();
  });

  it('verifies the e-mail address through the landing page of a real mail', async () => {
    const page = await open();
    const email = `verify-${Date.now()}@example.org`;
    await register(page, email);
    // keys made before the proof end with it: the keys page says so while the address is unverified
    await page.goto('/dashboard/keys');
    await page.getByTestId('unverified-key-notice').waitFor();
    await page.getByRole('link', { name: 'Verify it' }).click();
    await expectHeading(page, 'Verify your e-mail');
    await page.getByRole('button', { name: 'Send the verification mail' }).click();
    await page.getByText(`Open the link in the mail sent to ${email}`).waitFor();
    const mail = await smtp.waitFor(email);
    const link = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=').match(/https?:\/\/\S+\/verify-email\?token=[\w-]+/)![0];
    await page.goto(link);
    await page.getByRole('status').filter({ hasText: /verified/i }).waitFor();
    await expectAccessible(page, 'e-mail verified');
    await page.goto('/dashboard/');
    await expectHeading(page, 'Home');
    expect(await page.getByText('is not verified yet').count()).toBe(0);
    await page.goto('/dashboard/keys');
    await expectHeading(page, 'API keys');
    expect(await page.getByTestId('unverified-key-notice').count()).toBe(0);
    await page.context().close();
  });

  it('sends a person whose session ended mid-way to sign-in, then back to the page', async () => {
    const page = await open();
    const email = `expired-${Date.now()}@example.org`;
    await register(page, email);
    await page.goto('/dashboard/keys');
    await expectHeading(page, 'API keys');
    await page.context().clearCookies();
    await page.getByLabel('Name').fill('after expiry');
    await page.getByRole('button', { name: 'Create key' }).click();
    await expectHeading(page, 'Sign in');
    await page.getByText('Your session ended').waitFor();
    expect(new URL(page.url()).search).toBe('?next=%2Fkeys');
    await signIn(page, email, PASSWORD);
    await expectHeading(page, 'API keys');
    await page.context().close();
  });

  it('takes a person without an account from an MCP client\'s consent page to registration and back', async () => {
    // a port nothing listens on (and not one of the ports Chromium refuses, such as 9)
    const redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
    const agent = new MemoryOAuthClient({ redirectUrl: redirectUri, clientName: 'Dashboard test agent' });
    expect(await mcpAuth(agent, { serverUrl: new URL(`${base}/mcp`) })).toBe('REDIRECT');
    const page = await open();
    await page.goto(agent.authorizationUrl!.href);
    await page.getByRole('link', { name: 'Create one' }).click();
    await expectHeading(page, 'Create an account');
    expect(new URL(page.url()).searchParams.get('return_to')).toMatch(/^\/oauth\/interaction\//);
    // back on the consent page, signed in: allowing access sends the code to the agent
    const code = page.waitForRequest((r) => r.url().startsWith(redirectUri));
    await register(page, `agent-${Date.now()}@example.org`, 'Allow Dashboard test agent');
    await page.getByRole('button', { name: /Allow access as agent-/ }).click();
    const authorizationCode = new URL((await code).url()).searchParams.get('code')!;
    expect(await mcpAuth(agent, { serverUrl: new URL(`${base}/mcp`), authorizationCode })).toBe('AUTHORIZED');
    // a fresh tab: the first one is still navigating to the agent's (unserved) redirect URI
    const connect = await page.context().newPage();
    await connect.goto('/dashboard/connect');
    await connect.getByText('Dashboard test agent').waitFor();
    await page.context().close();
  });

  it('shows the rate limit with the wait, in words', async () => {
    const page = await open();
    await register(page, `limited-${Date.now()}@example.org`);
    // the Free plan's 10 requests per minute, spent through the API with the same session
    for (let i = 0; i < 10; i++) {
      const res = await page.context().request.post(`${base}/v1/search`, { data: { q: 'Schaden', namespace: 'legislation', top_k: 1 } });
      expect(res.status()).toBe(200);
    }
    await page.goto('/dashboard/search?q=Schaden&namespace=legislation');
    const alert = page.getByRole('alert').filter({ hasText: 'Too many requests' });
    await alert.waitFor();
    await expect(alert.innerText()).resolves.toMatch(/try again in \d+ (seconds?|minutes?)\./i);
    await expect(alert.getByRole('button', { name: 'Try again' }).isDisabled()).resolves.toBe(true);
    await expectAccessible(page, 'search, rate-limited');
    await page.context().close();
  });

  it('lays out keys and search for a 390-pixel phone', async () => {
    const page = await open(390);
    await register(page, `phone-${Date.now()}@example.org`);
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
    await expectHeading(page, 'API keys');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByTestId('new-key').waitFor();
    expect(await overflowsHorizontally(page)).toBe(false);
    await expectAccessible(page, 'keys at 390 px');
    await screenshot(page, 'keys-phone', { fullPage: true });
    await page.goto('/dashboard/search?q=Schadensersatz&namespace=legislation&alpha=0');
    await page.locator('.hit').first().waitFor();
    expect(await overflowsHorizontally(page)).toBe(false);
    await expectAccessible(page, 'search at 390 px');
    await screenshot(page, 'search-phone');
    await page.context().close();
  });
});
