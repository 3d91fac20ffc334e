/**
 * The citator's reads (issue 37, item 2), for every door: who cites a document and what it
 * cites. Each call is billable like a document read: it goes through the usage guard as a
 * `documents` call with the document's facts, so plan limits and the analytics see it as one.
 * An unknown document is a 404 (billed, like a read of a missing document); a bad filter a 422.
 */
import type { RequestContext } from '../../../context.js';
import { documentId, type LegalDocument } from '../../../domain/legal-document.js';
import { NotFoundError } from '../../../errors.js';
import { parseInput } from '../../../validation.js';
import type { UsageGuard } from '../../usage/usage-guard.js';
import { documentFacts } from '../usage-facts.js';
import { citedByCounts, citedByPage, citesOf } from './citator.queries.js';
import { citedByPerYear as perYear, type CitedByYear } from './cited-by-years.js';
import { citedByQuerySchema, type CitedByResponse, type CitesResponse } from './citator.schema.js';

export interface CitatorDeps {
  usage: UsageGuard;
  /** The documents of the corpus (the request's engine): to tell an unknown document from an uncited one. */
  documents(ctx: RequestContext, ids: string[]): Promise<Map<string, LegalDocument>>;
  /** The ids of an act's articles (the resolver's reference index); null when not an act or not known yet. */
  actUnits(id: string): string[] | null;
}

/** Runs `work` on the named document as one billed documents read; 404 when the corpus has no such document. */
function onDocument<T>(deps: CitatorDeps, ctx: RequestContext, source: string, sourceId: string, work: (doc: LegalDocument) => Promise<T>): Promise<T> {
  let read: LegalDocument | null = null;
  return deps.usage.charge(
    ctx,
    'documents',
    async () => {
      const id = documentId(source, sourceId);
      read = (await deps.documents(ctx, [id])).get(id) ?? null;
      if (!read) throw new NotFoundError(`Document not found: ${source}/${sourceId}`);
      return work(read);
    },
    () => documentFacts(read ? [read] : []),
  );
}

/** The documents citing `<source>/<sourceId>`: `input` is the cited-by query (citedByQuerySchema). */
export function citedBy(deps: CitatorDeps, ctx: RequestContext, source: string, sourceId: string, input: unknown): Promise<CitedByResponse> {
  return onDocument(deps, ctx, source, sourceId, (doc) => {
    const query = parseInput(citedByQuerySchema, input);
    // an act rolled up with its articles: the citations naming the act alone and those naming one of its units
    const cited = query.include_articles ? [doc.id, ...(deps.actUnits(doc.id) ?? [])] : [doc.id];
    return citedByPage(ctx.em, cited, query);
  });
}

/** What `<source>/<sourceId>` cites: links in order of appearance, then the unresolved citations. */
export function cites(deps: CitatorDeps, ctx: RequestContext, source: string, sourceId: string): Promise<CitesResponse> {
  return onDocument(deps, ctx, source, sourceId, (doc) => citesOf(ctx.em, doc.id));
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
