/**
 * `Document.citedByPerYear` (issue 37 item 5, the document page's timeline): how many documents
 * cite this one per year, with the `citedBy` filters. GraphQL only (no REST twin); not billed,
 * like `cited_by_count`. Thin: one LegalDataApi call.
 */
import 'reflect-metadata';
import { Args, ArgsType, Ctx, Field, FieldResolver, Int, ObjectType, Resolver, Root } from 'type-graphql';
import { requestContextOf, type GraphqlContext } from '../../src/graphql/context.js';
import { validatedAs } from '../../src/graphql/errors.js';
import type { LegalDataApi } from '../../src/modules/legal-data/legal-data.port.js';
import { Namespace } from './enums.js';
import { DocumentType } from './types.js';

@ArgsType()
export class CitedByYearArgs {
  @Field(() => Namespace, { nullable: true, description: 'Only citing documents of this namespace.' })
  namespace?: string | null;
  @Field(() => String, { nullable: true, description: 'Only citing documents of this jurisdiction code.' })
  country?: string | null;
  @Field(() => String, { nullable: true, description: 'Only citing decisions of this court.' })
  court?: string | null;
  @Field(() => Int, { nullable: true, description: '1 = supreme/apex, 2 = appellate, 3 = first instance.' })
  courtTier?: number | null;
  @Field(() => String, { nullable: true, description: 'Inclusive lower bound on the citing document date (YYYY-MM-DD).' })
  dateStart?: string | null;
  @Field(() => String, { nullable: true, description: 'Inclusive upper bound on the citing document date (YYYY-MM-DD).' })
  dateEnd?: string | null;
}

@ObjectType('CitedByYear', { description: 'How many documents citing a document date from one year.' })
export class CitedByYearType {
  @Field(() => Int, { nullable: true, description: 'Null: citing documents without a date.' }) year!: number | null;
  @Field(() => Int) count!: number;
}

@Resolver(() => DocumentType)
export class CitedByYearsResolver {
  constructor(private readonly api: LegalDataApi) {}

  @FieldResolver(() => [CitedByYearType], { description: 'Documents citing this one per year of the citing document (oldest first, undated last), with the citedBy filters. Not billed.' })
  citedByPerYear(@Root() doc: DocumentType, @Args(() => CitedByYearArgs) args: CitedByYearArgs, @Ctx() context: GraphqlContext) {
    const filters = { namespace: args.namespace, country: args.country, court: args.court, court_tier: args.courtTier, date_start: args.dateStart, date_end: args.dateEnd };
    return validatedAs('args', this.api.citedByPerYear(requestContextOf(context), doc.id, filters));
  }
}
