/**
 * Jest transform: TypeScript → JavaScript with esbuild, the compiler `tsx` already uses to run
 * the service (`npm start`), so tests run the code as production compiles it. No type checking
 * here: `npm test` runs `tsc --noEmit` before jest. It replaced ts-jest (diagnostics off), which
 * spent seconds per test file in the TypeScript compiler; figures in docs/testing.md.
 *
 * The tsconfig settings that change emitted code are passed on: legacy decorators
 * (`experimentalDecorators`, type-graphql in subgraphs/) and `useDefineForClassFields: false`.
 * esbuild does not emit decorator metadata; every type-graphql decorator names its type
 * explicitly (`@Field(() => String)`), as `tsx` requires too.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { transformSync } = require('esbuild');

const tsconfig = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'tsconfig.json'), 'utf8'));
const { experimentalDecorators, useDefineForClassFields, jsx } = tsconfig.compilerOptions;
const tsconfigRaw = { compilerOptions: { experimentalDecorators, useDefineForClassFields, jsx } };
const esbuildVersion = require('esbuild/package.json').version;
const ownSource = fs.readFileSync(__filename, 'utf8');

module.exports = {
  process(source, filename, options) {
    const { code, map } = transformSync(source, {
      loader: filename.endsWith('.tsx') ? 'tsx' : 'ts',
      // Jest loads test files as ESM (--experimental-vm-modules, extensionsToTreatAsEsm) and
      // anything it requires through CommonJS
      format: options.supportsStaticESM ? 'esm' : 'cjs',
      target: 'node24',
      sourcefile: filename,
      sourcemap: 'external',
      sourcesContent: false,
      tsconfigRaw,
    });
    return { code, map };
  },
  getCacheKey(source, filename, options) {
    return crypto
      .createHash('sha256')
      .update(source)
      .update('\0')
      .update(filename)
      .update('\0')
      .update(String(options.supportsStaticESM))
      .update('\0')
      .update(esbuildVersion)
      .update(ownSource)
      .digest('hex');
  },
};
