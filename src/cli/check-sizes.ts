/**
 * `npm run lint:sizes`: lists the source files over 400 lines and the functions over 80 lines
 * that carry no `// size: <reason>` comment (see source-sizes.ts), and fails when there is one.
 * `npm test` runs it strictly; with `--report` it prints one summary line and never fails.
 * `--exempted` also lists what a reason exempts, with the reason.
 * Tests are not measured (a `describe` block is a list of cases), nor generated code
 * (src/dashboard/gql) or migrations (immutable).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { MAX_FILE_LINES, MAX_FUNCTION_LINES, measureSource, type SizeFinding } from './source-sizes.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MEASURED_FOLDERS = ['src', 'subgraphs', 'bench'];
const SKIPPED = [/\.test\.tsx?$/, /\.d\.ts$/, /^src\/dashboard\/gql\//, /(^|\/)node_modules\//];

/** The TypeScript source files the size rules apply to, relative to the repository root. */
function sourceFiles(): string[] {
  return MEASURED_FOLDERS.flatMap((folder) =>
    readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' })
      .map((file) => path.posix.join(folder, file.split(path.sep).join('/')))
      .filter((file) => /\.tsx?$/.test(file) && !SKIPPED.some((skip) => skip.test(file))),
  ).sort();
}

function findingLine(finding: SizeFinding): string {
  const what = finding.name === null ? finding.file : `${finding.file}:${finding.line} ${finding.name}`;
  const why = finding.reason === null ? '' : `  (size: ${finding.reason})`;
  return `  ${String(finding.lines).padStart(4)}  ${what}${why}`;
}

function main(): void {
  const { values } = parseArgs({ options: { report: { type: 'boolean', default: false }, exempted: { type: 'boolean', default: false } } });
  const findings = sourceFiles().flatMap((file) => measureSource(file, readFileSync(path.join(ROOT, file), 'utf8')));
  const offenders = findings.filter((finding) => finding.reason === null);
  const files = offenders.filter((finding) => finding.name === null);
  const functions = offenders.filter((finding) => finding.name !== null);
  const exempted = findings.length - offenders.length;

  if (values.report) {
    const summary =
      offenders.length === 0
        ? `sizes: no file over ${MAX_FILE_LINES} lines, no function over ${MAX_FUNCTION_LINES} lines without a reason`
        : `sizes (report only, not failing): ${files.length} file(s) over ${MAX_FILE_LINES} lines and ${functions.length} function(s) over ${MAX_FUNCTION_LINES} lines without a "// size:" reason; npm run lint:sizes lists them`;
    process.stdout.write(`${summary}\n`);
    return;
  }
  if (files.length > 0) process.stdout.write(`Files over ${MAX_FILE_LINES} lines without a "// size: <reason>" in their header (${files.length}):\n${files.map(findingLine).join('\n')}\n`);
  if (functions.length > 0) process.stdout.write(`Functions over ${MAX_FUNCTION_LINES} lines without a "// size: <reason>" above them (${functions.length}):\n${functions.map(findingLine).join('\n')}\n`);
  if (values.exempted && exempted > 0) process.stdout.write(`Exempted by a reason (${exempted}):\n${findings.filter((f) => f.reason !== null).map(findingLine).join('\n')}\n`);
  if (offenders.length === 0) process.stdout.write(`sizes: no file over ${MAX_FILE_LINES} lines, no function over ${MAX_FUNCTION_LINES} lines without a reason (${exempted} exempted)\n`);
  else process.exitCode = 1;
}

main();
