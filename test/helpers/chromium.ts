/**
 * Real headless Chromium for the dashboard's browser tests (Debian's `chromium` package, which
 * .ci/run installs when missing), driven by playwright-core: launch, a new page per viewport,
 * axe-core on a page (fails on serious or critical violations), screenshots.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

const require = createRequire(import.meta.url);

// The functions given to page.evaluate run in the page; these name its globals for the type checker (the tests have no DOM lib).
declare const window: Record<string, unknown> & { innerWidth: number };
declare const document: { documentElement: { scrollWidth: number } };

/** CHROMIUM_PATH, else Debian's /usr/bin/chromium. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

export interface TestBrowser {
  browser: Browser;
  /** A fresh context (its own cookies) and page; `width` 390 for the phone layout. */
  newPage(options?: { width?: number; height?: number; baseURL?: string }): Promise<{ context: BrowserContext; page: Page }>;
  close(): Promise<void>;
}

/** Launches headless Chromium; playwright gives it a fresh temporary user-data directory, removed on close. */
export async function launchChromium(): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`Chromium not found at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH)`);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  return {
    browser,
    async newPage(options = {}) {
      const context = await browser.newContext({
        viewport: { width: options.width ?? 1280, height: options.height ?? 860 },
        baseURL: options.baseURL,
        deviceScaleFactor: 1,
        reducedMotion: 'reduce',
      });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], options.baseURL ? { origin: options.baseURL } : undefined).catch(() => {});
      const page = await context.newPage();
      return { context, page };
    },
    async close() {
      await browser.close();
    },
  };
}

let axeSource: string | null = null;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; html: string }[];
}

/** Runs axe-core (WCAG 2 A/AA rules and best practices) on the page as it is now; answers serious and critical violations. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  axeSource ??= await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  // evaluated through the DevTools protocol: the dashboard's CSP (script-src 'self') stays on
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: AxeViolation[] }> } }).axe;
    const r = await axe.run((globalThis as unknown as { document: unknown }).document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, html: n.html })) }));
  });
  return result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Fails (throws with the list) when axe-core finds serious or critical violations. */
export async function expectAccessible(page: Page, label = page.url()): Promise<void> {
  const violations = await axeViolations(page);
  if (violations.length > 0) {
    const lines = violations.map((v) => `  [${v.impact}] ${v.id}: ${v.help}\n${v.nodes.slice(0, 3).map((n) => `      ${n.target.join(' ')}  ${n.html.slice(0, 160)}`).join('\n')}`);
    throw new Error(`axe-core: ${violations.length} serious/critical violation(s) on ${label}\n${lines.join('\n')}`);
  }
}

/** The repo's docs/screenshots directory. */
export const SCREENSHOT_DIR = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../docs/screenshots');

/**
 * Saves a screenshot as docs/screenshots/<name>.png, only when SCREENSHOTS=1 (`npm run
 * screenshots`), so ordinary test runs leave the committed images alone.
 */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (process.env.SCREENSHOTS !== '1') return;
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: options.fullPage ?? false, animations: 'disabled' });
}

/** True when the page scrolls sideways (content wider than the viewport): a broken phone layout. */
export async function overflowsHorizontally(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
}
