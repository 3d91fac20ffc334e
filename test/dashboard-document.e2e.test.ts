/**
 * The document page (issue 37 item 5, issue 36 item 3) in real headless Chromium against a real
 * platform: a slice of the real corpus (§§ 535, 536, 543, 823 BGB and the act) and decisions and
 * a guidance document written for the test with known citations, so the startup ingest builds a
 * citation graph whose links are known. Checked: "Cited by (13)" with the timeline per year, the
 * filters (collection, court tier, date range, with the range checked in the browser), the sort
 * and "Load more"; "Cites" in order of appearance with pinpoints, and the unresolved citation with
 * its reason; a citation inside the text links to the cited provision, which opens with the
 * pinpoint highlighted and in view; the resolver box passes `Abs. 2` along; the 390-pixel phone
 * layout (facts first, the long text folded, no sideways scrolling). axe-core on every page.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { gzipLines, readRecords, writeCorpusSlice } from './fixtures/corpus-slice.js';
import { expectAccessible, launchChromium, overflowsHorizontally, screenshot, type TestBrowser } from './helpers/chromium.js';
import { ensureDashboardBuilt, expectHeading, freePort } from './helpers/dashboard.js';
import { call, cookieFrom } from './helpers/http.js';
import { makeTestDataDir } from './helpers/pglite-template.js';

const PASSWORD = 'correct horse battery staple';
const ACTS = new Set(['bgb', 'bgb/535', 'bgb/536', 'bgb/543', 'bgb/823']);

/** Decisions citing § 536 BGB: id, court, tier, date. */
const DECISIONS = [
  ['cit-01', 'BGH', 1, '2024-01-15'],
  ['cit-02', 'LG Berlin', 3, '2023-06-01'],
  ['cit-03', 'BGH', 1, '2021-03-10'],
  ['cit-04', 'LG Berlin', 3, '2019-11-30'],
  ['cit-05', 'LG Berlin', 3, '2019-05-02'],
  ['cit-06', 'BGH', 1, '2018-07-07'],
  ['cit-07', 'LG Berlin', 3, '2018-02-02'],
  ['cit-08', 'LG Berlin', 3, '2017-09-09'],
  ['cit-09', 'BGH', 1, '2016-04-04'],
  ['cit-10', 'LG Berlin', 3, '2016-01-01'],
  ['cit-11', 'LG Berlin', 3, '2015-12-12'],
] as const;
const FILLER = 'Die Beklagte trägt vor, der Mangel sei unerheblich gewesen und habe die Gebrauchstauglichkeit der Wohnung nicht gemindert. Dem folgt der Senat nicht.';
/** The decision the Cites list, the links in the text and the phone layout are checked on: long, its later citations past the folded preview. */
const MAIN_ID = 'cit-main';
const MAIN_TEXT = [
  'Tatbestand',
  'Die Klägerin mietete von der Beklagten eine Wohnung in Berlin. Im Winter fiel die Heizung für sechs Wochen aus.',
  'Entscheidungsgründe',
  'I. Die Miete ist nach § 536 Abs. 1 BGB gemindert.',
  ...Array.from({ length: 12 }, (_, i) => `${i + 1}. ${FILLER}`),
  'II. Der Schaden ist nach § 823 Abs. 1 BGB zu ersetzen. Die Kündigung nach § 543 BGB ist wirksam. Eine Vorschrift § 9999 BGB gibt es nicht.',
].join('\n\n');
const GUIDANCE_ID = 'bmf-miete';

const documentUrl = (source: string, id: string, pinpoint?: string) => `/dashboard/documents?${new URLSearchParams({ source, id, ...(pinpoint ? { pinpoint } : {}) })}`;
const BGB = 'DE/GesetzeImInternet';

