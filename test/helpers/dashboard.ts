/**
 * The dashboard's browser tests: a real platform (small corpus slice, real SMTP) serving the
 * built dashboard (built first when missing or older than src/dashboard), and real Chromium.
 */
import type { Page } from 'playwright-core';
import type { Platform } from '../../src/platform.js';
import { ensureDashboardBuilt } from '../../src/cli/dashboard-build.js';
import type { SliceSpec } from '../fixtures/corpus-slice.js';
import { startTestPlatform } from './platform.js';

export { ensureDashboardBuilt };

/** A platform with the dashboard built and served; `env` adds configuration. */
export async function startDashboardPlatform(slices: SliceSpec[], env: Record<string, string> = {}): Promise<Platform> {
  ensureDashboardBuilt();
  return startTestPlatform(slices, { RATE_LIMITS: 'false', ...env });
}

/** Waits until the page's main heading reads `title` (pages load lazily). */
export async function expectHeading(page: Page, title: string | RegExp): Promise<void> {
  await page.getByRole('heading', { level: 1, name: title }).waitFor({ state: 'visible', timeout: 15_000 });
}
