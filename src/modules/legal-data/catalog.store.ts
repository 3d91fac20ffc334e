/**
 * Repository functions over the relational store: the sources catalogue, ingest checkpoints
 * and index key/value state. Callers pass an EntityManager forked for their call site
 * (the ingest and start-up run outside requests: `backgroundEm(orm)`); every function works on its own fork of it (fresh identity map, joining
 * the caller's transaction if there is one) and returns plain objects, never managed entities.
 * Writes run in a transaction.
 */
import { backgroundEm } from '../../context.js';
import type { EntityManager } from '@mikro-orm/core';
import { z } from 'zod';
import { ValidationError, type ValidationIssue } from '../../errors.js';
import { catalogSourceSchema } from './catalog.schema.js';
import { createCitationGraphStore } from './citator/citation-graph.store.js';
import { IndexStateEntity } from './index-state.entity.js';
import { INGEST_FILE_STATUSES, IngestFileEntity, type IngestFile, type IngestFileStatus } from './ingest-file.entity.js';
import { SourceEntity, type Source } from './source.entity.js';

// ---------------------------------------------------------------------------------------------
// Sources catalogue

/** The catalogue line schema, shared with the corpus reader. */
export const sourceRecordSchema = catalogSourceSchema;

/** What `upsertSources` accepts: a catalogue line, optional fields may be left out. */
export type SourceInput = z.input<typeof sourceRecordSchema>;
/** A catalogue row as written (all fields present, null when unknown). */
export type SourceRecord = z.output<typeof sourceRecordSchema>;
/** A catalogue row as stored. */
export type StoredSource = SourceRecord & { updated_at: Date };

export interface UpsertCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

const SOURCE_FIELDS = Object.keys(sourceRecordSchema.shape) as (keyof SourceRecord)[];
const IN_CHUNK = 1000;

/**
 * Inserts new sources and updates changed ones, in one transaction (all or nothing).
 * Input is validated first (ValidationError, nothing written); a source listed twice keeps its
 * last occurrence. `updated_at` only moves when a row actually changes.
 */
export async function upsertSources(em: EntityManager, sources: readonly SourceInput[]): Promise<UpsertCounts> {
  const records = new Map<string, SourceRecord>();
  const issues: ValidationIssue[] = [];
  sources.forEach((input, index) => {
    const parsed = sourceRecordSchema.safeParse(input);
    if (parsed.success) {
      records.set(parsed.data.source, parsed.data);
    } else {
      for (const issue of parsed.error.issues) {
        issues.push({
          type: issue.code,
          loc: [index, ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))],
          msg: issue.message,
          input: (input as Record<string, unknown> | null)?.[String(issue.path[0])],
        });
      }
    }
  });
  if (issues.length > 0) throw new ValidationError(issues);

  const counts: UpsertCounts = { inserted: 0, updated: 0, unchanged: 0 };
  if (records.size === 0) return counts;

  await work(em).transactional(async (tx) => {
    const keys = [...records.keys()];
    const existing = new Map<string, Source>();
    for (let i = 0; i < keys.length; i += IN_CHUNK) {
      for (const row of await tx.find(SourceEntity, { source: { $in: keys.slice(i, i + IN_CHUNK) } })) {
        existing.set(row.source, row);
      }
    }
    for (const record of records.values()) {
      const current = existing.get(record.source);
      if (!current) {
        tx.create(SourceEntity, { ...record, updated_at: new Date() });
        counts.inserted++;
      } else if (SOURCE_FIELDS.some((field) => !sameValue(current[field], record[field]))) {
        tx.assign(current, record);
        counts.updated++;
      } else {
        counts.unchanged++;
      }
    }
    // `transactional` flushes before COMMIT; a failing statement rolls everything back.
  });
  return counts;
}

