/**
 * The ingest: corpus folder -> sources catalogue (database) + documents, chunks and vectors
 * (search engine). Idempotent (unchanged files and documents are skipped by hash), resumable
 * (a checkpoint per file after every batch), and honest about bad lines (reported with file
 * and line number, then skipped).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Embedder } from '../../../engines/embedder.js';
import type { DocumentInput, SearchEngine } from '../../../engines/search-engine.js';
import type { Logger } from '../../../logger.js';
import type { LegalDocument } from '../../../domain/legal-document.js';
import { CHUNKER_VERSION, chunkText } from '../corpus/chunker.js';
import {
  countLines,
  listDocumentFiles,
  parseDocumentRecord,
  readJsonLines,
  readSourcesCatalogue,
  type CatalogSource,
  type CorpusFile,
} from '../corpus/corpus-reader.js';
import { countCorpusVocabulary } from './corpus-vocabulary.js';
import { updateCitationCounts } from './citation-counts.js';
import { formatDuration, Progress } from './progress.js';

export interface IngestFileRecord {
  path: string;
  sha256: string;
  size: number;
  status: 'in_progress' | 'complete';
  lines_done: number;
  documents_indexed: number;
  bad_lines: number;
}

/** What the ingest needs from the relational store (implemented over MikroORM). */
export interface IngestStore {
  upsertSources(sources: CatalogSource[]): Promise<{ inserted: number; updated: number; unchanged: number }>;
  getFile(relativePath: string): Promise<IngestFileRecord | null>;
  saveFile(record: IngestFileRecord): Promise<void>;
}

export interface IngestState {
  phase: 'preparing' | 're-embedding' | 'indexing' | 'optimizing' | 'citations' | 'done';
  documents_done: number;
  documents_total: number | null;
  files_done: number;
  files_total: number;
  documents_per_second: number | null;
  eta_seconds: number | null;
}

export interface BadLine {
  file: string;
  line: number;
  error: string;
}

export interface IngestSummary {
  files: { total: number; skipped: number; processed: number };
  documents: { seen: number; indexed: number; unchanged: number; deleted: number };
  chunks: number;
  sources: { inserted: number; updated: number; unchanged: number };
  reembedded: number;
  badLineCount: number;
  /** The first bad lines (all of them are logged). */
  badLines: BadLine[];
  seconds: number;
  documentsPerSecond: number;
  interrupted: boolean;
}

export interface IngestDeps {
  engine: SearchEngine;
  embedder: Embedder | null;
  store: IngestStore;
  logger: Logger;
}

export interface IngestOptions {
  corpusDir: string;
  batchSize?: number;
  /** Redraw a progress bar on this terminal (the CLI); otherwise progress goes to the log. */
  tty?: NodeJS.WriteStream;
  signal?: AbortSignal;
  onProgress?: (state: IngestState) => void;
  /** Called after each optimize, so readers (catalogue statistics) can refresh. */
  onIndexed?: () => Promise<void> | void;
  /** Where the citation counts of the corpus are kept (citation-counts.ts); counted anew when the corpus files changed. */
  citationCountsFile?: string;
}

const OPTIMIZE_EVERY_DOCUMENTS = 25_000;
const EMBED_BATCH = 256;

