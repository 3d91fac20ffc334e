/**
 * The ingest's write of one batch of documents (ingest.service.ts): only documents whose content
 * changed are chunked, embedded and written; and the text a passage is embedded from, shared
 * with the re-embedding (reembedding.ts).
 */
import { createHash } from 'node:crypto';
import { CHUNKER_VERSION, chunkText } from '../corpus/chunker.js';
import type { Embedder } from '../../../engines/embedder.js';
import type { DocumentInput, SearchEngine } from '../../../engines/search-engine.js';
import type { LegalDocument } from '../../../domain/legal-document.js';

/** Passages embedded per call of the embedder. */
export const EMBED_BATCH = 256;

/** What writing one batch did: documents written (content changed), unchanged (skipped), chunks written. */
export interface BatchOutcome {
  written: number;
  unchanged: number;
  chunks: number;
}

/**
 * Writes the documents of one batch whose content changed (by a hash of the chunker version, the
 * court tier and the raw line): chunks them, embeds the chunks when an embedder is configured,
 * and upserts them into the engine.
 */
export async function indexBatch(engine: SearchEngine, embedder: Embedder | null, batch: { doc: LegalDocument; raw: string }[]): Promise<BatchOutcome> {
  const hashes = await engine.contentHashes(batch.map((b) => b.doc.id));
  const changed: DocumentInput[] = [];
  let unchanged = 0;
  for (const { doc, raw } of batch) {
    const contentHash = createHash('sha1').update(`${CHUNKER_VERSION}\n${doc.court_tier}\n${raw}`).digest('hex');
    if (hashes.get(doc.id) === contentHash) {
      unchanged += 1;
      continue;
    }
    changed.push({ document: doc, contentHash, chunks: chunkText(doc.text).map((content) => ({ content })) });
  }
  if (changed.length === 0) return { written: 0, unchanged, chunks: 0 };
  if (embedder) {
    const chunks = changed.flatMap((input) => input.chunks.map((chunk) => ({ chunk, text: passageForEmbedding(input.document.title, chunk.content) })));
    for (let i = 0; i < chunks.length; i += EMBED_BATCH) {
      const slice = chunks.slice(i, i + EMBED_BATCH);
      const vectors = await embedder.embedPassages(slice.map((c) => c.text));
      slice.forEach((c, j) => (c.chunk.vector = vectors[j]));
    }
  }
  await engine.upsertDocuments(changed);
  return { written: changed.length, unchanged, chunks: changed.reduce((n, c) => n + c.chunks.length, 0) };
}

/** The text a passage is embedded from: its document's title gives the context. */
export function passageForEmbedding(title: string, content: string): string {
  return content.startsWith(title) ? content : `${title}\n${content}`;
}
