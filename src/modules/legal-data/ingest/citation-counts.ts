/**
 * How many decisions and guidance documents of the corpus cite each provision: the citation
 * authority search weighs as a small prior (hybrid-fusion.ts, CitationAuthority). A provision
 * courts apply again and again (§ 823 BGB, Art. 6 GDPR) is more often the answer to a question
 * than a neighbour with the same words that nobody cites.
 *
 * Citations are found as strictly as `POST /v1/resolve` resolves them (citation-pairs.ts: only
 * a citation naming one provision of one act of the corpus counts), each citing document once
 * per provision. The counts are read from the corpus files at the end of an ingest when the
 * files differ from those they were counted from (a citing document may change, or the act it
 * cites may arrive later), and kept in the data folder as JSON (a few thousand entries) with
 * the fingerprint of those files.
 */
import { createHash } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type CorpusFile, parseDocumentRecord, readJsonLines } from '../corpus/corpus-reader.js';
import { citationsByChunk, citesProvisions, referenceIndexOfCorpus } from '../training/citation-pairs.js';
import type { Logger } from '../../../logger.js';
import type { ReferenceIndex } from '../resolver/reference-index.js';
import type { LegalDocument } from '../../../domain/legal-document.js';
import { formatDuration, Progress } from './progress.js';

/** Citing documents by cited document id. */
export type CitationCounts = ReadonlyMap<string, number>;

const FILE_NAME = 'citation-counts.json';
const FORMAT = 1;

/** Where the counts of a data folder are kept. */
export function citationCountsFile(dataDir: string): string {
  return path.join(dataDir, FILE_NAME);
}

export interface CountOptions {
  logger: Logger;
  tty?: NodeJS.WriteStream;
  signal?: AbortSignal;
  /** The reference index of `files` when the caller has one (the ingest shares it with the citation graph). */
  index?: () => Promise<ReferenceIndex>;
}

/** Counts, per cited provision, the documents of `files` that cite it (null when aborted). */
export async function countCitations(
  files: CorpusFile[],
  options: CountOptions,
): Promise<CitationCounts | null> {
  const started = Date.now();
  const index = await (options.index ?? (() => referenceIndexOfCorpus(files, options.signal)))();
  const counts = new Map<string, number>();
  const progress = new Progress('citation counts', null, { log: (l) => options.logger.info(l), tty: options.tty });
  let citing = 0;
  for (const [i, file] of files.entries()) {
    // documents/<namespace>/<file>: the acts' own files hold no citing document.
    if (!citesProvisions({ namespace: file.relativePath.split('/')[1] as LegalDocument['namespace'] })) continue;
    const note = `${i + 1}/${files.length} ${file.relativePath.split('/').pop()}`;
    for await (const entry of readJsonLines(file.absolutePath, parseDocumentRecord)) {
      if (options.signal?.aborted) return null;
      if (!entry.ok || !citesProvisions(entry.value)) continue;
      const cited = new Set<string>();
      for (const { citations } of citationsByChunk(index, entry.value)) for (const c of citations) cited.add(c.doc.id);
      for (const id of cited) counts.set(id, (counts.get(id) ?? 0) + 1);
      citing += 1;
      progress.advance(1, note);
    }
  }
  progress.finish('done');
  options.logger.info(
    `ingest: citations counted in ${citing.toLocaleString('en')} decisions and guidance documents: ` +
      `${counts.size.toLocaleString('en')} provisions cited [${formatDuration((Date.now() - started) / 1000)}]`,
  );
  return counts;
}

/**
 * Counts the citations of the corpus into `file` unless it holds the counts of these very files
 * (`hashes`: content hash by relative path). True when it counted, false when the stored counts
 * were current, null when aborted.
 */
export async function updateCitationCounts(
  file: string,
  files: CorpusFile[],
  hashes: ReadonlyMap<string, string>,
  options: CountOptions,
): Promise<boolean | null> {
  const corpus = corpusFingerprint(hashes);
  if ((await readCountsFile(file))?.corpus === corpus) return false;
  const counts = await countCitations(files, options);
  if (!counts) return null;
  const tmp = `${file}.tmp`;
  // Written whole, then renamed: a reader never sees half a file.
  await writeFile(tmp, JSON.stringify({ format: FORMAT, corpus, counts: Object.fromEntries(counts) } satisfies CountsFile));
  await rename(tmp, file);
  return true;
}

/** The stored counts, or null when there are none yet (or of another format: counted anew by the next ingest). */
export async function loadCitationCounts(file: string): Promise<CitationCounts | null> {
  const data = await readCountsFile(file);
  return data ? new Map(Object.entries(data.counts).filter(([, n]) => Number.isInteger(n) && n > 0)) : null;
}

interface CountsFile {
  format: number;
  /** corpusFingerprint of the files counted. */
  corpus: string;
  counts: Record<string, number>;
}

async function readCountsFile(file: string): Promise<CountsFile | null> {
  let data: Partial<CountsFile>;
  try {
    data = JSON.parse(await readFile(file, 'utf8')) as Partial<CountsFile>;
  } catch {
    return null; // none yet, or unreadable: counted anew
  }
  return data.format === FORMAT && typeof data.corpus === 'string' && data.counts && typeof data.counts === 'object' ? (data as CountsFile) : null;
}

/** One hash of every document file's path and content hash. */
export function corpusFingerprint(hashes: ReadonlyMap<string, string>): string {
  const hash = createHash('sha256');
  for (const [file, sha256] of [...hashes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) hash.update(`${file}\0${sha256}\n`);
  return hash.digest('hex');
}
