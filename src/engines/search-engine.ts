/**
 * The search-engine port. The embedded engine (LanceDB, the default) and the Elasticsearch
 * engine implement it (src/engines/create-search-engine.ts chooses from the configuration).
 * Services never know which engine runs.
 */
import type { DocumentMetadata, DocumentWithoutText, LegalDocument, Namespace } from '../domain/legal-document.js';
import type { CompoundVocabulary } from './compounds.js';

/** Filters shared by the keyword and the vector leg. All conditions are ANDed. */
export interface EngineFilters {
  namespace: Namespace;
  /** Any of these countries (exact codes: `DE`, `EU`, `CoE`...). */
  countries?: string[];
  /** Any of these sources (`<country>/<source_name>`). */
  sources?: string[];
  court?: string;
  courtTier?: number;
  jurisdiction?: string;
  language?: string;
  /** Inclusive `YYYY-MM-DD` bounds on the document date; documents without a date are excluded when set. */
  dateStart?: string;
  dateEnd?: string;
}

/** One document found by one leg: its best-scoring chunk. Lists are sorted by score, best first. */
export interface DocumentHit {
  docId: string;
  /** Keyword leg: BM25 score (>0). Vector leg: cosine similarity in [-1, 1]. */
  score: number;
  /**
   * Text of the best chunk (for snippets). Empty when the engine defers it: then `chunkId`
   * names the chunk and `passages` reads the text of the hits the search returns.
   */
  passage: string;
  /** The best chunk, when the passage is deferred. */
  chunkId?: string;
  /** Keyword leg: whether the passage holds every concept of the query, and what that did to its BM25. */
  coverage?: KeywordCoverage;
  /** Vector leg: the passage's stored vector, when the engine returns it (a moved query is then scored without a read). */
  vector?: Float32Array;
}

/**
 * Keyword leg, for a query of 2 to 20 concepts (its content words): `score` is the
 * passage's BM25 × `factor`, 1 when the passage holds a term of every concept, else
 * (concepts - 1) / concepts.
 */
export interface KeywordCoverage {
  concepts: number;
  complete: boolean;
  factor: number;
}

/** A document's place inside its enclosing document (see `documentPlaces`). */
export interface DocumentPlace {
  /** The enclosing document: `<source>/<parent_source_id>`. */
  parentId: string;
  /**
   * The section the document sits in: the parent's id and the canonical path without its last
   * step (`Code du sport > Partie législative > LIVRE II > TITRE III > Chapitre Ier > Section 1`);
   * null when the path names no section.
   */
  section: string | null;
}

/** The place of a document that names its enclosing document; null for one that stands alone. */
export function documentPlace(source: string, parentSourceId: string | null | undefined, canonicalPath: string | null | undefined): DocumentPlace | null {
  if (parentSourceId === null || parentSourceId === undefined) return null;
  const parentId = `${source}/${parentSourceId}`;
  const path = canonicalPath ?? '';
  const cut = path.lastIndexOf(' > ');
  return { parentId, section: cut > 0 ? `${parentId} | ${path.slice(0, cut)}` : null };
}

/** A chunk of a document as the ingest hands it to the engine. */
export interface ChunkInput {
  content: string;
  /** Present when an embedder is configured; all chunks of one call have the same dimension. */
  vector?: Float32Array;
}

export interface DocumentInput {
  document: LegalDocument;
  /** Hash of everything indexed for this document; the ingest compares it to skip unchanged documents. */
  contentHash: string;
  chunks: ChunkInput[];
}

/** A stored chunk, for re-embedding when the model changes. */
export interface StoredChunk {
  chunkId: string;
  docId: string;
  title: string;
  content: string;
}

/** Whether an engine's outside dependency answers (for /ready). */
export interface EngineHealth {
  /** The dependency's name: `elasticsearch`, `pinecone`... */
  dependency: string;
  ok: boolean;
  /** Why it is not usable (null when ok). */
  detail: string | null;
}

/** Options of a read made for a request. */
export interface EngineCallOptions {
  /** Aborted when the request is abandoned: the engine stops between the rounds of its work (a running query may finish). */
  signal?: AbortSignal;
}

export interface SearchEngine {
  /** Opens (or creates) the on-disk index. */
  open(): Promise<void>;
  close(): Promise<void>;
  /**
   * Engines on outside servers: whether they answer. Absent for the embedded engine (in
   * process: open() either worked or the service did not start).
   */
  health?(): Promise<EngineHealth[]>;

