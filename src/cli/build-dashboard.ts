/**
 * `npm run build:dashboard`: builds the web dashboard into dist/dashboard (served at /dashboard).
 * `--if-stale` (used by `npm start` and `npm install`'s prepare step) builds only when the build is
 * missing or older than src/dashboard, and never fails the command when the dashboard cannot be
 * built (the API still starts; /dashboard then says how to build it).
 */
import { buildDashboard, dashboardIsStale } from './dashboard-build.js';

const ifStale = process.argv.includes('--if-stale');
try {
  if (ifStale && !dashboardIsStale()) {
    process.stdout.write('dashboard: build is current (dist/dashboard)\n');
  } else {
    const started = Date.now();
    buildDashboard();
    process.stdout.write(`dashboard: built into dist/dashboard in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }
} catch (error) {
  process.stderr.write(`dashboard: ${error instanceof Error ? error.message : String(error)}\n`);
  if (!ifStale) process.exitCode = 1;
}
