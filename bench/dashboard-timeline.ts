/**
 * Where a cold load's time goes (bench/dashboard.ts): read from the page's own performance entries
 * after it is ready. The HTML's arrival, the entry script's arrival, the first GraphQL request's
 * start (the session check), the last script chunk's arrival, the first GraphQL answer, the last
 * GraphQL answer (the page's data), the first contentful paint and the LCP with its element.
 */
import type { Page } from 'playwright-core';

export interface Timeline {
  html: number;
  entryScript: number;
  firstGraphqlStart: number;
  lastScript: number;
  firstGraphqlEnd: number;
  lastGraphqlEnd: number;
  fcp: number;
  lcpElement: string;
}

export const TIMELINE_FIELDS: { key: Exclude<keyof Timeline, 'lcpElement'>; label: string }[] = [
  { key: 'html', label: 'HTML received' },
  { key: 'entryScript', label: 'entry script (index-*.js) received' },
  { key: 'firstGraphqlStart', label: 'first GraphQL request sent' },
  { key: 'lastScript', label: 'last script chunk received' },
  { key: 'firstGraphqlEnd', label: 'first GraphQL answer received' },
  { key: 'lastGraphqlEnd', label: 'last GraphQL answer received' },
  { key: 'fcp', label: 'first contentful paint' },
];

/** The script the bench adds to every page: records the LCP entries' time and element. */
export const LCP_OBSERVER = `
  window.__lcp = 0;
  window.__lcpElement = '';
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      window.__lcp = entry.startTime;
      const el = entry.element;
      window.__lcpElement = el ? el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).split(' ')[0] : '') + ' "' + (el.textContent || '').slice(0, 30) + '…"' : '(removed)';
    }
  }).observe({ type: 'largest-contentful-paint', buffered: true });
`;

/** The page's timeline (ms since navigation start); -1 where an event did not happen. */
export async function readTimeline(page: Page): Promise<Timeline> {
  // a string, not a function: the bench's type checker has no DOM lib
  return (await page.evaluate(`(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const res = performance.getEntriesByType('resource');
    const scripts = res.filter((r) => r.initiatorType === 'script' || r.initiatorType === 'link' && /\\.js$/.test(r.name));
    const graphql = res.filter((r) => /\\/graphql$/.test(r.name));
    const entry = scripts.find((r) => /\\/index-[^/]*\\.js$/.test(r.name));
    const max = (xs) => (xs.length ? Math.max(...xs) : -1);
    const min = (xs) => (xs.length ? Math.min(...xs) : -1);
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    return {
      html: nav ? nav.responseEnd : -1,
      entryScript: entry ? entry.responseEnd : -1,
      firstGraphqlStart: min(graphql.map((r) => r.startTime)),
      lastScript: max(scripts.map((r) => r.responseEnd)),
      firstGraphqlEnd: min(graphql.map((r) => r.responseEnd)),
      lastGraphqlEnd: max(graphql.map((r) => r.responseEnd)),
      fcp: fcp ? fcp.startTime : -1,
      lcpElement: window.__lcpElement,
    };
  })()`)) as Timeline;
}
