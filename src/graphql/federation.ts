/**
 * Builds a federation 2 subgraph schema from type-graphql resolver classes.
 *
 * type-graphql keeps `@Directive('@key(...)')` on the types' AST nodes, which graphql's
 * printSchema ignores; `printSchemaWithDirectives` (@graphql-tools/utils) puts them back. The printed SDL (with a
 * federation `@link`) and type-graphql's resolver map, merged with the reference resolvers,
 * go to @apollo/subgraph's buildSubgraphSchema. `__resolveReference` must be in that map:
 * resolvers added to a built schema afterwards are dropped silently.
 */
import 'reflect-metadata';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { type DocumentNode, type GraphQLSchema, parse } from 'graphql';
import { type ContainerType, type MiddlewareFn, type NonEmptyArray, buildSchema, createResolversMap } from 'type-graphql';
import { mapErrors } from './errors.js';

export const FEDERATION_SPEC_URL = 'https://specs.apollo.dev/federation/v2.7';

export interface SubgraphBuildOptions {
  /** Receives errors that are not DomainErrors (the client sees INTERNAL_SERVER_ERROR). */
  onInternalError?: (error: unknown) => void;
}

export type ReferenceResolvers = Record<string, (reference: any, context: unknown, info: unknown) => unknown>;

export interface TypeGraphqlSubgraphOptions extends SubgraphBuildOptions {
  resolvers: NonEmptyArray<Function>;
  /** Resolver class instances (holding their services), looked up by class. */
  instances: object[];
  /** `__resolveReference` per entity type name. */
  referenceResolvers?: ReferenceResolvers;
  /** Entity types no query returns (an entity this subgraph only extends), which type-graphql would otherwise leave out. */
  orphanedTypes?: Function[];
  /** Federation directives the SDL uses, e.g. ['@key']. */
  federationImports: string[];
  /** Definitions of executable directives the types use (e.g. @rateLimit). */
  extraTypeDefs?: string;
  /** Applied to the built subgraph schema (e.g. a directive transformer). Entities' reference resolvers do not survive a mapSchema. */
  transformSchema?: (schema: GraphQLSchema) => GraphQLSchema;
}

export async function buildTypeGraphqlSubgraph(options: TypeGraphqlSubgraphOptions): Promise<GraphQLSchema> {
  const container: ContainerType = {
    get(someClass: Function) {
      const instance = options.instances.find((candidate) => candidate.constructor === someClass);
      if (!instance) throw new Error(`No instance registered for resolver class ${someClass.name}`);
      return instance;
    },
  };
  const domainErrors: MiddlewareFn = (_action, next) => mapErrors(next, options.onInternalError);
  const schema = await buildSchema({
    resolvers: options.resolvers,
    ...(options.orphanedTypes ? { orphanedTypes: options.orphanedTypes } : {}),
    container,
    globalMiddlewares: [domainErrors],
    validate: false,
  });

  const typeDefs: DocumentNode = parse(
    `extend schema @link(url: "${FEDERATION_SPEC_URL}", import: ${JSON.stringify(options.federationImports)})\n\n` +
      (options.extraTypeDefs ? `${options.extraTypeDefs}\n\n` : '') +
      printSchemaWithDirectives(schema),
  );

  // Same shape as @apollo/subgraph's GraphQLResolverMap (not exported from its entry point).
  const resolvers = createResolversMap(schema) as Record<string, any>;
  for (const [typeName, resolveReference] of Object.entries(options.referenceResolvers ?? {})) {
    const existing = resolvers[typeName];
    if (!existing) throw new Error(`Reference resolver for unknown type ${typeName}`);
    resolvers[typeName] = {
      ...existing,
      __resolveReference: (reference: unknown, context: unknown, info: unknown) =>
        mapErrors(async () => resolveReference(reference, context, info), options.onInternalError),
    };
  }

  const subgraph = buildSubgraphSchema({ typeDefs, resolvers });
  return options.transformSchema ? options.transformSchema(subgraph) : subgraph;
}
