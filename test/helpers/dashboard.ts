/**
 * The dashboard's browser tests: a real platform (small corpus slice, real SMTP) serving the
 * built dashboard (built first when missing or older than src/dashboard), and real Chromium.
 */
import { createServer } from 'node:net';
import type { Page } from 'playwright-core';
import type { Platform } from '../../src/platform.js';
import { ensureDashboardBuilt } from '../../src/cli/dashboard-build.js';
import type { SliceSpec } from '../fixtures/corpus-slice.js';
import { startTestPlatform } from './platform.js';

export { ensureDashboardBuilt };

/** A free TCP port on 127.0.0.1 (the browser's origin must be BASE_URL's: cookie-authenticated POSTs from another origin are refused). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A platform with the dashboard built and served at BASE_URL http://127.0.0.1:<port>; `env` adds configuration. */
export async function startDashboardPlatform(slices: SliceSpec[], env: Record<string, string> = {}): Promise<Platform> {
  ensureDashboardBuilt();
  const port = await freePort();
  return startTestPlatform(slices, { PORT: String(port), BASE_URL: `http://127.0.0.1:${port}`, ...env });
}

/** Waits until the page's main heading reads `title` (pages load lazily). */
export async function expectHeading(page: Page, title: string | RegExp): Promise<void> {
  await page.getByRole('heading', { level: 1, name: title }).waitFor({ state: 'visible', timeout: 15_000 });
}
