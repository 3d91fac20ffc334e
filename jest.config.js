/** Jest runs the TypeScript sources as ESM (see the `test` script for the VM-modules flag), compiled by esbuild (test/esbuild-transform.cjs; `npm test` typechecks first). */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.tsx?$': '<rootDir>/test/esbuild-transform.cjs',
  },
  testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/subgraphs/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
  testTimeout: 120000,
  setupFiles: ['<rootDir>/test/setup-env.ts'],
  // Any outbound HTTP(S) request to a non-loopback host fails the test (msw; see the file).
  setupFilesAfterEnv: ['<rootDir>/test/network-guard.setup.ts'],
};
