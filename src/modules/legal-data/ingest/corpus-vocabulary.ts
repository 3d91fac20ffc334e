/**
 * The compound vocabulary counted from the corpus files before an ingest writes documents
 * (compounds.ts): an engine that splits compounds at index time needs it first, and the same
 * vocabulary then serves the query side. One pass over every document file: the words of each
 * document in a compounding language (its own, else detected) are counted once per document.
 * Memory stays bounded: past MAX_WORDS distinct words per language, the words seen once so
 * far are dropped every PRUNE_EVERY documents.
 */
import { type CompoundVocabulary, compoundLanguage, VocabularyCounter } from '../../../engines/compounds.js';
import { resolveDocumentLanguage } from '../../../engines/text-analysis.js';
import { foldedWords } from '../../../engines/text-folding.js';
import type { Logger } from '../../../logger.js';
import { type CorpusFile, parseDocumentRecord, readJsonLines } from '../corpus/corpus-reader.js';
import { formatDuration, Progress } from './progress.js';

const MAX_WORDS = 3_000_000;
const PRUNE_EVERY = 100_000;

export async function countCorpusVocabulary(
  files: CorpusFile[],
  options: { logger: Logger; tty?: NodeJS.WriteStream; signal?: AbortSignal },
): Promise<CompoundVocabulary | null> {
  const started = Date.now();
  const counter = new VocabularyCounter();
  const progress = new Progress('compound vocabulary', null, { log: (l) => options.logger.info(l), tty: options.tty });
  let documents = 0;
  for (const [i, file] of files.entries()) {
    const note = `${i + 1}/${files.length} ${file.relativePath.split('/').pop()}`;
    for await (const entry of readJsonLines(file.absolutePath, parseDocumentRecord)) {
      if (options.signal?.aborted) return null;
      if (!entry.ok) continue; // the ingest reports bad lines
      const doc = entry.value;
      const language = resolveDocumentLanguage(doc.text, doc.language);
      if (compoundLanguage(language)) counter.add(foldedWords(`${doc.title ?? ''}\n${doc.text}`), language);
      documents += 1;
      if (documents % PRUNE_EVERY === 0) counter.prune(MAX_WORDS);
      progress.advance(1, note);
    }
  }
  progress.finish('done');
  const vocabulary = counter.finish(counter.passages, 'corpus');
  const sizes = Object.entries(vocabulary.sizes()).map(([l, n]) => `${l} ${n.toLocaleString('en')}`).join(', ');
  options.logger.info(
    `ingest: compound vocabulary counted from ${counter.passages.toLocaleString('en')} of ${documents.toLocaleString('en')} documents ` +
      `(compounding languages), words kept: ${sizes || 'none'} [${formatDuration((Date.now() - started) / 1000)}]`,
  );
  return vocabulary;
}
