/** `npm run generate:openapi-types`: writes test/generated/openapi.ts (see openapi-types.ts). */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { OPENAPI_TYPES_FILE, openApiTypes } from './openapi-types.js';

async function main(): Promise<void> {
  const text = await openApiTypes();
  const previous = await readFile(OPENAPI_TYPES_FILE, 'utf8').catch(() => null);
  await mkdir(path.dirname(OPENAPI_TYPES_FILE), { recursive: true });
  await writeFile(OPENAPI_TYPES_FILE, text);
  const change = previous === null ? 'created' : previous === text ? 'unchanged' : 'updated';
  process.stdout.write(`Wrote ${path.relative(process.cwd(), OPENAPI_TYPES_FILE)} (${change}), ${text.split('\n').length - 1} lines\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
