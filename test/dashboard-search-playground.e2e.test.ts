/**
 * The search page as a playground, the resolver's "nothing found" in words, and 422 answers in
 * words (issue 36, items 3-5), in real headless Chromium against a real platform: the password
 * rule checked in the browser at registration, countries by name with type-ahead, the date range
 * checked before sending, a loading state over the previous results, paging, "copy as curl" whose
 * command (run by the real curl with a real key) returns the hits the page shows, the banner while
 * the index is being built (GET /ready's progress), the resolver's reasons and "Search instead",
 * and a pasted batch of five invite addresses with one bad one. axe-core runs on every page.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import type { Page, Route } from 'playwright-core';
import type { Platform } from '../src/platform.js';
import { expectAccessible, launchChromium, overflowsHorizontally, screenshot, type TestBrowser } from './helpers/chromium.js';
import { expectHeading, startDashboardPlatform } from './helpers/dashboard.js';
import { call, cookieFrom } from './helpers/http.js';

const run = promisify(execFile);
const PASSWORD = 'correct horse battery staple';

/** The BGB's §§ 823-830 (resolvable, with "§ 999 BGB" not among them) and a dozen BGH decisions to page through. */
const SLICES = [
  { file: 'legislation/DE-GesetzeImInternet.jsonl.gz', lines: 9, keep: (r: Record<string, unknown>) => /^bgb(\/82[3-9]|\/830)?$/.test(String(r.source_id)) },
  { file: 'case_law/DE-BGH.jsonl.gz', lines: 12 },
];

