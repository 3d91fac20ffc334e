/**
 * The GraphQL explorer at GET /graphql (src/http/graphql-explorer.ts, GraphiQL bundled by the
 * dashboard's build) in real headless Chromium, every request that is not to loopback blocked
 * and recorded: the page loads and runs an operation through the real gateway under the
 * service's security headers (CSP included) without any request leaving the host, sends the
 * session cookie and the header typed under Headers, passes axe, and with introspection off asks
 * for no schema and says it is not published. The gateway runs over schema-only services (no
 * database: `__typename` needs none), which keeps this file free of a platform boot.
 */
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page, Request } from 'playwright-core';
import { DASHBOARD_BUILD } from '../src/cli/dashboard-build.js';
import { mountGraphql, type MountedGraphql } from '../src/graphql/gateway.js';
import { schemaOnlyServices } from '../src/graphql/subgraphs.js';
import { dashboardRouter } from '../src/http/dashboard.js';
import { EXPLORER_CSP, graphqlExplorer } from '../src/http/graphql-explorer.js';
import { noStoreForPrivateResponses, securityHeaders } from '../src/http/security-headers.js';
import { GRAPHQL_LIMIT_DEFAULTS } from '../src/config.js';
import { SESSION_COOKIE } from '../src/modules/accounts/tokens.js';
import { expectAccessible, launchChromium, screenshot, type TestBrowser } from './helpers/chromium.js';
import { ensureDashboardBuilt } from './helpers/dashboard.js';

// Globals of the page, for the functions page.evaluate runs there (the tests have no DOM lib).
declare const document: { querySelector(selector: string): unknown };

interface Served {
  base: string;
  stop(): Promise<void>;
}

/** The service's HTTP layers the explorer meets, in app.ts's order: headers, the dashboard's assets, the explorer, the gateway. */
async function serveExplorer(introspection: boolean): Promise<Served> {
  const app = express();
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  app.use(securityHeaders({ baseUrl: base, hstsMaxAgeSeconds: 0 }));
  app.use(noStoreForPrivateResponses());
  const client = { identityProviders: [], devLogin: false, billing: false, baseUrl: base, termsVersion: 'test', passwordMinLength: 10 };
  app.use(dashboardRouter({ dir: DASHBOARD_BUILD, client }));
  app.get('/graphql', graphqlExplorer({ dir: DASHBOARD_BUILD, introspection }));
  const door: MountedGraphql = await mountGraphql(app, { services: schemaOnlyServices(), subgraphUrls: {}, settings: { introspection, limits: GRAPHQL_LIMIT_DEFAULTS } });
  return {
    base,
    async stop() {
      await door.stop();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** What Chromium sends when it loads a page. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;

/** A page whose every non-loopback request is aborted and recorded, with its CSP reports and page errors. */
async function openExplorerPage(chromium: TestBrowser, base: string) {
  const { context, page } = await chromium.newPage({ baseURL: base });
  const outside: string[] = [];
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.protocol === 'data:' || LOOPBACK.test(url.hostname)) return route.continue();
    outside.push(url.href);
    return route.abort('blockedbyclient');
  });
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  const graphqlPosts: Request[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/graphql') graphqlPosts.push(request);
  });
  return { context, page, outside, problems, graphqlPosts };
}

/** Sets a GraphiQL editor's text through CodeMirror's own API (what typing would leave there, without the auto-closed brackets). */
async function setEditor(page: Page, selector: string, text: string): Promise<void> {
  await page.waitForFunction(
    ([sel, value]) => {
      const editor = (document.querySelector(sel!) as { CodeMirror?: { getValue(): string; setValue(v: string): void } } | null)?.CodeMirror;
      if (!editor) return false;
      if (editor.getValue() !== value) editor.setValue(value!);
      return editor.getValue() === value;
    },
    [selector, text],
  );
}

/** Waits until GraphiQL has put its default operation in the query editor (it builds its editors lazily; a value set before that is replaced). */
async function waitForEditors(page: Page): Promise<void> {
  await page.locator('.graphiql-query-editor .CodeMirror').getByText('query Countries').waitFor();
}

