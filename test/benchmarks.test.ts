/**
 * Every benchmark prints the machine's calibration beside its figures (the guide: machines differ,
 * so a figure means something only next to the speed of the machine that printed it), and every
 * `bench*` script of package.json names a benchmark that exists.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const BENCH = path.resolve('bench');
/** Files of bench/ that are not benchmarks: shared helpers and the calibration itself. */
const NOT_BENCHMARKS = new Set(['lib.ts', 'calibrate.ts', 'retrieval-metrics.ts', 'citator-score.ts', 'first-start-timeline.ts', 'dashboard-timeline.ts']);

describe('benchmarks', () => {
  const benchmarks = readdirSync(BENCH).filter((f) => f.endsWith('.ts') && !NOT_BENCHMARKS.has(f));

  it('finds the benchmarks', () => {
    expect(benchmarks).toEqual(expect.arrayContaining(['run.ts', 'auth-overhead.ts', 'soak.ts', 'graphql-limits.ts']));
  });

  it.each(benchmarks)('%s prints the calibration', (file) => {
    const source = readFileSync(path.join(BENCH, file), 'utf8');
    expect(source).toMatch(/^\s*printCalibration\(\);/m);
  });

  it('every bench script of package.json runs a file of bench/', () => {
    const scripts = JSON.parse(readFileSync('package.json', 'utf8')).scripts as Record<string, string>;
    const benchScripts = Object.entries(scripts).filter(([name]) => name === 'bench' || name.startsWith('bench:'));
    expect(benchScripts.length).toBeGreaterThan(10);
    for (const [name, command] of benchScripts) {
      const file = /tsx (bench\/[\w-]+\.ts)/.exec(command)?.[1];
      expect({ name, file: file && existsSync(file) ? file : null }).toEqual({ name, file: expect.any(String) });
    }
  });
});