export async function ingestCorpus(deps: IngestDeps, options: IngestOptions): Promise<IngestSummary> {
  const { engine, embedder, store, logger } = deps;
  const startedAt = Date.now();
  const batchSize = options.batchSize ?? 500;
  const report = (state: IngestState) => options.onProgress?.(state);
  const summary: IngestSummary = {
    files: { total: 0, skipped: 0, processed: 0 },
    documents: { seen: 0, indexed: 0, unchanged: 0, deleted: 0 },
    chunks: 0,
    sources: { inserted: 0, updated: 0, unchanged: 0 },
    reembedded: 0,
    badLineCount: 0,
    badLines: [],
    seconds: 0,
    documentsPerSecond: 0,
    interrupted: false,
  };
  const badLine = (entry: BadLine) => {
    summary.badLineCount += 1;
    if (summary.badLines.length < 50) summary.badLines.push(entry);
    logger.warn(`ingest: skipped ${entry.file}:${entry.line}: ${entry.error}`);
  };

  report({ phase: 'preparing', documents_done: 0, documents_total: null, files_done: 0, files_total: 0, documents_per_second: null, eta_seconds: null });

  // 1. Sources catalogue.
  const catalogue = await readSourcesCatalogue(options.corpusDir);
  catalogue.errors.forEach((e) => badLine({ file: 'sources.jsonl.gz', line: Number(e.split(':')[1]), error: e }));
  summary.sources = await store.upsertSources(catalogue.sources);
  const tierBySource = new Map(catalogue.sources.filter((s) => s.tier !== null).map((s) => [s.source, s.tier as number]));

  // 2. Vectors of another model are never mixed with new ones: re-embed what is stored first.
  if (embedder) summary.reembedded = await reembedIfModelChanged(engine, embedder, logger, report);

  // 3. Which files changed since the last run (by content hash)?
  const files = await listDocumentFiles(options.corpusDir);
  summary.files.total = files.length;
  const pending: { file: CorpusFile; sha256: string; resumeAfter: number; previous: IngestFileRecord | null }[] = [];
  const hashes = new Map<string, string>();
  for (const file of files) {
    const sha256 = await hashFile(file.absolutePath);
    hashes.set(file.relativePath, sha256);
    const previous = await store.getFile(file.relativePath);
    if (previous && previous.sha256 === sha256 && previous.status === 'complete') {
      summary.files.skipped += 1;
      continue;
    }
    const resumeAfter = previous && previous.sha256 === sha256 ? previous.lines_done : 0;
    pending.push({ file, sha256, resumeAfter, previous });
  }
  let totalLines = 0;
  for (const p of pending) totalLines += (await countLines(p.file.absolutePath)) - p.resumeAfter;
  logger.info(
    `ingest: ${files.length} files, ${summary.files.skipped} unchanged, ${pending.length} to index (${totalLines.toLocaleString('en')} documents)` +
      (embedder ? `, embedding with ${embedder.id}` : ', keyword index only (no embedding model configured)'),
  );

  // An engine that splits compounds at index time needs the corpus vocabulary before the first
  // write; a resumed or incremental ingest keeps the one stored beside the index.
  if (pending.length > 0 && engine.setCompoundVocabulary && (await engine.needsCompoundVocabulary?.())) {
    const vocabulary = await countCorpusVocabulary(files, { logger, tty: options.tty, signal: options.signal });
    if (vocabulary) await engine.setCompoundVocabulary(vocabulary);
  }

  const progress = new Progress('ingest', totalLines, { log: (l) => logger.info(l), tty: options.tty });
  const publish = (phase: IngestState['phase']) => {
    const s = progress.snapshot();
    report({
      phase,
      documents_done: s.done,
      documents_total: s.total,
      files_done: summary.files.skipped + summary.files.processed,
      files_total: files.length,
      documents_per_second: s.perSecond,
      eta_seconds: s.etaSeconds,
    });
  };
  publish('indexing');

  // 4. Index the changed files batch by batch, with a checkpoint after every batch.
  const seenByKey = new Map<string, Set<string>>();
  let sinceOptimize = 0;
  for (const { file, sha256, resumeAfter } of pending) {
    if (options.signal?.aborted) break;
    const record: IngestFileRecord = {
      path: file.relativePath,
      sha256,
      size: file.size,
      status: 'in_progress',
      lines_done: resumeAfter,
      documents_indexed: 0,
      bad_lines: 0,
    };
    await store.saveFile(record);
    let batch: { doc: LegalDocument; raw: string; line: number }[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const written = await indexBatch(engine, embedder, batch, summary);
      record.lines_done = batch[batch.length - 1].line;
      record.documents_indexed += written;
      await store.saveFile(record);
      progress.advance(batch.length, file.relativePath.split('/').pop());
      publish('indexing');
      sinceOptimize += written;
      batch = [];
      if (sinceOptimize >= OPTIMIZE_EVERY_DOCUMENTS) {
        sinceOptimize = 0;
        await engine.optimize();
        await options.onIndexed?.();
      }
    };
    for await (const entry of readJsonLines(file.absolutePath, parseDocumentRecord)) {
      if (!entry.ok) {
        record.bad_lines += 1;
        if (entry.line > resumeAfter) {
          badLine({ file: file.relativePath, line: entry.line, error: entry.error });
          progress.advance(1);
        }
        continue;
      }
      const doc = entry.value;
      if (doc.court_tier === null && tierBySource.has(doc.source) && doc.namespace === 'case_law') {
        doc.court_tier = tierBySource.get(doc.source)!;
      }
      const key = `${doc.source}|${doc.namespace}`;
      if (!seenByKey.has(key)) seenByKey.set(key, new Set());
      seenByKey.get(key)!.add(doc.id);
      summary.documents.seen += 1;
      if (entry.line <= resumeAfter) continue;
      batch.push({ doc, raw: entry.raw, line: entry.line });
      if (batch.length >= batchSize) {
        await flush();
        if (options.signal?.aborted) break;
      }
    }
    if (options.signal?.aborted) {
      summary.interrupted = true;
      break;
    }
    await flush();
    record.status = 'complete';
    await store.saveFile(record);
    summary.files.processed += 1;
  }
  if (options.signal?.aborted) summary.interrupted = true;
  progress.finish(summary.interrupted ? 'interrupted' : 'done');

  // 5. Documents that disappeared from a re-indexed file leave the index.
  if (!summary.interrupted && seenByKey.size > 0) {
    const gone: string[] = [];
    for await (const rows of engine.scanMetadata()) {
      for (const row of rows) {
        const seen = seenByKey.get(`${row.source}|${row.namespace}`);
        if (seen && !seen.has(row.id)) gone.push(row.id);
      }
    }
    if (gone.length > 0) await engine.deleteDocuments(gone);
    summary.documents.deleted = gone.length;
  }

  const changed = summary.documents.indexed + summary.documents.deleted + summary.reembedded > 0;
  if (changed) {
    publish('optimizing');
    await engine.optimize();
    await options.onIndexed?.();
  }
  summary.seconds = (Date.now() - startedAt) / 1000;
  summary.documentsPerSecond = summary.documents.indexed / Math.max(summary.seconds, 0.001);

  // 6. How often decisions and guidance documents cite each provision (read from the files,
  // only when they changed since the counts were made; search reads them on the refresh). Only
  // a refinement of the ranking: a failure is logged and the index stays as written.
  if (options.citationCountsFile && !options.signal?.aborted) {
    publish('citations');
    try {
      const counted = await updateCitationCounts(options.citationCountsFile, files, hashes, { logger, tty: options.tty, signal: options.signal });
      if (counted) await options.onIndexed?.();
    } catch (error) {
      logger.warn(`ingest: counting the corpus's citations failed; search keeps the counts it had (${(error as Error).message})`);
    }
  }
  publish('done');
  logger.info(formatSummary(summary));
  return summary;
}

