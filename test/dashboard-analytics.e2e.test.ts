/**
 * Partner analytics in the dashboard (issue #35 item 5b), in real headless Chromium against a
 * real platform: facts of 9 accounts go through the platform's own analytics recorder (the writer
 * every billable call feeds), so some day cells are released and some withheld; an administrator
 * makes a user partner in the editor (type-ahead for the source and the country); the partner
 * opens Analytics from the navigation (the shell asks `partnerScope`, no analytics query), picks
 * within its own scope only, sees the chart of its source with a withheld cell and its reason
 * (hover and table), the top documents and resolver outcomes, downloads the CSV (checked row by
 * row against the GraphQL answer), and gets the range and scope refusals in words next to the
 * field; a non-partner is told why there is nothing to see. axe-core on both pages.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import type { Platform } from '../src/platform.js';
import type { AccountCaller } from '../src/context.js';
import type { CountedCall, UsageFacts } from '../src/modules/usage/usage-guard.js';
import { expectAccessible, launchChromium, overflowsHorizontally, screenshot, type TestBrowser } from './helpers/chromium.js';
import { expectHeading, startDashboardPlatform } from './helpers/dashboard.js';
import { call, cookieFrom } from './helpers/http.js';

const PASSWORD = 'correct horse battery staple';
const ADMIN = 'admin@example.org';
const SOURCE = 'DE/BGH';
/** Its name in the corpus's sources catalogue. */
const SOURCE_NAME = 'German Federal Court of Justice (BGH)';
const SLICE = [{ file: 'case_law/DE-BGH.jsonl.gz', lines: 2 }];
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
// three seeded days inside the page's default range (the last 30 UTC days)
const RELEASED = day(-3);
const WITHHELD = day(-2);
const RESOLVED = day(-1);

function seedCaller(): AccountCaller {
  return { kind: 'api_key', ip: null, userId: randomUUID(), email: 'seed@example.org', plan: 'free', isAdmin: false, emailVerified: true, seats: 1, keyId: null, billingPeriod: null };
}
const counted = (caller: AccountCaller, date: string, facts: UsageFacts, endpoint = 'search'): CountedCall => ({ caller, endpoint, door: undefined, status: 200, facts, at: Date.parse(`${date}T12:00:00Z`) });
const searched = (hits: number): UsageFacts => ({ search: { namespace: 'case_law', countries: ['DE'], hitsBySource: { [SOURCE]: hits }, hitsByCountry: { DE: hits } } });
const fetched = (sourceId: string): UsageFacts => ({ documents: [{ source: SOURCE, sourceId, namespace: 'case_law', country: 'DE' }] });

