/**
 * `Document.cited_by_count`, `Document.citedBy` and `Document.cites` (issue 37, item 3). Thin:
 * one LegalDataApi call each. The counts of every Document a request returns go through one
 * DataLoader per request, so a list of N documents with their counts is one SQL statement per
 * batch, not N. `citedBy` and `cites` are batched by the service (a list of N documents: two
 * statements each per batch) and billed by its rule: one `cites` and one `citedBy` of a document
 * read in the same operation come with that read; otherwise each is billed like a document read.
 */
import 'reflect-metadata';
import DataLoader from 'dataloader';
import { Args, Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import { requestContextOf, type GraphqlContext } from '../../src/graphql/context.js';
import { validatedAs } from '../../src/graphql/errors.js';
import type { LegalDataApi } from '../../src/modules/legal-data/legal-data.port.js';
import { CitedByArgs, CitedByPageType, CitesType } from './citator.types.js';
import { DocumentType } from './types.js';

const COUNT_LOADER = Symbol('legal-data cited-by counts');
/** Ids per counting statement (its parameters). */
const COUNTS_PER_BATCH = 500;

@Resolver(() => DocumentType)
export class CitatorResolver {
  constructor(private readonly api: LegalDataApi) {}

  @FieldResolver(() => Int, { description: 'How many documents of the corpus cite this one (citator).' })
  cited_by_count(@Root() doc: DocumentType, @Ctx() context: GraphqlContext) {
    const ctx = requestContextOf(context);
    const loader = ctx.loader(
      COUNT_LOADER,
      () =>
        new DataLoader<string, number>(
          async (ids) => {
            const counts = await this.api.citedByCounts(ctx, ids);
            return ids.map((id) => counts.get(id) ?? 0);
          },
          { maxBatchSize: COUNTS_PER_BATCH },
        ),
    );
    return loader.load(doc.id);
  }

  @FieldResolver(() => CitedByPageType, { description: 'The documents citing this one: filters, sort, cursor paging (GET …/cited-by). The first citedBy of a document read in the same operation comes with that read; another is billed as a document read.' })
  citedBy(@Root() doc: DocumentType, @Args(() => CitedByArgs) args: CitedByArgs, @Ctx() context: GraphqlContext) {
    const query = {
      namespace: args.namespace,
      country: args.country,
      court: args.court,
      court_tier: args.courtTier,
      date_start: args.dateStart,
      date_end: args.dateEnd,
      sort: args.sort ?? undefined,
      q: args.q,
      include_articles: args.includeArticles ?? undefined,
      limit: args.first ?? undefined,
      cursor: args.after,
    };
    return validatedAs('args', this.api.citedBy(requestContextOf(context), doc.source, doc.source_id, query));
  }

  @FieldResolver(() => CitesType, { description: 'What this document cites: links in order of appearance, then the unresolved citations (GET …/cites). Comes with the read of the document in the same operation (the first cites of it); another is billed as a document read.' })
  cites(@Root() doc: DocumentType, @Ctx() context: GraphqlContext) {
    return this.api.cites(requestContextOf(context), doc.source, doc.source_id);
  }
}
