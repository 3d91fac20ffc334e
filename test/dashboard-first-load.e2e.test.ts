/**
 * The dashboard's first load (issue 36, the search page's LCP), in real headless Chromium against a
 * real platform: index.html and the hashed assets go out compressed (the page no-cache, the assets
 * for a year), index.html marked when its session cookie is live; a cold load of a search link
 * asks once each for the session, the filters' catalogue and the hits, the hits beside the session
 * check (app/first-load.ts), and the page takes those requests in flight instead of sending them
 * again; the page's heading and lead are on screen while the session check is still pending; a
 * visitor without a live session (none, or an ended one) sends no search. The order of events is
 * asserted, never their timing (bench:dashboard measures that).
 */
import { randomUUID } from 'node:crypto';
import type { Page, Request } from 'playwright-core';
import type { Platform } from '../src/platform.js';
import { expectAccessible, launchChromium, type TestBrowser } from './helpers/chromium.js';
import { expectHeading, startDashboardPlatform } from './helpers/dashboard.js';
import { call, cookieFrom } from './helpers/http.js';

const PASSWORD = 'correct horse battery staple';
/** The search page's lead (SEARCH_LEAD in src/dashboard/pages/search/search-form.ts), its LCP element when empty. */
const SEARCH_LEAD = 'Hybrid keyword and semantic search over legislation, case law and doctrine. Each search counts as one request of your plan.';
const SEARCH_LINK = '/dashboard/search?q=Schadensersatz&namespace=legislation&alpha=0';

/** The BGB's §§ 823-830: "Schadensersatz" finds them by keyword. */
const SLICES = [{ file: 'legislation/DE-GesetzeImInternet.jsonl.gz', lines: 9, keep: (r: Record<string, unknown>) => /^bgb(\/82[3-9]|\/830)?$/.test(String(r.source_id)) }];

/** The GraphQL operation a request sends (`query Me {…}` → "Me"), or null for any other request. */
function operationOf(request: Request): string | null {
  if (!request.url().endsWith('/graphql') || request.method() !== 'POST') return null;
  return /^\s*(?:query|mutation)\s+(\w+)/.exec(JSON.parse(request.postData() ?? '{}').query ?? '')?.[1] ?? null;
}

/** Every GraphQL operation of the page in order: `sent <Name>` and `answered <Name>`. */
function recordOperations(page: Page): string[] {
  const events: string[] = [];
  page.on('request', (r) => {
    const name = operationOf(r);
    if (name) events.push(`sent ${name}`);
  });
  page.on('requestfinished', (r) => {
    const name = operationOf(r);
    if (name) events.push(`answered ${name}`);
  });
  return events;
}

