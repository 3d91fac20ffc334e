/**
 * GraphQL types of partner analytics (issue #35), field for field the zod answers of
 * src/modules/analytics/analytics.schema.ts (camelCase: GraphQL-only shapes). Every decorator
 * names its type explicitly (tsx emits no decorator metadata).
 */
import 'reflect-metadata';
import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';
import { GRANULARITIES, type Granularity } from '../../src/modules/analytics/analytics.schema.js';

/** DAY | WEEK (ISO, from Monday) | MONTH, all UTC. */
export const AnalyticsGranularity = Object.fromEntries(GRANULARITIES.map((g) => [g, g])) as { [K in Granularity]: K };
registerEnumType(AnalyticsGranularity, { name: 'AnalyticsGranularity', description: 'Periods of an analytics answer, in UTC: days, ISO weeks (from Monday), calendar months.' });

@ObjectType({ description: 'A count withheld (null, suppressed) where fewer than 5 distinct accounts made it on a day.' })
export class SuppressibleCountType {
  @Field(() => Int, { nullable: true, description: 'Null when every day of it came from fewer than 5 distinct accounts.' }) value!: number | null;
  @Field(() => Boolean, { description: 'Some days of this value came from fewer than 5 distinct accounts and are left out of it.' }) suppressed!: boolean;
}

@ObjectType()
export class SourceUsagePeriodType {
  @Field(() => String) source!: string;
  @Field(() => String) periodStart!: string;
  @Field(() => String) periodEnd!: string;
  @Field(() => SuppressibleCountType, { description: 'Searches whose hits included the source.' }) searches!: SuppressibleCountType;
  @Field(() => SuppressibleCountType, { description: 'Hits of the source in those searches.' }) hits!: SuppressibleCountType;
  @Field(() => SuppressibleCountType) documentsFetched!: SuppressibleCountType;
  @Field(() => SuppressibleCountType, { description: 'References resolved to a document of the source.' }) resolutions!: SuppressibleCountType;
  @Field(() => SuppressibleCountType) distinctAccounts!: SuppressibleCountType;
}

@ObjectType({ description: 'Usage of sources per period.' })
export class SourceUsageType {
  @Field(() => String) from!: string;
  @Field(() => String) to!: string;
  @Field(() => AnalyticsGranularity) granularity!: Granularity;
  @Field(() => [SourceUsagePeriodType]) periods!: SourceUsagePeriodType[];
}

@ObjectType()
export class CountryUsagePeriodType {
  @Field(() => String) country!: string;
  @Field(() => String) periodStart!: string;
  @Field(() => String) periodEnd!: string;
  @Field(() => SuppressibleCountType, { description: 'Searches filtered by the country.' }) searches!: SuppressibleCountType;
  @Field(() => SuppressibleCountType, { description: "Hits of the country's documents." }) hits!: SuppressibleCountType;
  @Field(() => SuppressibleCountType) documentsFetched!: SuppressibleCountType;
  @Field(() => SuppressibleCountType) resolutions!: SuppressibleCountType;
  @Field(() => SuppressibleCountType) distinctAccounts!: SuppressibleCountType;
}

@ObjectType({ description: 'Usage of countries per period.' })
export class CountryUsageType {
  @Field(() => String) from!: string;
  @Field(() => String) to!: string;
  @Field(() => AnalyticsGranularity) granularity!: Granularity;
  @Field(() => [CountryUsagePeriodType]) periods!: CountryUsagePeriodType[];
}

@ObjectType()
export class TopDocumentType {
  @Field(() => String) id!: string;
  @Field(() => String) sourceId!: string;
  @Field(() => String) namespace!: string;
  @Field(() => String) country!: string;
  @Field(() => SuppressibleCountType) fetches!: SuppressibleCountType;
}

@ObjectType({ description: "A source's most fetched documents." })
export class TopDocumentsType {
  @Field(() => String) source!: string;
  @Field(() => String) from!: string;
  @Field(() => String) to!: string;
  @Field(() => Boolean, { description: 'Documents read by fewer than 5 distinct accounts on every day are left out.' }) suppressed!: boolean;
  @Field(() => [TopDocumentType]) documents!: TopDocumentType[];
}

@ObjectType()
export class ResolverOutcomeType {
  @Field(() => String, { nullable: true, description: 'Null: references that resolved to no document.' }) country!: string | null;
  @Field(() => String) matchType!: string;
  @Field(() => SuppressibleCountType) resolutions!: SuppressibleCountType;
}

@ObjectType({ description: 'Resolutions per country and match type.' })
export class ResolverOutcomesType {
  @Field(() => String) from!: string;
  @Field(() => String) to!: string;
  @Field(() => [ResolverOutcomeType]) outcomes!: ResolverOutcomeType[];
}

@ObjectType({ description: 'PUT /v1/admin/users/{user_id}/partner.' })
export class PartnerScopeType {
  @Field(() => String) user_id!: string;
  @Field(() => [String]) sources!: string[];
  @Field(() => [String]) countries!: string[];
  @Field(() => String) updated_at!: string;
}

@ObjectType({ description: 'DELETE /v1/admin/users/{user_id}/partner.' })
export class PartnerRemovalType {
  @Field(() => String) user_id!: string;
  @Field(() => Boolean) removed!: boolean;
}
