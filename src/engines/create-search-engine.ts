/**
 * Chooses the search engine from the configuration (the platform, the CLI and the benchmarks
 * all build it here):
 *
 * - `SEARCH_ENGINE=embedded` (default): LanceDB tables in DATA_DIR/index, vectors included.
 * - `SEARCH_ENGINE=elasticsearch`: documents, keyword leg and filters in Elasticsearch; the
 *   vector leg where `VECTOR_ENGINE` says: `elasticsearch` (dense_vector kNN in the same
 *   cluster) or `pinecone` (see the hook below).
 */
import path from 'node:path';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { LanceDbEngine } from './embedded/lancedb-engine.js';
import { ElasticsearchEngine } from './elasticsearch/elasticsearch-engine.js';
import type { SearchEngine } from './search-engine.js';

/** A composition step for the vector leg: wraps the keyword engine with a vector index (VECTOR_ENGINE=pinecone). */
export type VectorLegFactory = (keywordEngine: SearchEngine, config: Config, logger: Logger | undefined) => SearchEngine;

/**
 * Vector legs that live outside the keyword engine, by VECTOR_ENGINE value. The Pinecone
 * adapter registers itself here (`pinecone: (es, config, logger) => new PineconeVectorLeg(es, ...)`):
 * it receives the Elasticsearch engine (documents, keyword leg, filters) and returns the
 * SearchEngine whose vectorSearch / vector writes go to Pinecone.
 */
export const VECTOR_LEGS: Partial<Record<Config['vectorEngine'], VectorLegFactory>> = {};

export function createSearchEngine(config: Config, logger?: Logger): SearchEngine {
  if (config.searchEngine === 'embedded') return new LanceDbEngine(path.join(config.dataDir, 'index'));
  const es = config.elasticsearch;
  if (!es) throw new Error('SEARCH_ENGINE=elasticsearch needs ELASTICSEARCH_URL');
  const engine = new ElasticsearchEngine({
    node: es.url,
    apiKey: es.apiKey,
    username: es.username,
    password: es.password,
    indexPrefix: es.indexPrefix,
    vectors: config.vectorEngine === 'elasticsearch',
  });
  if (config.vectorEngine === 'elasticsearch') return engine;
  // Hook: VECTOR_ENGINE=pinecone (or any other external vector index) plugs in here.
  const vectorLeg = VECTOR_LEGS[config.vectorEngine];
  if (!vectorLeg) throw new Error(`VECTOR_ENGINE=${config.vectorEngine} is not available in this build`);
  return vectorLeg(engine, config, logger);
}
