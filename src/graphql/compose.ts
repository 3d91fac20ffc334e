/**
 * Supergraph composition with @apollo/composition, in process: the gateway composes at
 * startup (so the supergraph always matches the code) and `npm run compose` writes the same
 * result to graphql/supergraph.graphql for review and tooling.
 */
import { composeServices } from '@apollo/composition';
import { printSubgraphSchema } from '@apollo/subgraph';
import { type GraphQLSchema, parse } from 'graphql';
import { fileURLToPath } from 'node:url';

/** The committed supergraph (`npm run compose` writes it; test/supergraph.test.ts checks it). */
export const SUPERGRAPH_FILE = fileURLToPath(new URL('../../graphql/supergraph.graphql', import.meta.url));

/** The URL a supergraph records for a subgraph served in process (never fetched). */
export function inProcessUrl(name: string): string {
  return `in-process://${name}`;
}

export interface ComposableSubgraph {
  name: string;
  schema: GraphQLSchema;
  /** Where the gateway reaches it; defaults to inProcessUrl(name). */
  url?: string;
}

export class CompositionError extends Error {
  constructor(readonly problems: string[]) {
    super(`Supergraph composition failed:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'CompositionError';
  }
}

/** The supergraph SDL of these subgraphs; CompositionError listing every problem otherwise. */
export function composeSupergraph(subgraphs: ComposableSubgraph[]): string {
  const result = composeServices(
    subgraphs.map((subgraph) => ({
      name: subgraph.name,
      url: subgraph.url ?? inProcessUrl(subgraph.name),
      typeDefs: parse(printSubgraphSchema(subgraph.schema)),
    })),
  );
  if (result.errors) {
    throw new CompositionError(
      result.errors.map((error) => {
        const code = error.extensions?.code;
        return typeof code === 'string' ? `[${code}] ${error.message}` : error.message;
      }),
    );
  }
  return result.supergraphSdl.endsWith('\n') ? result.supergraphSdl : `${result.supergraphSdl}\n`;
}