/** Catalogued sources ordered by `source`, optionally of one country (exact code, e.g. `DE`). */
export async function listSources(em: EntityManager, filter: { country?: string } = {}): Promise<StoredSource[]> {
  const rows = await work(em).find(
    SourceEntity,
    filter.country === undefined ? {} : { country: filter.country },
    { orderBy: { source: 'asc' } },
  );
  return rows.map(toStoredSource);
}

/** One source by its `<country>/<source_name>` key, or null. */
export async function getSource(em: EntityManager, source: string): Promise<StoredSource | null> {
  const row = await work(em).findOne(SourceEntity, { source });
  return row ? toStoredSource(row) : null;
}

function toStoredSource(row: Source): StoredSource {
  return {
    source: row.source,
    country: row.country,
    name: row.name,
    data_types: [...(row.data_types ?? [])],
    url: row.url ?? null,
    license_id: row.license_id ?? null,
    license_name: row.license_name ?? null,
    license_url: row.license_url ?? null,
    commercial_use: row.commercial_use ?? null,
    status: row.status ?? null,
    blocked_reason: row.blocked_reason ?? null,
    court_name: row.court_name ?? null,
    tier: row.tier ?? null,
    notes: row.notes ?? null,
    updated_at: row.updated_at,
  };
}

// ---------------------------------------------------------------------------------------------
// Ingest checkpoints

export interface IngestFileRecord {
  /** Path relative to the corpus dir, `/`-separated. */
  path: string;
  sha256: string;
  size: number;
  status: IngestFileStatus;
  lines_done: number;
  documents_indexed: number;
  bad_lines: number;
  updated_at: Date;
}

export type IngestFileInput = Omit<IngestFileRecord, 'updated_at'>;

/** The checkpoint of one corpus file, or null when it was never started. */
export async function getIngestFile(em: EntityManager, path: string): Promise<IngestFileRecord | null> {
  const row = await work(em).findOne(IngestFileEntity, { path });
  return row ? toIngestFileRecord(row) : null;
}

/** Creates or replaces the checkpoint of a file (in a transaction) and returns it as stored. */
export async function saveIngestFile(em: EntityManager, record: IngestFileInput): Promise<IngestFileRecord> {
  validateIngestFile(record);
  const data = {
    path: record.path,
    sha256: record.sha256,
    size: record.size,
    status: record.status,
    lines_done: record.lines_done,
    documents_indexed: record.documents_indexed,
    bad_lines: record.bad_lines,
    updated_at: new Date(),
  };
  const row = await work(em).transactional((tx) => tx.upsert(IngestFileEntity, data));
  return toIngestFileRecord(row);
}

/** Every checkpoint, ordered by path. */
export async function listIngestFiles(em: EntityManager): Promise<IngestFileRecord[]> {
  const rows = await work(em).find(IngestFileEntity, {}, { orderBy: { path: 'asc' } });
  return rows.map(toIngestFileRecord);
}

function validateIngestFile(record: IngestFileInput): void {
  const issues: ValidationIssue[] = [];
  const bad = (field: keyof IngestFileInput, msg: string) =>
    issues.push({ type: 'value_error', loc: [field], msg, input: record[field] });
  if (typeof record.path !== 'string' || record.path.length === 0) bad('path', 'must be a non-empty relative path');
  if (typeof record.sha256 !== 'string' || !/^[0-9a-f]{64}$/i.test(record.sha256)) bad('sha256', 'must be 64 hex digits');
  if (!INGEST_FILE_STATUSES.includes(record.status)) bad('status', `must be one of ${INGEST_FILE_STATUSES.join(', ')}`);
  for (const field of ['size', 'lines_done', 'documents_indexed', 'bad_lines'] as const) {
    if (!Number.isSafeInteger(record[field]) || record[field] < 0) bad(field, 'must be a non-negative integer');
  }
  for (const field of ['lines_done', 'documents_indexed', 'bad_lines'] as const) {
    if (record[field] > 2_147_483_647) bad(field, 'must fit in a 32-bit integer');
  }
  if (issues.length > 0) throw new ValidationError(issues);
}

