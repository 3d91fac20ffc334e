/**
 * Jest runs the TypeScript sources as ESM (see the `test` script for the VM-modules flag),
 * compiled by esbuild (test/esbuild-transform.cjs; `npm test` typechecks first).
 *
 * `npm test` runs the suite in two passes (docs/testing.md): JEST_PASS=parallel runs every file
 * but SERIAL_FILES on two workers, then JEST_PASS=serial runs SERIAL_FILES one at a time. Without
 * JEST_PASS (`npm run test:jest -- <file>`) jest sees every file.
 */

/**
 * Files that race a clock against the service's own timers, so a second test file competing for
 * the 2 cores could make them fail: they run alone, after the parallel pass.
 */
export const SERIAL_FILES = [
  // header/request timeouts of 1-2 s and socket caps, checked against fixed sleeps
  'test/connection-limits.e2e.test.ts',
  // idle SSE streams close after SSE_IDLE_TIMEOUT_SECONDS; activity just before it keeps one open
  'test/sse-streams.e2e.test.ts',
  // the service as an OS process: SIGTERM, a drain deadline, requests spaced in time around it
  'test/shutdown.e2e.test.ts',
  // drain(deadline): resolves within 2 s, cuts connections at a 500 ms deadline
  'src/http/drain-http-server.test.ts',
  // idle callbacks at a 1 s idle time, checked between 600 ms sleeps
  'src/modules/usage/sse-session-slots.test.ts',
  // the longest /health answer while a refused GraphQL attack is in flight, bounded at 1 s (an OS process)
  'test/graphql-limits.e2e.test.ts',
];

const escape = (file) => file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const pass = process.env.JEST_PASS;
if (pass !== undefined && pass !== 'parallel' && pass !== 'serial') throw new Error(`JEST_PASS must be parallel or serial, not ${pass}`);

const ALL_FILES = ['<rootDir>/src/**/*.test.ts', '<rootDir>/subgraphs/**/*.test.ts', '<rootDir>/test/**/*.test.ts'];

export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.tsx?$': '<rootDir>/test/esbuild-transform.cjs',
  },
  testMatch: pass === 'serial' ? SERIAL_FILES.map((file) => `<rootDir>/${file}`) : ALL_FILES,
  testPathIgnorePatterns: ['/node_modules/', ...(pass === 'parallel' ? SERIAL_FILES.map((file) => `/${escape(file)}$`) : [])],
  testTimeout: 120000,
  // Work done once before any worker starts (the dashboard build the browser tests need).
  globalSetup: '<rootDir>/test/global-setup.mjs',
  setupFiles: ['<rootDir>/test/setup-env.ts'],
  // Any outbound HTTP(S) request to a non-loopback host fails the test (msw; see the file).
  setupFilesAfterEnv: ['<rootDir>/test/network-guard.setup.ts'],
};
