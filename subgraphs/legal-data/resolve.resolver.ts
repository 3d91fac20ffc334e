/**
 * The resolver's queries in the legal-data subgraph: `resolve(input)` and `resolveCoverage`.
 * Thin: GraphQL context -> one LegalDataApi call; the service validates and the subgraph's error
 * middleware maps DomainErrors. Output field names are the REST names; input fields camelCase.
 */
import 'reflect-metadata';
import { Arg, Ctx, Field, Float, InputType, Int, ObjectType, Query, Resolver } from 'type-graphql';
import { requestContextOf, type GraphqlContext } from '../../src/graphql/context.js';
import { validatedAs } from '../../src/graphql/errors.js';
import { restBody } from '../../src/graphql/argument-names.js';
import { ResolveHintType } from './enums.js';
import type { LegalDataApi } from '../../src/modules/legal-data/legal-data.port.js';

@InputType({ description: 'ResolveRequest (same contract as POST /v1/resolve).' })
export class ResolveInput {
  @Field(() => String, { description: 'A citation in any national style (ECLI, CELEX, `§ 823 Abs. 1 BGB`, `Article 6(1)(a) GDPR`…).' })
  reference!: string;
  @Field(() => String, { nullable: true, description: 'Jurisdiction the reference belongs to (DE, FR, EU, CH, CoE…).' })
  hintCountry?: string | null;
  @Field(() => ResolveHintType, { nullable: true, description: 'legislation or case_law.' })
  hintType?: string | null;
}

@ObjectType()
export class ResolvedDocument {
  @Field(() => String) id!: string;
  @Field(() => String) source!: string;
  @Field(() => String) source_id!: string;
  @Field(() => String) title!: string;
  @Field(() => String, { nullable: true }) url!: string | null;
  @Field(() => String) country!: string;
  @Field(() => String) namespace!: string;
  @Field(() => String, { nullable: true }) canonical_path!: string | null;
  @Field(() => Float) confidence!: number;
}

@ObjectType({ description: 'What was understood of the reference.' })
export class ParsedReference {
  @Field(() => String, { nullable: true }) country!: string | null;
  @Field(() => String, { nullable: true }) act!: string | null;
  @Field(() => String, { nullable: true }) act_id!: string | null;
  @Field(() => String, { nullable: true }) unit_type!: string | null;
  @Field(() => String, { nullable: true }) unit_number!: string | null;
  @Field(() => [String]) sub_units!: string[];
  @Field(() => [String]) other_units!: string[];
  @Field(() => Boolean) following!: boolean;
  @Field(() => String, { nullable: true }) court!: string | null;
  @Field(() => String, { nullable: true }) date!: string | null;
  @Field(() => String, { nullable: true }) case_number!: string | null;
  @Field(() => String, { nullable: true }) identifier_kind!: string | null;
  @Field(() => String, { nullable: true }) identifier!: string | null;
}

@ObjectType()
export class ResolveResponse {
  @Field(() => String) reference!: string;
  @Field(() => Boolean) resolved!: boolean;
  @Field(() => String, { description: 'exact, ambiguous, pattern, title_search, fallback_search, none, error or timeout.' })
  match_type!: string;
  @Field(() => [ResolvedDocument]) documents!: ResolvedDocument[];
  @Field(() => ParsedReference) parsed!: ParsedReference;
  @Field(() => Int) elapsed_ms!: number;
}

@ObjectType()
export class SourceCoverage {
  @Field(() => String) source!: string;
  @Field(() => String) country!: string;
  @Field(() => Boolean) has_patterns!: boolean;
  @Field(() => Int) patterns!: number;
  @Field(() => [String]) pattern_kinds!: string[];
  @Field(() => Int) documents!: number;
  @Field(() => Int) resolvable_documents!: number;
  @Field(() => Int) act_names!: number;
  @Field(() => [String], {
    nullable: true,
    description: 'Citation families the resolver supports for this source (identifiers, court_decisions, de_subunits, de_act_names, nested_articles, fr_forms, eu_acts, short_titles).',
  })
  citation_families?: string[];
}

@ObjectType()
export class CoverageTotals {
  @Field(() => Int) sources!: number;
  @Field(() => Int) sources_with_patterns!: number;
  @Field(() => Int) documents!: number;
  @Field(() => Int) resolvable_documents!: number;
  @Field(() => Int) patterns!: number;
}

@ObjectType()
export class ResolveCoverage {
  @Field(() => [SourceCoverage]) sources!: SourceCoverage[];
  @Field(() => CoverageTotals) totals!: CoverageTotals;
}

@Resolver()
export class ResolveResolver {
  constructor(private readonly api: LegalDataApi) {}

  @Query(() => ResolveResponse, { nullable: true, description: 'Resolves a citation to exact documents (same contract as POST /v1/resolve).' })
  resolve(@Arg('input', () => ResolveInput) input: ResolveInput, @Ctx() context: GraphqlContext) {
    return validatedAs('input', this.api.resolve(requestContextOf(context), restBody(input)));
  }

  @Query(() => ResolveCoverage, { nullable: true, description: 'Per source: whether resolve patterns reach it, how many, and its documents.' })
  resolveCoverage(@Ctx() context: GraphqlContext) {
    return this.api.resolveCoverage(requestContextOf(context));
  }
}