/** Writes the documents of one batch whose content changed; returns how many were written. */
async function indexBatch(
  engine: SearchEngine,
  embedder: Embedder | null,
  batch: { doc: LegalDocument; raw: string }[],
  summary: IngestSummary,
): Promise<number> {
  const hashes = await engine.contentHashes(batch.map((b) => b.doc.id));
  const changed: DocumentInput[] = [];
  for (const { doc, raw } of batch) {
    const contentHash = createHash('sha1').update(`${CHUNKER_VERSION}\n${doc.court_tier}\n${raw}`).digest('hex');
    if (hashes.get(doc.id) === contentHash) {
      summary.documents.unchanged += 1;
      continue;
    }
    changed.push({ document: doc, contentHash, chunks: chunkText(doc.text).map((content) => ({ content })) });
  }
  if (changed.length === 0) return 0;
  if (embedder) {
    const chunks = changed.flatMap((input) => input.chunks.map((chunk) => ({ chunk, text: passageForEmbedding(input.document.title, chunk.content) })));
    for (let i = 0; i < chunks.length; i += EMBED_BATCH) {
      const slice = chunks.slice(i, i + EMBED_BATCH);
      const vectors = await embedder.embedPassages(slice.map((c) => c.text));
      slice.forEach((c, j) => (c.chunk.vector = vectors[j]));
    }
  }
  await engine.upsertDocuments(changed);
  summary.documents.indexed += changed.length;
  summary.chunks += changed.reduce((n, c) => n + c.chunks.length, 0);
  return changed.length;
}

/** The text a passage is embedded from: its document's title gives the context. */
export function passageForEmbedding(title: string, content: string): string {
  return content.startsWith(title) ? content : `${title}\n${content}`;
}

async function reembedIfModelChanged(
  engine: SearchEngine,
  embedder: Embedder,
  logger: Logger,
  report: (state: IngestState) => void,
): Promise<number> {
  const stored = await engine.vectorModel();
  if (stored === embedder.id) return 0;
  const { total } = await engine.countChunks();
  if (total === 0) {
    await engine.setVectorModel(embedder.id, embedder.dimension);
    return 0;
  }
  logger.info(`ingest: the embedding model changed (${stored ?? 'none'} -> ${embedder.id}): re-embedding ${total.toLocaleString('en')} chunks`);
  const progress = new Progress('re-embed', total, { log: (l) => logger.info(l) });
  let count = 0;
  async function* vectors(): AsyncGenerator<Map<string, Float32Array>> {
    for await (const chunks of engine.scanChunks(EMBED_BATCH)) {
      const embedded = await embedder.embedPassages(chunks.map((c) => passageForEmbedding(c.title, c.content)));
      count += chunks.length;
      progress.advance(chunks.length);
      const s = progress.snapshot();
      report({ phase: 're-embedding', documents_done: s.done, documents_total: total, files_done: 0, files_total: 0, documents_per_second: s.perSecond, eta_seconds: s.etaSeconds });
      yield new Map(chunks.map((c, i) => [c.chunkId, embedded[i]]));
    }
  }
  await engine.replaceVectors(embedder.id, vectors());
  await engine.setVectorModel(embedder.id, embedder.dimension);
  progress.finish();
  return count;
}

async function hashFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export function formatSummary(s: IngestSummary): string {
  return [
    `ingest ${s.interrupted ? 'interrupted (resumable)' : 'finished'} in ${formatDuration(s.seconds)}:`,
    `files ${s.files.processed} indexed / ${s.files.skipped} unchanged / ${s.files.total} total;`,
    `documents ${s.documents.indexed.toLocaleString('en')} written, ${s.documents.unchanged.toLocaleString('en')} unchanged, ${s.documents.deleted} removed`,
    `(${Math.round(s.documentsPerSecond).toLocaleString('en')} docs/s), ${s.chunks.toLocaleString('en')} chunks;`,
    `sources +${s.sources.inserted} ~${s.sources.updated};`,
    s.reembedded ? `${s.reembedded} chunks re-embedded;` : '',
    `${s.badLineCount} bad lines skipped`,
  ]
    .filter(Boolean)
    .join(' ');
}