describe('web dashboard: search playground, resolver words, errors in words', () => {
  let platform: Platform;
  let chromium: TestBrowser;
  let base: string;
  const sql = (query: string, params: unknown[] = []) => platform.orm.em.fork().getConnection().execute(query, params) as Promise<any[]>;

  beforeAll(async () => {
    [platform, chromium] = await Promise.all([startDashboardPlatform(SLICES), launchChromium()]);
    base = platform.config.baseUrl;
  }, 180_000);

  afterAll(async () => {
    await chromium?.close();
    await platform?.stop();
  });

  async function open(width = 1280): Promise<Page> {
    const { page } = await chromium.newPage({ baseURL: base, width, height: width < 500 ? 844 : 860 });
    page.on('pageerror', (e) => {
      throw e;
    });
    return page;
  }

  /** An account made through the API, signed in: its session cookie and id. */
  async function account(email: string): Promise<{ id: string; cookie: string }> {
    const reg = await call(`${base}/auth/register`, 'POST', { email, password: PASSWORD, accept_terms: true, acknowledge_privacy: true });
    expect(reg.status).toBe(200);
    const login = await call(`${base}/auth/login`, 'POST', { email, password: PASSWORD });
    return { id: reg.body.id, cookie: cookieFrom(login.headers, 'session')! };
  }

  async function signedIn(cookie: string, width?: number): Promise<Page> {
    const page = await open(width);
    const [name, value] = [cookie.slice(0, cookie.indexOf('=')), cookie.slice(cookie.indexOf('=') + 1)];
    await page.context().addCookies([{ name, value, url: base }]);
    return page;
  }

  /** How many GraphQL `search` operations the page has sent so far. */
  function countSearches(page: Page): () => number {
    let n = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/graphql') && r.method() === 'POST' && /query Search\(/.test(r.postData() ?? '')) n++;
    });
    return () => n;
  }

  const shownHitIds = (page: Page) => page.locator('.hits > li').evaluateAll((items: any[]) => items.map((li) => li.getAttribute('data-hit-id') as string));

  it('checks the server\'s password rule in the browser at registration and reset (10 characters), with the hint saying so', async () => {
    const page = await open();
    let registrations = 0;
    page.on('request', (r) => void (r.url().endsWith('/auth/register') && registrations++));
    await page.goto('/dashboard/register');
    await expectHeading(page, 'Create an account');
    await page.getByText('At least 10 characters; a common password is refused.').waitFor();
    await page.getByLabel('E-mail').fill(`rule-${randomUUID()}@example.org`);
    await page.getByLabel('Password', { exact: true }).fill('nine char');
    await page.getByLabel(/I accept the terms of service/).check();
    await page.getByLabel(/privacy policy/).check();
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.locator('#reg-password-error').filter({ hasText: 'The password is too short: use at least 10 characters (this one has 9).' }).waitFor();
    expect(registrations).toBe(0);
    await expectAccessible(page, 'registration, password too short');
    await page.getByLabel('Password', { exact: true }).fill('ten chars!');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expectHeading(page, 'Home');
    expect(registrations).toBe(1);
    await page.context().close();

    // the reset page: the same rule, checked before the token is spent
    const reset = await open();
    let confirms = 0;
    reset.on('request', (r) => void (r.url().endsWith('/auth/password-reset/confirm') && confirms++));
    await reset.goto('/dashboard/reset-password?token=not-sent');
    await expectHeading(reset, 'Choose a new password');
    await reset.getByText('At least 10 characters; a common password is refused.').waitFor();
    await reset.getByLabel('New password', { exact: true }).fill('too short');
    await reset.getByLabel('Repeat the new password').fill('too short');
    await reset.getByRole('button', { name: 'Set the password and sign in' }).click();
    await reset.locator('#new-password-error').filter({ hasText: 'use at least 10 characters (this one has 9)' }).waitFor();
    expect(confirms).toBe(0);
    await expectAccessible(reset, 'reset, password too short');
    await reset.context().close();
  });

  it('searches with a country picked by name, checks the dates before sending, pages with a loading state, and copies a curl that returns the same hits', async () => {
    const me = await account(`search-${randomUUID()}@example.org`);
    const keyAnswer = await call(`${base}/v1/keys`, 'POST', { name: 'curl' }, { cookie: me.cookie, headers: { origin: base } });
    expect(keyAnswer.status).toBe(200);
    const apiKey: string = keyAnswer.body.key;
    const page = await signedIn(me.cookie);
    const searches = countSearches(page);
    await page.goto('/dashboard/search');
    await expectHeading(page, 'Search');
    await expect(page.getByTestId('index-banner').count()).resolves.toBe(0);

    // countries: a type-ahead with names, not ~170 bare codes
    const countries = page.getByRole('combobox', { name: 'Countries' });
    await countries.fill('germ');
    await page.getByRole('option', { name: 'Germany (DE)' }).click();
    await page.getByRole('list', { name: 'Countries: chosen' }).getByText('Germany (DE)').waitFor();
    await expect(page.getByRole('checkbox', { name: 'DE', exact: true }).count()).resolves.toBe(0);

    // the whole "Result detail" choice is readable (not cut off)
    const detail = page.getByLabel('Result detail');
    const [box, text] = await detail.evaluate((el: any) => [el.clientWidth, el.scrollWidth]);
    expect(text).toBeLessThanOrEqual(box);

    // a start after the end is flagged at the field and nothing is sent
    await page.getByLabel('Query').fill('Urteil Revision');
    await page.getByLabel('From date').fill('2020-06-01');
    await page.getByLabel('To date').fill('2019-01-01');
    await page.getByText('The end date is before the start date').waitFor();
    await expect(page.getByLabel('To date').getAttribute('aria-invalid')).resolves.toBe('true');
    await expectAccessible(page, 'search, date range refused');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    expect(searches()).toBe(0);
    expect(new URL(page.url()).searchParams.get('q')).toBeNull();
    await page.getByLabel('From date').fill('');
    await page.getByLabel('To date').fill('');

    // five hits a page, keyword only
    await page.getByLabel('Keyword ↔ semantic').fill('0');
    await page.getByLabel('Results per page').selectOption('5');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.locator('.hit').first().waitFor();
    const first = await shownHitIds(page);
    expect(first).toHaveLength(5);
    expect(new URL(page.url()).searchParams.getAll('country')).toEqual(['DE']);
    await expect(page.getByTestId('search-summary').innerText()).resolves.toMatch(/showing 1–5 · Case law · alpha 0/);

    // the next page: while it loads, the old hits are dimmed and marked busy, the summary is gone
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/graphql', async (route: Route) => {
      if (/query Search\(/.test(route.request().postData() ?? '')) await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Next page' }).click();
    const results = page.getByRole('region', { name: 'Results' });
    await page.getByText('Searching… the results below are from the previous search.').waitFor();
    await expect(results.getAttribute('aria-busy')).resolves.toBe('true');
    await expect(page.locator('.search-results.stale .hits').count()).resolves.toBe(1);
    await expect(page.getByTestId('search-summary').count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Searching…' }).count()).resolves.toBe(1);
    await expectAccessible(page, 'search, loading');
    release();
    await page.getByTestId('search-summary').filter({ hasText: 'showing 6–10' }).waitFor();
    await page.unroute('**/graphql');
    await expect(results.getAttribute('aria-busy')).resolves.toBe('false');
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    const second = await shownHitIds(page);
    expect(second.length).toBeGreaterThan(0);
    expect(second.filter((id) => first.includes(id))).toEqual([]);
    await expect(page.getByText(/Page 2 of \d+/).count()).resolves.toBe(1);

    // copy as curl: the command the page shows runs (real curl, real key) and gives the same hits
    await page.getByText('Use this search in code (curl or JSON)').click();
    const shown = await page.getByTestId('search-curl').innerText();
    expect(shown).toContain('Authorization: Bearer $API_KEY');
    expect(shown).not.toContain(apiKey);
    expect(shown).not.toMatch(/session=/);
    await page.getByRole('button', { name: 'Copy as curl' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    const command = String(await page.evaluate('navigator.clipboard.readText()'));
    expect(command).toBe(shown);
    const { stdout } = await run('sh', ['-c', command], { env: { ...process.env, API_KEY: apiKey } });
    const answer = JSON.parse(stdout) as { hits: { id: string }[] };
    expect(answer.hits.map((h) => h.id)).toEqual([...first, ...second]);
    await page.getByRole('button', { name: 'Copy as JSON' }).click();
    const body = JSON.parse(String(await page.evaluate('navigator.clipboard.readText()')));
    expect(body).toMatchObject({ q: 'Urteil Revision', namespace: 'case_law', alpha: 0, top_k: 10, country: ['DE'] });
    await expectAccessible(page, 'search, page 2 with the request to copy');
    await screenshot(page, 'search-copy-request', { fullPage: true });

    // back to the first page
    await page.getByRole('button', { name: 'Previous page' }).click();
    await page.getByTestId('search-summary').filter({ hasText: 'showing 1–5' }).waitFor();
    expect(await shownHitIds(page)).toEqual(first);

    // a shared link with an inverted range: said at the field, not sent
    const before = searches();
    await page.goto('/dashboard/search?q=Urteil&namespace=case_law&date_start=2020-06-01&date_end=2019-01-01');
    await page.getByText('The end date is before the start date').waitFor();
    await page.getByText('Search the corpus', { exact: true }).waitFor();
    expect(searches()).toBe(before);
    await page.context().close();
  });

  it('lays out real results on a 390-pixel phone without sideways scrolling', async () => {
    const me = await account(`phone-${randomUUID()}@example.org`);
    const page = await signedIn(me.cookie, 390);
    await page.goto('/dashboard/search?q=Urteil%20Revision&namespace=case_law&alpha=0&top_k=5');
    await page.locator('.hit').first().waitFor();
    await page.getByText('Use this search in code (curl or JSON)').click();
    expect(await overflowsHorizontally(page)).toBe(false);
    await expectAccessible(page, 'search at 390 px');
    await page.context().close();
  });

  it('says while the index is still being built, with the progress from /ready', async () => {
    const me = await account(`banner-${randomUUID()}@example.org`);
    // the state a (re)build in progress reports: the service's own setter, as the background ingest calls it
    platform.legalData.setIngestState({ phase: 'indexing', documents_done: 40, documents_total: 160, files_done: 1, files_total: 4, documents_per_second: 20, eta_seconds: 6 }, false);
    try {
      const ready = await fetch(`${base}/ready`);
      expect(ready.status).toBe(503);
      const page = await signedIn(me.cookie);
      await page.goto('/dashboard/search?q=Schadensersatz&namespace=case_law');
      const banner = page.getByTestId('index-banner');
      await banner.waitFor();
      await expect(banner.innerText()).resolves.toMatch(/The search index is still being built\.[\s\S]*40 of 160 documents indexed \(25 %\), about 6 seconds left \(indexing\)\./);
      await expectAccessible(page, 'search, index being built');
      await screenshot(page, 'search-index-banner');
      await page.context().close();
    } finally {
      platform.legalData.setIngestState({ phase: 'done', documents_done: 160, documents_total: 160, files_done: 4, files_total: 4, documents_per_second: null, eta_seconds: 0 }, true);
    }
    expect((await fetch(`${base}/ready`)).status).toBe(200);
  });

  it('says in words why a citation resolves to nothing, and offers to search for it instead', async () => {
    const me = await account(`resolve-${randomUUID()}@example.org`);
    const page = await signedIn(me.cookie);
    await page.goto('/dashboard/resolve');
    await expectHeading(page, 'Resolve a citation');
    const resolve = async (reference: string) => {
      await page.getByLabel('Citation', { exact: true }).fill(reference);
      await page.getByRole('button', { name: 'Resolve', exact: true }).click();
      await page.getByText(`No document found for “${reference}”`).waitFor();
      return page.locator('.resolve-none').innerText();
    };
    // a well-formed citation of an act in the corpus, of a provision that is not
    const provision = await resolve('§ 999 BGB');
    expect(provision).toMatch(/Understood as § 999 BGB.*the act is in the corpus, but this provision of it is not\./);
    // a well-formed identifier that is simply not in the corpus
    const ecli = await resolve('ECLI:DE:BGH:2099:010199UVIZR1.99.0');
    expect(ecli).toMatch(/well-formed ECLI \(ECLI:DE:BGH:2099:010199UVIZR1\.99\.0\), but no document with it is in the corpus\./);
    for (const text of [provision, ecli]) {
      expect(text).not.toMatch(/spelling/i);
      expect(text).not.toMatch(/match.?type|\bnone\b/i);
    }
    // text that reads as no citation at all
    const gibberish = await resolve('xyzzy plugh');
    expect(gibberish).toMatch(/does not read as a citation.*Check the spelling/);
    await expectAccessible(page, 'resolve, nothing found');
    await screenshot(page, 'resolve-not-found');
    await page.getByRole('link', { name: 'Search instead for “xyzzy plugh”' }).click();
    await expectHeading(page, 'Search');
    await expect(page.getByLabel('Query').inputValue()).resolves.toBe('xyzzy plugh');
    expect(new URL(page.url()).searchParams.get('q')).toBe('xyzzy plugh');
    await page.context().close();
  });

  it('names the one bad address of five pasted invites and invites the other four; the same for allowed domains', async () => {
    const owner = await account(`owner-${randomUUID()}@firm.example`);
    // the rows a per-seat checkout leaves (test/dashboard-billing-team-admin.e2e.test.ts goes through Stripe)
    const workspace = randomUUID();
    await sql('update app_user set plan = ?, email_verified = true where id = ?', ['professional', owner.id]);
    await sql('insert into workspace (id, owner_user_id, name, kind, seat_limit, created_at) values (?, ?, ?, ?, ?, now())', [workspace, owner.id, 'Firm LLP', 'team', 10]);
    await sql('insert into workspace_member (user_id, workspace_id, role, joined_at) values (?, ?, ?, now())', [owner.id, workspace, 'owner']);
    const page = await signedIn(owner.cookie);
    await page.goto('/dashboard/team');
    await expectHeading(page, /Team/);
    await page.getByLabel('E-mail addresses').fill('Ann Smith <ann@firm.example>, ben@firm.example; carl@firm.example\ndora@firm\n"Eve, E." <eve@firm.example>');
    await page.getByRole('button', { name: 'Invite 5 people' }).click();
    const refused = page.getByTestId('invite-refused');
    await refused.waitFor();
    await expect(refused.innerText()).resolves.toMatch(/One address of 5 cannot be invited, so nobody was invited yet:\s*“dora@firm” is not a valid e-mail address/);
    await expect(refused.innerText()).resolves.not.toMatch(/emails\.\d|Value error/);
    await expectAccessible(page, 'team, one bad address');
    await screenshot(page, 'team-invite-refused');
    await refused.getByRole('button', { name: 'Invite the other 4' }).click();
    await page.getByText('Invited: ann@firm.example, ben@firm.example, carl@firm.example, eve@firm.example.').waitFor();
    await page.getByText('Not invited (not a valid address, left in the box to correct): dora@firm.').waitFor();
    await expect(page.getByLabel('E-mail addresses').inputValue()).resolves.toBe('dora@firm');
    const invited = await sql('select email from workspace_invite where workspace_id = ? order by email', [workspace]);
    expect(invited.map((r) => r.email)).toEqual(['ann@firm.example', 'ben@firm.example', 'carl@firm.example', 'eve@firm.example']);

    // allowed domains: the bad one named, the good one saved on request
    await page.getByRole('textbox', { name: 'Domains' }).fill('firm.example\nnot_a_domain');
    await page.getByRole('button', { name: 'Save domains' }).click();
    const domains = page.getByTestId('domains-refused');
    await domains.waitFor();
    await expect(domains.innerText()).resolves.toMatch(/“not_a_domain” is not a valid domain name\./);
    await domains.getByRole('button', { name: 'Save firm.example only' }).click();
    await page.getByText('Saved.').waitFor();
    await expect(page.getByRole('textbox', { name: 'Domains' }).inputValue()).resolves.toBe('firm.example');
    await expectAccessible(page, 'team, domains saved');
    await page.context().close();
  });
});
