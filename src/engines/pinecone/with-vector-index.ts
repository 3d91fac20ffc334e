/**
 * Puts the configured external vector index in front of a search engine: with Pinecone
 * configured (PINECONE_INDEX or PINECONE_HOST), the vector leg and the vectors of every write
 * go to Pinecone and the rest to `engine`; otherwise `engine` itself. The engine factory calls
 * it for VECTOR_ENGINE=pinecone; wrapping twice is a no-op.
 */
import type { Config } from '../../config.js';
import type { Logger } from '../../logger.js';
import type { SearchEngine } from '../search-engine.js';
import { PineconeVectorIndex } from './pinecone-vector-index.js';

export function withVectorIndex(engine: SearchEngine, config: Pick<Config, 'pinecone'>, logger?: Logger): SearchEngine {
  if (!config.pinecone || engine instanceof PineconeVectorIndex) return engine;
  const { apiKey, index, host, timeoutMs } = config.pinecone;
  return new PineconeVectorIndex(engine, { apiKey, index, host, timeoutMs, logger });
}
