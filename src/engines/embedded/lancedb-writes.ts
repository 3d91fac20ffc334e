/**
 * Writes of the embedded engine: the write lock (writes run one at a time inside the process;
 * reads never wait for them), the rows a batch of documents becomes, the deletes of a document's
 * passages, and the keyword leg's indexes (what is stored already: lancedb-stored-ledger.ts).
 */
import * as lancedb from '@lancedb/lancedb';
import type { CompoundVocabulary } from '../compounds.js';
import type { DocumentInput } from '../search-engine.js';
import { analyzeDocumentText, resolveDocumentLanguage } from '../text-analysis.js';
import { filterValues, inLists } from './lancedb-filters.js';
import { norm } from '../vector-math.js';
import { documentRow, FTS_COLUMN, searchHeader } from './lancedb-tables.js';
import type { Meta } from './lancedb-vectors.js';

/** Runs write operations one at a time, and says whether one is running. */
export class WriteLock {
  private queue: Promise<unknown> = Promise.resolve();
  /** True while a write runs: it owns meta.json, reads do not reload it then. */
  writing = false;

  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const guarded = async () => {
      this.writing = true;
      try {
        return await fn();
      } finally {
        this.writing = false;
      }
    };
    const run = this.queue.then(guarded, guarded);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Resolves once the writes queued so far are done (failed or not). */
  idle(): Promise<unknown> {
    return this.queue.catch(() => undefined);
  }
}

export interface BatchRows {
  documents: Record<string, unknown>[];
  chunks: Record<string, unknown>[];
  vectors: Record<string, unknown>[];
}

/**
 * The rows of a batch (the last input of an id wins): one document row, one chunk row per
 * passage (an empty one for a document without passages) with its analysed terms, and a
 * vector row per passage that carries a non-zero vector of the current model. With
 * `compounds`, the terms of a passage in a compounding language also hold its compounds' parts.
 */
export function batchRows(batch: DocumentInput[], meta: Meta, compounds: CompoundVocabulary | null = null): { ids: string[]; rows: BatchRows } {
  const byId = new Map<string, DocumentInput>();
  for (const input of batch) byId.set(input.document.id, input);
  const rows: BatchRows = { documents: [], chunks: [], vectors: [] };
  for (const { document: doc, contentHash, chunks } of byId.values()) {
    rows.documents.push(documentRow(doc, contentHash));
    const filters = filterValues(doc);
    const language = resolveDocumentLanguage(doc.text, doc.language);
    const header = searchHeader(doc);
    const list = chunks.length > 0 ? chunks : [{ content: '' }];
    list.forEach((chunk, seq) => {
      const chunkId = `${doc.id}#${seq}`;
      rows.chunks.push({
        chunk_id: chunkId,
        doc_id: doc.id,
        seq,
        ...filters,
        title: doc.title ?? '',
        content: chunk.content,
        [FTS_COLUMN]: analyzeDocumentText(`${header}\n${chunk.content}`, language, { detect: false, compounds }),
      });
      const vector = 'vector' in chunk ? chunk.vector : undefined;
      if (vector) {
        if (!meta.vectorModel || !meta.dimension) {
          throw new Error('upsertDocuments: chunks carry vectors but no vector model is set (call setVectorModel first)');
        }
        if (vector.length !== meta.dimension) {
          throw new Error(`upsertDocuments: vector of ${chunkId} has dimension ${vector.length}, the index holds ${meta.dimension}`);
        }
        if (norm(vector) > 0) rows.vectors.push({ chunk_id: chunkId, doc_id: doc.id, ...filters, vector });
      }
    });
  }
  return { ids: [...byId.keys()], rows };
}

/** Deletes the chunk and vector rows of `docIds`. */
export async function deleteChunksOf(chunks: lancedb.Table, vectors: lancedb.Table | null, docIds: string[]): Promise<void> {
  for (const where of inLists('doc_id', docIds)) {
    await chunks.delete(where);
    if (vectors) await vectors.delete(where);
  }
}

/**
 * The full-text index over the analysed terms (whitespace tokenizer: no lowercasing, stemming
 * or stop words in LanceDB, the analysis already did it); false while there is nothing to index.
 */
export async function createFtsIndex(chunks: lancedb.Table): Promise<boolean> {
  if ((await chunks.countRows()) === 0) return false;
  await chunks.createIndex(FTS_COLUMN, {
    config: lancedb.Index.fts({
      baseTokenizer: 'whitespace',
      lowercase: false,
      stem: false,
      removeStopWords: false,
      asciiFolding: false,
      withPosition: false,
      maxTokenLength: 64,
    }),
    replace: true,
  });
  return true;
}

/** A B-tree index on `column` unless it has one (or the table is empty). */
export async function ensureScalarIndex(table: lancedb.Table, column: string, kind: 'btree' | 'bitmap' = 'btree'): Promise<boolean> {
  const indices = await table.listIndices();
  if (indices.some((i) => i.columns.includes(column))) return false;
  if ((await table.countRows()) === 0) return false;
  await table.createIndex(column, { config: kind === 'bitmap' ? lancedb.Index.bitmap() : lancedb.Index.btree() });
  return true;
}

/**
 * Filter columns that carry a bitmap index on the chunks and vectors tables: the legs' `where`
 * (namespace, country, …) is then answered from the index instead of a scan of the column over
 * every row of the table, work that grew with the corpus on every request.
 */
export const FILTER_INDEX_COLUMNS = ['namespace', 'country', 'language', 'source'] as const;

/**
 * The indexes searches read the chunks and vectors tables by: document and chunk ids (btree:
 * passages, score completion, deletes) and the filter columns (bitmap); only the missing ones
 * are built.
 */
export async function ensureReadIndexes(table: lancedb.Table): Promise<void> {
  await ensureScalarIndex(table, 'doc_id');
  await ensureScalarIndex(table, 'chunk_id');
  for (const column of FILTER_INDEX_COLUMNS) await ensureScalarIndex(table, column, 'bitmap');
}

/**
 * Whether `optimize()` has work on this table: fragments to merge, or rows an index does not
 * cover yet. A table left as the last optimize made it is not compacted again (the embedding
 * pass of a first start rewrote the untouched passages table for half a minute).
 */
export async function hasOptimizeWork(table: lancedb.Table): Promise<boolean> {
  const stats = await table.stats();
  if (stats.fragmentStats.numSmallFragments > 1) return true;
  for (const index of await table.listIndices()) {
    if (((await table.indexStats(index.name))?.numUnindexedRows ?? 0) > 0) return true;
  }
  return false;
}

/** The table compacted and its old versions pruned when it has work (see hasOptimizeWork). */
export async function optimizeWhenNeeded(table: lancedb.Table, cleanupOlderThan: Date): Promise<boolean> {
  if (!(await hasOptimizeWork(table))) return false;
  await table.optimize({ cleanupOlderThan });
  return true;
}
