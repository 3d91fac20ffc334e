/**
 * test/generated/openapi.ts (the typed client's types) must be what the current routes
 * generate: a route or schema change without `npm run generate:openapi-types` fails here.
 */
import { readFile } from 'node:fs/promises';
import { OPENAPI_TYPES_FILE, openApiTypes } from '../src/cli/openapi-types.js';

describe('test/generated/openapi.ts', () => {
  it('is what openapi-typescript generates from the current /openapi.json', async () => {
    const generated = await openApiTypes();
    const committed = await readFile(OPENAPI_TYPES_FILE, 'utf8').catch(() => '');
    if (generated !== committed) {
      throw new Error('test/generated/openapi.ts is out of date with /openapi.json: run `npm run generate:openapi-types` and commit the result.');
    }
    // openapi-typescript's --default-non-nullable false: a request field with a default stays optional
    expect(generated).toMatch(/\n\s+top_k\?: number;/);
  });
});
