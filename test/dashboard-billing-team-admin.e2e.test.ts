/**
 * The dashboard's billing, team and administration pages in real headless Chromium against a
 * real platform (Stripe stand-in, real SMTP): checkout with documents, order summary and assent
 * → Stripe → return page → plan shown; team invite → the invitee signs in through the mail's
 * link and joins → the owner sees them; an allowed domain shows its DNS record and is verified
 * by "Check now" against a local DNS server; an administrator changes a feedback report's status,
 * overrides a plan and erases an account; a non-administrator never sees the administration
 * and its GraphQL calls are refused; billing off says so; axe-core on every page.
 */
import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import type { Platform } from '../src/platform.js';
import { expectAccessible, launchChromium, overflowsHorizontally, screenshot, type TestBrowser } from './helpers/chromium.js';
import { expectHeading, startDashboardPlatform } from './helpers/dashboard.js';
import { call, cookieFrom, freePort } from './helpers/http.js';
import { startTestDns, type TestDns } from './helpers/dns-server.js';
import { startTestSmtp, type TestSmtp } from './helpers/smtp.js';
import { startLocalStripe, type LocalStripe } from './helpers/stripe-server.js';

const PASSWORD = 'correct horse battery staple';
const ADMIN = 'admin@example.org';
const SLICE = [{ file: 'case_law/DE-BGH.jsonl.gz', lines: 2 }];