async function runAndReadResult(page: Page): Promise<string> {
  // GraphiQL reads the operation's name from the editor after a pause: the tab shows it once read
  await page.locator('.graphiql-tab-active').getByText('Typename').waitFor();
  await page.locator('.graphiql-execute-button').click();
  const result = page.locator('.result-window .CodeMirror');
  await result.getByText('__typename').waitFor({ timeout: 15_000 });
  return page.evaluate(() => (document.querySelector('.result-window .CodeMirror') as { CodeMirror: { getValue(): string } }).CodeMirror.getValue());
}

async function addSessionCookie(context: BrowserContext, base: string): Promise<void> {
  await context.addCookies([{ name: SESSION_COOKIE, value: 'cookie-from-the-dashboard', url: base }]);
}

describe('GraphQL explorer at GET /graphql (Chromium)', () => {
  let chromium: TestBrowser;
  let open: Served;
  let closed: Served;

  beforeAll(async () => {
    ensureDashboardBuilt();
    [chromium, open, closed] = await Promise.all([launchChromium(), serveExplorer(true), serveExplorer(false)]);
  });

  afterAll(async () => {
    await chromium?.close();
    await open?.stop();
    await closed?.stop();
  });

  it('serves the explorer to a browser and JSON errors to everyone else, under its own CSP', async () => {
    const page = await fetch(`${open.base}/graphql`, { headers: { accept: BROWSER_ACCEPT } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(EXPLORER_CSP);
    expect(await page.text()).toContain('<meta name="explorer-config"');
    const api = await fetch(`${open.base}/graphql`, { headers: { accept: 'application/json' } });
    expect(api.headers.get('content-type')).toMatch(/json/);
    const operation = await fetch(`${open.base}/graphql?query=${encodeURIComponent('{ __typename }')}`, { headers: { accept: BROWSER_ACCEPT, 'apollo-require-preflight': 'true' } });
    expect(await operation.json()).toEqual({ data: { __typename: 'Query' } });
    // the dashboard keeps its own, stricter policy (no data: fonts)
    const dashboard = await fetch(`${open.base}/dashboard/`);
    expect(dashboard.headers.get('content-security-policy')).not.toContain('font-src');
  });

  it('runs an operation with the session cookie and the typed API key header, offline, and passes axe', async () => {
    const { context, page, outside, problems, graphqlPosts } = await openExplorerPage(chromium, open.base);
    await addSessionCookie(context, open.base);
    await page.goto('/graphql');
    await page.getByRole('heading', { level: 1, name: 'GraphQL explorer' }).waitFor();
    await waitForEditors(page);
    await setEditor(page, '.graphiql-query-editor .CodeMirror', 'query Typename { __typename }');
    await setEditor(page, '.graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror', '{"authorization": "Bearer sk-typed-by-the-user"}');
    const result = await runAndReadResult(page);
    expect(JSON.parse(result)).toEqual({ data: { __typename: 'Query' } });

    const sent = graphqlPosts.find((request) => request.postData()?.includes('query Typename'));
    expect(sent).toBeDefined();
    const headers = await sent!.allHeaders();
    expect(headers.authorization).toBe('Bearer sk-typed-by-the-user');
    expect(headers.cookie).toContain(`${SESSION_COOKIE}=cookie-from-the-dashboard`);
    // the schema was asked for (introspection on): completion and the documentation pane have it
    expect(graphqlPosts.some((request) => request.postData()?.includes('__schema'))).toBe(true);
    // the typed key is not kept in the browser's storage
    expect(await page.evaluate(() => JSON.stringify({ ...(globalThis as unknown as { localStorage: object }).localStorage }))).not.toContain('sk-typed-by-the-user');

    await expectAccessible(page, 'GraphQL explorer');
    await screenshot(page, 'graphql-explorer');
    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('with introspection off: asks for no schema, says it is not published, and still runs operations', async () => {
    const { context, page, outside, problems, graphqlPosts } = await openExplorerPage(chromium, closed.base);
    await page.goto('/graphql');
    await page.getByRole('status').getByText('This server does not publish its schema (introspection is off)').waitFor();
    await waitForEditors(page);
    await setEditor(page, '.graphiql-query-editor .CodeMirror', 'query Typename { __typename }');
    expect(JSON.parse(await runAndReadResult(page))).toEqual({ data: { __typename: 'Query' } });
    expect(graphqlPosts.filter((request) => request.postData()?.includes('__schema'))).toEqual([]);
    await expectAccessible(page, 'GraphQL explorer, introspection off');
    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
