// size: the ingest's phases in the order they run, with the types its callers (platform, CLI, child process) import; the batch write and the re-embedding are already files of their own
/**
 * The ingest: corpus folder -> sources catalogue (database) + documents, chunks and vectors
 * (search engine). Idempotent (unchanged files and documents are skipped by hash), resumable
 * (a checkpoint per file after every batch), and honest about bad lines (reported with file
 * and line number, then skipped). `ingestCorpus` runs the phases below in order; writing one
 * batch is index-batch.ts, re-embedding after a model change is reembedding.ts.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Embedder } from '../../../engines/embedder.js';
import type { SearchEngine } from '../../../engines/search-engine.js';
import type { Logger } from '../../../logger.js';
import type { LegalDocument } from '../../../domain/legal-document.js';
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
import { formatCitationGraph, graphFingerprints, updateCitationGraph, type CitationGraphOutcome, type CitationGraphStore } from './citation-graph-phase.js';
import { referenceIndexOfCorpus } from '../training/citation-pairs.js';
import type { ReferenceIndex } from '../resolver/reference-index.js';
import { indexBatch } from './index-batch.js';
import { optimizeWithProgress } from './optimize-progress.js';
import { formatDuration, Progress } from './progress.js';
import { reembedIfModelChanged } from './reembedding.js';

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
export interface IngestStore extends CitationGraphStore {
  upsertSources(sources: CatalogSource[]): Promise<{ inserted: number; updated: number; unchanged: number }>;
  getFile(relativePath: string): Promise<IngestFileRecord | null>;
  saveFile(record: IngestFileRecord): Promise<void>;
}

export interface IngestState {
  phase: 'preparing' | 're-embedding' | 'indexing' | 'optimizing' | 'citations' | 'done';
  /** The step of the phase that runs, when the phase has named steps (optimizing). */
  step?: string;
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
  /** The citation graph phase (null: skipped, the graph was built from these files). */
  citationGraph: CitationGraphOutcome | null;
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
  /** The citation graph links legislation's articles too (CITATOR_LINK_LEGISLATION, on by default; absent here: off). */
  linkLegislation?: boolean;
}

const OPTIMIZE_EVERY_DOCUMENTS = 25_000;

/** What one ingest run carries through its phases. */
interface IngestRun {
  deps: IngestDeps;
  options: IngestOptions;
  summary: IngestSummary;
  /** Documents written per batch (and per checkpoint). */
  batchSize: number;
  /** Tells `onProgress` (the `/ready` progress) the state. */
  report(state: IngestState): void;
  /** Counts, keeps (the first 50) and logs a skipped line. */
  badLine(entry: BadLine): void;
}

/** A document file to index: changed since the last run, or resumed after its checkpoint. */
interface PendingFile {
  file: CorpusFile;
  sha256: string;
  resumeAfter: number;
  previous: IngestFileRecord | null;
}

/** What the file scan found: every document file, their hashes, and those to index. */
interface FilePlan {
  files: CorpusFile[];
  hashes: Map<string, string>;
  pending: PendingFile[];
  totalLines: number;
}

/** Publishes the indexing progress (`/ready` and the progress line) in a phase. */
type Publish = (phase: IngestState['phase'], step?: string) => void;

/**
 * Ingests the corpus folder, phase by phase: the sources catalogue; re-embedding when the model
 * changed; which files changed; the compound vocabulary when the engine needs it; the changed
 * files batch by batch with a checkpoint after each; removing the documents that left their
 * files; optimising; the citation counts. Progress goes to `onProgress` and one progress line.
 */
