/**
 * `npm run docs:config`: writes docs/configuration.md from the configuration schema
 * (src/config-docs.ts). Run it after adding or changing a variable in src/config.ts.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { CONFIG_DOCS_FILE, renderConfigDocs } from '../config-docs.js';

async function main(): Promise<void> {
  const text = renderConfigDocs();
  const previous = await readFile(CONFIG_DOCS_FILE, 'utf8').catch(() => null);
  await writeFile(CONFIG_DOCS_FILE, text);
  const change = previous === null ? 'created' : previous === text ? 'unchanged' : 'updated';
  process.stdout.write(`Wrote ${CONFIG_DOCS_FILE} (${change}): ${text.split('\n').filter((l) => l.startsWith('| `')).length} variables\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
