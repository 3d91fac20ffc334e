/**
 * Issue 36, items 6 to 8, in real headless Chromium against a real platform (local Stripe, real
 * SMTP), axe-core on every page: the plan cards (five in one row at 1366 px, three and two at
 * 900 px, one per row on a phone, prices and buttons on the same lines, no feature said twice,
 * the yearly saving), a discount that covers three months said so in the order summary, the
 * invoices listed with links to Stripe's hosted pages, a team member's billing view, usage per
 * key and endpoint with the CSV that matches the table, renaming a key, the revoke dialog
 * focusing Cancel, the administration's top menu on one line at 1366 px with a keyboard "More"
 * menu, the unverified administrator's explanation, and a readable audit log.
 */
import { readFile } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import type { Platform } from '../src/platform.js';
import { expectAccessible, launchChromium, overflowsHorizontally, screenshot, type TestBrowser } from './helpers/chromium.js';
import { expectHeading, startDashboardPlatform } from './helpers/dashboard.js';
import { call, cookieFrom, freePort } from './helpers/http.js';
import { startTestSmtp, type TestSmtp } from './helpers/smtp.js';
import { startLocalStripe, type LocalStripe } from './helpers/stripe-server.js';

const PASSWORD = 'correct horse battery staple';
const ADMIN = 'chief@example.org';
const UNVERIFIED_ADMIN = 'deputy@example.org';
const SLICE = [{ file: 'case_law/DE-BGH.jsonl.gz', lines: 2 }];

type Box = { x: number; y: number; width: number; height: number };