export async function ingestCorpus(deps: IngestDeps, options: IngestOptions): Promise<IngestSummary> {
  const { engine, embedder, logger } = deps;
  const startedAt = Date.now();
  const run = startRun(deps, options);
  const { summary } = run;

  run.report({ phase: 'preparing', documents_done: 0, documents_total: null, files_done: 0, files_total: 0, documents_per_second: null, eta_seconds: null });
  const tierBySource = await importCatalogue(run);
  // Vectors of another model are never mixed with new ones: re-embed what is stored first.
  if (embedder) {
    summary.reembedded = await reembedIfModelChanged(
      engine,
      embedder,
      logger,
      (s, total) => run.report({ phase: 're-embedding', documents_done: s.done, documents_total: total, files_done: 0, files_total: 0, documents_per_second: s.perSecond, eta_seconds: s.etaSeconds }),
      (step) => run.report({ phase: 're-embedding', step, documents_done: 0, documents_total: null, files_done: 0, files_total: 0, documents_per_second: null, eta_seconds: null }),
    );
  }
  const plan = await planFiles(run);
  await prepareCompoundVocabulary(run, plan);

  const progress = new Progress('ingest', plan.totalLines, { log: (l) => logger.info(l), tty: options.tty });
  const publish: Publish = (phase, step) => {
    const s = progress.snapshot();
    run.report({
      phase,
      ...(step ? { step } : {}),
      documents_done: s.done,
      documents_total: s.total,
      files_done: summary.files.skipped + summary.files.processed,
      files_total: plan.files.length,
      documents_per_second: s.perSecond,
      eta_seconds: s.etaSeconds,
    });
  };
  publish('indexing');
  const seenByKey = await indexFiles(run, plan.pending, tierBySource, progress, publish);
  progress.finish(summary.interrupted ? 'interrupted' : 'done');
  if (!summary.interrupted && seenByKey.size > 0) summary.documents.deleted = await removeVanishedDocuments(engine, seenByKey);

  const changed = summary.documents.indexed + summary.documents.deleted + summary.reembedded > 0;
  if (changed) {
    publish('optimizing');
    await optimizeWithProgress(engine, { log: (line) => logger.info(line), onStep: (step) => publish('optimizing', step) });
    await options.onIndexed?.();
  }
  summary.seconds = (Date.now() - startedAt) / 1000;
  summary.documentsPerSecond = summary.documents.indexed / Math.max(summary.seconds, 0.001);

  if (options.citationCountsFile && !options.signal?.aborted) await refreshCitations(run, options.citationCountsFile, plan, publish);
  publish('done');
  logger.info(formatSummary(summary));
  return summary;
}

function startRun(deps: IngestDeps, options: IngestOptions): IngestRun {
  const summary: IngestSummary = {
    files: { total: 0, skipped: 0, processed: 0 },
    documents: { seen: 0, indexed: 0, unchanged: 0, deleted: 0 },
    chunks: 0,
    sources: { inserted: 0, updated: 0, unchanged: 0 },
    reembedded: 0,
    citationGraph: null,
    badLineCount: 0,
    badLines: [],
    seconds: 0,
    documentsPerSecond: 0,
    interrupted: false,
  };
  return {
    deps,
    options,
    summary,
    batchSize: options.batchSize ?? 500,
    report: (state) => options.onProgress?.(state),
    badLine: (entry) => {
      summary.badLineCount += 1;
      if (summary.badLines.length < 50) summary.badLines.push(entry);
      deps.logger.warn(`ingest: skipped ${entry.file}:${entry.line}: ${entry.error}`);
    },
  };
}

/** Phase 1: the sources catalogue into the database; returns each source's court tier (case law without one inherits it). */
async function importCatalogue(run: IngestRun): Promise<Map<string, number>> {
  const catalogue = await readSourcesCatalogue(run.options.corpusDir);
  catalogue.errors.forEach((e) => run.badLine({ file: 'sources.jsonl.gz', line: Number(e.split(':')[1]), error: e }));
  run.summary.sources = await run.deps.store.upsertSources(catalogue.sources);
  return new Map(catalogue.sources.filter((s) => s.tier !== null).map((s) => [s.source, s.tier as number]));
}

/** Phase 3: which document files changed since the last run (by content hash), and how many lines are left to read. */
async function planFiles(run: IngestRun): Promise<FilePlan> {
  const { store, logger, embedder } = run.deps;
  const { summary } = run;
  const files = await listDocumentFiles(run.options.corpusDir);
  summary.files.total = files.length;
  const pending: PendingFile[] = [];
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
  return { files, hashes, pending, totalLines };
}

/**
 * Phase 3b: an engine that splits compounds at index time needs the corpus vocabulary before the
 * first write; a resumed or incremental ingest keeps the one stored beside the index.
 */
async function prepareCompoundVocabulary(run: IngestRun, plan: FilePlan): Promise<void> {
  const { engine, logger } = run.deps;
  if (plan.pending.length > 0 && engine.setCompoundVocabulary && (await engine.needsCompoundVocabulary?.())) {
    const vocabulary = await countCorpusVocabulary(plan.files, { logger, tty: run.options.tty, signal: run.options.signal });
    if (vocabulary) await engine.setCompoundVocabulary(vocabulary);
  }
}

/** The documents seen per `source|namespace` while indexing, and the count since the last optimize. */
interface IndexingState {
  seenByKey: Map<string, Set<string>>;
  sinceOptimize: number;
}

/**
 * Phase 4: the changed files, batch by batch, with a checkpoint after every batch; stops (marked
 * interrupted) when the signal aborts. Returns the documents seen per `source|namespace`.
 */
async function indexFiles(
  run: IngestRun,
  pending: PendingFile[],
  tierBySource: Map<string, number>,
  progress: Progress,
  publish: Publish,
): Promise<Map<string, Set<string>>> {
  const state: IndexingState = { seenByKey: new Map(), sinceOptimize: 0 };
  for (const file of pending) {
    if (run.options.signal?.aborted) break;
    if (!(await indexFile(run, file, tierBySource, state, progress, publish))) {
      run.summary.interrupted = true;
      break;
    }
  }
  if (run.options.signal?.aborted) run.summary.interrupted = true;
  return state.seenByKey;
}

