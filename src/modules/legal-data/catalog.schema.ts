/** Response shapes of discovery, documents, statistics and the manifest. */
import { z } from 'zod';
import { NAMESPACES } from '../../domain/legal-document.js';

const nullableString = z.string().nullable();

/** Optional text of a corpus line: missing or empty becomes null. */
const optionalText = z.string().nullish().transform((v) => (v === undefined || v === '' ? null : v));

/** One line of the sources catalogue (shared/corpus/FORMAT.md); missing optional fields become null. */
export const catalogSourceSchema = z.object({
  source: z.string().regex(/^[^/\s]+\/[^/\s]+$/, 'must be <country>/<source_name>'),
  country: z.string().min(1),
  name: z.string(),
  data_types: z.array(z.string()).nullish().transform((v) => v ?? []),
  url: optionalText,
  license_id: optionalText,
  license_name: optionalText,
  license_url: optionalText,
  commercial_use: z.boolean().nullish().transform((v) => v ?? null),
  status: optionalText,
  blocked_reason: optionalText,
  court_name: optionalText,
  tier: z.number().int().nullish().transform((v) => v ?? null),
  notes: optionalText,
});
export type CatalogSource = z.output<typeof catalogSourceSchema>;

export const documentSchema = z.object({
  id: z.string(),
  source: z.string(),
  source_id: z.string(),
  namespace: z.enum(NAMESPACES),
  country: z.string(),
  title: z.string(),
  text: z.string(),
  language: nullableString,
  date: nullableString,
  url: nullableString,
  court: nullableString,
  court_tier: z.number().int().nullable(),
  jurisdiction: nullableString,
  chamber: nullableString,
  ecli: nullableString,
  case_number: nullableString,
  decision_type: nullableString,
  decision_number: nullableString,
  authority: nullableString,
  document_type: nullableString,
  status: nullableString,
  identifier: nullableString,
  eli_uri: nullableString,
  effective_date: nullableString,
  expiry_date: nullableString,
  granularity: nullableString,
  unit_type: nullableString,
  unit_number: nullableString,
  canonical_path: nullableString,
  parent_source_id: nullableString,
  summary: nullableString,
  subdivision: nullableString,
  short_names: z.array(z.string()),
  extra: z.record(z.string(), z.unknown()),
  cited_by_count: z.number().int().optional().describe('Extension (REST document reads): how many documents of the corpus cite this one (citator).'),
}).meta({ id: 'LegalDocument' });

export const countryInfoSchema = z.object({
  code: z.string(),
  case_law_sources: z.number().int(),
  legislation_sources: z.number().int(),
  doctrine_sources: z.number().int(),
  total_documents: z.number().int(),
}).meta({ id: 'CountryInfo' });
export type CountryInfo = z.infer<typeof countryInfoSchema>;

/** GET /v1/discover/countries (the spec's CountriesResponse). */
export const countriesResponseSchema = z.object({ countries: z.array(countryInfoSchema) }).meta({ id: 'CountriesResponse' });
export type CountriesResponse = z.infer<typeof countriesResponseSchema>;

const dateRangeSchema = z.object({ min: nullableString, max: nullableString });

/**
 * The spec's SourceInfo (source_id, data_types, court_name, tier, document_count, date_range,
 * notes) and, beside it, the catalogue's other fields and the per-namespace counts.
 */
export const sourceInfoSchema = z.object({
  source_id: z.string().describe('<country>/<source_name>: the value search.source and the filters endpoint take.'),
  document_count: z.number().int().describe('Documents of this source in every namespace.'),
  date_range: dateRangeSchema.nullable().describe('Earliest and latest document date; null when no document is dated.'),
  source: z.string().describe('<country>/<source_name> (the same value as source_id).'),
  country: z.string(),
  name: z.string(),
  data_types: z.array(z.string()),
  url: nullableString,
  license_id: nullableString,
  license_name: nullableString,
  license_url: nullableString,
  commercial_use: z.boolean().nullable(),
  status: nullableString,
  blocked_reason: nullableString,
  court_name: nullableString,
  tier: z.number().int().nullable(),
  notes: nullableString,
  total_documents: z.number().int(),
  documents_by_namespace: z.object({ case_law: z.number().int(), legislation: z.number().int(), doctrine: z.number().int() }),
}).meta({ id: 'SourceInfo' });
export type SourceInfo = z.infer<typeof sourceInfoSchema>;

/** GET /v1/discover/countries/{country_code}/sources (the spec's SourcesResponse). */
export const sourcesResponseSchema = z.object({
  country: z.string().describe('The canonical jurisdiction code (`coe` is answered as `CoE`).'),
  sources: z.array(sourceInfoSchema),
}).meta({ id: 'SourcesResponse' });
export type SourcesResponse = z.infer<typeof sourcesResponseSchema>;

