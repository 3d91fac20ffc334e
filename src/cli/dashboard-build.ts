/**
 * Whether the built dashboard (dist/dashboard) is older than its sources, and building it: used
 * by `npm run build:dashboard`, by `npm start` / `npm install` (build when missing or stale), and
 * by the browser tests (which build it first when it is stale).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const DASHBOARD_SOURCES = path.join(REPO_ROOT, 'src/dashboard');
export const DASHBOARD_VITE_CONFIG = path.join(DASHBOARD_SOURCES, 'vite.config.ts');
export const DASHBOARD_BUILD = path.join(REPO_ROOT, 'dist/dashboard');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** True when dist/dashboard/index.html is missing or older than any file under src/dashboard. */
export function dashboardIsStale(outDir: string = DASHBOARD_BUILD): boolean {
  const index = path.join(outDir, 'index.html');
  if (!existsSync(index)) return true;
  return newestMtime(DASHBOARD_SOURCES) > statSync(index).mtimeMs;
}

/** Runs `vite build` for the dashboard (a child process: Vite and its native bundler stay out of this one). */
export function buildDashboard(): void {
  const vite = path.join(REPO_ROOT, 'node_modules/vite/bin/vite.js');
  const result = spawnSync(process.execPath, [vite, 'build', '--config', DASHBOARD_VITE_CONFIG, '--logLevel', 'warn'], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) throw new Error(`vite build failed (exit ${result.status ?? result.signal})`);
}

/** Builds when missing or stale; answers whether it built. */
export function ensureDashboardBuilt(): boolean {
  if (!dashboardIsStale()) return false;
  buildDashboard();
  return true;
}