/** Indexes one file from its checkpoint on; false when the signal aborted it before its end. */
async function indexFile(
  run: IngestRun,
  { file, sha256, resumeAfter }: PendingFile,
  tierBySource: Map<string, number>,
  state: IndexingState,
  progress: Progress,
  publish: Publish,
): Promise<boolean> {
  const { engine, embedder, store } = run.deps;
  const { options, summary } = run;
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
    const outcome = await indexBatch(engine, embedder, batch);
    const written = outcome.written;
    summary.documents.indexed += outcome.written;
    summary.documents.unchanged += outcome.unchanged;
    summary.chunks += outcome.chunks;
    record.lines_done = batch[batch.length - 1].line;
    record.documents_indexed += written;
    await store.saveFile(record);
    progress.advance(batch.length, file.relativePath.split('/').pop());
    publish('indexing');
    state.sinceOptimize += written;
    batch = [];
    if (state.sinceOptimize >= OPTIMIZE_EVERY_DOCUMENTS) {
      state.sinceOptimize = 0;
      await optimizeWithProgress(engine, { log: (line) => run.deps.logger.info(line), onStep: (step) => publish('optimizing', step) });
      await options.onIndexed?.();
    }
  };
  for await (const entry of readJsonLines(file.absolutePath, parseDocumentRecord)) {
    if (!entry.ok) {
      record.bad_lines += 1;
      if (entry.line > resumeAfter) {
        run.badLine({ file: file.relativePath, line: entry.line, error: entry.error });
        progress.advance(1);
      }
      continue;
    }
    const doc = entry.value;
    if (doc.court_tier === null && tierBySource.has(doc.source) && doc.namespace === 'case_law') {
      doc.court_tier = tierBySource.get(doc.source)!;
    }
    const key = `${doc.source}|${doc.namespace}`;
    if (!state.seenByKey.has(key)) state.seenByKey.set(key, new Set());
    state.seenByKey.get(key)!.add(doc.id);
    summary.documents.seen += 1;
    if (entry.line <= resumeAfter) continue;
    batch.push({ doc, raw: entry.raw, line: entry.line });
    if (batch.length >= run.batchSize) {
      await flush();
      if (options.signal?.aborted) break;
    }
  }
  if (options.signal?.aborted) return false;
  await flush();
  record.status = 'complete';
  await store.saveFile(record);
  summary.files.processed += 1;
  return true;
}

/** Phase 5: documents that disappeared from a re-indexed file leave the index; returns how many. */
async function removeVanishedDocuments(engine: SearchEngine, seenByKey: Map<string, Set<string>>): Promise<number> {
  const gone: string[] = [];
  for await (const rows of engine.scanMetadata()) {
    for (const row of rows) {
      const seen = seenByKey.get(`${row.source}|${row.namespace}`);
      if (seen && !seen.has(row.id)) gone.push(row.id);
    }
  }
  if (gone.length > 0) await engine.deleteDocuments(gone);
  return gone.length;
}

/**
 * Phase 6: how often decisions and guidance documents cite each provision, and the citation graph
 * (citation-graph-phase.ts), both read from the files only when they changed since last time, on
 * one reference index built once. The counts only refine the ranking: their failure is logged and
 * the index stays as written; the graph's failure fails the ingest like a batch's would.
 */
async function refreshCitations(run: IngestRun, citationCountsFile: string, plan: FilePlan, publish: Publish): Promise<void> {
  const { logger, store } = run.deps;
  const { tty, signal } = run.options;
  publish('citations');
  let built: Promise<ReferenceIndex> | null = null;
  const index = () => (built ??= referenceIndexOfCorpus(plan.files, signal));
  try {
    const counted = await updateCitationCounts(citationCountsFile, plan.files, plan.hashes, { logger, tty, signal, index });
    if (counted) await run.options.onIndexed?.();
  } catch (error) {
    logger.warn(`ingest: counting the corpus's citations failed; search keeps the counts it had (${(error as Error).message})`);
  }
  if (signal?.aborted) return;
  const legislation = run.options.linkLegislation ?? false;
  const fingerprints = graphFingerprints(plan.hashes, legislation);
  run.summary.citationGraph = await updateCitationGraph(plan.files, index, fingerprints, store, { logger, tty, signal, legislation });
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
    s.citationGraph ? `${formatCitationGraph(s.citationGraph)};` : '',
    `${s.badLineCount} bad lines skipped`,
  ]
    .filter(Boolean)
    .join(' ');
}
