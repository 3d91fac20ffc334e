/**
 * The citator's reads (issue 37, item 2), for every door: who cites a document and what it
 * cites. A call alone is billable like a document read: it goes through the usage guard as a
 * `documents` call with the document's facts, so plan limits and the analytics see it as one.
 * An unknown document is a 404 (billed, like a read of a missing document); a bad filter a 422.
 * Within one request, a document already billed as read comes with one `cites` and one `citedBy`
 * of it unbilled (read-allowance.ts): a document page is one billed read.
 *
 * The SQL of one request's calls is batched (DataLoader in the request context): a GraphQL list
 * of N documents asking `citedBy` and `cites` costs two statements each per batch, not 2N.
 */
import DataLoader from 'dataloader';
import type { RequestContext } from '../../../context.js';
import { documentId, type LegalDocument } from '../../../domain/legal-document.js';
import { NotFoundError } from '../../../errors.js';
import { parseInput } from '../../../validation.js';
import type { UsageGuard } from '../../usage/usage-guard.js';
import { documentFacts } from '../usage-facts.js';
import { citedByCounts, citedByPages, citesOfMany, type CitedByAsk } from './citator.queries.js';
import { takeCoveredRead, type CoveredRead } from './read-allowance.js';
export { coverCitatorReads } from './read-allowance.js';
import { citedByPerYear as perYear, type CitedByYear } from './cited-by-years.js';
import { citedByQuerySchema, type CitedByQuery, type CitedByResponse, type CitesResponse } from './citator.schema.js';

export interface CitatorDeps {
  usage: UsageGuard;
  /** The documents of the corpus (the request's engine): to tell an unknown document from an uncited one. */
  documents(ctx: RequestContext, ids: string[]): Promise<Map<string, LegalDocument>>;
}

/** Documents per batched statement. */
const DOCUMENTS_PER_BATCH = 100;

/**
 * Runs `work` on the named document (its id): unbilled when this request's billed read of it
 * covers `read` (read-allowance.ts), else as one billed documents read, 404 when the corpus has
 * no such document.
 */
function onDocument<T>(deps: CitatorDeps, ctx: RequestContext, source: string, sourceId: string, read: CoveredRead, work: (id: string) => Promise<T>): Promise<T> {
  const id = documentId(source, sourceId);
  if (takeCoveredRead(ctx, id, read)) {
    return (async () => {
      deps.usage.admit(ctx);
      return work(id);
    })();
  }
  let found: LegalDocument | null = null;
  return deps.usage.charge(
    ctx,
    'documents',
    async () => {
      found = (await deps.documents(ctx, [id])).get(id) ?? null;
      if (!found) throw new NotFoundError(`Document not found: ${source}/${sourceId}`);
      return work(id);
    },
    () => documentFacts(found ? [found] : []),
  );
}

const CITED_BY_LOADERS = Symbol('citator cited-by pages');
const CITES_LOADER = Symbol('citator cites');

/** The request's loader of cited-by pages for one query (the asks of a batch share it): the root's id in, its page out. */
function citedByLoader(deps: CitatorDeps, ctx: RequestContext, query: CitedByQuery): DataLoader<string, CitedByResponse> {
  const loaders = ctx.loader(CITED_BY_LOADERS, () => new Map<string, DataLoader<string, CitedByResponse>>());
  const key = JSON.stringify(query);
  let loader = loaders.get(key);
  if (!loader) {
    loader = new DataLoader<string, CitedByResponse>(
      async (roots) => {
        // an act rolled up with its articles: the citations naming the act alone and those naming one of its units (the links' `cited_act_id`)
        const asks: CitedByAsk[] = roots.map((root) => ({ root, rollUp: query.include_articles }));
        const pages = await citedByPages(ctx.em, asks, query);
        return roots.map((root) => pages.get(root)!);
      },
      { maxBatchSize: DOCUMENTS_PER_BATCH },
    );
    loaders.set(key, loader);
  }
  return loader;
}

function citesLoader(ctx: RequestContext): DataLoader<string, CitesResponse> {
  return ctx.loader(
    CITES_LOADER,
    () =>
      new DataLoader<string, CitesResponse>(
        async (ids) => {
          const answers = await citesOfMany(ctx.em, ids);
          return ids.map((id) => answers.get(id)!);
        },
        { maxBatchSize: DOCUMENTS_PER_BATCH },
      ),
  );
}

/** The documents citing `<source>/<sourceId>`: `input` is the cited-by query (citedByQuerySchema). */
export function citedBy(deps: CitatorDeps, ctx: RequestContext, source: string, sourceId: string, input: unknown): Promise<CitedByResponse> {
  return onDocument(deps, ctx, source, sourceId, 'citedBy', (id) => citedByLoader(deps, ctx, parseInput(citedByQuerySchema, input)).load(id));
}

/** What `<source>/<sourceId>` cites: links in order of appearance, then the unresolved citations. */
export function cites(deps: CitatorDeps, ctx: RequestContext, source: string, sourceId: string): Promise<CitesResponse> {
  return onDocument(deps, ctx, source, sourceId, 'cites', (id) => citesLoader(ctx).load(id));
}

/**
 * The document with `cited_by_count` (additive to the spec's document): how many documents cite
 * it. Read with the document, so a revalidation answered 304 may leave a client an older count.
 */
export async function withCitedByCount(ctx: RequestContext, doc: LegalDocument): Promise<LegalDocument & { cited_by_count: number }> {
  return { ...doc, cited_by_count: (await citedByCounts(ctx.em, [doc.id])).get(doc.id) ?? 0 };
}

/** Documents citing the document `id` per year, with the cited-by filters; not billed (asked of a document already read, like the counts). */
export function citedByPerYear(ctx: RequestContext, id: string, filters: unknown): Promise<CitedByYear[]> {
  return perYear(ctx.em, id, filters);
}
