/**
 * ResolveRequest, ResolveResponse and the coverage report: the reference resolver's contract.
 * The resolve service validates with these schemas (REST, GraphQL and MCP obey the same rules)
 * and /openapi.json is generated from them.
 */
import { z } from 'zod';
import { NAMESPACES } from '../../domain/legal-document.js';

export const RESOLVE_HINT_TYPES = ['legislation', 'case_law'] as const;
export const MATCH_TYPES = ['exact', 'ambiguous', 'pattern', 'title_search', 'fallback_search', 'none', 'error', 'timeout'] as const;
export type MatchType = (typeof MATCH_TYPES)[number];

/** Longest reference accepted (a full EU act title is about 300 characters). */
export const MAX_REFERENCE_LENGTH = 1000;

export const resolveRequestSchema = z.object({
  // Citations are short; the bound also keeps every parsing stage linear in practice.
  reference: z.string().min(1).max(MAX_REFERENCE_LENGTH).describe('A citation in any national style: ECLI, CELEX, `§ 823 Abs. 1 BGB`, `article L. 1234-1 du Code du travail`, `Article 6(1)(a) GDPR`…'),
  hint_country: z.string().min(1).nullish().describe('Jurisdiction the reference belongs to (DE, FR, EU, CH, CoE…): preferred when the reference fits several.'),
  hint_type: z.enum(RESOLVE_HINT_TYPES).nullish().describe('legislation or case_law.'),
}).meta({ id: 'ResolveRequest' });
export type ResolveRequest = z.output<typeof resolveRequestSchema>;

export const resolvedDocumentSchema = z.object({
  id: z.string().describe('<source>/<source_id>'),
  source: z.string(),
  source_id: z.string(),
  title: z.string(),
  url: z.string().nullable(),
  country: z.string(),
  namespace: z.enum(NAMESPACES),
  canonical_path: z.string().nullable(),
  confidence: z.number().min(0).max(1),
});
export type ResolvedDocument = z.infer<typeof resolvedDocumentSchema>;

export const parsedReferenceSchema = z
  .object({
    country: z.string().nullable().describe('Jurisdiction of the act or decision understood.'),
    act: z.string().nullable().describe('The act as written in the reference (`BGB`, `Code du travail`).'),
    act_id: z.string().nullable().describe('Document id of the act it resolved to.'),
    unit_type: z.string().nullable().describe('paragraph (§), article or section.'),
    unit_number: z.string().nullable(),
    sub_units: z.array(z.string()).describe('Abs., Satz, Nr., lit., (1)(a), alinéa… (the article document is returned).'),
    other_units: z.array(z.string()).describe('Further numbers of a list or range.'),
    following: z.boolean().describe('`ff.` / `f.` / `et suivants`.'),
    court: z.string().nullable(),
    date: z.string().nullable(),
    case_number: z.string().nullable(),
    identifier_kind: z.string().nullable().describe('ecli, celex, eli, legifrance, nor, echr_application, cjeu_case, case_number.'),
    identifier: z.string().nullable(),
  })
  .describe('What was understood of the reference.');
export type ParsedReference = z.infer<typeof parsedReferenceSchema>;

export const resolveResponseSchema = z.object({
  reference: z.string(),
  resolved: z.boolean(),
  match_type: z.enum(MATCH_TYPES),
  documents: z.array(resolvedDocumentSchema),
  parsed: parsedReferenceSchema,
  elapsed_ms: z.number().int(),
}).meta({ id: 'ResolveResponse' });
export type ResolveResponse = z.infer<typeof resolveResponseSchema>;

export const sourceCoverageSchema = z.object({
  source: z.string(),
  country: z.string(),
  has_patterns: z.boolean(),
  patterns: z.number().int().describe('Number of resolve patterns that reach documents of this source.'),
  pattern_kinds: z.array(z.string()),
  documents: z.number().int(),
  resolvable_documents: z.number().int().describe('Documents reachable by an identifier or a citation grammar.'),
  act_names: z.number().int().describe('Abbreviations, titles and aliases that name acts of this source.'),
  citation_families: z
    .array(z.string())
    .optional()
    .describe(
      'Citation families the resolver supports for this source: identifiers, court_decisions, de_subunits, de_act_names, nested_articles, fr_forms, eu_acts, short_titles.',
    ),
});

export const resolveCoverageSchema = z.object({
  sources: z.array(sourceCoverageSchema),
  totals: z.object({
    sources: z.number().int(),
    sources_with_patterns: z.number().int(),
    documents: z.number().int(),
    resolvable_documents: z.number().int(),
    patterns: z.number().int(),
  }),
}).meta({ id: 'ResolveCoverage' });
export type ResolveCoverage = z.infer<typeof resolveCoverageSchema>;
