/**
 * SearchRequest and SearchResponse: the specification's search contract. The service
 * validates with these schemas (so REST, GraphQL and MCP obey the same rules) and the
 * REST layer turns them into /openapi.json. Numbers and dates are lax the way pydantic's are
 * ("5" is a valid top_k): see ../../validation.ts. Their defaults are `prefault`s so that
 * z.toJSONSchema({ io: 'input' }) still prints them.
 */
import { z } from 'zod';
import { laxBool, laxDate, laxFloat, laxInt } from '../../validation.js';
import { NAMESPACES } from '../../domain/legal-document.js';

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
  explain: laxBool()
    .prefault(false)
    .describe('Extension: every hit carries score_parts, license and provenance (full_metadata always does). Reads each hit\'s stored record.'),
}).meta({ id: 'SearchRequest' });

export type SearchRequestInput = z.input<typeof searchRequestSchema>;
export type SearchRequest = z.output<typeof searchRequestSchema>;

const nullableNumber = z.number().nullable();

/** Extension: every number behind a hit's score (src/engines/hybrid-fusion.ts, FusionParts). */
export const scorePartsSchema = z
  .object({
    keyword_score: nullableNumber.describe('BM25 of the best passage × keyword_coverage.factor (a passage holding every concept of the query: its BM25 over all their terms, German verb forms included); null when the keyword leg did not find the document.'),
    keyword_coverage: z
      .object({
        concepts: z.number().int().describe('Content words of the query (a word and its forms, stems, compound parts count once).'),
        complete: z.boolean().describe('The passage holds a term of every concept.'),
        factor: z.number().describe('1 when complete, else (concepts - 1) / concepts.'),
      })
      .nullable()
      .describe('Coverage of the query by the keyword passage; null for a query of one concept or more than 20, when the keyword leg did not find the document, or on an engine that does not weigh it.'),
    semantic_score: nullableNumber.describe('Raw cosine similarity of the best passage; null when the vector leg did not find the document.'),
    keyword_best: z.number().describe('Best BM25 of the query (keyword_normalized = keyword_score / keyword_best).'),
    semantic_scale: z
      .object({ low: z.number(), high: z.number() })
      .describe('Cosine levels of the model (semantic_normalized = clamp((semantic_score - low) / (high - low), 0, 1)).'),
    keyword_normalized: z.number(),
    semantic_normalized: z.number(),
    section_context: z
      .object({
        weight: z.number(),
        keyword: nullableNumber.describe('Best normalised keyword score of another article of the same section (0 when none).'),
        semantic: nullableNumber,
      })
      .nullable()
      .describe('Section context boost: leg = (1 - weight) * normalized + weight * section best; null when the document sits in no section.'),
    cited_provision: z.boolean().describe('The query cites this provision: it entered both legs with their top score.'),
    semantic_feedback: z
      .object({
        weight: z.number(),
        documents: z.array(z.string()).describe('Ids of the keyword leg\'s best hits whose passages the query vector moved towards.'),
      })
      .nullable()
      .describe('Relevance feedback: semantic_score is the cosine with normalize(q / |q| + weight * normalize(sum of those passages\' vectors)); null when the vector leg used the query alone.'),
    citation_authority: z
      .object({
        cited_by: z.number().int().describe('Decisions and guidance documents of the corpus that cite this document (as strictly as /v1/resolve finds citations).'),
        boost: z.number().describe('weight * min(1, ln(1 + cited_by) / ln(1 + saturation)): added to the fused score.'),
        weight: z.number(),
        saturation: z.number(),
      })
      .nullable()
      .describe('Citation authority prior; null when off (SEARCH_AUTHORITY_WEIGHT 0) or before the corpus\'s citations are counted.'),
    keyword: z.number().describe('Keyword part after section context.'),
    semantic: z.number().describe('Semantic part after section context.'),
    alpha: z.number().describe('Alpha the fusion used (0 when the vector leg was off).'),
    fused: z.number().describe('alpha * semantic + (1 - alpha) * keyword + citation_authority.boost: the hit score.'),
  })
  .meta({ id: 'ScoreParts' });
export type ScoreParts = z.infer<typeof scorePartsSchema>;

/** Extension: the licence of the hit's source, from the sources catalogue. */
export const hitLicenseSchema = z
  .object({
    id: z.string().nullable(),
    name: z.string().nullable(),
    url: z.string().nullable(),
    commercial_use: z.boolean().nullable().describe('Whether the source allows commercial use; null when the catalogue does not say.'),
  })
  .meta({ id: 'HitLicense' });
export type HitLicense = z.infer<typeof hitLicenseSchema>;

/** Extension: where the hit's text comes from. */
export const provenanceSchema = z
  .object({
    url: z.string().nullable().describe('The official page of the document.'),
    source_url: z.string().nullable().describe('The source\'s page in the sources catalogue.'),
    retrieved_at: z.string().nullable().describe('When the text was retrieved (or the snapshot it comes from), where the corpus records it.'),
  })
  .meta({ id: 'Provenance' });
export type Provenance = z.infer<typeof provenanceSchema>;

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
  cited_by_count: z.number().int().optional().describe('Extension (full_metadata): how many documents of the corpus cite this one (the citator: GET /v1/documents/{id}/cited-by lists them).'),
  score_parts: scorePartsSchema.optional().describe('Extension (full_metadata or explain): why the hit ranks where it does.'),
  license: hitLicenseSchema.optional().describe('Extension (full_metadata or explain): licence of the source.'),
  provenance: provenanceSchema.optional().describe('Extension (full_metadata or explain): where the text comes from.'),
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