describe('web dashboard: the first load', () => {
  let platform: Platform;
  let chromium: TestBrowser;
  let base: string;

  beforeAll(async () => {
    [platform, chromium] = await Promise.all([startDashboardPlatform(SLICES), launchChromium()]);
    base = platform.config.baseUrl;
  }, 180_000);

  afterAll(async () => {
    await chromium?.close();
    await platform?.stop();
  });

  async function open(): Promise<Page> {
    const { page } = await chromium.newPage({ baseURL: base });
    page.on('pageerror', (e) => {
      throw e;
    });
    return page;
  }

  /** A new account made through the API: its address and session cookie. */
  async function account(): Promise<{ email: string; cookie: string }> {
    const email = `first-load-${randomUUID()}@example.org`;
    expect((await call(`${base}/auth/register`, 'POST', { email, password: PASSWORD, accept_terms: true, acknowledge_privacy: true })).status).toBe(200);
    const login = await call(`${base}/auth/login`, 'POST', { email, password: PASSWORD });
    return { email, cookie: cookieFrom(login.headers, 'session')! };
  }

  async function signedIn(cookie: string): Promise<Page> {
    const page = await open();
    const at = cookie.indexOf('=');
    await page.context().addCookies([{ name: cookie.slice(0, at), value: cookie.slice(at + 1), url: base }]);
    return page;
  }

  it('sends index.html and the hashed assets compressed: the page no-cache, the assets cached for a year', async () => {
    const page = await fetch(`${base}/dashboard/search`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-encoding')).toBe('br');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('vary')).toContain('Accept-Encoding');
    const html = await page.text();
    expect(html).toContain('name="dashboard-config"');
    const gzip = await fetch(`${base}/dashboard/keys`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(await gzip.text()).toBe(html);
    const plain = await fetch(`${base}/dashboard/`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(html);

    const assets = [...html.matchAll(/(?:src|href)="(\/dashboard\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
    expect(assets.some((a) => a.endsWith('.css')) && assets.some((a) => a.endsWith('.js'))).toBe(true);
    for (const asset of assets) {
      const res = await fetch(`${base}${asset}`, { headers: { 'accept-encoding': 'br, gzip' } });
      expect([asset, res.status, res.headers.get('content-encoding')]).toEqual([asset, 200, 'br']);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
  });

  it('asks once each for the session, the catalogue and the hits of a search link: the page takes the early requests, never sends them twice', async () => {
    const page = await signedIn((await account()).cookie);
    const operations = recordOperations(page);
    await page.goto(SEARCH_LINK);
    await page.locator('.hit').first().waitFor();
    await expect(page.locator('.hit').count()).resolves.toBeGreaterThan(0);
    const sent = (name: string) => operations.filter((e) => e === `sent ${name}`).length;
    expect([sent('Me'), sent('SearchDiscovery'), sent('Search')]).toEqual([1, 1, 1]);
    // an early request is taken once: the same search asked again is sent again
    await Promise.all([page.waitForRequest((r) => operationOf(r) === 'Search'), page.getByRole('button', { name: 'Search', exact: true }).click()]);
    expect(sent('Search')).toBe(2);
  });

  it('marks index.html for a live session cookie only', async () => {
    const { cookie } = await account();
    const page = (headers: Record<string, string>) => fetch(`${base}/dashboard/search`, { headers }).then((r) => r.text());
    const mark = '<meta name="dashboard-session" content="live" />';
    expect(await page({ cookie })).toContain(mark);
    expect(await page({})).not.toContain(mark);
    expect(await page({ cookie: 'session=not-a-session' })).not.toContain(mark);
    await call(`${base}/auth/logout`, 'POST', undefined, { cookie });
    expect(await page({ cookie })).not.toContain(mark);
  });

  it('shows the page\'s heading and lead while the session check is pending, and asks for the hits beside it', async () => {
    const page = await signedIn((await account()).cookie);
    const operations = recordOperations(page);
    let answerSession = () => {};
    const sessionHeld = new Promise<void>((resolve) => (answerSession = resolve));
    await page.route('**/graphql', async (route) => {
      if (operationOf(route.request()) === 'Me') await sessionHeld;
      await route.continue();
    });
    // listened for before the page loads: the hits may be answered before the checks below run
    const searchAnswered = page.waitForResponse((r) => operationOf(r.request()) === 'Search');
    await page.goto(SEARCH_LINK);
    await expectHeading(page, 'Search');
    await page.getByText(SEARCH_LEAD).waitFor();
    await page.getByRole('status').filter({ hasText: 'Checking your session…' }).waitFor();
    // the session cookie was live when index.html was served: the hits are asked for and answered while `me` is held
    await searchAnswered;
    expect(operations.filter((e) => e.startsWith('sent '))).toEqual(['sent Me', 'sent SearchDiscovery', 'sent Search']);
    expect(operations).not.toContain('answered Me');
    await expectAccessible(page, 'search page, session check pending');
    answerSession();
    await page.locator('.hit').first().waitFor();
    await expect(page.getByText(SEARCH_LEAD).count()).resolves.toBe(1);
  });

  it('sends no search for a signed-out visitor\'s link (a session that ended too): sign-in first, then the results', async () => {
    const { email, cookie } = await account();
    await call(`${base}/auth/logout`, 'POST', undefined, { cookie });
    const page = await signedIn(cookie);
    const operations = recordOperations(page);
    await page.goto(SEARCH_LINK);
    await expectHeading(page, 'Sign in');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/search?q=Schadensersatz&namespace=legislation&alpha=0');
    const form = page.getByRole('form', { name: 'Sign in with e-mail and password' });
    await form.getByLabel('E-mail').fill(email);
    await form.getByLabel('Password').fill(PASSWORD);
    await form.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.locator('.hit').first().waitFor();
    expect(operations.filter((e) => e === 'sent Search')).toHaveLength(1);
    // the one search was sent after signing in, by the page itself
    expect(operations.indexOf('sent Search')).toBeGreaterThan(operations.lastIndexOf('answered Me'));
  });
});
