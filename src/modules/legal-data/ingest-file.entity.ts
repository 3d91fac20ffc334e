/**
 * Ingest checkpoints: one row per corpus file (path relative to the corpus dir), so an
 * interrupted ingest resumes at `lines_done` and a finished file with the same sha256 is skipped.
 */
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const INGEST_FILE_STATUSES = ['in_progress', 'complete'] as const;
export type IngestFileStatus = (typeof INGEST_FILE_STATUSES)[number];

export const IngestFileEntity = defineEntity({
  name: 'IngestFile',
  tableName: 'ingest_file',
  properties: {
    path: p.text().primary(),
    sha256: p.text(),
    /** Bytes; bigint column, exposed as a JS number. */
    size: p.bigint('number'),
    status: p.text().$type<IngestFileStatus>(),
    lines_done: p.integer(),
    documents_indexed: p.integer(),
    bad_lines: p.integer(),
    updated_at: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});

export type IngestFile = InferEntity<typeof IngestFileEntity>;
