/**
 * GraphQL types of the legal-data subgraph. They mirror the REST shapes field for field
 * (output fields snake_case as REST; arguments and input fields camelCase, GraphQL's convention,
 * translated back at the resolver) so that every door speaks the same vocabulary; open-ended records
 * (`metadata`, `extra`, counts by country/language) are JSONObject scalars.
 *
 * Every decorator names its type explicitly: the app runs under tsx/esbuild, which emits no
 * decorator metadata, so type-graphql cannot infer anything.
 */
// size: a declarative file of ~20 small GraphQL types (each a list of decorated fields, the longest SearchHit at ~90 lines) that together form the subgraph's one schema; read as one reference, like the REST shapes they mirror
import 'reflect-metadata';
import { GraphQLJSONObject } from 'graphql-scalars';
import { ArgsType, Directive, Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';
import { Namespace, ResultDetail } from './enums.js';

const NAMESPACE_VALUES = 'case_law, legislation or doctrine';

// ---------------------------------------------------------------------------------------------
// Arguments (ArgsType classes keep the declared order; parameter decorators run last-to-first)

@ArgsType()
export class DocumentArgs {
  @Field(() => String, { description: '<country>/<source_name>' })
  source!: string;
  @Field(() => String)
  sourceId!: string;
}

@ArgsType()
export class SourcesArgs {
  @Field(() => String, { description: 'Jurisdiction code (DE, FR, EU, CoE...).' })
  country!: string;
  @Field(() => Boolean, { defaultValue: false, description: 'Include sources without documents.' })
  includeEmpty!: boolean;
}

@ArgsType()
export class FiltersArgs {
  @Field(() => String, { description: '<country>/<source_name>' })
  source!: string;
  @Field(() => Namespace, { nullable: true, description: "Defaults to the source's largest namespace." })
  namespace?: string | null;
}

@ArgsType()
export class CourtsArgs {
  @Field(() => String, { nullable: true, description: 'Jurisdiction code.' })
  country?: string | null;
  @Field(() => String, { nullable: true, description: '<country>/<source_name>' })
  source?: string | null;
}

// ---------------------------------------------------------------------------------------------
// Search

@InputType({ description: 'Search request: the same fields and rules as POST /v1/search.' })
export class SearchInput {
  @Field(() => String, { description: 'Free-text query in any language.' })
  q!: string;

  @Field(() => Int, { nullable: true, description: 'Number of hits to return (1-100, default 10).' })
  topK?: number | null;

  @Field(() => Float, {
    nullable: true,
    description: 'Weight of the semantic leg: 1.0 = pure semantic, 0.0 = pure keyword (default 0.7).',
  })
  alpha?: number | null;

  @Field(() => [String], { nullable: true, description: 'Restrict to these jurisdiction codes (DE, FR, EU, CoE...).' })
  country?: string[] | null;

  @Field(() => [String], { nullable: true, description: 'Restrict to these sources, as <country>/<source_name>.' })
  source?: string[] | null;

  @Field(() => String, { nullable: true })
  court?: string | null;

  @Field(() => Int, { nullable: true, description: '1 = supreme/apex, 2 = appellate, 3 = first instance.' })
  courtTier?: number | null;

  @Field(() => String, { nullable: true })
  jurisdiction?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'ISO 639-1 code. When nothing matches in this language the search is retried once without it.',
  })
  language?: string | null;

  @Field(() => String, { nullable: true, description: 'Inclusive lower bound on the document date (YYYY-MM-DD).' })
  dateStart?: string | null;

  @Field(() => String, { nullable: true, description: 'Inclusive upper bound on the document date (YYYY-MM-DD).' })
  dateEnd?: string | null;

  @Field(() => Namespace, { nullable: true, description: `${NAMESPACE_VALUES} (default case_law).` })
  namespace?: string | null;

  @Field(() => ResultDetail, {
    nullable: true,
    description: 'snippet, summary_only, full_text or full_metadata (default snippet).',
  })
  resultDetail?: string | null;

  @Field(() => Boolean, {
    nullable: true,
    description: 'Extension: every hit carries score_parts, license and provenance (full_metadata always does).',
  })
  explain?: boolean | null;
}

