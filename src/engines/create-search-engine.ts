/**
 * Chooses the search engine from the configuration (the platform, the CLI and the benchmarks
 * all build it here):
 *
 * - `SEARCH_ENGINE=embedded` (default): LanceDB tables in DATA_DIR/index, vectors included.
 * - `SEARCH_ENGINE=elasticsearch`: documents, keyword leg and filters in Elasticsearch; the
 *   vector leg where `VECTOR_ENGINE` says: `elasticsearch` (dense_vector kNN in the same
 *   cluster) or `pinecone`.
 * - `VECTOR_ENGINE=pinecone` (with either engine): src/engines/pinecone wraps the engine.
 */
import path from 'node:path';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { LanceDbEngine } from './embedded/lancedb-engine.js';
import { ElasticsearchEngine } from './elasticsearch/elasticsearch-engine.js';
import { withVectorIndex } from './pinecone/with-vector-index.js';
import type { SearchEngine } from './search-engine.js';

/** What choosing and opening the engine needs (serialisable: the startup ingest's child process gets it too). */
export type EngineSettings = Pick<Config, 'dataDir' | 'searchEngine' | 'vectorEngine' | 'elasticsearch' | 'pinecone'> & Partial<Pick<Config, 'searchVectorMemory'>>;

export function engineSettings(config: Config): EngineSettings {
  const { dataDir, searchEngine, vectorEngine, elasticsearch, pinecone, searchVectorMemory } = config;
  return { dataDir, searchEngine, vectorEngine, elasticsearch, pinecone, searchVectorMemory };
}

export function createSearchEngine(config: EngineSettings, logger?: Logger): SearchEngine {
  const engine = createKeywordEngine(config, logger);
  // VECTOR_ENGINE=pinecone: the vector leg and the vectors of every write go to Pinecone.
  return config.vectorEngine === 'pinecone' ? withVectorIndex(engine, config, logger) : engine;
}

/** The engine holding documents, the keyword leg and filters (and the vectors, unless Pinecone keeps them). */
function createKeywordEngine(config: EngineSettings, logger?: Logger): SearchEngine {
  if (config.searchEngine === 'embedded') {
    return new LanceDbEngine(path.join(config.dataDir, 'index'), { log: (message) => logger?.info(`search: ${message}`), vectorMemory: config.searchVectorMemory ?? true });
  }
  const es = config.elasticsearch;
  if (!es) throw new Error('SEARCH_ENGINE=elasticsearch needs ELASTICSEARCH_URL');
  return new ElasticsearchEngine({
    node: es.url,
    apiKey: es.apiKey,
    username: es.username,
    password: es.password,
    indexPrefix: es.indexPrefix,
    shards: es.shards,
    replicas: es.replicas,
    vectors: config.vectorEngine === 'elasticsearch',
  });
}