  /**
   * Engines whose index is a folder this process owns (the embedded one): reads every file of
   * the index once and throws when one is damaged; `discardIndex` deletes the index (closed),
   * so that open() starts an empty one to rebuild from the corpus (src/modules/legal-data/index-health.ts).
   */
  verifyIndex?(): Promise<void>;
  discardIndex?(): Promise<void>;
  /**
   * Engines whose index is a folder this process owns: whether a read failed because a file of
   * the index is damaged (cut, deleted, unreadable) rather than because of a bug; the service
   * then answers 503 and rebuilds the index (src/engines/storage-faults.ts).
   */
  isStorageError?(error: unknown): boolean;
  /** The version of each table of the index (a versioned engine's), to tell an older state of it from the one last written. */
  tableVersions?(): Promise<Record<string, number>>;

  /** Best documents for a free-text query (language-aware analysis is the engine's concern). */
  keywordSearch(query: string, filters: EngineFilters, limit: number, options?: EngineCallOptions): Promise<DocumentHit[]>;
  /** Best documents for a query vector, with the same filters. Empty when no vectors are stored. */
  vectorSearch(vector: Float32Array, filters: EngineFilters, limit: number, options?: EngineCallOptions): Promise<DocumentHit[]>;
  /**
   * The vector leg's score of these hits (the exact cosine of the chunk a hit names, else of
   * the document's best chunk), for the candidates the keyword leg found and the vector leg
   * did not rank: the fusion then weighs their true similarity instead of 0. Best first;
   * documents without vectors are absent.
   */
  vectorScores?(vector: Float32Array, hits: DocumentHit[]): Promise<DocumentHit[]>;
  /** The stored vectors of these chunks, by chunk id (unknown ids absent). */
  passageVectors?(chunkIds: string[]): Promise<Map<string, Float32Array>>;
  /**
   * Text of these chunks, by chunk id (unknown ids absent). Engines whose legs defer passages
   * (hits with `chunkId` and an empty `passage`) implement it; the others fill `passage`.
   */
  passages?(chunkIds: string[]): Promise<Map<string, string>>;

  /**
   * Where each of these documents stands inside an enclosing document (an article in its act):
   * the parent's id and the article's section. Documents without a parent are absent.
   */
  documentPlaces(ids: string[]): Promise<Map<string, DocumentPlace>>;

  /**
   * Those of these documents that pass the filters, each with its first passage (score 0): for
   * documents a query names (a cited provision) rather than matches.
   */
  documentsMatching(ids: string[], filters: EngineFilters): Promise<DocumentHit[]>;

  /** Full documents by id; unknown ids are absent from the map. */
  getDocuments(ids: string[]): Promise<Map<string, LegalDocument>>;
  /** The same without text and extra fields (a search hit's text is its passage): far less to read. */
  getDocumentsWithoutText(ids: string[]): Promise<Map<string, DocumentWithoutText>>;

  /** Inserts or replaces documents with their chunks (a replaced document loses its old chunks). */
  upsertDocuments(batch: DocumentInput[]): Promise<void>;
  deleteDocuments(ids: string[]): Promise<void>;
  /** Content hashes of the stored documents of one source file's documents, by document id. */
  contentHashes(docIds: string[]): Promise<Map<string, string>>;
  /** Every stored document's metadata, in batches (no text): for discovery and statistics. */
  scanMetadata(): AsyncIterable<DocumentMetadata[]>;
  countDocuments(): Promise<number>;
  countChunks(): Promise<{ total: number; withVectors: number }>;

  /** Id of the embedding model whose vectors are stored, or null when none are. */
  vectorModel(): Promise<string | null>;
  /** Every stored chunk in batches, to compute vectors with a new model. */
  scanChunks(batchSize: number): AsyncIterable<StoredChunk[]>;
  /** Replaces all vectors with those of `modelId` (chunk id -> vector); called by re-embedding. */
  replaceVectors(modelId: string, vectors: AsyncIterable<Map<string, Float32Array>>, onStep?: (step: string) => void): Promise<void>;
  /** Declares which model the vectors written by upsertDocuments come from. */
  setVectorModel(modelId: string | null, dimension: number | null): Promise<void>;

  /**
   * Engines whose keyword index splits compounds at index time (the embedded one): whether
   * the ingest should count the corpus vocabulary before it writes (an empty index, or none
   * counted yet), and where it hands it over. See compounds.ts.
   */
  needsCompoundVocabulary?(): Promise<boolean>;
  setCompoundVocabulary?(vocabulary: CompoundVocabulary): Promise<void>;

  /**
   * Builds or refreshes the keyword and vector indexes (after an ingest batch or at the end).
   * `onStep` hears the name of each step as it starts (a long build is then never silent).
   */
  optimize(onStep?: (step: string) => void): Promise<void>;

  /**
   * Reads what another process (the ingest's child process) wrote, now rather than within the
   * engine's read-consistency interval. Engines that see every write at once need not have it.
   */
  refresh?(): Promise<void>;
}
