/**
 * Jest's globalSetup, run once before the test files:
 * - builds the dashboard when it is missing or stale. Both browser test files need it, and with
 *   two workers they would otherwise run two `vite build`s into the same dist/dashboard at once;
 * - makes the migrated PGlite template the e2e tests copy into their DATA_DIRs
 *   (test/helpers/pglite-template.ts) when the current migrations have none yet, so the two
 *   workers' first files do not both build it.
 * Plain ESM loading the TypeScript through tsx: jest loads globalSetup outside its module system
 * (no moduleNameMapper for `.js` paths).
 */
import { tsImport } from 'tsx/esm/api';

export default async function globalSetup() {
  const { ensureDashboardBuilt } = await tsImport('../src/cli/dashboard-build.ts', import.meta.url);
  ensureDashboardBuilt();
  const { pgliteTemplate } = await tsImport('./helpers/pglite-template.ts', import.meta.url);
  await pgliteTemplate();
}
