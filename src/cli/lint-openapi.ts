/**
 * `npm run lint:openapi` (part of `npm test`): writes the /openapi.json the service serves
 * (describeRestApi: the routers built over services that are never called, so no database, index
 * or server is needed) to a temp file and runs `redocly lint` on it with `redocly.yaml` (the
 * `recommended` ruleset, exceptions listed there with their reasons). Fails on any error or warning.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeRestApi } from '../app.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The development default of BASE_URL: the document as `npm start` serves it. */
const BASE_URL = 'http://localhost:8000';

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
}

function main(): void {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'lint-openapi-'));
  try {
    const file = path.join(folder, 'openapi.json');
    writeFileSync(file, `${JSON.stringify(describeRestApi(BASE_URL), null, 2)}\n`);
    const redocly = path.join(ROOT, 'node_modules', '.bin', 'redocly');
    const run = spawnSync(redocly, ['lint', file, '--config', path.join(ROOT, 'redocly.yaml'), '--format', 'json'], { encoding: 'utf8' });
    if (run.status !== 0 && run.status !== 1) throw new Error(`redocly lint failed to run (${run.status}): ${run.stderr}`);
    const report = JSON.parse(run.stdout) as LintReport;
    for (const problem of report.problems) {
      process.stdout.write(`${problem.severity.padEnd(7)} ${problem.ruleId}  ${problem.location[0]?.pointer ?? ''}\n        ${problem.message}\n`);
    }
    // redocly's exit code ignores warnings: they fail here too
    const { errors, warnings } = report.totals;
    if (errors + warnings > 0) {
      process.stderr.write(`/openapi.json: ${errors} error(s), ${warnings} warning(s) from redocly lint (redocly.yaml)\n`);
      process.exitCode = 1;
    } else {
      process.stdout.write('/openapi.json: redocly lint clean (recommended ruleset, redocly.yaml)\n');
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

main();
