/**
 * The corpus's document model (see ../shared/corpus/FORMAT.md), as the service holds it.
 * It lives in src/domain, below every layer, because all of them speak it: the engines store and
 * return documents, the services search and resolve them, the doors print them. Pure types and
 * constants only: nothing here imports the rest of the service.
 */

export const NAMESPACES = ['case_law', 'legislation', 'doctrine'] as const;
export type Namespace = (typeof NAMESPACES)[number];

/** Optional metadata fields of a document, in the order the API prints them. */
export const DOCUMENT_METADATA_FIELDS = [
  'language',
  'date',
  'url',
  'court',
  'court_tier',
  'jurisdiction',
  'chamber',
  'ecli',
  'case_number',
  'decision_type',
  'decision_number',
  'authority',
  'document_type',
  'status',
  'identifier',
  'eli_uri',
  'effective_date',
  'expiry_date',
  'granularity',
  'unit_type',
  'unit_number',
  'canonical_path',
  'parent_source_id',
  'summary',
  'subdivision',
] as const;
export type DocumentMetadataField = (typeof DOCUMENT_METADATA_FIELDS)[number];

export interface LegalDocument {
  /** `<source>/<source_id>`, e.g. `DE/GesetzeImInternet/bgb/823`: unique across the corpus. */
  id: string;
  source: string;
  source_id: string;
  namespace: Namespace;
  country: string;
  title: string;
  text: string;
  language: string | null;
  date: string | null;
  url: string | null;
  court: string | null;
  court_tier: number | null;
  jurisdiction: string | null;
  chamber: string | null;
  ecli: string | null;
  case_number: string | null;
  decision_type: string | null;
  decision_number: string | null;
  authority: string | null;
  document_type: string | null;
  status: string | null;
  identifier: string | null;
  eli_uri: string | null;
  effective_date: string | null;
  expiry_date: string | null;
  granularity: string | null;
  unit_type: string | null;
  unit_number: string | null;
  canonical_path: string | null;
  parent_source_id: string | null;
  summary: string | null;
  subdivision: string | null;
  short_names: string[];
  extra: Record<string, unknown>;
}

/** A document without its text and extra fields: enough for a search hit that shows a passage. */
export type DocumentWithoutText = Omit<LegalDocument, 'text' | 'extra'>;

/** A document without its text: what catalogue aggregates (discovery, stats) are built from. */
export type DocumentMetadata = Omit<LegalDocument, 'text' | 'extra' | 'summary'>;

/** Builds the document id from its source and source id. */
export function documentId(source: string, sourceId: string): string {
  return `${source}/${sourceId}`;
}
