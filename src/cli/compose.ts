/**
 * `npm run compose`: composes the supergraph from the registered subgraphs and writes
 * graphql/supergraph.graphql. Only schemas are needed, so the subgraphs are built over
 * service facades that are never called: no database, index or corpus is opened.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { composeSupergraph, SUPERGRAPH_FILE } from '../graphql/compose.js';
import { buildSubgraphs, schemaOnlyServices } from '../graphql/subgraphs.js';

async function main(): Promise<void> {
  const subgraphs = await buildSubgraphs(schemaOnlyServices());
  const supergraphSdl = composeSupergraph(subgraphs);
  const previous = await readFile(SUPERGRAPH_FILE, 'utf8').catch(() => null);
  await mkdir(path.dirname(SUPERGRAPH_FILE), { recursive: true });
  await writeFile(SUPERGRAPH_FILE, supergraphSdl);
  const where = path.relative(process.cwd(), SUPERGRAPH_FILE) || SUPERGRAPH_FILE;
  const change = previous === null ? 'created' : previous === supergraphSdl ? 'unchanged' : 'updated';
  process.stdout.write(
    `Wrote ${where} (${change}): ${subgraphs.length} subgraph(s) [${subgraphs.map((s) => s.name).join(', ')}], ` +
      `${supergraphSdl.split('\n').length - 1} lines\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
