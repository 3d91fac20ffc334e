/**
 * The request's DataLoader of documents: every `Document` reference a request resolves (the
 * gateway sends a subgraph fetch's references as one `_entities` list) is read through it, so a
 * list of N references is ceil(N / 100) engine reads and as many billed reads, not N of each
 * (docs/graphql.md, "Document references"). Made with the request's context, held in it
 * (RequestContext.loader) and dropped with it: never shared between requests or callers, so one
 * account's reads are never served or billed to another.
 */
import DataLoader from 'dataloader';
import type { RequestContext } from '../../src/context.js';
import type { LegalDocument } from '../../src/domain/legal-document.js';
import { type LegalDataApi, MAX_DOCUMENTS_PER_READ } from '../../src/modules/legal-data/legal-data.port.js';

/** The key of the request's document loader (RequestContext.loader). */
const DOCUMENT_LOADER = Symbol('legal-data documents');

/** The request's loader of documents by id (`<source>/<source_id>`): null for an unknown id. */
export function documentLoaderOf(api: LegalDataApi, ctx: RequestContext): DataLoader<string, LegalDocument | null> {
  return ctx.loader(
    DOCUMENT_LOADER,
    () =>
      new DataLoader<string, LegalDocument | null>(
        async (ids) => {
          const found = await api.getDocuments(ctx, ids);
          return ids.map((id) => found.get(id) ?? null);
        },
        { maxBatchSize: MAX_DOCUMENTS_PER_READ },
      ),
  );
}