describe('web dashboard: partner analytics and the partner editor', () => {
  let platform: Platform;
  let chromium: TestBrowser;
  let base: string;
  const contexts: BrowserContext[] = [];
  let admin: { id: string; cookie: string };
  let partner: { id: string; cookie: string };
  let plain: { id: string; cookie: string };

  async function account(email: string): Promise<{ id: string; cookie: string }> {
    const reg = await call(`${base}/auth/register`, 'POST', { email, password: PASSWORD, accept_terms: true, acknowledge_privacy: true });
    expect(reg.status).toBe(200);
    // verified, as the mail's link would (administrators are verified addresses of ADMIN_EMAILS)
    await platform.orm.em.fork().getConnection().execute('update app_user set email_verified = true where id = ?', [reg.body.id]);
    const login = await call(`${base}/auth/login`, 'POST', { email, password: PASSWORD });
    expect(login.status).toBe(200);
    return { id: reg.body.id, cookie: cookieFrom(login.headers, 'session')! };
  }

  async function browserPage(cookie: string): Promise<Page> {
    const { context, page } = await chromium.newPage({ baseURL: base, width: 1280, height: 1000 });
    contexts.push(context);
    const [name, value] = [cookie.slice(0, cookie.indexOf('=')), cookie.slice(cookie.indexOf('=') + 1)];
    await context.addCookies([{ name, value, url: base }]);
    return page;
  }

  /** A GraphQL answer as the partner's browser would get it (same origin, its session). */
  async function graphql(cookie: string, query: string, variables: Record<string, unknown>): Promise<any> {
    const res = await call(`${base}/graphql`, 'POST', { query, variables }, { cookie, headers: { origin: base } });
    expect(res.status).toBe(200);
    return res.body;
  }

  beforeAll(async () => {
    chromium = await launchChromium();
    platform = await startDashboardPlatform(SLICE, { ADMIN_EMAILS: ADMIN });
    base = platform.url!;
    [admin, partner, plain] = await Promise.all([account(ADMIN), account('partner@court.example'), account('plain@example.org')]);
    // 9 accounts: 6 search and 5 read on one day (released), 3 read on the next (withheld),
    // 5 resolve a citation to the source and 2 resolve nothing on the third
    const { recorder } = platform.analytics;
    const seeds = Array.from({ length: 9 }, seedCaller);
    for (const [i, who] of seeds.entries()) {
      if (i < 6) recorder.counted(counted(who, RELEASED, searched(2)));
      if (i < 5) recorder.counted(counted(who, RELEASED, fetched('seed-read-by-five'), 'documents'));
      if (i >= 6) recorder.counted(counted(who, WITHHELD, fetched('seed-read-by-three'), 'documents'));
      if (i < 5) recorder.counted(counted(who, RESOLVED, { resolution: { matchType: 'exact', source: SOURCE, country: 'DE' } }, 'resolve'));
      if (i >= 7) recorder.counted(counted(who, RESOLVED, { resolution: { matchType: 'none', source: null, country: null } }, 'resolve'));
    }
    await recorder.flush();
  }, 120_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await chromium?.close();
    await platform?.stop();
  });

  it('an administrator makes a user partner in the editor, with type-ahead for the source and the country', async () => {
    const page = await browserPage(admin.cookie);
    await page.goto('/dashboard/admin/users');
    await expectHeading(page, 'Users');
    await page.getByLabel('Search e-mail or name').fill('partner@');
    await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('[data-testid="users"] tbody tr').length === 1);
    await page.getByRole('button', { name: 'Show details of partner@court.example' }).click();
    await page.getByTestId('partner-status-partner@court.example').getByText('Not a partner.').waitFor();

    const sources = page.getByRole('combobox', { name: 'Sources' });
    await sources.pressSequentially('bgh');
    await page.getByRole('option', { name: SOURCE, exact: true }).waitFor();
    await sources.press('Enter');
    const countries = page.getByRole('combobox', { name: 'Countries' });
    await countries.pressSequentially('germ');
    await page.getByRole('option', { name: 'Germany (DE)' }).click();
    await page.getByRole('list', { name: 'Countries: chosen' }).getByText('Germany (DE)').waitFor();
    await page.getByLabel('Reason (kept in the audit log)').nth(1).fill('court partnership');
    await page.getByRole('button', { name: 'Make partner' }).click();
    // the sentence names the source as the catalogue does, not by its id
    await page.getByText(`partner@court.example is now a partner with sources ${SOURCE_NAME}; countries Germany (DE).`).waitFor();
    await page.getByRole('button', { name: 'Remove partner' }).waitFor();
    await expectAccessible(page, 'admin users with the partner editor');
    await screenshot(page, 'admin-partner', { fullPage: true });

    // what the server keeps: the scope, and its audit entry
    const audit = await graphql(admin.cookie, 'query($t: String) { adminAudit(targetId: $t, action: user_partner_scope) { items { after_json reason } } }', { t: partner.id });
    expect(audit.data.adminAudit.items).toHaveLength(1);
    expect(JSON.parse(audit.data.adminAudit.items[0].after_json)).toEqual({ sources: [SOURCE], countries: ['DE'] });
    expect(audit.data.adminAudit.items[0].reason).toBe('court partnership');

    // opened again, the editor reads the scope back
    await page.reload();
    await page.getByLabel('Search e-mail or name').fill('partner@');
    await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('[data-testid="users"] tbody tr').length === 1);
    await page.getByRole('button', { name: 'Show details of partner@court.example' }).click();
    await page.getByTestId('partner-status-partner@court.example').getByText(`A partner with sources ${SOURCE_NAME}; countries Germany (DE).`).waitFor();
  });

  it("the partner sees its source's chart, a withheld cell's reason, top documents, resolver outcomes, and downloads the chart's CSV", async () => {
    const page = await browserPage(partner.cookie);
    const queries: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/graphql') && r.method() === 'POST') queries.push(JSON.parse(r.postData() ?? '{}').query ?? '');
    });
    await page.goto('/dashboard/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Analytics' }).click();
    await expectHeading(page, 'Analytics');
    // the link came from the partner's own scope: no analytics field asked (none costs a unit)
    expect(queries.filter((q) => /partnerScope/.test(q))).toHaveLength(1);
    expect(queries.filter((q) => /sourceUsage|countryUsage|topDocuments|resolverOutcomes/.test(q))).toEqual([]);
    // the pickers offer the partner's scope only
    const items = page.getByRole('combobox', { name: 'Sources' });
    await items.pressSequentially('DE/');
    await page.getByRole('option', { name: SOURCE, exact: true }).waitFor();
    expect((await page.getByRole('listbox', { name: 'Sources: suggestions' }).getByRole('option').allInnerTexts()).map((t) => t.trim())).toEqual([SOURCE]);
    await page.getByRole('option', { name: SOURCE, exact: true }).click();
    await page.getByRole('button', { name: 'Show', exact: true }).click();

    // the table beside the chart: released, withheld (with its reason in words), empty days as 0
    const table = page.getByTestId('usage-table');
    await table.waitFor();
    const rowOf = (date: string) => table.getByRole('row').filter({ has: page.getByRole('cell', { name: date, exact: true }) });
    await expect(rowOf(RELEASED).innerText()).resolves.toMatch(/5$/);
    await expect(rowOf(WITHHELD).innerText()).resolves.toContain('withheld (Withheld: fewer than 5 distinct accounts on every day of this period)');
    await expect(rowOf(RESOLVED).innerText()).resolves.toMatch(/0$/);
    // the chart draws the withheld cell as a hatched bar; hovering it names the reason
    const hatched = page.locator('[data-testid="analytics-chart"] path[fill="url(#withheld-hatch)"]');
    expect(await hatched.count()).toBe(1);
    await hatched.hover();
    const tip = page.getByTestId('chart-tooltip');
    await tip.waitFor();
    await expect(tip.innerText()).resolves.toContain(`${WITHHELD}`);
    await expect(tip.innerText()).resolves.toContain('Withheld: fewer than 5 distinct accounts');

    // top documents: the one read by five is listed, the one read by three is not
    const top = page.getByTestId('top-documents');
    await top.getByText('seed-read-by-five').waitFor();
    expect(await top.innerText()).not.toContain('seed-read-by-three');
    // resolver outcomes of the partner's country
    const outcomes = page.getByTestId('resolver-outcomes');
    await outcomes.getByText('Germany (DE)').waitFor();
    await expect(outcomes.getByRole('row').filter({ hasText: 'exact' }).innerText()).resolves.toMatch(/Germany \(DE\)\s+exact\s+5/);
    await expectAccessible(page, 'analytics');
    await screenshot(page, 'analytics', { fullPage: true });

    // the CSV is what the chart shows: the GraphQL answer, withheld cells empty (not 0)
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV of this chart' }).click()]);
    const csv = (await readFile((await download.path())!, 'utf8')).trimEnd().split('\r\n');
    const answer = await graphql(partner.cookie, 'query($s: [String!]!, $f: String!, $t: String!) { sourceUsage(sources: $s, from: $f, to: $t) { periods { source periodStart periodEnd documentsFetched { value suppressed } } } }', { s: [SOURCE], f: day(-29), t: day(0) });
    const expected = answer.data.sourceUsage.periods.map((p: any) => [p.source, p.periodStart, p.periodEnd, p.documentsFetched.value ?? '', p.documentsFetched.suppressed].join(','));
    expect(csv[0]).toBe('source,period_start,period_end,documents_fetched,suppressed');
    expect(csv.slice(1)).toEqual(expected);
    expect(csv).toContain(`${SOURCE},${WITHHELD},${WITHHELD},,true`);
    expect(csv).toContain(`${SOURCE},${RELEASED},${RELEASED},5,false`);

    // on a 390-pixel phone the page does not scroll sideways
    await page.setViewportSize({ width: 390, height: 860 });
    // the chart follows the new width on its next resize observation: wait for its wrapper (the
    // first svg inside can be a legend icon, narrow before the chart has followed)
    await page.waitForFunction(() => (globalThis as any).document.querySelector('[data-testid="analytics-chart"] .recharts-wrapper')?.getBoundingClientRect().width <= 390).catch(() => {});
    // `wide`: what sticks out past the viewport, printed when the check fails
    const wide = await page.evaluate(() => [...(globalThis as any).document.querySelectorAll('main *')].filter((e: any) => e.getBoundingClientRect().right > (globalThis as any).innerWidth + 1).slice(0, 5).map((e: any) => `${e.tagName}.${e.className}`));
    expect([await overflowsHorizontally(page), wide]).toEqual([false, wide]);
  });

  it('says in words, next to the field, when the range is too long or a source is outside the scope', async () => {
    const page = await browserPage(partner.cookie);
    await page.goto('/dashboard/analytics');
    await expectHeading(page, 'Analytics');
    const items = page.getByRole('combobox', { name: 'Sources' });
    await items.pressSequentially('DE/BGH');
    await items.press('Enter');
    await page.getByLabel('From (UTC day)').fill('2020-01-01');
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    await page.locator('#analytics-to-error').getByText(/To: the range spans \d+ days; at most 400/).waitFor();

    await page.getByLabel('From (UTC day)').fill(day(-10));
    // the scope changes while the page is open: the server refuses what the page still offers
    const narrow = await call(`${base}/v1/admin/users/${partner.id}/partner`, 'PUT', { countries: ['DE'] }, { cookie: admin.cookie, headers: { origin: base } });
    expect(narrow.status).toBe(200);
    try {
      await page.getByRole('button', { name: 'Show', exact: true }).click();
      await page.locator('#analytics-items-error').getByText(`Outside your partner scope: source ${SOURCE}`).waitFor();
    } finally {
      await call(`${base}/v1/admin/users/${partner.id}/partner`, 'PUT', { sources: [SOURCE], countries: ['DE'] }, { cookie: admin.cookie, headers: { origin: base } });
    }
  });

  it('a non-partner gets no link and is told why the page shows nothing', async () => {
    const page = await browserPage(plain.cookie);
    await page.goto('/dashboard/analytics');
    await expectHeading(page, 'Analytics');
    await page.getByText('Analytics are for partners and administrators').waitFor();
    await page.getByText('Your account is not a partner, so it may not read usage analytics.').waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Analytics' }).count()).toBe(0);
    await expectAccessible(page, 'analytics refused');
  });
});