export const sourceFiltersSchema = z.object({
  source: z.string(),
  namespace: z.enum(NAMESPACES),
  total_documents: z.number().int(),
  courts: z.array(z.string()),
  jurisdictions: z.array(z.string()),
  chambers: z.array(z.string()),
  decision_types: z.array(z.string()),
  languages: z.array(z.string()),
  subdivisions: z.array(z.string()),
  court_tiers: z.array(z.number().int()),
  date_range: dateRangeSchema,
}).meta({ id: 'FilterOptions' });
export type SourceFilters = z.infer<typeof sourceFiltersSchema>;

export const courtInfoSchema = z.object({
  court: z.string(),
  country: z.string(),
  source: z.string(),
  court_tier: z.number().int().nullable(),
  total_documents: z.number().int(),
}).meta({ id: 'CourtInfo' });
export type CourtInfo = z.infer<typeof courtInfoSchema>;

const countsByNamespace = z.object({ case_law: z.number().int(), legislation: z.number().int(), doctrine: z.number().int() });

export const statsSchema = z.object({
  total_documents: z.number().int(),
  documents_by_namespace: countsByNamespace,
  countries: z.number().int().describe('Jurisdictions with at least one document.'),
  sources: z.number().int().describe('Sources with at least one document.'),
  catalogued_sources: z.number().int().describe('Sources in the catalogue, with or without documents.'),
  documents_by_country: z.record(z.string(), z.number().int()),
  documents_by_language: z.record(z.string(), z.number().int()),
  date_range: z.object({ min: nullableString, max: nullableString }),
  index: z.object({
    chunks: z.number().int(),
    chunks_with_vectors: z.number().int(),
    embedding_model: nullableString,
    ready: z.boolean(),
  }),
  generated_at: z.string(),
}).meta({ id: 'Stats' });
export type Stats = z.infer<typeof statsSchema>;

export const manifestSchema = z.object({
  name: z.string(),
  version: z.string(),
  api_version: z.string(),
  description: z.string(),
  collections: z.array(z.object({ namespace: z.enum(NAMESPACES), total_documents: z.number().int(), sources: z.number().int() })),
  jurisdictions: z.array(z.string()),
  sources: z.array(
    z.object({
      source: z.string(),
      country: z.string(),
      name: z.string(),
      total_documents: z.number().int(),
      license_id: nullableString,
      license_name: nullableString,
      license_url: nullableString,
      commercial_use: z.boolean().nullable(),
    }),
  ),
  search: z.object({ engine: z.string(), embedding_model: nullableString, hybrid: z.boolean() }),
  endpoints: z.array(z.string()),
  generated_at: z.string(),
}).meta({ id: 'Manifest' });
export type Manifest = z.infer<typeof manifestSchema>;

/** A write-behind queue's lag in `/ready` (src/modules/usage/durable-batches.ts, BatchLag). */
const recordingLagSchema = z.object({
  pending_rows: z.number().int(),
  oldest_pending_seconds: z.number().int().nullable(),
  spilled_batches: z.number().int(),
  dropped_rows: z.number().int(),
  lagging: z.boolean(),
});

export const readinessSchema = z.object({
  status: z.enum(['ready', 'indexing', 'starting']),
  stores: z.object({ database: z.boolean(), index: z.boolean() }),
  /** The dependencies that do not answer (absent when all do): `database`, `elasticsearch`... */
  missing: z.array(z.object({ dependency: z.string(), detail: z.string() })).optional(),
  ingest: z
    .object({
      phase: z.string(),
      /** The step of the phase that runs, when it has named steps (optimizing: e.g. `vector index (HNSW)`). */
      step: z.string().optional(),
      documents_done: z.number().int(),
      documents_total: z.number().int().nullable(),
      files_done: z.number().int(),
      files_total: z.number().int(),
      documents_per_second: z.number().nullable(),
      eta_seconds: z.number().nullable(),
    })
    .nullable(),
  /** The embedding model: trained at first start (EMBEDDER=auto), then the index embedded with it. */
  embedding_model: z
    .object({
      status: z.enum(['training', 'embedding', 'ready', 'failed']),
      model: z.string().nullable(),
      step: z.string().nullable(),
      progress: z.number().nullable(),
    })
    .nullable()
    .optional(),
  /**
   * Usage rows not written yet (the database did not take them: retried, spilled to DATA_DIR):
   * the process stays ready unless the oldest waits longer than 15 minutes (docs/reliability.md).
   */
  usage_recording: recordingLagSchema.optional(),
  /** Partner analytics events not written yet (the same queue and rule as usage_recording). */
  analytics_recording: recordingLagSchema.optional(),
  /** Present while the index found damaged at start is rebuilt from the corpus (docs/reliability.md): why it was. */
  index_rebuild: z.object({ reason: z.string() }).optional(),
}).meta({ id: 'Readiness' });
export type Readiness = z.infer<typeof readinessSchema>;
