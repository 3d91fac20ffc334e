/**
 * SearchRequest and SearchResponse: the specification's search contract. The service
 * validates with these schemas (so REST, GraphQL and MCP obey the same rules) and the
 * REST layer turns them into /openapi.json. Numbers and dates are lax the way pydantic's are
 * ("5" is a valid top_k): see ../../validation.ts. Their defaults are `prefault`s so that
 * z.toJSONSchema({ io: 'input' }) still prints them.
 */
import { z } from 'zod';
import { laxDate, laxFloat, laxInt } from '../../validation.js';
import { NAMESPACES } from './legal-document.js';

export const RESULT_DETAILS = ['snippet', 'summary_only', 'full_text', 'full_metadata'] as const;
export type ResultDetail = (typeof RESULT_DETAILS)[number];

/**
 * `YYYY-MM-DD` that is a real calendar date. Lax like pydantic's `date`: a midnight datetime or
 * timestamp is accepted too, and the output is always `YYYY-MM-DD`.
 */
export const isoDate = laxDate();

/** Longest query accepted: a long passage used as a query, not a document. */
export const MAX_QUERY_LENGTH = 4000;

export const searchRequestSchema = z.object({
  q: z.string().min(1).max(MAX_QUERY_LENGTH).describe('Free-text query in any language.'),
  top_k: laxInt(z.number().int().min(1).max(100)).prefault(10).describe('Number of hits to return (1-100).'),
  alpha: laxFloat(z.number().min(0).max(1))
    .prefault(0.7)
    .describe('Weight of the semantic leg: 1.0 = pure semantic, 0.0 = pure keyword.'),
  country: z.array(z.string().min(1)).nullish().describe('Restrict to these jurisdiction codes (DE, FR, EU, CoE...).'),
  source: z
    .array(z.string().regex(/^[^/]+\/[^/]+$/, 'must be <country>/<source_name>'))
    .nullish()
    .describe('Restrict to these sources, as <country>/<source_name>.'),
  court: z.string().min(1).nullish(),
  court_tier: laxInt(z.number().int().min(1).max(3)).nullish().describe('1 = supreme/apex, 2 = appellate, 3 = first instance.'),
  jurisdiction: z.string().min(1).nullish(),
  language: z
    .string()
    .min(1)
    .nullish()
    .describe('ISO 639-1 code. When nothing matches in this language the search is retried once without it.'),
  date_start: isoDate.nullish().describe('Inclusive lower bound on the document date (YYYY-MM-DD).'),
  date_end: isoDate.nullish().describe('Inclusive upper bound on the document date (YYYY-MM-DD).'),
  namespace: z.enum(NAMESPACES).default('case_law'),
  result_detail: z.enum(RESULT_DETAILS).default('snippet'),
}).meta({ id: 'SearchRequest' });

export type SearchRequestInput = z.input<typeof searchRequestSchema>;
export type SearchRequest = z.output<typeof searchRequestSchema>;

export const searchHitSchema = z.object({
  id: z.string().describe('<source>/<source_id>; GET /v1/documents/{id} returns the document.'),
  source: z.string(),
  source_id: z.string(),
  score: z.number(),
  namespace: z.enum(NAMESPACES),
  title: z.string().optional(),
  snippet: z.string().optional(),
  summary: z.string().optional(),
  url: z.string().optional(),
  country: z.string().optional(),
  language: z.string().optional(),
  court: z.string().optional(),
  court_tier: z.number().int().optional(),
  jurisdiction: z.string().optional(),
  chamber: z.string().optional(),
  date: z.string().optional(),
  ecli: z.string().optional(),
  case_number: z.string().optional(),
  decision_type: z.string().optional(),
  decision_number: z.string().optional(),
  authority: z.string().optional(),
  document_type: z.string().optional(),
  status: z.string().optional(),
  identifier: z.string().optional(),
  eli_uri: z.string().optional(),
  effective_date: z.string().optional(),
  expiry_date: z.string().optional(),
  quality_tier: z.number().int().optional().describe('Editorial quality tier of the source, where the corpus states one.'),
  canonical_path: z.string().optional(),
  parent_source_id: z.string().optional(),
  granularity: z.string().optional(),
  unit_type: z.string().optional(),
  unit_number: z.string().optional(),
  subdivision: z.string().optional(),
  text: z.string().optional().describe('full_text and full_metadata: the text, cut at the bound given by full_text_size.'),
  text_truncated: z.boolean().optional(),
  full_text_size: z.number().int().optional().describe('Length of the whole text in characters.'),
  text_unavailable: z.boolean().optional().describe('True when the text of this hit could not be loaded.'),
  metadata: z.record(z.string(), z.unknown()).optional().describe('full_metadata: every public field of the document.'),
}).meta({ id: 'SearchHit' });
export type SearchHit = z.infer<typeof searchHitSchema>;

export const searchResponseSchema = z.object({
  query: z.string(),
  hits: z.array(searchHitSchema),
  total_hits: z.number().int().describe('Distinct documents that matched within the candidate window.'),
  alpha: z.number(),
  namespace: z.enum(NAMESPACES),
  elapsed_ms: z.number().int(),
  degraded: z
    .array(z.enum(['vector']))
    .optional()
    .describe('Present when part of the search failed: ["vector"] = the vector leg failed or timed out (VECTOR_TIMEOUT_MS) and the hits are the keyword leg\'s.'),
}).meta({ id: 'SearchResponse' });
export type SearchResponse = z.infer<typeof searchResponseSchema>;
