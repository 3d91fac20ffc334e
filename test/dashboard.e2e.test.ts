/**
 * The web dashboard in real headless Chromium against a real platform: serving (deep links,
 * `/`), signing in and out, keys, search, resolve, usage; axe-core on every page.
 */
import type { Platform } from '../src/platform.js';
import { expectAccessible, launchChromium, screenshot, type TestBrowser } from './helpers/chromium.js';
import { expectHeading, startDashboardPlatform } from './helpers/dashboard.js';

describe('web dashboard', () => {
  let platform: Platform;
  let chromium: TestBrowser;
  let base: string;

  beforeAll(async () => {
    [platform, chromium] = await Promise.all([
      startDashboardPlatform([{ file: 'case_law/DE-BGH.jsonl.gz', lines: 5 }]),
      launchChromium(),
    ]);
    base = platform.url!;
  });

  afterAll(async () => {
    await chromium?.close();
    await platform?.stop();
  });

  it('serves the app at /dashboard, deep links included, and `/` leads there', async () => {
    const root = await fetch(`${base}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/dashboard/');
    const deep = await fetch(`${base}/dashboard/keys/anything`);
    expect(deep.status).toBe(200);
    const html = await deep.text();
    expect(html).toContain('<div id="root"></div>');
    expect(html).toContain('name="dashboard-config"');
    const reset = await fetch(`${base}/reset-password?token=abc`, { redirect: 'manual' });
    expect(reset.headers.get('location')).toBe('/dashboard/reset-password?token=abc');
  });

  it('sends a signed-out visitor of a deep link to sign-in, and the page is accessible', async () => {
    const { context, page } = await chromium.newPage({ baseURL: base });
    await page.goto('/dashboard/keys');
    await expectHeading(page, 'Sign in');
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/dashboard/sign-in?next=%2Fkeys');
    await expectAccessible(page);
    await screenshot(page, 'sign-in');
    await context.close();
  });
});
