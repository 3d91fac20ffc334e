/**
 * GraphQL types of the citator (issue 37, item 3): `Document.citedBy` and `Document.cites`,
 * mirroring the REST answers field for field (outputs snake_case as REST, arguments camelCase).
 * Every decorator names its type explicitly (no decorator metadata under tsx/esbuild).
 */
import 'reflect-metadata';
import { ArgsType, Field, Int, ObjectType } from 'type-graphql';
import { closedSetEnum } from '../../src/graphql/closed-set-enum.js';
import { CITED_BY_SORTS } from '../../src/modules/legal-data/citator/citator.schema.js';
import { Namespace } from './enums.js';

export const CitedBySort = closedSetEnum('CitedBySort', CITED_BY_SORTS, '`date`: newest first; `court_tier`: highest court first, then newest; `relevance`: passages holding most words of `q` first, then by court tier.');

@ArgsType()
export class CitedByArgs {
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
  @Field(() => CitedBySort, { nullable: true, description: 'Default `date`.' })
  sort?: string | null;
  @Field(() => String, { nullable: true, description: 'Words to rank the citing passages by (`sort: relevance`); each item then shows its best-matching passage.' })
  q?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'An act: also the documents citing any of its articles. Default false.' })
  includeArticles?: boolean | null;
  @Field(() => Int, { nullable: true, description: 'Items per page (1-100, default 20).' })
  first?: number | null;
  @Field(() => String, { nullable: true, description: '`next_cursor` of the previous page.' })
  after?: string | null;
}

@ObjectType('CitingDocument', { description: "A citing document's metadata." })
export class CitingDocumentType {
  @Field(() => String) id!: string;
  @Field(() => String) source!: string;
  @Field(() => String) source_id!: string;
  @Field(() => String) namespace!: string;
  @Field(() => String) country!: string;
  @Field(() => String, { nullable: true }) language!: string | null;
  @Field(() => String, { nullable: true }) court!: string | null;
  @Field(() => Int, { nullable: true }) court_tier!: number | null;
  @Field(() => String, { nullable: true }) date!: string | null;
  @Field(() => String) title!: string;
}

@ObjectType('TextSpan', { description: 'UTF-16 offsets [start, end).' })
export class TextSpanType {
  @Field(() => Int) start!: number;
  @Field(() => Int) end!: number;
}

@ObjectType('CitedByItem', { description: 'One citing document, with the passage of its first citation of the document.' })
export class CitedByItemType {
  @Field(() => CitingDocumentType) document!: CitingDocumentType;
  @Field(() => String) snippet!: string;
  @Field(() => TextSpanType, { description: 'Where the citation stands in `snippet`.' }) highlight!: TextSpanType;
  @Field(() => String, { description: 'Sub-units as written; empty when none.' }) pinpoint!: string;
  @Field(() => String) citation!: string;
  @Field(() => Int) start!: number;
  @Field(() => Int) end!: number;
  @Field(() => Int, { description: 'How many times the document cites it.' }) occurrences!: number;
}

@ObjectType('CitedByPage', { description: 'The documents citing a document, a page at a time (same as GET …/cited-by).' })
export class CitedByPageType {
  @Field(() => Int, { description: 'Citing documents in all, before filters.' }) cited_by_count!: number;
  @Field(() => Int, { description: 'Citing documents that pass the filters.' }) total!: number;
  @Field(() => [CitedByItemType]) items!: CitedByItemType[];
  @Field(() => String, { nullable: true, description: 'Pass as `after` for the next page.' }) next_cursor!: string | null;
}

@ObjectType('CitedDocument', { description: 'The document a citation resolves to.' })
export class CitedDocumentType {
  @Field(() => String) id!: string;
  @Field(() => String) source!: string;
  @Field(() => String) source_id!: string;
}

@ObjectType('CitationLink', { description: 'A resolved citation.' })
export class CitationLinkType {
  @Field(() => CitedDocumentType) cited!: CitedDocumentType;
  @Field(() => Int) start!: number;
  @Field(() => Int) end!: number;
  @Field(() => String) pinpoint!: string;
  @Field(() => String) citation!: string;
  @Field(() => Boolean, { description: 'The act came from context.' }) carried!: boolean;
}

@ObjectType('UnresolvedCitation', { description: 'A citation resolving to nothing sure, with the reason.' })
export class UnresolvedCitationType {
  @Field(() => Int) start!: number;
  @Field(() => Int) end!: number;
  @Field(() => String) citation!: string;
  @Field(() => String, { description: 'act_not_in_corpus, unit_not_in_corpus, ambiguous, foreign_act or no_act' }) reason!: string;
}

@ObjectType('Cites', { description: 'What a document cites (same as GET …/cites).' })
export class CitesType {
  @Field(() => [CitationLinkType], { description: 'In order of appearance.' }) links!: CitationLinkType[];
  @Field(() => [UnresolvedCitationType], { description: 'In order of appearance.' }) unresolved!: UnresolvedCitationType[];
}
