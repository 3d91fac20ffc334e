/**
 * Jest's globalSetup, run once before the test files: builds the dashboard when it is missing or
 * stale. Both browser test files need it, and with two workers they would otherwise run two
 * `vite build`s into the same dist/dashboard at once. Plain ESM loading the TypeScript through
 * tsx: jest loads globalSetup outside its module system (no moduleNameMapper for `.js` paths).
 */
import { tsImport } from 'tsx/esm/api';

export default async function globalSetup() {
  const { ensureDashboardBuilt } = await tsImport('../src/cli/dashboard-build.ts', import.meta.url);
  ensureDashboardBuilt();
}
