/**
 * The committed supergraph must be what the current subgraphs compose to: a subgraph change
 * without `npm run compose` fails here.
 */
import { readFile } from 'node:fs/promises';
import { composeSupergraph, CompositionError, SUPERGRAPH_FILE } from '../src/graphql/compose.js';
import { buildSubgraphs, schemaOnlyServices, SUBGRAPHS } from '../src/graphql/subgraphs.js';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';

describe('supergraph', () => {
  it('matches graphql/supergraph.graphql', async () => {
    const composed = composeSupergraph(await buildSubgraphs(schemaOnlyServices()));
    const committed = await readFile(SUPERGRAPH_FILE, 'utf8').catch(() => '');
    if (composed !== committed) {
      throw new Error(
        'graphql/supergraph.graphql is out of date with the subgraphs: run `npm run compose` and commit the result.',
      );
    }
  });

  it('composes every registered subgraph', async () => {
    const subgraphs = await buildSubgraphs(schemaOnlyServices());
    expect(subgraphs.map((s) => s.name)).toEqual(SUBGRAPHS.map((s) => s.name));
    const sdl = composeSupergraph(subgraphs);
    expect(sdl).toContain('LEGAL_DATA @join__graph(name: "legal-data", url: "in-process://legal-data")');
    expect(sdl).toMatch(/type Document\s+@join__type\(graph: LEGAL_DATA, key: "id"\)/);
  });

  it('reports composition errors readably', async () => {
    const [legalData] = await buildSubgraphs(schemaOnlyServices());
    const conflicting = buildSubgraphSchema(parse(/* GraphQL */ `
      extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key"])
      type Query { stats: Int }
    `));
    const compose = () => composeSupergraph([legalData!, { name: 'other', schema: conflicting }]);
    expect(compose).toThrow(CompositionError);
    expect(compose).toThrow(/Supergraph composition failed:\n {2}- \[[A-Z_]+\] .*stats/);
  });
});
