/**
 * Query resolvers of the legal-data subgraph. Thin on purpose: GraphQL context -> one
 * LegalDataApi call. The service validates input and throws DomainErrors; the subgraph's
 * error middleware maps them (src/graphql/errors.ts).
 */
import 'reflect-metadata';
import { Arg, Args, Ctx, Query, Resolver } from 'type-graphql';
import { requestContextOf, type GraphqlContext } from '../../src/graphql/context.js';
import { nullWhenNotFound, validatedAs } from '../../src/graphql/errors.js';
import { restBody } from '../../src/graphql/argument-names.js';
import type { RequestContext } from '../../src/context.js';
import type { LegalDataApi } from '../../src/modules/legal-data/legal-data.port.js';
import type { LegalDocument } from '../../src/domain/legal-document.js';
import { documentLoaderOf } from './document-loader.js';
import {
  CountryInfo,
  CourtInfo,
  CourtsArgs,
  DocumentArgs,
  DocumentType,
  FiltersArgs,
  Manifest,
  SearchInput,
  SearchResponse,
  SourceFilters,
  SourceInfo,
  SourcesArgs,
  Stats,
} from './types.js';

@Resolver()
export class LegalDataResolver {
  constructor(private readonly api: LegalDataApi) {}

  @Query(() => SearchResponse, { nullable: true, description: 'Hybrid semantic + keyword search (same contract as POST /v1/search).' })
  search(@Arg('input', () => SearchInput) input: SearchInput, @Ctx() context: GraphqlContext) {
    return validatedAs('input', this.api.search(requestContextOf(context), restBody(input)));
  }

  @Query(() => DocumentType, { nullable: true, description: 'A full document; null when unknown.' })
  document(@Args(() => DocumentArgs) { source, sourceId }: DocumentArgs, @Ctx() context: GraphqlContext) {
    return nullWhenNotFound(this.api.getDocument(requestContextOf(context), source, sourceId));
  }

  @Query(() => [CountryInfo], { description: 'Jurisdictions with catalogued sources.' })
  async countries(@Ctx() context: GraphqlContext) {
    return (await this.api.countries(requestContextOf(context))).countries;
  }

  @Query(() => [SourceInfo], { description: 'Sources of a jurisdiction; NOT_FOUND when it has none.' })
  async sources(@Args(() => SourcesArgs) { country, includeEmpty }: SourcesArgs, @Ctx() context: GraphqlContext) {
    return (await this.api.sources(requestContextOf(context), country, { includeEmpty })).sources;
  }

  @Query(() => SourceFilters, { description: 'Filter values present in a source; NOT_FOUND for an unknown source.' })
  filters(@Args(() => FiltersArgs) { source, namespace }: FiltersArgs, @Ctx() context: GraphqlContext) {
    return this.api.filters(requestContextOf(context), source, namespace ?? undefined);
  }

  @Query(() => [CourtInfo], { description: 'Courts with document counts, optionally for one country or source.' })
  courts(@Args(() => CourtsArgs) { country, source }: CourtsArgs, @Ctx() context: GraphqlContext) {
    return this.api.courts(requestContextOf(context), { country: country ?? undefined, source: source ?? undefined });
  }

  @Query(() => Stats, { description: 'Corpus and index statistics.' })
  stats(@Ctx() context: GraphqlContext) {
    return this.api.stats(requestContextOf(context));
  }

  @Query(() => Manifest, { description: 'What this service holds and offers.' })
  manifest(@Ctx() context: GraphqlContext) {
    return this.api.manifest(requestContextOf(context));
  }
}

/**
 * `Document.__resolveReference`: loads the referenced document through the request's document
 * loader (one batched read for all the references of the request); null when unknown.
 */
export function resolveDocumentReference(
  api: LegalDataApi,
  reference: { id?: unknown },
  context: unknown,
): Promise<LegalDocument | null> {
  const id = typeof reference.id === 'string' && splitDocumentId(reference.id) ? reference.id : null;
  if (!id) return Promise.resolve(null);
  const requestContext: RequestContext = requestContextOf(context);
  return documentLoaderOf(api, requestContext).load(id);
}

/**
 * Splits `<country>/<source_name>/<source_id>` (source ids may hold slashes) into the
 * source and the source id; null when the id cannot be one.
 */
export function splitDocumentId(id: string): { source: string; sourceId: string } | null {
  const match = /^([^/]+\/[^/]+)\/(.+)$/.exec(id);
  return match ? { source: match[1]!, sourceId: match[2]! } : null;
}
