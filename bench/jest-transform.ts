/**
 * The jest transform's cost for the whole suite's sources: every .ts file jest loads (src,
 * subgraphs, test, migrations), compiled once with ts-jest (the former transform) and once with
 * test/esbuild-transform.cjs, cache off; CPU time of this process (esbuild's compiler service is a
 * child process: its CPU is counted from the wall clock of the calls, which wait on it).
 * A cold jest run pays this once per worker and file (jest caches transforms on disk afterwards).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { createScriptTransformer } from '@jest/transform';
import { readConfig } from 'jest-config';
import { printCalibration } from './lib.js';

const ROOT = process.cwd();
const TS_JEST: [string, Record<string, unknown>] = ['ts-jest', { useESM: true, diagnostics: false }];
const ESBUILD = '<rootDir>/test/esbuild-transform.cjs';

async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (entry.isFile() && entry.name.endsWith('.ts') && !full.includes('/src/dashboard/') && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

async function measure(name: string, transform: unknown, files: string[]): Promise<void> {
  const { projectConfig } = await readConfig({ transform: JSON.stringify({ '^.+\\.tsx?$': transform }), cache: false } as never, ROOT);
  const transformer = await createScriptTransformer(projectConfig);
  const options = { instrument: false, supportsDynamicImport: true, supportsExportNamespaceFrom: true, supportsStaticESM: true, supportsTopLevelAwait: true };
  const contents = await Promise.all(files.map((file) => readFile(file, 'utf8')));
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  files.forEach((file, i) => transformer.transformSource(file, contents[i]!, options));
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  console.log(`${name}: ${files.length} files, ${wall.toFixed(2)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s CPU in jest's process`);
}

printCalibration();
const files = (await Promise.all(['src', 'subgraphs', 'test', 'migrations'].map((dir) => sources(path.join(ROOT, dir))))).flat();
await measure('ts-jest (diagnostics off)', TS_JEST, files);
await measure('esbuild (test/esbuild-transform.cjs)', ESBUILD, files);
await measure('ts-jest again (warm JIT)', TS_JEST, files);
await measure('esbuild again (warm JIT)', ESBUILD, files);