describe('web dashboard: billing, team, administration', () => {
  let platform: Platform;
  let stripe: LocalStripe;
  let smtp: TestSmtp;
  let dns: TestDns;
  let chromium: TestBrowser;
  let base: string;
  const contexts: BrowserContext[] = [];
  const sql = (query: string, params: unknown[] = []) => platform.orm.em.fork().getConnection().execute(query, params) as Promise<any[]>;

  /** Registers (terms accepted), optionally marks the address verified (as the mail link would), signs in: the session cookie. */
  async function account(email: string, verified = true): Promise<{ id: string; cookie: string }> {
    const url = platform.url!;
    const reg = await call(`${url}/auth/register`, 'POST', { email, password: PASSWORD, accept_terms: true, acknowledge_privacy: true });
    expect(reg.status).toBe(200);
    if (verified) await sql('update app_user set email_verified = true where id = ?', [reg.body.id]);
    const login = await call(`${url}/auth/login`, 'POST', { email, password: PASSWORD });
    expect(login.status).toBe(200);
    return { id: reg.body.id, cookie: cookieFrom(login.headers, 'session')! };
  }

  /** A browser page signed in with `cookie` (or signed out). */
  async function browserPage(cookie?: string, width?: number): Promise<Page> {
    const url = base;
    const { context, page } = await chromium.newPage({ baseURL: url, width });
    contexts.push(context);
    if (cookie) {
      const [name, value] = [cookie.slice(0, cookie.indexOf('=')), cookie.slice(cookie.indexOf('=') + 1)];
      await context.addCookies([{ name, value, url }]);
    }
    return page;
  }

  let owner: { id: string; cookie: string };
  let plain: { id: string; cookie: string };

  beforeAll(async () => {
    const port = await freePort();
    [stripe, smtp, dns, chromium] = await Promise.all([startLocalStripe(), startTestSmtp(), startTestDns(), launchChromium()]);
    platform = await startDashboardPlatform(SLICE, {
      PORT: String(port),
      BASE_URL: `http://127.0.0.1:${port}`,
      STRIPE_SECRET_KEY: 'sk_test_dashboard',
      STRIPE_WEBHOOK_SECRET: 'whsec_dashboard',
      STRIPE_API_BASE: stripe.url,
      STRIPE_TIMEOUT_MS: '2000',
      STRIPE_MAX_NETWORK_RETRIES: '0',
      SMTP_URL: smtp.url,
      ADMIN_EMAILS: ADMIN,
      DNS_SERVERS: dns.servers,
      DNS_TIMEOUT_MS: '500',
    });
    base = platform.url!;
    [owner, plain] = await Promise.all([account('owner@firm.example'), account('plain@example.org')]);
  }, 120_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await chromium?.close();
    await platform?.stop();
    await stripe?.stop();
    await smtp?.stop();
    await dns?.stop();
  });

  it('checks out a per-seat plan: documents, exact order summary, unticked assent, Stripe, return page verifies, plan shown', async () => {
    const page = await browserPage(owner.cookie);
    // Stripe's hosted page: the customer pays, Stripe redirects to the success URL
    await page.route(`${stripe.url}/c/pay/**`, async (route) => {
      const id = new URL(route.request().url()).pathname.split('/').pop()!;
      stripe.completeSession(id);
      const successUrl = String(stripe.sessions.get(id)!.success_url).replace('{CHECKOUT_SESSION_ID}', id);
      await route.fulfill({ status: 303, headers: { location: successUrl } });
    });
    await page.goto('/dashboard/billing');
    await expectHeading(page, 'Billing');
    await expect(page.getByTestId('current-plan').textContent()).resolves.toBe('Free');
    await expectAccessible(page, 'billing');
    await screenshot(page, 'billing', { fullPage: true });

    await page.getByRole('button', { name: 'Choose Professional', exact: true }).click();
    const checkout = page.getByRole('region', { name: /Checkout: Professional/ });
    await checkout.waitFor();
    await page.getByLabel('Seats').fill('3');
    await page.getByLabel('Team workspace name').fill('Firm LLP');
    const summary = page.getByTestId('order-summary');
    await expect(summary.innerText()).resolves.toMatch(/Professional, billed monthly[\s\S]*\$29 per month[\s\S]*Seats\s+3[\s\S]*Team workspace\s+Firm LLP[\s\S]*Subtotal\s+\$87 per month[\s\S]*Total due today\s+\$87/);
    const documents = await page.getByTestId('checkout-documents').innerText();
    for (const d of ['General service agreement, version 2025-01', 'API/MCP service terms, version 2025-01', 'Data processing agreement, version 2025-01', 'Privacy notice, version 2025-01']) {
      expect(documents).toContain(d);
    }
    const assent = page.getByLabel(/I accept the General service agreement/);
    expect(await assent.isChecked()).toBe(false);
    const pay = page.getByRole('button', { name: /Continue to payment/ });
    expect(await pay.isDisabled()).toBe(true);
    await expectAccessible(page, 'billing checkout');
    await screenshot(page, 'billing-checkout', { fullPage: true });

    await assent.check();
    await pay.click();
    await page.waitForURL(/\/dashboard\/billing\?checkout=success&session_id=cs_/, { timeout: 15_000 });
    await page.getByText(/Payment received\. Your plan is now Professional \(monthly\) with 3 seats\./).waitFor({ timeout: 15_000 });
    await page.getByTestId('current-plan').getByText('Professional', { exact: true }).waitFor();
    await expect(page.getByRole('region', { name: 'Your plan' }).innerText()).resolves.toMatch(/Firm LLP \(3 seats\)/);
    await expectAccessible(page, 'billing return');

    // what the server recorded is what the page showed, and Stripe got the same order
    const [assentRow] = await sql('select documents, order_summary from legal_assent where user_id = ?', [owner.id]);
    const recorded = typeof assentRow.order_summary === 'string' ? JSON.parse(assentRow.order_summary) : assentRow.order_summary;
    expect(recorded).toMatchObject({ plan: 'professional', interval: 'monthly', quantity: 3, unit_price_usd: 29, subtotal_usd: 87, workspace_name: 'Firm LLP' });
    const created = stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions');
    expect(created).toHaveLength(1);
    expect(created[0]!.body.line_items).toEqual([{ price: 'price_professional_monthly', quantity: '3' }]);

    // the phone layout holds
    const phone = await browserPage(owner.cookie, 390);
    await phone.goto('/dashboard/billing');
    await expectHeading(phone, 'Billing');
    await phone.getByTestId('current-plan').getByText('Professional', { exact: true }).waitFor();
    expect(await overflowsHorizontally(phone)).toBe(false);
  });

  it('team: the owner invites (pasted list), revokes one, makes a join link; the invitee signs in through the mail link and joins; the owner sees them', async () => {
    await account('invitee@firm.example');
    const page = await browserPage(owner.cookie);
    await page.goto('/dashboard/team');
    await expectHeading(page, 'Team');
    await page.getByRole('heading', { name: 'Firm LLP' }).waitFor();
    await page.getByLabel('E-mail addresses').fill('invitee@firm.example,\nsecond@firm.example');
    await page.getByRole('button', { name: 'Invite 2 people' }).click();
    await page.getByText('Invited: invitee@firm.example, second@firm.example.').waitFor();
    await page.getByTestId('seats').getByText('3 of 3 used').waitFor();
    await page.getByRole('button', { name: 'Revoke the invite of second@firm.example' }).click();
    await page.getByTestId('seats').getByText('2 of 3 used').waitFor();
    expect(await page.getByTestId('invites').innerText()).not.toContain('second@firm.example');

    await page.getByRole('button', { name: 'Create link' }).click();
    const link = page.getByTestId('join-link');
    await link.waitFor();
    const first = await link.innerText();
    expect(first).toMatch(new RegExp(`^${base}/dashboard/team/join\\?token=`));
    await page.getByRole('button', { name: 'Rotate link' }).click();
    await page.waitForFunction((old) => (globalThis as any).document.querySelector('[data-testid="join-link"]')?.textContent !== old, first);
    // an allowed domain (not the invitee's) waits for its DNS proof: the page shows the record to publish
    await page.getByRole('textbox', { name: 'Domains' }).fill('firm-partners.example');
    await page.getByRole('button', { name: 'Save domains' }).click();
    await page.getByText('Saved.').waitFor();
    const claim = page.getByTestId('domain-firm-partners.example');
    await claim.getByText('Pending verification').waitFor();
    const [recordName, recordValue] = [await claim.locator('dd code').nth(1).innerText(), await claim.locator('dd code').nth(2).innerText()];
    expect(recordName).toBe('_legal-search-challenge.firm-partners.example');
    expect(recordValue).toMatch(/^legal-search-domain-verification=[0-9a-f]{32}$/);
    const checkNow = claim.getByRole('button', { name: 'Check the DNS record of firm-partners.example now' });
    await checkNow.click();
    await claim.getByText('firm-partners.example is not verified yet.').waitFor();
    await claim.getByText(/The record was not found/).waitFor();
    await expectAccessible(page, 'team');
    await screenshot(page, 'team', { fullPage: true });
    dns.setTxt(recordName, [recordValue]);
    await checkNow.click();
    await claim.getByText('firm-partners.example is verified.').waitFor();
    await claim.getByText('Verified', { exact: true }).waitFor();

    // the invitation mail's link, opened signed out: the page names the team, sign in (the address filled in), then join
    const mail = await waitForMail(smtp, 'invitee@firm.example', /invited to join/);
    const joinUrl = /https?:\/\/\S+\/dashboard\/team\/join\?token=[\w-]+/.exec(decodeQuotedPrintable(mail))![0];
    const invitee = await browserPage();
    await invitee.goto(joinUrl);
    await expectHeading(invitee, 'Join a team');
    await invitee.getByRole('main').getByRole('link', { name: 'Sign in', exact: true }).click();
    await expectHeading(invitee, 'Sign in');
    expect(await invitee.getByLabel('E-mail', { exact: true }).inputValue()).toBe('invitee@firm.example');
    await invitee.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await invitee.getByRole('button', { name: 'Sign in' }).click();
    await expectHeading(invitee, 'Join a team');
    await expectAccessible(invitee, 'team join');
    await invitee.getByRole('button', { name: 'Join the team' }).click();
    await invitee.getByText(/You joined Firm LLP as member\./).waitFor({ timeout: 10_000 }).catch(async (e) => {
      throw new Error(`${e}\n${await invitee.locator('main').innerText()}`);
    });

    await page.reload();
    await expectHeading(page, 'Team');
    await page.getByTestId('members').getByText('invitee@firm.example').waitFor();
    expect(await page.getByTestId('members').innerText()).toMatch(/owner@firm\.example[\s\S]*invitee@firm\.example/);

    // the phone layout holds
    const phone = await browserPage(owner.cookie, 390);
    await phone.goto('/dashboard/team');
    await phone.getByTestId('members').getByText('invitee@firm.example').waitFor();
    expect(await overflowsHorizontally(phone)).toBe(false);
  });

  it('administration: stats chart, a feedback report changed and marked forwarded, a plan overridden, an account erased after typing its address, the audit log', async () => {
    const admin = await account(ADMIN);
    const gone = await account('gone@example.org');
    const reportId = randomUUID();
    await sql(`insert into feedback_report (id, user_id, source, source_id, issue_type, description, status, channel, created_at) values (?, ?, 'DE/BGH', null, 'missing_documents', 'Decisions of 2024 are missing', 'open', 'mcp', ?)`, [
      reportId,
      plain.id,
      new Date(),
    ]);
    // a few API calls, so the figures, the chart and the top endpoints have something to show
    const key = (await call(`${base}/v1/keys`, 'POST', { name: 'k' }, { cookie: plain.cookie })).body.key as string;
    for (let i = 0; i < 3; i++) expect((await call(`${base}/v1/search`, 'POST', { q: 'Schadensersatz', alpha: 0 }, { key })).status).toBe(200);
    const page = await browserPage(admin.cookie);
    await page.goto('/dashboard/');
    // past nine links the last ones are under "More" (app/NavMore.tsx)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'More' }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Administration' }).click();
    await expectHeading(page, 'Administration');
    await page.locator('.recharts-bar-rectangle').first().waitFor();
    expect(await page.getByRole('region', { name: 'Top endpoints, last 30 days' }).getByRole('row').count()).toBeGreaterThan(1);
    await expectAccessible(page, 'admin stats');
    await screenshot(page, 'admin', { fullPage: true });

    await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Feedback' }).click();
    await expectHeading(page, 'Feedback');
    const report = page.getByTestId('report').filter({ hasText: 'Decisions of 2024 are missing' });
    await report.waitFor();
    await expectAccessible(page, 'admin feedback');
    await report.getByLabel('Issue URL').fill('https://github.com/example/data/issues/7');
    await report.getByRole('button', { name: 'Mark forwarded' }).click();
    await page.getByText('No open reports').waitFor();
    expect((await sql('select status, forwarded_url from feedback_report where id = ?', [reportId]))[0]).toMatchObject({ status: 'forwarded', forwarded_url: 'https://github.com/example/data/issues/7' });
    await page.getByLabel('Show').selectOption('forwarded');
    await report.getByRole('combobox', { name: 'Status' }).selectOption('dismissed');
    await report.getByLabel('Note (optional)').fill('covered by the 2025 import');
    await report.getByRole('button', { name: 'Set status' }).click();
    await page.getByText('No forwarded reports').waitFor();
    expect((await sql('select status, status_note from feedback_report where id = ?', [reportId]))[0]).toMatchObject({ status: 'dismissed', status_note: 'covered by the 2025 import' });
    // a closed report offers no more changes
    await page.getByLabel('Show').selectOption('dismissed');
    await report.getByText('Closed: a dismissed report does not change.').waitFor();
    expect(await report.getByRole('button').count()).toBe(0);

    await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Users' }).click();
    await expectHeading(page, 'Users');
    await page.getByLabel('Search e-mail or name').fill('plain@');
    await page.getByTestId('users').getByText('plain@example.org').waitFor();
    await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('[data-testid="users"] tbody tr').length === 1);
    await page.getByRole('button', { name: 'Show details of plain@example.org' }).click();
    await page.getByRole('heading', { name: 'Top endpoints of plain@example.org' }).waitFor();
    await page.getByLabel('Plan', { exact: true }).selectOption('developer_pro');
    await page.getByLabel('Reason (kept in the audit log)').first().fill('conference partner');
    await page.getByRole('button', { name: 'Save plan override' }).click();
    await page.getByText('The plan is now Developer Pro (override; the subscription gives Free).').waitFor();
    await page.getByTestId('plan-plain@example.org').getByText('override').waitFor();
    await expectAccessible(page, 'admin users');
    await screenshot(page, 'admin-users', { fullPage: true });
    const status = await call(`${base}/v1/billing/status`, 'GET', undefined, { cookie: plain.cookie });
    expect(status.body).toMatchObject({ plan: 'developer_pro', admin_override: { plan: 'developer_pro', reason: 'conference partner' } });

    // erasure only after the address is typed
    await page.getByLabel('Search e-mail or name').fill('gone@');
    await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('[data-testid="users"] tbody tr').length === 1);
    await page.getByRole('button', { name: 'Show details of gone@example.org' }).click();
    const erase = page.getByRole('button', { name: 'Erase account' });
    expect(await erase.isDisabled()).toBe(true);
    await page.getByLabel(/Type the e-mail address/).fill('gone@example.or');
    expect(await erase.isDisabled()).toBe(true);
    await page.getByLabel(/Type the e-mail address/).fill('gone@example.org');
    await erase.click();
    await page.getByText('gone@example.org was erased.').waitFor();
    expect(await sql('select id from app_user where id = ?', [gone.id])).toHaveLength(0);

    await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Audit log' }).click();
    await expectHeading(page, 'Audit log');
    const audit = page.getByTestId('audit');
    await audit.getByText('Account erased').waitFor();
    const text = await audit.innerText();
    for (const action of ['Plan override', 'Feedback status', 'Feedback forwarded']) expect(text).toContain(action);
    expect(text).toContain('conference partner');
    await expectAccessible(page, 'admin audit');

    // the phone layout holds (tables become cards)
    for (const path of ['/dashboard/admin', '/dashboard/admin/users', '/dashboard/admin/audit']) {
      const phone = await browserPage(admin.cookie, 390);
      await phone.goto(path);
      await phone.locator('.stat-grid, [data-testid="users"], [data-testid="audit"]').first().waitFor();
      expect([path, await overflowsHorizontally(phone)]).toEqual([path, false]);
    }
  });

  it('a non-administrator never sees the administration, and its GraphQL calls to it are refused', async () => {
    const page = await browserPage(plain.cookie);
    await page.goto('/dashboard/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Team' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Administration' }).count()).toBe(0);
    for (const path of ['/dashboard/admin', '/dashboard/admin/users', '/dashboard/admin/feedback', '/dashboard/admin/audit']) {
      await page.goto(path);
      await expectHeading(page, 'Page not found');
    }
    const answers = await page.evaluate(async () => {
      const ask = async (query: string) => (await (await fetch('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) })).json()) as any;
      return Promise.all([
        ask('{ adminStats { total_users } }'),
        ask('{ adminUsers { total } }'),
        ask('{ adminFeedback { total } }'),
        ask('mutation { adminSetPlanOverride(userId: "00000000-0000-4000-8000-000000000000", plan: developer_scale) { plan } }'),
      ]);
    });
    // the queries are nullable: each refused field is null beside its error; the mutation fails whole
    expect(answers.map((a) => a.data ?? null)).toEqual([{ adminStats: null }, { adminUsers: null }, { adminFeedback: null }, null]);
    for (const a of answers) expect(a.errors[0].extensions.code).toBe('FORBIDDEN');
    // the personal workspace: the team page explains how to get one
    await page.goto('/dashboard/team');
    await expectHeading(page, 'Team');
    await page.getByText('You are not in a team workspace').waitFor();
    await expectAccessible(page, 'team (personal)');
  });

  it('with billing off on the server, the billing page says so and offers no checkout', async () => {
    // this server has billing on (its meta tag says so); a second platform without Stripe costs
    // ~20 s, so the page is given the tag such a server writes (billing: false) and must follow it
    const html = await (await fetch(`${base}/dashboard/billing`)).text();
    expect(html).toMatch(/name="dashboard-config" content="[^"]*&#34;billing&#34;:true/);
    const user = await account('nobilling@example.org', false);
    const page = await browserPage(user.cookie);
    await page.route(`${base}/dashboard/**`, async (route) => {
      if (route.request().resourceType() !== 'document') return route.continue();
      const response = await route.fetch();
      await route.fulfill({ response, body: (await response.text()).replace(/(&#34;billing&#34;:)true/, '$1false') });
    });
    await page.goto('/dashboard/billing');
    await expectHeading(page, 'Billing');
    await page.getByTestId('billing-off').getByText('Billing is off on this server.').waitFor();
    await page.getByRole('heading', { name: 'Professional Plus' }).waitFor();
    expect(await page.getByRole('button', { name: /^Choose / }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Credits' }).count()).toBe(0);
    await expectAccessible(page, 'billing off');
  });
});

/** The first mail to `to` whose text matches `pattern` (verification mails go to the same address). */
async function waitForMail(smtp: TestSmtp, to: string, pattern: RegExp, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mail = smtp.mails.find((m) => m.to.includes(to) && pattern.test(decodeQuotedPrintable(m.raw)));
    if (mail) return mail.raw;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${pattern}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function decodeQuotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}