@ObjectType()
export class SearchHit {
  @Field(() => ID, { description: '<source>/<source_id>; Query.document returns the document.' })
  id!: string;
  @Field(() => String)
  source!: string;
  @Field(() => String)
  source_id!: string;
  @Field(() => Float)
  score!: number;
  @Field(() => String, { description: NAMESPACE_VALUES })
  namespace!: string;
  @Field(() => String, { nullable: true })
  title?: string;
  @Field(() => String, { nullable: true })
  snippet?: string;
  @Field(() => String, { nullable: true })
  summary?: string;
  @Field(() => String, { nullable: true })
  url?: string;
  @Field(() => String, { nullable: true })
  country?: string;
  @Field(() => String, { nullable: true })
  language?: string;
  @Field(() => String, { nullable: true })
  court?: string;
  @Field(() => Int, { nullable: true })
  court_tier?: number;
  @Field(() => String, { nullable: true })
  jurisdiction?: string;
  @Field(() => String, { nullable: true })
  chamber?: string;
  @Field(() => String, { nullable: true })
  date?: string;
  @Field(() => String, { nullable: true })
  ecli?: string;
  @Field(() => String, { nullable: true })
  case_number?: string;
  @Field(() => String, { nullable: true })
  decision_type?: string;
  @Field(() => String, { nullable: true })
  decision_number?: string;
  @Field(() => String, { nullable: true })
  authority?: string;
  @Field(() => String, { nullable: true })
  document_type?: string;
  @Field(() => String, { nullable: true })
  status?: string;
  @Field(() => String, { nullable: true })
  identifier?: string;
  @Field(() => String, { nullable: true })
  eli_uri?: string;
  @Field(() => String, { nullable: true })
  effective_date?: string;
  @Field(() => String, { nullable: true })
  expiry_date?: string;
  @Field(() => Int, { nullable: true })
  quality_tier?: number;
  @Field(() => String, { nullable: true })
  canonical_path?: string;
  @Field(() => String, { nullable: true })
  parent_source_id?: string;
  @Field(() => String, { nullable: true })
  granularity?: string;
  @Field(() => String, { nullable: true })
  unit_type?: string;
  @Field(() => String, { nullable: true })
  unit_number?: string;
  @Field(() => String, { nullable: true })
  subdivision?: string;
  @Field(() => String, {
    nullable: true,
    description: 'full_text and full_metadata: the text, cut at the bound given by full_text_size.',
  })
  text?: string;
  @Field(() => Boolean, { nullable: true })
  text_truncated?: boolean;
  @Field(() => Int, { nullable: true, description: 'Length of the whole text in characters.' })
  full_text_size?: number;
  @Field(() => Boolean, { nullable: true, description: 'True when the text of this hit could not be loaded.' })
  text_unavailable?: boolean;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'full_metadata: every public field of the document.' })
  metadata?: Record<string, unknown>;
  @Field(() => Int, { nullable: true, description: 'Extension (full_metadata): how many documents of the corpus cite this one (Document.citedBy lists them).' })
  cited_by_count?: number;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Extension (full_metadata or explain): every number behind the score (REST ScoreParts).' })
  score_parts?: Record<string, unknown>;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Extension (full_metadata or explain): licence of the source (id, name, url, commercial_use).' })
  license?: Record<string, unknown>;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Extension (full_metadata or explain): url, source_url, retrieved_at.' })
  provenance?: Record<string, unknown>;
}

@ObjectType()
export class SearchResponse {
  @Field(() => String)
  query!: string;
  @Field(() => [SearchHit])
  hits!: SearchHit[];
  @Field(() => Int, { description: 'Distinct documents that matched within the candidate window.' })
  total_hits!: number;
  @Field(() => Float)
  alpha!: number;
  @Field(() => String, { description: NAMESPACE_VALUES })
  namespace!: string;
  @Field(() => Int)
  elapsed_ms!: number;
  @Field(() => [String], { nullable: true, description: 'Present when part of the search failed: ["vector"] = the vector leg failed or timed out and the hits are the keyword leg\'s.' })
  degraded?: string[];
}

// ---------------------------------------------------------------------------------------------
// Documents

