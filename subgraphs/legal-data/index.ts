/**
 * The legal-data subgraph: search, documents, discovery, statistics and the manifest over
 * GraphQL, as a federation 2 subgraph. `Document` is an entity keyed by `id`.
 */
import type { GraphQLSchema } from 'graphql';
import { buildTypeGraphqlSubgraph, type SubgraphBuildOptions } from '../../src/graphql/federation.js';
import type { LegalDataApi } from '../../src/modules/legal-data/legal-data.port.js';
import { LegalDataResolver, resolveDocumentReference } from './legal-data.resolver.js';
import { ResolveResolver } from './resolve.resolver.js';
import { CitatorResolver } from './citator.resolver.js';
import { CitedByYearsResolver } from './cited-by-years.resolver.js';

export function buildLegalDataSubgraph(api: LegalDataApi, options: SubgraphBuildOptions = {}): Promise<GraphQLSchema> {
  return buildTypeGraphqlSubgraph({
    ...options,
    resolvers: [LegalDataResolver, ResolveResolver, CitatorResolver, CitedByYearsResolver],
    instances: [new LegalDataResolver(api), new ResolveResolver(api), new CitatorResolver(api), new CitedByYearsResolver(api)],
    referenceResolvers: {
      Document: (reference: { id?: unknown }, context: unknown) => resolveDocumentReference(api, reference, context),
    },
    federationImports: ['@key'],
  });
}
