/**
 * A document's version for HTTP caches: a strong entity tag hashed from the document exactly as it
 * is served (its JSON), so it changes when and only when an ingest changes the document, and its
 * date as Last-Modified (documents carry no modification time of their own; the date they were
 * decided or enacted is the closest truthful one, and the tag decides revalidation anyway).
 */
import { createHash } from 'node:crypto';
import type { LegalDocument } from '../../domain/legal-document.js';
import type { DocumentVersion } from './legal-data.port.js';

/** The version of `document` (its ETag's opaque part: 128 bits of SHA-256, base64url). */
export function documentVersion(document: LegalDocument): DocumentVersion {
  const etag = createHash('sha256').update(JSON.stringify(document)).digest('base64url').slice(0, 22);
  return { etag, lastModified: dateOf(document.date) };
}

function dateOf(value: string | null | undefined): Date | null {
  if (!value || !/^\d{4}-\d{2}-\d{2}/.test(value)) return null;
  const date = new Date(`${value.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? null : date;
}
