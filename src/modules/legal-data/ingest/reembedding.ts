/**
 * Re-embedding the stored chunks when the configured embedding model changed (the ingest's
 * second phase, ingest.service.ts).
 */
import type { Embedder } from '../../../engines/embedder.js';
import type { SearchEngine } from '../../../engines/search-engine.js';
import type { Logger } from '../../../logger.js';
import { EMBED_BATCH, passageForEmbedding } from './index-batch.js';
import { withStepProgress } from './optimize-progress.js';
import { Progress, type ProgressSnapshot } from './progress.js';

/**
 * When the stored vectors come from another model than `embedder`, re-embeds every stored chunk
 * (vectors of two models are never mixed) with its own progress line, calling `onProgress` after
 * each batch; records the new model. Returns how many chunks were re-embedded.
 */
export async function reembedIfModelChanged(
  engine: SearchEngine,
  embedder: Embedder,
  logger: Logger,
  onProgress: (snapshot: ProgressSnapshot, total: number) => void,
  onStep?: (step: string) => void,
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
      onProgress(progress.snapshot(), total);
      yield new Map(chunks.map((c, i) => [c.chunkId, embedded[i]]));
    }
  }
  // The embedding logs its own progress; the vector index built after it (minutes on the full
  // corpus, with no progress of its own) is named with a line every 15 s.
  let embedded = false;
  const embeddingDone = () => {
    if (!embedded) progress.finish();
    embedded = true;
  };
  await withStepProgress(
    're-embedding',
    async (step) => {
      step('embedding passages');
      await engine.replaceVectors(embedder.id, vectors(), (next) => {
        embeddingDone();
        step(next);
      });
    },
    { log: (l) => logger.info(l), onStep },
  );
  embeddingDone();
  await engine.setVectorModel(embedder.id, embedder.dimension);
  return count;
}
