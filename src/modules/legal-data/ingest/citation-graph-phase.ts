/**
 * The ingest's citation graph phase (issue 37, item 1): every decision and guidance document of
 * the corpus, and with CITATOR_LINK_LEGISLATION every legislation article, is linked by the citator (citator/citation-graph.ts)
 * and its rows are stored; an article citing nothing stores no row (there are 125,000). A
 * document whose checkpoint (text, stored metadata and the corpus's legislation files) is
 * unchanged keeps its rows untouched, so re-ingesting a changed decision relinks that decision
 * only; documents that left the corpus lose theirs. The phase is skipped outright when the corpus
 * files are those the graph was last built from.
 */
import { createHash } from 'node:crypto';
import type { LegalDocument } from '../../../domain/legal-document.js';
import type { Logger } from '../../../logger.js';
import { type CorpusFile, parseDocumentRecord, readJsonLines } from '../corpus/corpus-reader.js';
import type { ReferenceIndex } from '../resolver/reference-index.js';
import { citatorDocument, citingChecksum, graphOfDocument, linksCitations, type CitingDocumentGraph } from '../citator/citation-graph.js';
import type { CitationGraphState } from '../citator/citation-graph.store.js';
import { corpusFingerprint } from './citation-counts.js';
import { formatDuration, Progress } from './progress.js';

/** What the phase needs from the relational store (citation-graph.store.ts; over IPC in the server's ingest). */
export interface CitationGraphStore {
  citationGraphState(): Promise<CitationGraphState | null>;
  setCitationGraphState(state: CitationGraphState): Promise<void>;
  citationCheckpoints(): Promise<Record<string, string>>;
  replaceCitationGraphs(graphs: CitingDocumentGraph[]): Promise<void>;
  removeCitingDocuments(ids: string[]): Promise<void>;
  citationGraphSize(): Promise<{ documents: number; links: number; unresolved: number }>;
}

/** What the phase did (printed in the ingest summary). */
export interface CitationGraphOutcome {
  /** Citing documents linked anew (changed or new), and removed. */
  relinked: number;
  removed: number;
  /** The stored graph after the phase. */
  documents: number;
  links: number;
  unresolved: number;
  seconds: number;
}

/** Citing documents written per transaction. */
const WRITE_BATCH = 200;

/**
 * The version of the rows the phase writes: part of both fingerprints, so a graph written by an
 * older version is linked anew at the next start (2: links carry `cited_act_id`).
 */
const GRAPH_VERSION = 2;

/** The fingerprint of the corpus's legislation files (what a citation can resolve to) and of the graph's version. */
export function actsFingerprint(hashes: ReadonlyMap<string, string>): string {
  const hash = createHash('sha256').update(`citation graph v${GRAPH_VERSION}\n`);
  for (const [file, sha256] of [...hashes].filter(([f]) => f.split('/')[1] === 'legislation').sort(([a], [b]) => (a < b ? -1 : 1))) hash.update(`${file}\0${sha256}\n`);
  return hash.digest('hex');
}

/**
 * The graph's fingerprints: the corpus's (the graph is rebuilt when it changes; switching the
 * legislation on or off changes it too) and the legislation files' (every checkpoint holds it).
 */
export function graphFingerprints(hashes: ReadonlyMap<string, string>, legislation: boolean): { corpus: string; acts: string } {
  return { corpus: `${corpusFingerprint(hashes)}+v${GRAPH_VERSION}${legislation ? '+legislation' : ''}`, acts: actsFingerprint(hashes) };
}

/**
 * Brings the stored graph up to date with `files` (`corpus`: their fingerprint); `legislation`
 * (CITATOR_LINK_LEGISLATION) links legislation's articles too, else a legislation file is not read. Null when the
 * graph was already built from these files (nothing read) or when aborted (the next ingest
 * goes on from the documents already written).
 */
export async function updateCitationGraph(
  files: CorpusFile[],
  index: () => Promise<ReferenceIndex>,
  fingerprints: { corpus: string; acts: string },
  store: CitationGraphStore,
  options: { logger: Logger; tty?: NodeJS.WriteStream; signal?: AbortSignal; legislation?: boolean },
): Promise<CitationGraphOutcome | null> {
  if ((await store.citationGraphState())?.corpus === fingerprints.corpus) return null;
  const started = Date.now();
  const references = await index();
  const stored = new Map(Object.entries(await store.citationCheckpoints()));
  const seen = new Set<string>();
  const progress = new Progress('citation graph', null, { log: (l) => options.logger.info(l), tty: options.tty });
  let batch: CitingDocumentGraph[] = [];
  let relinked = 0;
  const flush = async () => {
    await store.replaceCitationGraphs(batch);
    relinked += batch.length;
    batch = [];
  };
  for (const [i, file] of files.entries()) {
    const namespace = file.relativePath.split('/')[1];
    if (!linksCitations(namespace) || (namespace === 'legislation' && !options.legislation)) continue;
    const note = `${i + 1}/${files.length} ${file.relativePath.split('/').pop()}`;
    for await (const entry of readJsonLines(file.absolutePath, parseDocumentRecord)) {
      if (options.signal?.aborted) return null;
      if (!entry.ok || !linksCitations(entry.value.namespace)) continue;
      const doc: LegalDocument = entry.value;
      const input = citatorDocument(references, doc);
      progress.advance(1, note);
      if (!input) continue;
      const checksum = citingChecksum(doc, fingerprints.acts);
      if (stored.get(doc.id) === checksum) {
        seen.add(doc.id);
        continue;
      }
      const graph = graphOfDocument(references, doc, checksum, input);
      // an article citing nothing keeps no row (not seen: a row it had is removed below)
      if (doc.namespace === 'legislation' && graph.links.length + graph.unresolved.length === 0) continue;
      seen.add(doc.id);
      batch.push(graph);
      if (batch.length >= WRITE_BATCH) await flush();
    }
  }
  await flush();
  const gone = [...stored.keys()].filter((id) => !seen.has(id));
  await store.removeCitingDocuments(gone);
  await store.setCitationGraphState({ corpus: fingerprints.corpus });
  progress.finish('done');
  const size = await store.citationGraphSize();
  const outcome = { relinked, removed: gone.length, ...size, seconds: (Date.now() - started) / 1000 };
  options.logger.info(`ingest: ${formatCitationGraph(outcome)}`);
  return outcome;
}

/** One line: the graph's size and what this ingest did to it. */
export function formatCitationGraph(o: CitationGraphOutcome): string {
  return (
    `citation graph ${o.links.toLocaleString('en')} links and ${o.unresolved.toLocaleString('en')} unresolved citations ` +
    `from ${o.documents.toLocaleString('en')} documents (${o.relinked.toLocaleString('en')} linked anew, ${o.removed} removed) ` +
    `built in ${formatDuration(o.seconds)}`
  );
}