describe('web dashboard: the document page (cited by, cites, links in the text, pinpoint, phone)', () => {
  let platform: Platform;
  let chromium: TestBrowser;
  let base: string;
  let cookie: string;
  const contexts: BrowserContext[] = [];
  /** JavaScript errors of the pages: none is allowed. */
  const pageErrors: string[] = [];

  async function browserPage(viewport: { width: number; height: number } = { width: 1280, height: 900 }): Promise<Page> {
    const { context, page } = await chromium.newPage({ baseURL: base, ...viewport });
    contexts.push(context);
    const [name, value] = [cookie.slice(0, cookie.indexOf('=')), cookie.slice(cookie.indexOf('=') + 1)];
    await context.addCookies([{ name, value, url: base }]);
    page.on('pageerror', (e) => pageErrors.push(e.message));
    return page;
  }

  /** The title attributes of the timeline's columns: `2016: 2`. */
  const timeline = (page: Page) => page.getByTestId('cited-by-timeline').locator('li').evaluateAll((items) => items.map((li) => (li as unknown as { title: string }).title));
  const shown = (page: Page) => page.getByTestId('cited-by-shown').innerText();
  const listed = (page: Page) => page.getByTestId('cited-by-list').locator('li .cited-by-title').allInnerTexts();
  /** Whether the element is in the viewport, waiting (bounded) for the page's delayed scroll to it. */
  const inView = (page: Page, testId: string) =>
    page
      .waitForFunction(
        (id) => {
          const el = (globalThis as any).document.querySelector(`[data-testid="${id}"]`);
          if (!el) return false;
          const r = el.getBoundingClientRect();
          return r.top >= 0 && r.top < (globalThis as any).innerHeight;
        },
        testId,
        { timeout: 10_000 },
      )
      .then(
        () => true,
        () => false,
      );

  beforeAll(async () => {
    ensureDashboardBuilt();
    chromium = await launchChromium();
    const corpus = await writeCorpusSlice([{ file: 'legislation/DE-GesetzeImInternet.jsonl.gz', lines: ACTS.size, keep: (r) => ACTS.has(String(r.source_id)) }]);
    const [bgh] = await readRecords('case_law/DE-BGH.jsonl.gz', 1);
    const [bmf] = await readRecords('doctrine/DE-BMF.jsonl.gz', 1);
    const decisions = [
      ...DECISIONS.map(([id, court, tier, date]) => ({ ...bgh, source_id: id, ecli: null, court, court_tier: tier, date, title: `${court}, Urteil vom ${date} (${id})`, text: `Die Mieterin beruft sich auf § 536 BGB. Der Mangel war erheblich.` })),
      { ...bgh, source_id: MAIN_ID, ecli: null, court: 'BGH', court_tier: 1, date: '2020-10-10', title: `BGH, Urteil vom 2020-10-10 (${MAIN_ID})`, text: MAIN_TEXT },
    ];
    const guidance = { ...bmf, source_id: GUIDANCE_ID, date: '2022-05-05', title: 'Schreiben zur Mietminderung', text: 'Zur Minderung nach § 536 Abs. 3 BGB gilt Folgendes.' };
    await mkdir(path.join(corpus.dir, 'documents', 'case_law'), { recursive: true });
    await mkdir(path.join(corpus.dir, 'documents', 'doctrine'), { recursive: true });
    await writeFile(path.join(corpus.dir, 'documents', 'case_law', 'DE-BGH.jsonl.gz'), gzipLines(decisions));
    await writeFile(path.join(corpus.dir, 'documents', 'doctrine', 'DE-BMF.jsonl.gz'), gzipLines([guidance]));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // RATE_LIMITS off: the test opens many pages in a minute (each page view one billed read, more with filters and paging)
    const env = { DATA_DIR: await makeTestDataDir('dashboard-document-'), CORPUS_DIR: corpus.dir, PORT: String(port), BASE_URL: base, EMBEDDER: 'none', RATE_LIMITS: 'false' };
    platform = await startPlatform(loadConfig(env), createLogger('silent'));
    await platform.ingestDone;
    const reg = await call(`${base}/auth/register`, 'POST', { email: 'reader@example.org', password: PASSWORD, accept_terms: true, acknowledge_privacy: true });
    expect(reg.status).toBe(200);
    const login = await call(`${base}/auth/login`, 'POST', { email: 'reader@example.org', password: PASSWORD });
    expect(login.status).toBe(200);
    cookie = cookieFrom(login.headers, 'session')!;
  }, 300_000);

  afterEach(() => {
    expect(pageErrors.splice(0)).toEqual([]);
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await chromium?.close();
    await platform?.stop();
  });

  it('a cited provision: "Cited by (13)", the timeline per year, filters, sort and Load more', async () => {
    const page = await browserPage();
    await page.goto(documentUrl(BGB, 'bgb/536'));
    await expectHeading(page, /§ 536 BGB/);
    await page.getByRole('heading', { level: 2, name: 'Cited by (13)' }).waitFor();
    await page.getByTestId('cited-by-timeline').waitFor();
    expect(await timeline(page)).toEqual(['2015: 1', '2016: 2', '2017: 1', '2018: 2', '2019: 2', '2020: 1', '2021: 1', '2022: 1', '2023: 1', '2024: 1']);
    await page.getByText('2016: 2 citing documents').waitFor();

    // newest first, 10 a page; each item: the citing document, its passage with the citation marked, the pinpoint
    expect(await shown(page)).toBe('Showing 10 of 13');
    const firstPage = await listed(page);
    expect(firstPage[0]).toBe('BGH, Urteil vom 2024-01-15 (cit-01)');
    expect(firstPage[2]).toBe('Schreiben zur Mietminderung');
    const guidanceItem = page.getByTestId('cited-by-list').locator('li').nth(2);
    await expect(guidanceItem.locator('mark').innerText()).resolves.toBe('§ 536 Abs. 3');
    await expect(guidanceItem.innerText()).resolves.toContain('pinpoint Abs. 3');
    await expectAccessible(page, 'document cited by');
    await screenshot(page, 'document-cited-by', { fullPage: true });

    await page.getByRole('button', { name: 'Load more' }).click();
    await page.getByText('Showing 13 of 13').waitFor();
    expect((await listed(page)).slice(0, 10)).toEqual(firstPage);
    expect((await listed(page)).at(-1)).toBe('LG Berlin, Urteil vom 2015-12-12 (cit-11)');
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);

    // court tier 1: the list and the timeline follow
    await page.getByLabel('Court tier').selectOption('1');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('Showing 5 of 5 matching the filters (13 in all)').waitFor();
    expect(await timeline(page)).toEqual(['2016: 1', '2017: 0', '2018: 1', '2019: 0', '2020: 1', '2021: 1', '2022: 0', '2023: 0', '2024: 1']);

    // a range whose end is before its start is refused in the browser, and nothing changes
    await page.getByLabel('Court tier').selectOption('');
    await page.getByLabel('From').fill('2020-01-01');
    await page.getByLabel('To').fill('2019-01-01');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('The end date is before the start date.').waitFor();
    expect(await shown(page)).toBe('Showing 5 of 5 matching the filters (13 in all)');

    // case law of 2018-2019
    await page.getByLabel('From').fill('2018-01-01');
    await page.getByLabel('To').fill('2019-12-31');
    await page.getByLabel('Collection').selectOption('case_law');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('Showing 4 of 4 matching the filters (13 in all)').waitFor();
    expect(await listed(page)).toEqual(['LG Berlin, Urteil vom 2019-11-30 (cit-04)', 'LG Berlin, Urteil vom 2019-05-02 (cit-05)', 'BGH, Urteil vom 2018-07-07 (cit-06)', 'LG Berlin, Urteil vom 2018-02-02 (cit-07)']);

    // doctrine only; then the country; then a tier no citing document has
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.getByText('Showing 10 of 13').waitFor();
    await page.getByLabel('Collection').selectOption('doctrine');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('Showing 1 of 1 matching the filters (13 in all)').waitFor();
    expect(await listed(page)).toEqual(['Schreiben zur Mietminderung']);
    await page.getByLabel('Collection').selectOption('');
    await page.getByLabel('Country').selectOption('DE');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('Showing 10 of 13 matching the filters (13 in all)').waitFor();
    await page.getByLabel('Court tier').selectOption('2');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('No citing document matches these filters.').waitFor();

    // highest court first, then newest
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.getByText('Showing 10 of 13').waitFor();
    await page.getByLabel('Sort').selectOption('court_tier');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('[data-testid="cited-by-list"] .cited-by-title')[2]?.textContent?.includes('cit-main'));
    expect((await listed(page)).map((t) => /\((cit-\w+)\)/.exec(t)?.[1])).toEqual(['cit-01', 'cit-03', 'cit-main', 'cit-06', 'cit-09', 'cit-02', 'cit-04', 'cit-05', 'cit-07', 'cit-08']);
    await expectAccessible(page, 'document cited by, filtered');
  });

  it('a decision: Cites in order with pinpoints, the unresolved one with its reason; a citation in the text opens the provision with its paragraph highlighted', async () => {
    const page = await browserPage();
    await page.goto(documentUrl('DE/BGH', MAIN_ID));
    await expectHeading(page, /cit-main/);
    const cites = page.getByTestId('cites-links');
    await cites.waitFor();
    await page.getByRole('heading', { level: 2, name: 'Cites (3)' }).waitFor();
    expect(await cites.getByRole('link').allInnerTexts()).toEqual(['§ 536 Abs. 1 BGB', '§ 823 Abs. 1 BGB', '§ 543 BGB']);
    await expect(cites.locator('li').nth(1).innerText()).resolves.toContain('pinpoint Abs. 1');
    await expect(page.getByTestId('cites-unresolved').innerText()).resolves.toBe('§ 9999 BGB — the act is in the corpus, this provision is not');
    await page.getByRole('heading', { level: 2, name: 'Cited by (0)' }).waitFor();

    // the links in the text stand exactly on the citator's offsets into the text the page shows
    const answer = await call(`${base}/graphql`, 'POST', { query: `{ document(source: "DE/BGH", sourceId: "${MAIN_ID}") { text cites { links { start end } } } }` }, { cookie, headers: { origin: base } });
    const { text, cites: served } = answer.body.data.document;
    const inText = page.getByTestId('document-text').getByRole('link');
    expect(await inText.allInnerTexts()).toEqual(served.links.map((l: { start: number; end: number }) => text.slice(l.start, l.end)));
    expect(await inText.allInnerTexts()).toEqual(['§ 536 Abs. 1', '§ 823 Abs. 1', '§ 543']);
    await expect(page.getByTestId('document-text').innerText()).resolves.toBe(MAIN_TEXT);
    await expectAccessible(page, 'decision with cites');
    await screenshot(page, 'document-cites', { fullPage: true });

    // the citation in the text opens § 823 with paragraph 1 highlighted and in view
    await inText.filter({ hasText: '§ 823 Abs. 1' }).click();
    await expectHeading(page, /§ 823 BGB/);
    expect(new URL(page.url()).searchParams.get('pinpoint')).toBe('Abs. 1');
    await expect(page.getByTestId('pinpoint').innerText()).resolves.toMatch(/^\(1\) Wer vorsätzlich .* verpflichtet\.$/);
    await page.getByText('Highlighted: Abs. 1.').waitFor();
    await page.waitForFunction(() => (globalThis as any).document.querySelector('[data-testid="pinpoint"]') !== null);
    expect(await inView(page, 'pinpoint')).toBe(true);
    await expectAccessible(page, 'provision with pinpoint');

    // back, and the Cites list's link does the same for § 536 Abs. 1
    await page.goBack();
    await expectHeading(page, /cit-main/);
    await page.getByTestId('cites-links').getByRole('link', { name: '§ 536 Abs. 1 BGB' }).click();
    await expectHeading(page, /§ 536 BGB/);
    await expect(page.getByTestId('pinpoint').innerText()).resolves.toMatch(/^\(1\) /);
  });

  it('the resolver box passes the pinpoint along; a pinpoint the text lacks is said in words', async () => {
    const page = await browserPage({ width: 1280, height: 700 });
    await page.goto('/dashboard/resolve');
    await expectHeading(page, 'Resolve a citation');
    await page.getByLabel('Citation', { exact: true }).fill('§ 823 Abs. 2 BGB');
    await page.getByRole('button', { name: 'Resolve', exact: true }).click();
    await expectHeading(page, /§ 823 BGB/);
    expect(new URL(page.url()).searchParams.get('pinpoint')).toBe('Abs. 2');
    await expect(page.getByTestId('pinpoint').innerText()).resolves.toMatch(/^\(2\) Die gleiche Verpflichtung .* Verschuldens ein\.$/);
    await page.waitForTimeout(400); // the page scrolls after the heading took the focus
    expect(await inView(page, 'pinpoint')).toBe(true);
    await screenshot(page, 'document-pinpoint');

    await page.goto(documentUrl(BGB, 'bgb/823', 'Abs. 7'));
    await page.getByText('“Abs. 7” was not found in this text; the whole text is shown.').waitFor();
    expect(await page.getByTestId('pinpoint').count()).toBe(0);
  });

  it('on a 390-pixel phone: the facts first, the long text folded behind "Show full text", nothing scrolls sideways', async () => {
    const page = await browserPage({ width: 390, height: 844 });
    await page.goto(documentUrl('DE/BGH', MAIN_ID));
    await expectHeading(page, /cit-main/);
    const facts = page.getByRole('complementary', { name: 'About this document' });
    const text = page.getByRole('article', { name: 'Text' });
    expect((await facts.boundingBox())!.y).toBeLessThan((await text.boundingBox())!.y);
    expect((await facts.boundingBox())!.y).toBeLessThan(844);
    const toggle = page.getByRole('button', { name: 'Show full text' });
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('false');
    const folded = await page.getByTestId('document-text').innerText();
    expect(folded.length).toBeLessThan(800);
    expect(folded).toContain('§ 536 Abs. 1');
    expect(folded).not.toContain('§ 9999');
    await page.getByTestId('cites-links').waitFor();
    expect(await overflowsHorizontally(page)).toBe(false);
    await expectAccessible(page, 'decision on a phone, folded');
    await screenshot(page, 'document-phone', { fullPage: true });

    await toggle.click();
    await expect(page.getByRole('button', { name: 'Show less of the text' }).getAttribute('aria-expanded')).resolves.toBe('true');
    await expect(page.getByTestId('document-text').innerText()).resolves.toBe(MAIN_TEXT);
    await page.getByTestId('document-text').getByRole('link', { name: '§ 823 Abs. 1' }).waitFor();
    expect(await overflowsHorizontally(page)).toBe(false);

    // the cited provision's page with its timeline and filters fits too; opened for a pinpoint, nothing is folded
    await page.goto(documentUrl(BGB, 'bgb/536', 'Abs. 3'));
    await page.getByTestId('cited-by-timeline').waitFor();
    await page.getByTestId('pinpoint').waitFor();
    expect(await page.getByRole('button', { name: 'Show full text' }).count()).toBe(0);
    expect(await overflowsHorizontally(page)).toBe(false);
    await expectAccessible(page, 'provision on a phone');
  });
});
