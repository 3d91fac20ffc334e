/**
 * The citator's contract (issue 37, item 2): the cited-by list's query (filters, sort, cursor
 * paging) and the cited-by and cites answers. The service validates with these schemas, and the
 * REST layer turns them into /openapi.json.
 */
import { z } from 'zod';
import { NAMESPACES } from '../../../domain/legal-document.js';
import { laxBool, laxInt } from '../../../validation.js';
import { isoDate } from '../search.schema.js';

export const CITED_BY_SORTS = ['date', 'court_tier', 'relevance'] as const;

/** Longest `q` of the cited-by list: a few words to rank the citing passages by, not a search. */
export const MAX_CITED_BY_QUERY_LENGTH = 200;

export const citedByQuerySchema = z
  .object({
    namespace: z.enum(NAMESPACES).nullish().describe('Only citing documents of this namespace (case_law, doctrine).'),
    country: z.string().min(1).max(20).nullish().describe('Only citing documents of this jurisdiction code.'),
    court: z.string().min(1).max(200).nullish().describe('Only citing decisions of this court (as the documents name it).'),
    court_tier: laxInt(z.number().int().min(1).max(3)).nullish().describe('Only citing decisions of this tier: 1 = supreme/apex, 2 = appellate, 3 = first instance.'),
    date_start: isoDate.nullish().describe('Inclusive lower bound on the citing document date (YYYY-MM-DD).'),
    date_end: isoDate.nullish().describe('Inclusive upper bound on the citing document date (YYYY-MM-DD).'),
    sort: z
      .enum(CITED_BY_SORTS)
      .default('date')
      .describe('`date`: newest first; `court_tier`: highest court first, then newest; `relevance`: the citing passages holding most words of `q` first, then by court tier (without `q`: as `court_tier`).'),
    q: z.string().trim().min(1).max(MAX_CITED_BY_QUERY_LENGTH).nullish().describe('Words to rank the citing passages by (`sort=relevance`); each item then shows its best-matching passage. Ignored by the other sorts.'),
    include_articles: laxBool()
      .prefault(false)
      .describe("An act: also the documents citing any of its articles (\"who cites the BGB\"), each item's citation naming the article. Changes nothing for a document that is not an act."),
    limit: laxInt(z.number().int().min(1).max(100)).prefault(20).describe('Items per page (1-100).'),
    cursor: z.string().min(1).max(500).nullish().describe('`next_cursor` of the previous page.'),
  })
  .meta({ id: 'CitedByQuery' });
export type CitedByQuery = z.output<typeof citedByQuerySchema>;

const citingDocumentSchema = z.object({
  id: z.string(),
  source: z.string(),
  source_id: z.string(),
  namespace: z.string(),
  country: z.string(),
  language: z.string().nullable(),
  court: z.string().nullable(),
  court_tier: z.number().int().nullable(),
  date: z.string().nullable(),
  title: z.string(),
});

export const citedByItemSchema = z
  .object({
    document: citingDocumentSchema.describe("The citing document's metadata."),
    snippet: z.string().describe('The passage of its first citation of the document.'),
    highlight: z.object({ start: z.number().int(), end: z.number().int() }).describe('Where the citation stands in `snippet` (UTF-16 offsets).'),
    pinpoint: z.string().describe('Sub-units as written (`Abs. 1 S. 2`, `(1)(c)`); empty when none.'),
    citation: z.string().describe('The citation as written, act included.'),
    start: z.number().int().describe('Offset of the citation in the citing text.'),
    end: z.number().int(),
    occurrences: z.number().int().describe('How many times the document cites it.'),
  })
  .meta({ id: 'CitedByItem' });

export const citedByResponseSchema = z
  .object({
    cited_by_count: z.number().int().describe('Citing documents in all, before filters.'),
    total: z.number().int().describe('Citing documents that pass the filters.'),
    items: z.array(citedByItemSchema),
    next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page.'),
  })
  .meta({ id: 'CitedByResponse' });
export type CitedByResponse = z.output<typeof citedByResponseSchema>;

export const citesResponseSchema = z
  .object({
    links: z
      .array(
        z.object({
          cited: z.object({ id: z.string(), source: z.string(), source_id: z.string() }),
          start: z.number().int(),
          end: z.number().int(),
          pinpoint: z.string(),
          citation: z.string(),
          carried: z.boolean().describe('The act came from context (a preceding citation), not from the citation itself.'),
        }),
      )
      .describe('Resolved citations, in order of appearance.'),
    unresolved: z
      .array(
        z.object({
          start: z.number().int(),
          end: z.number().int(),
          citation: z.string(),
          reason: z.enum(['act_not_in_corpus', 'unit_not_in_corpus', 'ambiguous', 'foreign_act', 'no_act']),
        }),
      )
      .describe('Citations resolving to nothing sure, as text with the reason, in order of appearance.'),
  })
  .meta({ id: 'CitesResponse' });
export type CitesResponse = z.output<typeof citesResponseSchema>;