describe('web dashboard: billing that reads right, usage per key, key rename, administration polish', () => {
  let platform: Platform;
  let stripe: LocalStripe;
  let smtp: TestSmtp;
  let chromium: TestBrowser;
  let base: string;
  const contexts: BrowserContext[] = [];
  const sql = (query: string, params: unknown[] = []) => platform.orm.em.fork().getConnection().execute(query, params) as Promise<any[]>;

  async function account(email: string, verified = true): Promise<{ id: string; cookie: string }> {
    const reg = await call(`${base}/auth/register`, 'POST', { email, password: PASSWORD, accept_terms: true, acknowledge_privacy: true });
    expect(reg.status).toBe(200);
    if (verified) await sql('update app_user set email_verified = true where id = ?', [reg.body.id]);
    const login = await call(`${base}/auth/login`, 'POST', { email, password: PASSWORD });
    expect(login.status).toBe(200);
    return { id: reg.body.id, cookie: cookieFrom(login.headers, 'session')! };
  }

  async function browserPage(cookie: string, width?: number, height?: number): Promise<Page> {
    const { context, page } = await chromium.newPage({ baseURL: base, width, height });
    contexts.push(context);
    const [name, value] = [cookie.slice(0, cookie.indexOf('=')), cookie.slice(cookie.indexOf('=') + 1)];
    await context.addCookies([{ name, value, url: base }]);
    return page;
  }

  const boxes = (page: Page, selector: string): Promise<Box[]> =>
    page.locator(selector).evaluateAll((els) => els.map((el: any) => {
      const r = el.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    }));

  /** The cards per row of the plan grid (rows told apart by their top edge). */
  async function cardsPerRow(page: Page): Promise<number[]> {
    const cards = await boxes(page, '[data-testid="plan-grid"] > li');
    const rows = new Map<number, number>();
    for (const c of cards) rows.set(Math.round(c.y), (rows.get(Math.round(c.y)) ?? 0) + 1);
    return [...rows.entries()].sort((a, b) => a[0] - b[0]).map(([, n]) => n);
  }

  beforeAll(async () => {
    const port = await freePort();
    [stripe, smtp, chromium] = await Promise.all([startLocalStripe(), startTestSmtp(), launchChromium()]);
    platform = await startDashboardPlatform(SLICE, {
      PORT: String(port),
      BASE_URL: `http://127.0.0.1:${port}`,
      STRIPE_SECRET_KEY: 'sk_test_dashboard_usage',
      STRIPE_WEBHOOK_SECRET: 'whsec_dashboard_usage',
      STRIPE_API_BASE: stripe.url,
      STRIPE_TIMEOUT_MS: '3000',
      STRIPE_MAX_NETWORK_RETRIES: '0',
      SMTP_URL: smtp.url,
      ADMIN_EMAILS: `${ADMIN},${UNVERIFIED_ADMIN}`,
    });
    base = platform.url!;
  }, 180_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await chromium?.close();
    await platform?.stop();
    await stripe?.stop();
    await smtp?.stop();
  });

  it('shows five equal plan cards without a lone one, the yearly saving, no feature twice, plans before credits, and a three-month discount as such', async () => {
    const free = await account('free@example.org');
    const page = await browserPage(free.cookie, 1366, 900);
    await page.goto('/dashboard/billing');
    await expectHeading(page, 'Billing');
    await page.getByTestId('plan-grid').waitFor();
    // five plans, one row, equal widths; headings, prices and buttons on the same lines
    expect(await cardsPerRow(page)).toEqual([5]);
    const cards = await boxes(page, '[data-testid="plan-grid"] > li');
    expect(Math.max(...cards.map((c) => c.width)) - Math.min(...cards.map((c) => c.width))).toBeLessThan(1);
    expect(new Set(cards.map((c) => Math.round(c.height))).size).toBe(1);
    const prices = await boxes(page, '[data-testid="plan-grid"] .plan-price');
    expect(Math.max(...prices.map((p) => p.y)) - Math.min(...prices.map((p) => p.y))).toBeLessThan(1);
    const buttons = await boxes(page, '[data-testid="plan-grid"] .plan-action button');
    expect(buttons).toHaveLength(4); // Free is the current plan
    const bottoms = buttons.map((b) => b.y + b.height);
    expect([bottoms, Math.max(...bottoms) - Math.min(...bottoms) < 1]).toEqual([bottoms, true]);
    // one wording per limit, and nothing said twice on a card
    for (const slug of ['free', 'professional', 'professional_plus', 'developer_pro', 'developer_scale']) {
      const lines = await page.getByTestId(`plan-${slug}`).locator('.features li').allInnerTexts();
      expect([slug, new Set(lines).size]).toEqual([slug, lines.length]);
      expect(lines.filter((l) => /requests per (billing period|period|30 days)/.test(l))).toHaveLength(1);
    }
    expect(await page.getByTestId('plan-developer_pro').innerText()).toContain('100,000 requests per billing period');
    expect(await page.getByTestId('plan-developer_pro').innerText()).not.toMatch(/requests per period\b/);
    // a Free account: no credits form at all, and the plans come before anything else to buy
    expect(await page.getByRole('heading', { name: 'Credits' }).count()).toBe(0);
    await page.getByText('You are on the Free plan. Choose a paid plan below for a larger allowance.').waitFor();
    await expectAccessible(page, 'billing plans');
    await screenshot(page, 'billing-plans', { fullPage: true });

    await page.getByLabel('Yearly').check();
    await expect(page.getByTestId('saving-professional').innerText()).resolves.toBe('$24.17 a month: save $58 (17%) against paying monthly');
    await expect(page.getByTestId('saving-developer_scale').innerText()).resolves.toContain('save $398 (17%)');
    expect(await page.getByTestId('saving-free').count()).toBe(0);
    await page.getByLabel('Monthly').check();

    // between: three and two; a phone: one per row, nothing wider than the screen
    await page.setViewportSize({ width: 900, height: 900 });
    expect(await cardsPerRow(page)).toEqual([3, 2]);
    const phone = await browserPage(free.cookie, 390, 844);
    await phone.goto('/dashboard/billing');
    await phone.getByTestId('plan-grid').waitFor();
    expect(await cardsPerRow(phone)).toEqual([1, 1, 1, 1, 1]);
    expect(await overflowsHorizontally(phone)).toBe(false);

    // a code whose discount repeats for three months
    stripe.addPromotionCode('SPRING20', { percent_off: 20, duration: 'repeating', duration_in_months: 3 });
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.getByRole('button', { name: 'Choose Professional', exact: true }).click();
    await page.getByLabel('Seats').fill('3');
    await page.getByLabel('Promotion code (optional)').fill('SPRING20');
    await page.getByRole('button', { name: 'Apply code' }).click();
    const summary = page.getByTestId('order-summary');
    await summary.getByText('Discount (SPRING20)').waitFor();
    const text = await summary.innerText();
    expect(text).toMatch(/Discount \(SPRING20\)\s+−\$17\.40 for 3 months/);
    expect(text).toMatch(/Total due today\s+\$69\.60 today: \$69\.60 per month for 3 months, then \$87 per month until you cancel/);
    await expectAccessible(page, 'billing checkout with a discount');
  });

  it("lists the account's invoices with links to Stripe's hosted pages", async () => {
    const payer = await account('payer@example.org');
    const checkout = await call(`${base}/v1/billing/checkout`, 'POST', { plan: 'developer_pro', interval: 'monthly', legal_accepted: true }, { cookie: payer.cookie });
    expect(checkout.status).toBe(200);
    const [{ stripe_customer_id: customer }] = await sql('select stripe_customer_id from billing_account where user_id = ?', [payer.id]);
    const older = stripe.addInvoice(customer, { total: 4900, created: Math.floor(Date.now() / 1000) - 40 * 86400 });
    const newer = stripe.addInvoice(customer, { total: 4900, status: 'open' });
    const page = await browserPage(payer.cookie, 1366, 900);
    await page.goto('/dashboard/billing');
    const table = page.getByTestId('invoices');
    await table.waitFor();
    const rows = await table.locator('tbody tr').allInnerTexts();
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(new RegExp(`${newer.number}[\\s\\S]*\\$49[\\s\\S]*Due`));
    expect(rows[1]).toMatch(new RegExp(`${older.number}[\\s\\S]*\\$49[\\s\\S]*Paid`));
    const links = await table.getByRole('link').evaluateAll((els) => els.map((a: any) => String(a.href)));
    expect(links).toEqual([`${stripe.url}/i/${newer.id}`, `${stripe.url}/i/${older.id}`]);
    await expectAccessible(page, 'billing invoices');
    await screenshot(page, 'billing-invoices', { fullPage: true });
  });

  it('tells a team member the plan comes from the team, with nothing to buy', async () => {
    const [owner, member] = [await account('owner@firm.example'), await account('member@firm.example')];
    const workspaceId = '7d2b1f0e-3c4a-4e5f-8a6b-9c0d1e2f3a4b';
    await sql("update app_user set plan = 'professional' where id = ?", [owner.id]);
    await sql("insert into workspace (id, owner_user_id, name, kind, seat_limit, created_at) values (?, ?, 'Firm LLP', 'team', 3, now())", [workspaceId, owner.id]);
    await sql("insert into workspace_member (user_id, workspace_id, role, joined_at) values (?, ?, 'owner', now()), (?, ?, 'member', now())", [owner.id, workspaceId, member.id, workspaceId]);
    const page = await browserPage(member.cookie, 1366, 900);
    await page.goto('/dashboard/billing');
    await expectHeading(page, 'Billing');
    await expect(page.getByTestId('team-plan').innerText()).resolves.toMatch(/Your plan comes from the team workspace Firm LLP, where you are a member\. Its owner \(owner@firm\.example\) pays/);
    await expect(page.getByTestId('current-plan').innerText()).resolves.toBe('Professional');
    await page.getByRole('heading', { name: 'Invoices' }).waitFor();
    const body = await page.locator('main').innerText();
    expect(body).not.toContain('No subscription');
    expect(body).not.toContain('Choose a paid plan');
    expect(await page.getByRole('button', { name: /^Choose / }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Credits' }).count()).toBe(0);
    expect(await page.getByTestId('plan-grid').count()).toBe(0);
    await expectAccessible(page, 'billing (team member)');
    await screenshot(page, 'billing-member', { fullPage: true });
  });

  it('shows usage per key and endpoint over a date range, and the CSV download holds the same rows', async () => {
    const user = await account('usage@example.org');
    const laptop = (await call(`${base}/v1/keys`, 'POST', { name: 'laptop' }, { cookie: user.cookie })).body;
    const server = (await call(`${base}/v1/keys`, 'POST', { name: 'server, "prod"' }, { cookie: user.cookie })).body;
    for (let i = 0; i < 3; i++) expect((await call(`${base}/v1/resolve`, 'POST', { reference: 'BGH, 1 ZR 1/20' }, { key: laptop.key })).status).toBe(200);
    expect((await call(`${base}/v1/search`, 'POST', { q: 'Schadensersatz', alpha: 0 }, { key: laptop.key })).status).toBe(200);
    expect((await call(`${base}/v1/resolve`, 'POST', { reference: 'x' }, { key: server.key })).status).toBe(200);

    const page = await browserPage(user.cookie, 1366, 900);
    await page.goto('/dashboard/usage');
    await expectHeading(page, 'Usage');
    const table = page.getByTestId('usage-breakdown');
    await table.waitFor();
    const shown = await table.locator('tbody tr').evaluateAll((rows) => rows.map((r: any) => [...r.querySelectorAll('td')].map((td: any) => String(td.textContent ?? '').trim())));
    expect(shown).toEqual([
      [`laptop (${laptop.key_prefix})`, 'resolve', '3'],
      [`laptop (${laptop.key_prefix})`, 'search', '1'],
      [`server, "prod" (${server.key_prefix})`, 'resolve', '1'],
    ]);
    await expect(table.locator('tfoot').innerText()).resolves.toMatch(/Total\s+5/);
    await expectAccessible(page, 'usage per key');
    await screenshot(page, 'usage-keys', { fullPage: true });

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
    const today = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 29 * 86400_000).toISOString().slice(0, 10);
    expect(download.suggestedFilename()).toBe(`usage-${from}-to-${today}.csv`);
    const csv = (await readFile((await download.path())!, 'utf8')).trimEnd().split('\r\n');
    expect(csv).toEqual([
      'from,to,key,key_id,endpoint,requests',
      `${from},${today},laptop (${laptop.key_prefix}),${laptop.id},resolve,3`,
      `${from},${today},laptop (${laptop.key_prefix}),${laptop.id},search,1`,
      `${from},${today},"server, ""prod"" (${server.key_prefix})",${server.id},resolve,1`,
    ]);

    // a range that ends before it starts is flagged in the browser; an empty range says so
    await page.getByLabel('From (UTC)').fill('2026-03-10');
    await page.getByLabel('To (UTC)').fill('2026-03-01');
    await page.getByText('The start date is after the end date.').waitFor();
    expect(await page.getByRole('button', { name: 'Show' }).isDisabled()).toBe(true);
    await page.getByLabel('To (UTC)').fill('2026-03-31');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByText('No requests from 2026-03-10 to 2026-03-31').waitFor();

    // on a phone the table becomes cards and nothing scrolls sideways
    const phone = await browserPage(user.cookie, 390, 844);
    await phone.goto('/dashboard/usage');
    await phone.getByTestId('usage-breakdown').waitFor();
    expect(await overflowsHorizontally(phone)).toBe(false);
  });

  it('renames a key in place, aligns row text with its buttons, and the revoke dialog focuses Cancel first', async () => {
    const user = await account('keys@example.org');
    const key = (await call(`${base}/v1/keys`, 'POST', { name: 'old name' }, { cookie: user.cookie })).body;
    const page = await browserPage(user.cookie, 1366, 900);
    await page.goto('/dashboard/keys');
    await expectHeading(page, 'API keys');
    const row = page.locator('.keys-table tbody tr').first();
    await row.getByText('old name').waitFor();
    // the row's text and its buttons share a middle line
    const [name, button] = await Promise.all([boxes(page, '.keys-table tbody tr:first-child td:first-child'), boxes(page, '.keys-table tbody tr:first-child button')]);
    const middle = (b: Box) => b.y + b.height / 2;
    expect(Math.abs(middle(name[0]!) - middle(button[0]!))).toBeLessThan(3);

    await page.getByRole('button', { name: `Rename key old name (${key.key_prefix})` }).click();
    const field = page.getByLabel(`New name for ${key.key_prefix}`);
    expect(await field.evaluate((el) => el === (globalThis as any).document.activeElement)).toBe(true);
    await field.fill('');
    await page.getByText('A name needs at least one character.').waitFor();
    await field.fill('CI pipeline');
    await field.press('Enter');
    await row.getByText('CI pipeline').waitFor();
    expect((await call(`${base}/v1/keys`, 'GET', undefined, { cookie: user.cookie })).body[0].name).toBe('CI pipeline');
    await expectAccessible(page, 'keys renamed');

    await page.getByRole('button', { name: `Revoke key CI pipeline (${key.key_prefix})` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.textContent)).toBe('Cancel');
    await expectAccessible(page, 'revoke dialog');
    await screenshot(page, 'keys-revoke', { fullPage: false });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect((await call(`${base}/v1/keys`, 'GET', undefined, { cookie: user.cookie })).body[0].revoked).toBe(false);

    const phone = await browserPage(user.cookie, 390, 844);
    await phone.goto('/dashboard/keys');
    await phone.getByText('CI pipeline').waitFor();
    await phone.getByRole('button', { name: `Rename key CI pipeline (${key.key_prefix})` }).click();
    expect(await overflowsHorizontally(phone)).toBe(false);
  });

  it('administration: the top menu stays on one line at 1366 px with a keyboard "More" menu, and the audit log names targets and changes in words', async () => {
    const admin = await account(ADMIN);
    const target = await account('override-me@example.org');
    const adminKey = (await call(`${base}/v1/keys`, 'POST', { name: 'admin' }, { cookie: admin.cookie })).body.key as string;
    expect((await call(`${base}/v1/admin/users/${target.id}`, 'PATCH', { plan: 'professional_plus', reason: 'pilot customer' }, { key: adminKey })).status).toBe(200);

    const page = await browserPage(admin.cookie, 1366, 900);
    await page.goto('/dashboard/admin');
    await expectHeading(page, 'Administration');
    const nav = page.getByRole('navigation', { name: 'Main' });
    const more = nav.getByRole('button', { name: 'More' });
    await more.waitFor();
    // one line: every top-level item (and the account menu) shares the first item's row
    const items = await boxes(page, '#main-nav > ul > li:not(.nav-inline-overflow), #main-nav .account');
    expect(items.length).toBeGreaterThan(8);
    expect(Math.max(...items.map((b) => b.y)) - Math.min(...items.map((b) => b.y))).toBeLessThan(12);
    expect((await boxes(page, '.topbar'))[0]!.height).toBeLessThan(70);

    // the keyboard path: Enter opens, Tab reaches the links, Escape closes and returns to More
    await more.focus();
    await page.keyboard.press('Enter');
    expect(await more.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => (globalThis as any).document.activeElement?.textContent);
    expect(['Analytics', 'Administration']).toContain(focused);
    await expectAccessible(page, 'admin with the More menu open');
    await screenshot(page, 'admin-more-menu');
    await page.keyboard.press('Escape');
    expect(await more.getAttribute('aria-expanded')).toBe('false');
    expect(await more.evaluate((el) => el === (globalThis as any).document.activeElement)).toBe(true);

    // user details: plan names, not slugs; headings in order (axe)
    await page.goto('/dashboard/admin/users');
    await page.getByLabel('Search e-mail or name').fill('override-me@');
    await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('[data-testid="users"] tbody tr').length === 1);
    await expect(page.getByTestId('plan-override-me@example.org').innerText()).resolves.toMatch(/^Professional Plus/);
    await page.getByRole('button', { name: 'Show details of override-me@example.org' }).click();
    await page.getByRole('heading', { level: 2, name: 'Plan override' }).waitFor();
    const options = await page.getByLabel('Plan', { exact: true }).locator('option').allInnerTexts();
    expect(options).toEqual(["No override (the subscription's plan)", 'Free', 'Professional', 'Professional Plus', 'Developer Pro', 'Developer Scale']);
    await expectAccessible(page, 'admin user details');

    await page.goto('/dashboard/admin/audit');
    await expectHeading(page, 'Audit log');
    const entry = page.getByTestId('audit').locator('tbody tr').filter({ hasText: 'override-me@example.org' });
    await entry.waitFor();
    const text = await entry.innerText();
    expect(text).toContain('Plan override');
    expect(text).toMatch(/Override: none/);
    expect(text).toMatch(/Subscription plan: Free/);
    expect(text).toMatch(/Override plan: Professional Plus/);
    expect(text).toMatch(/Override reason: pilot customer/);
    expect(text).not.toMatch(/[{}]|professional_plus|user\.plan_override/);
    await expectAccessible(page, 'admin audit log');
    await screenshot(page, 'admin-audit', { fullPage: true });
  });

  it('an administrator whose address is not verified is told to verify it, with the button, instead of "Page not found"', async () => {
    const deputy = await account(UNVERIFIED_ADMIN, false);
    const page = await browserPage(deputy.cookie, 1366, 900);
    await page.goto('/dashboard/admin/users');
    await expectHeading(page, 'Verify your e-mail address first');
    await page.getByTestId('admin-verify-first').getByText(`${UNVERIFIED_ADMIN} is not verified yet`).waitFor();
    expect(await page.getByRole('heading', { name: 'Page not found' }).count()).toBe(0);
    await expectAccessible(page, 'admin, unverified');
    const sentBefore = smtp.mails.filter((m) => m.to.includes(UNVERIFIED_ADMIN)).length;
    await page.getByRole('button', { name: 'Send the verification mail' }).click();
    await page.getByRole('status').getByText(`Open the link in the mail sent to ${UNVERIFIED_ADMIN}`).waitFor();
    const deadline = Date.now() + 10_000;
    while (smtp.mails.filter((m) => m.to.includes(UNVERIFIED_ADMIN)).length === sentBefore && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(smtp.mails.filter((m) => m.to.includes(UNVERIFIED_ADMIN)).length).toBe(sentBefore + 1);
  });
});