@Directive('@key(fields: "id")')
@ObjectType('Document', { description: 'A full document of the corpus. Entity: other subgraphs reference it by id.' })
export class DocumentType {
  @Field(() => ID, { description: '<source>/<source_id>, e.g. DE/GesetzeImInternet/bgb/823.' })
  id!: string;
  @Field(() => String, { description: '<country>/<source_name>' })
  source!: string;
  @Field(() => String)
  source_id!: string;
  @Field(() => String, { description: NAMESPACE_VALUES })
  namespace!: string;
  @Field(() => String)
  country!: string;
  @Field(() => String)
  title!: string;
  @Field(() => String)
  text!: string;
  @Field(() => String, { nullable: true })
  language!: string | null;
  @Field(() => String, { nullable: true })
  date!: string | null;
  @Field(() => String, { nullable: true })
  url!: string | null;
  @Field(() => String, { nullable: true })
  court!: string | null;
  @Field(() => Int, { nullable: true })
  court_tier!: number | null;
  @Field(() => String, { nullable: true })
  jurisdiction!: string | null;
  @Field(() => String, { nullable: true })
  chamber!: string | null;
  @Field(() => String, { nullable: true })
  ecli!: string | null;
  @Field(() => String, { nullable: true })
  case_number!: string | null;
  @Field(() => String, { nullable: true })
  decision_type!: string | null;
  @Field(() => String, { nullable: true })
  decision_number!: string | null;
  @Field(() => String, { nullable: true })
  authority!: string | null;
  @Field(() => String, { nullable: true })
  document_type!: string | null;
  @Field(() => String, { nullable: true })
  status!: string | null;
  @Field(() => String, { nullable: true })
  identifier!: string | null;
  @Field(() => String, { nullable: true })
  eli_uri!: string | null;
  @Field(() => String, { nullable: true })
  effective_date!: string | null;
  @Field(() => String, { nullable: true })
  expiry_date!: string | null;
  @Field(() => String, { nullable: true })
  granularity!: string | null;
  @Field(() => String, { nullable: true })
  unit_type!: string | null;
  @Field(() => String, { nullable: true })
  unit_number!: string | null;
  @Field(() => String, { nullable: true })
  canonical_path!: string | null;
  @Field(() => String, { nullable: true })
  parent_source_id!: string | null;
  @Field(() => String, { nullable: true })
  summary!: string | null;
  @Field(() => String, { nullable: true })
  subdivision!: string | null;
  @Field(() => [String])
  short_names!: string[];
  @Field(() => GraphQLJSONObject, { description: 'Source-specific fields beyond the common model.' })
  extra!: Record<string, unknown>;
}

// ---------------------------------------------------------------------------------------------
// Discovery

@ObjectType({ description: 'Document counts per namespace.' })
export class NamespaceCounts {
  @Field(() => Int)
  case_law!: number;
  @Field(() => Int)
  legislation!: number;
  @Field(() => Int)
  doctrine!: number;
}

@ObjectType()
export class DateRange {
  @Field(() => String, { nullable: true })
  min!: string | null;
  @Field(() => String, { nullable: true })
  max!: string | null;
}

@ObjectType()
export class CountryInfo {
  @Field(() => String)
  code!: string;
  @Field(() => Int)
  case_law_sources!: number;
  @Field(() => Int)
  legislation_sources!: number;
  @Field(() => Int)
  doctrine_sources!: number;
  @Field(() => Int)
  total_documents!: number;
}

@ObjectType()
export class SourceInfo {
  @Field(() => String, { description: '<country>/<source_name>: the value search.source and filters take.' })
  source_id!: string;
  @Field(() => Int, { description: 'Documents of this source in every namespace.' })
  document_count!: number;
  @Field(() => DateRange, { nullable: true, description: 'Earliest and latest document date; null when no document is dated.' })
  date_range!: DateRange | null;
  @Field(() => String, { description: '<country>/<source_name> (the same value as source_id)' })
  source!: string;
  @Field(() => String)
  country!: string;
  @Field(() => String)
  name!: string;
  @Field(() => [String])
  data_types!: string[];
  @Field(() => String, { nullable: true })
  url!: string | null;
  @Field(() => String, { nullable: true })
  license_id!: string | null;
  @Field(() => String, { nullable: true })
  license_name!: string | null;
  @Field(() => String, { nullable: true })
  license_url!: string | null;
  @Field(() => Boolean, { nullable: true })
  commercial_use!: boolean | null;
  @Field(() => String, { nullable: true })
  status!: string | null;
  @Field(() => String, { nullable: true })
  blocked_reason!: string | null;
  @Field(() => String, { nullable: true })
  court_name!: string | null;
  @Field(() => Int, { nullable: true })
  tier!: number | null;
  @Field(() => String, { nullable: true })
  notes!: string | null;
  @Field(() => Int)
  total_documents!: number;
  @Field(() => NamespaceCounts)
  documents_by_namespace!: NamespaceCounts;
}