function toIngestFileRecord(row: IngestFile): IngestFileRecord {
  return {
    path: row.path,
    sha256: row.sha256,
    size: Number(row.size),
    status: row.status,
    lines_done: row.lines_done,
    documents_indexed: row.documents_indexed,
    bad_lines: row.bad_lines,
    updated_at: row.updated_at,
  };
}

// ---------------------------------------------------------------------------------------------
// Index key/value state

/** The JSON value stored under `key`, or null when unset. */
export async function getIndexState<T = unknown>(em: EntityManager, key: string): Promise<T | null> {
  const row = await work(em).findOne(IndexStateEntity, { key });
  return row ? (row.value as T) : null;
}

/** Stores any JSON value under `key` (in a transaction); `null`/`undefined` removes the key. */
export async function setIndexState(em: EntityManager, key: string, value: unknown): Promise<void> {
  await work(em).transactional(async (tx) => {
    if (value === null || value === undefined) {
      await tx.nativeDelete(IndexStateEntity, { key });
    } else {
      await tx.upsert(IndexStateEntity, { key, value, updated_at: new Date() });
    }
  });
}

// ---------------------------------------------------------------------------------------------

/** A fresh fork for one store call: clean identity map, inside the caller's transaction if any. */
function work(em: EntityManager): EntityManager {
  return em.fork({ keepTransactionContext: true });
}

function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => item === b[i]);
  }
  return (a ?? null) === (b ?? null);
}

// ---------------------------------------------------------------------------------------------
// Adapters for the services

/** The sources catalogue for discovery (every catalogued source, ordered by key). */
export async function loadCatalogue(em: EntityManager): Promise<StoredSource[]> {
  return listSources(em);
}

/**
 * The ingest's view of the store (`IngestStore` in ingest/ingest.service.ts): each call runs on
 * its own fork of the ORM's EntityManager.
 */
export function createIngestStore(orm: { em: EntityManager }) {
  return {
    upsertSources: (sources: readonly SourceInput[]) => upsertSources(backgroundEm(orm), sources),
    getFile: (relativePath: string) => getIngestFile(backgroundEm(orm), relativePath),
    saveFile: async (record: IngestFileInput): Promise<void> => {
      await saveIngestFile(backgroundEm(orm), record);
    },
    ...createCitationGraphStore(orm),
  };
}

/** What the database records of the index's contents (`index_state` key `index_contents`); see index-health.ts. */
export interface IndexContentsRecord {
  /** `ingesting` from the moment an ingest may write until it completes; `complete` with the counts it left. */
  status: 'ingesting' | 'complete';
  documents: number;
  chunks: number;
  /** The version of each table the ingest left (engines with versioned tables: the embedded one). */
  versions?: Record<string, number>;
}

const INDEX_CONTENTS = 'index_contents';

/**
 * The record of what was ingested, for the start-up's check of the index against it: read it,
 * write it, and forget every ingest (the record and every file checkpoint, in one transaction)
 * before the index is rebuilt, so the next ingest indexes every file again.
 */
export function createIndexRecordStore(orm: { em: EntityManager }) {
  return {
    read: () => getIndexState<IndexContentsRecord>(backgroundEm(orm), INDEX_CONTENTS),
    write: (record: IndexContentsRecord) => setIndexState(backgroundEm(orm), INDEX_CONTENTS, record),
    /** Documents the file checkpoints say were written by complete files (an older database's only record). */
    documentsOfCompleteFiles: async () =>
      (await listIngestFiles(backgroundEm(orm))).filter((f) => f.status === 'complete').reduce((sum, f) => sum + f.documents_indexed, 0),
    forgetIngests: () =>
      backgroundEm(orm).transactional(async (tx) => {
        await tx.nativeDelete(IngestFileEntity, {});
        await tx.nativeDelete(IndexStateEntity, { key: INDEX_CONTENTS });
      }),
  };
}

export type IndexRecordStore = ReturnType<typeof createIndexRecordStore>;
