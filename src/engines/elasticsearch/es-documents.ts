/**
 * How a LegalDocument is stored in the documents index and read back: its own fields (in the
 * order the embedded engine returns them), plus the engine's bookkeeping (content hash, mapping
 * version, passage count).
 */
import type { DocumentMetadata, LegalDocument, Namespace } from '../../domain/legal-document.js';
import { DOCUMENT_METADATA_FIELDS } from '../../domain/legal-document.js';
import { filterValues } from '../filter-values.js';
import { ES_MAPPING_VERSION } from './es-mapping.js';

/** Fields of a stored document that are not LegalDocument's. */
export const INTERNAL_FIELDS = ['content_hash', 'analysis_version', 'chunk_count'];
/** LegalDocument's fields, in the order the embedded engine returns them. */
const DOCUMENT_FIELDS = ['id', 'source', 'source_id', 'namespace', 'country', 'title', 'text', ...DOCUMENT_METADATA_FIELDS, 'short_names', 'extra'] as const;

/** The stored source of a document: its fields (and only those), the hash and the passage count. */
export function documentSource(doc: LegalDocument, contentHash: string, chunkCount: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const d = doc as unknown as Record<string, unknown>;
  for (const f of DOCUMENT_FIELDS) out[f] = d[f] ?? null;
  out.short_names = Array.isArray(doc.short_names) ? doc.short_names : [];
  out.extra = doc.extra ?? {};
  out.court_tier = filterValues(doc).court_tier;
  out.content_hash = contentHash;
  out.analysis_version = ES_MAPPING_VERSION;
  out.chunk_count = chunkCount;
  return out;
}

/** A stored source read back as metadata (no text, extra or summary). */
export function toMetadata(row: Record<string, unknown>): DocumentMetadata {
  const out: Record<string, unknown> = {};
  for (const f of DOCUMENT_FIELDS) {
    if (f === 'text' || f === 'extra' || f === 'summary') continue;
    out[f] = row[f] ?? null;
  }
  for (const f of ['source', 'source_id', 'country', 'title']) out[f] = String(out[f] ?? '');
  out.namespace = out.namespace as Namespace;
  out.short_names = Array.isArray(row.short_names) ? row.short_names : [];
  return out as unknown as DocumentMetadata;
}

/** A stored source read back as the whole document. */
export function toDocument(row: Record<string, unknown>): LegalDocument {
  const meta = toMetadata(row) as unknown as Record<string, unknown>;
  meta.text = String(row.text ?? '');
  meta.summary = (row.summary as string | null) ?? null;
  meta.extra = (row.extra as Record<string, unknown> | null) ?? {};
  return meta as unknown as LegalDocument;
}