@ObjectType()
export class SourceFilters {
  @Field(() => String)
  source!: string;
  @Field(() => String, { description: NAMESPACE_VALUES })
  namespace!: string;
  @Field(() => Int)
  total_documents!: number;
  @Field(() => [String])
  courts!: string[];
  @Field(() => [String])
  jurisdictions!: string[];
  @Field(() => [String])
  chambers!: string[];
  @Field(() => [String])
  decision_types!: string[];
  @Field(() => [String])
  languages!: string[];
  @Field(() => [String])
  subdivisions!: string[];
  @Field(() => [Int])
  court_tiers!: number[];
  @Field(() => DateRange)
  date_range!: DateRange;
}

@ObjectType()
export class CourtInfo {
  @Field(() => String)
  court!: string;
  @Field(() => String)
  country!: string;
  @Field(() => String)
  source!: string;
  @Field(() => Int, { nullable: true })
  court_tier!: number | null;
  @Field(() => Int)
  total_documents!: number;
}

// ---------------------------------------------------------------------------------------------
// Statistics and manifest

@ObjectType()
export class IndexStats {
  @Field(() => Int)
  chunks!: number;
  @Field(() => Int)
  chunks_with_vectors!: number;
  @Field(() => String, { nullable: true })
  embedding_model!: string | null;
  @Field(() => Boolean)
  ready!: boolean;
}

@ObjectType()
export class Stats {
  @Field(() => Int)
  total_documents!: number;
  @Field(() => NamespaceCounts)
  documents_by_namespace!: NamespaceCounts;
  @Field(() => Int, { description: 'Jurisdictions with at least one document.' })
  countries!: number;
  @Field(() => Int, { description: 'Sources with at least one document.' })
  sources!: number;
  @Field(() => Int, { description: 'Sources in the catalogue, with or without documents.' })
  catalogued_sources!: number;
  @Field(() => GraphQLJSONObject, { description: 'Document count by country code.' })
  documents_by_country!: Record<string, number>;
  @Field(() => GraphQLJSONObject, { description: 'Document count by language code.' })
  documents_by_language!: Record<string, number>;
  @Field(() => DateRange)
  date_range!: DateRange;
  @Field(() => IndexStats)
  index!: IndexStats;
  @Field(() => String)
  generated_at!: string;
}

@ObjectType()
export class ManifestCollection {
  @Field(() => String, { description: NAMESPACE_VALUES })
  namespace!: string;
  @Field(() => Int)
  total_documents!: number;
  @Field(() => Int)
  sources!: number;
}

@ObjectType()
export class ManifestSource {
  @Field(() => String)
  source!: string;
  @Field(() => String)
  country!: string;
  @Field(() => String)
  name!: string;
  @Field(() => Int)
  total_documents!: number;
  @Field(() => String, { nullable: true })
  license_id!: string | null;
  @Field(() => String, { nullable: true })
  license_name!: string | null;
  @Field(() => String, { nullable: true })
  license_url!: string | null;
  @Field(() => Boolean, { nullable: true })
  commercial_use!: boolean | null;
}

@ObjectType()
export class ManifestSearch {
  @Field(() => String)
  engine!: string;
  @Field(() => String, { nullable: true })
  embedding_model!: string | null;
  @Field(() => Boolean)
  hybrid!: boolean;
}

@ObjectType()
export class Manifest {
  @Field(() => String)
  name!: string;
  @Field(() => String)
  version!: string;
  @Field(() => String)
  api_version!: string;
  @Field(() => String)
  description!: string;
  @Field(() => [ManifestCollection])
  collections!: ManifestCollection[];
  @Field(() => [String])
  jurisdictions!: string[];
  @Field(() => [ManifestSource])
  sources!: ManifestSource[];
  @Field(() => ManifestSearch)
  search!: ManifestSearch;
  @Field(() => [String])
  endpoints!: string[];
  @Field(() => String)
  generated_at!: string;
}
