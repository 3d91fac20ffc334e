/**
 * The corpus vocabulary of the compounding languages (compounds.ts), stored beside the index
 * as `compound-vocabulary.json`.
 *
 * An ingest counts it from the corpus files before it writes documents (origin `corpus`, see
 * {@link VocabularyStore.setCorpusVocabulary}): the documents' compounds are split with it at
 * index time, so it is kept as it is (never rebuilt in the background) until the ingest of an
 * empty index counts a new one.
 *
 * An index written without one (by an older version, or by upserts outside an ingest) gets
 * one gathered from the indexed passages, for the query side only, in the background, never
 * on a request: at open when the index has passages but no vocabulary, and after an optimize
 * when the number of passages moved by more than {@link STALE_SHARE} since the last build,
 * once no document has been written for {@link QUIET_MS} (so a stream of writes pays one scan
 * at its end, not one per optimize). Until the first build is done the keyword leg simply
 * works without compounds.
 */
import { readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type * as lancedb from '@lancedb/lancedb';
import { compoundLanguage, CompoundVocabulary, type CompoundVocabularyData, VocabularyCounter } from '../compounds.js';
import { detectDocumentLanguage } from '../language-detection.js';
import { foldedWords } from '../text-folding.js';

export const VOCABULARY_FILE = 'compound-vocabulary.json';
/** Share of passages added or removed since the last build after which the vocabulary is rebuilt. */
const STALE_SHARE = 0.1;
/** Distinct words per language above which words seen once so far are dropped during a scan. */
const MAX_WORDS_DURING_SCAN = 3_000_000;
/** Quiet time after the last write before a stale vocabulary is rebuilt. */
const QUIET_MS = 30_000;

export class VocabularyStore {
  current: CompoundVocabulary | null = null;
  private building: Promise<void> | null = null;
  private closed = false;
  private timer: NodeJS.Timeout | null = null;
  private pending: { chunks: lancedb.Table; count: () => Promise<number> } | null = null;

  constructor(
    private readonly dir: string,
    private readonly log: (message: string) => void = () => {},
  ) {}

  get file(): string {
    return path.join(this.dir, VOCABULARY_FILE);
  }

  /** Modification time of the file last loaded (another process may replace it). */
  private loadedMtime = 0;

  /** Loads the stored vocabulary, if any. */
  async load(): Promise<void> {
    try {
      this.loadedMtime = (await stat(this.file)).mtimeMs;
      this.current = CompoundVocabulary.fromJSON(JSON.parse(await readFile(this.file, 'utf8')) as CompoundVocabularyData);
    } catch {
      this.current = null;
    }
  }

  /**
   * Loads the file again when another process (the ingest's child, another service process on
   * the same index) replaced it; with `everyMs`, looks (a `stat`) at most that often.
   */
  async reloadIfChanged(everyMs = 0): Promise<void> {
    if (everyMs > 0 && performance.now() - this.checkedAt < everyMs) return;
    this.checkedAt = performance.now();
    const mtime = await stat(this.file).then((s) => s.mtimeMs, () => 0);
    if (mtime !== 0 && mtime !== this.loadedMtime) await this.load();
  }
  private checkedAt = 0;

  /** The vocabulary an ingest counted from the corpus: stored and used from now on (never rebuilt in the background). */
  async setCorpusVocabulary(vocabulary: CompoundVocabulary): Promise<void> {
    await this.idle();
    await this.save(vocabulary);
  }

  private async save(vocabulary: CompoundVocabulary): Promise<void> {
    const tmp = `${this.file}.tmp`;
    await writeFile(tmp, JSON.stringify(vocabulary.toJSON()));
    await rename(tmp, this.file);
    this.loadedMtime = (await stat(this.file)).mtimeMs;
    this.current = vocabulary;
  }

  /** Starts a background rebuild when there is none yet or it is stale (returns at once); a corpus vocabulary is kept. */
  refreshIfStale(chunks: lancedb.Table, chunkCount: number): void {
    if (this.building || this.closed || chunkCount === 0 || this.current?.origin === 'corpus') return;
    const built = this.current?.chunkCount ?? 0;
    if (this.current && Math.abs(chunkCount - built) <= STALE_SHARE * Math.max(built, 1)) return;
    this.building = this.build(chunks, chunkCount)
      .catch((error) => this.log(`compound vocabulary: build failed (${(error as Error).message}); keyword search goes on without it`))
      .finally(() => (this.building = null));
  }

  /** Rebuilds when stale once no write came for QUIET_MS (`touch` on every write pushes it back). */
  refreshWhenQuiet(chunks: lancedb.Table, count: () => Promise<number>, quietMs = QUIET_MS): void {
    if (this.closed) return;
    this.pending = { chunks, count };
    this.arm(quietMs);
  }

  /** A write happened: a scheduled rebuild waits for the next quiet period. */
  touch(quietMs = QUIET_MS): void {
    if (this.pending) this.arm(quietMs);
  }

  private arm(quietMs: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      const pending = this.pending;
      this.pending = null;
      if (!pending || this.closed) return;
      pending
        .count()
        .then((n) => this.refreshIfStale(pending.chunks, n))
        .catch(() => undefined);
    }, quietMs);
    this.timer.unref();
  }

  /** Resolves once a running build is done. */
  async idle(): Promise<void> {
    await this.building;
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pending = null;
  }

  /** Counts the words of every passage in a compounding language (its own, else detected). */
  async build(chunks: lancedb.Table, chunkCount: number): Promise<void> {
    const started = Date.now();
    const counter = new VocabularyCounter();
    let seen = 0;
    for await (const batch of chunks.query().select(['content', 'language'])) {
      if (this.closed) return;
      for (const row of batch.toArray() as unknown as { content: string; language: string | null }[]) {
        const content = row.content ?? '';
        const language = row.language ?? detectDocumentLanguage(content);
        if (compoundLanguage(language)) counter.add(foldedWords(content), language);
      }
      seen += batch.numRows;
      if (seen % 100_000 < batch.numRows) counter.prune(MAX_WORDS_DURING_SCAN);
      await new Promise((resolve) => setImmediate(resolve)); // searches run between batches
    }
    await this.reloadIfChanged();
    if (this.current?.origin === 'corpus') return; // an ingest (maybe in another process) stored one meanwhile
    const vocabulary = counter.finish(chunkCount);
    await this.save(vocabulary);
    const sizes = Object.entries(vocabulary.sizes()).map(([l, n]) => `${l} ${n.toLocaleString('en')}`).join(', ');
    this.log(`compound vocabulary: ${counter.passages.toLocaleString('en')} passages, words kept: ${sizes || 'none'} [${Math.round((Date.now() - started) / 1000)} s]`);
  }
}
