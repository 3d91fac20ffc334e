/**
 * The dashboard's first load in real Chromium (`npm run bench:dashboard`): compressed JavaScript
 * transferred by a cold first load of the search page, and the largest contentful paint (LCP)
 * of the public landing page (anonymous, with the example search on) and of the search page, empty
 * and with results, against a local server.
 *
 * Starts the platform in process on the tests' small corpus slice (a temporary DATA_DIR), builds
 * the dashboard first when it is stale, registers an account through /auth and hands its session
 * cookie to a fresh browser context per run (cold cache, no service worker). Runs each page
 * RUNS times (default 5) and prints the median and the worst run. Targets (issue 15): ≤ 300 kB
 * compressed JavaScript on the first load, LCP ≤ 1.5 s on the landing and search pages.
 */
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test/helpers/chromium.js';
import { startDashboardPlatform } from '../test/helpers/dashboard.js';
import { printCalibration } from './lib.js';
import { LCP_OBSERVER, readTimeline, TIMELINE_FIELDS, type Timeline } from './dashboard-timeline.js';

// The machine's speed beside every figure this benchmark prints (bench/calibrate.ts).
printCalibration();

const RUNS = Number(process.env.RUNS ?? 5);
const JS_BUDGET = 300 * 1024;
const LCP_BUDGET_MS = 1500;

interface Run {
  jsBytes: number;
  jsFiles: number;
  jsRawBytes: number;
  lcpMs: number;
  loadMs: number;
  timeline: Timeline;
}

async function measure(browser: Browser, base: string, cookie: { name: string; value: string } | null, path: string, ready: string): Promise<Run> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  // the landing page is measured as an anonymous visitor sees it
  if (cookie) await context.addCookies([{ name: cookie.name, value: cookie.value, url: base }]);
  const page = await context.newPage();
  const js: Promise<{ encoded: number; raw: number }>[] = [];
  page.on('requestfinished', (request) => {
    if (request.resourceType() !== 'script') return;
    js.push(
      request.sizes().then(async (sizes) => ({ encoded: sizes.responseBodySize, raw: (await (await request.response())?.body())?.length ?? 0 })),
    );
  });
  // LCP as the page reports it: the last largest-contentful-paint entry before any input
  await page.addInitScript(LCP_OBSERVER);
  const started = Date.now();
  await page.goto(`${base}${path}`, { waitUntil: 'load' });
  await page.locator(ready).first().waitFor({ timeout: 30_000 });
  const loadMs = Date.now() - started;
  await page.waitForTimeout(300);
  const lcpMs = Number(await page.evaluate('window.__lcp'));
  const timeline = await readTimeline(page);
  const sizes = await Promise.all(js);
  await context.close();
  return { jsBytes: sizes.reduce((a, s) => a + s.encoded, 0), jsRawBytes: sizes.reduce((a, s) => a + s.raw, 0), jsFiles: sizes.length, lcpMs, loadMs, timeline };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;

/** The median of each step of the load (bench/dashboard-timeline.ts) and the LCP element. */
function printTimeline(runs: Run[]): void {
  const steps = TIMELINE_FIELDS.map(({ key, label }) => ({ label, ms: median(runs.map((r) => r.timeline[key])) })).filter((s) => s.ms >= 0);
  steps.push({ label: 'LCP', ms: median(runs.map((r) => r.lcpMs)) });
  console.log('  where the time goes (medians, ms since navigation start):');
  for (const s of steps.sort((a, b) => a.ms - b.ms)) console.log(`    ${s.ms.toFixed(0).padStart(5)}  ${s.label}`);
  console.log(`  each run, LCP / first contentful paint: ${runs.map((r) => `${r.lcpMs.toFixed(0)} / ${r.timeline.fcp.toFixed(0)}`).join(', ')} ms`);
  const elements = runs.map((r) => r.timeline.lcpElement);
  console.log(`  LCP element: ${elements.sort((a, b) => elements.filter((e) => e === b).length - elements.filter((e) => e === a).length)[0]}`);
}

async function main(): Promise<void> {
  console.log('starting the platform (small corpus slice) …');
  const platform = await startDashboardPlatform([
    { file: 'legislation/DE-GesetzeImInternet.jsonl.gz', lines: 9, keep: (r) => /^bgb(\/82[3-9]|\/830)?$/.test(String(r.source_id)) },
    { file: 'case_law/DE-BGH.jsonl.gz', lines: 5 },
  ], { LOG_LEVEL: 'silent', ALLOW_ANONYMOUS: 'true' });
  const base = platform.config.baseUrl;
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  try {
    const email = `bench-${Date.now()}@example.org`;
    const body = { email, password: 'bench password 123', accept_terms: true, acknowledge_privacy: true };
    const post = (p: string) => fetch(`${base}${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!(await post('/auth/register')).ok) throw new Error('registration failed');
    const login = await post('/auth/login');
    const set = login.headers.getSetCookie().find((c) => c.startsWith('session='));
    if (!set) throw new Error('no session cookie');
    const [name, value] = set.split(';')[0]!.split('=') as [string, string];
    const cookie = { name, value };

    const pages = [
      { label: 'landing page, anonymous', path: '/', ready: 'text=Try a search', anonymous: true },
      { label: 'search page, empty', path: '/dashboard/search', ready: 'text=Search the corpus', anonymous: false },
      { label: 'search page, with results', path: '/dashboard/search?q=Schadensersatz&namespace=legislation&alpha=0', ready: '.hit', anonymous: false },
    ];
    // one warm-up run (Chromium's own start-up costs)
    await measure(browser, base, cookie, pages[1]!.path, pages[1]!.ready);
    let failed = false;
    for (const p of pages) {
      const runs: Run[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await measure(browser, base, p.anonymous ? null : cookie, p.path, p.ready));
      const js = median(runs.map((r) => r.jsBytes));
      const lcp = median(runs.map((r) => r.lcpMs));
      const worstLcp = Math.max(...runs.map((r) => r.lcpMs));
      console.log(`\n${p.label} (${RUNS} cold loads, Chromium ${browser.version()})`);
      console.log(`  JavaScript transferred: ${kb(js)} compressed in ${runs[0]!.jsFiles} files (${kb(median(runs.map((r) => r.jsRawBytes)))} uncompressed); budget ${kb(JS_BUDGET)}: ${js <= JS_BUDGET ? 'ok' : 'OVER'}`);
      console.log(`  LCP: median ${lcp.toFixed(0)} ms, worst ${worstLcp.toFixed(0)} ms; budget ${LCP_BUDGET_MS} ms: ${lcp <= LCP_BUDGET_MS ? 'ok' : 'OVER'}`);
      console.log(`  until ready (load + data): median ${median(runs.map((r) => r.loadMs))} ms`);
      printTimeline(runs);
      if (js > JS_BUDGET || lcp > LCP_BUDGET_MS) failed = true;
    }
    if (failed) process.exitCode = 1;
  } finally {
    await browser.close();
    await platform.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
