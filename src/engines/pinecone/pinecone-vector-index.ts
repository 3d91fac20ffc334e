/**
 * The Pinecone vector leg: a SearchEngine that keeps the passages' vectors in one Pinecone
 * index and delegates everything else (documents, passages, the keyword leg, content hashes,
 * the embedding model's id) to a base engine: the embedded engine today, Elasticsearch with
 * the engine factory. Services never know it is there.
 *
 * - One index; each corpus namespace (`case_law`, `legislation`, `doctrine`) is a Pinecone
 *   namespace. A record is one passage: id `<docId>#<n>` (the base engine's chunk id), its
 *   vector, and the small metadata the filters need (pinecone-filters.ts).
 * - Writes: upserts in batches of at most 1,000 records and under Pinecone's 2 MB request
 *   size (both limits from docs.pinecone.io "Operation limits"), retried on 429 / 5xx /
 *   connection errors with exponential backoff. Re-ingesting a document first deletes its
 *   old passages by metadata filter (`doc_id $in [...]`, one request per namespace and batch
 *   of at most 1,000 ids), then upserts the new ones, then writes the document to the base
 *   engine: the base engine's content hash is written last, so a crash in between leaves
 *   the document "changed" and the resumed ingest writes it again.
 * - Search: the query's nearest passages (with their values) in the request's namespace
 *   under the translated filters, rescored with their exact cosine similarity like the
 *   embedded engine (Pinecone's own scores come from its approximate index), collapsed to
 *   each document's best passage, the window widened until `limit` documents are found;
 *   the passages' text comes from the base engine.
 * - The embedding model's id stays with the base engine (it owns the content hashes the
 *   ingest compares); another model empties the Pinecone namespaces.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { Pinecone, type Index, type PineconeRecord } from '@pinecone-database/pinecone';
import type { Logger } from '../../logger.js';
import { NAMESPACES, type DocumentMetadata, type DocumentWithoutText, type LegalDocument } from '../../domain/legal-document.js';
import type { CompoundVocabulary } from '../compounds.js';
import type { DocumentHit, DocumentInput, DocumentPlace, EngineCallOptions, EngineFilters, EngineHealth, SearchEngine, StoredChunk } from '../search-engine.js';
import { pineconeFilter, vectorMetadata, type VectorMetadata } from './pinecone-filters.js';
import { cosine, norm } from '../vector-math.js';

export interface PineconeVectorIndexOptions {
  apiKey: string;
  /** Index name: its host is looked up through the control plane when `host` is not given. */
  index?: string;
  /** The index's data-plane URL (a local `pinecone-index` container, a proxy, or the cloud host). */
  host?: string;
  /** Timeout of one data-plane request (default 10 s). */
  timeoutMs?: number;
  /** Records per upsert request (Pinecone: at most 1,000). */
  maxBatchRecords?: number;
  /** Bytes of one upsert request body (Pinecone: at most 2 MB; default leaves a margin). */
  maxRequestBytes?: number;
  /** Attempts of a write that failed with 429, 5xx or a connection error (default 4). */
  writeAttempts?: number;
  /** First backoff between attempts, doubled each time (default 500 ms). */
  retryBaseMs?: number;
  logger?: Logger;
}

/** Pinecone's limits (docs.pinecone.io/reference/api/database-limits): upsert 1,000 records / 2 MB, delete 1,000 ids, top_k with values 1,000, query result 4 MB. */
export const PINECONE_LIMITS = { upsertRecords: 1000, requestBytes: 2 * 1024 * 1024, deleteIds: 1000, topKWithValues: 1000, resultBytes: 4 * 1024 * 1024 };

/** The doc id of a chunk id (`<docId>#<n>`; doc ids may themselves contain `#`). */
function docIdOfChunk(chunkId: string): string {
  const i = chunkId.lastIndexOf('#');
  return i < 0 ? chunkId : chunkId.slice(0, i);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The signal of the engine call a data-plane request is made for. The client's `query()` takes
 * no signal nor fetch options (@pinecone-database/pinecone 9: `QueryCommand.run` calls the
 * generated `queryVectors` without its `initOverrides`), but every request goes through our
 * `fetchApi`, which reads the signal from here.
 */
const callSignal = new AsyncLocalStorage<AbortSignal>();

/** Whether a failed write is worth another attempt: rate limits, server errors, the network. */
function retryable(error: unknown): boolean {
  const name = (error as Error)?.name ?? '';
  return /PineconeConnectionError|PineconeInternalServerError|PineconeUnavailableError|PineconeUnmappedHttpError|PineconeTimeoutError|TooManyRequests|PineconeMaxRetriesExceededError/.test(name) ||
    /\b(429|500|502|503|504)\b/.test((error as Error)?.message ?? '');
}

export class PineconeVectorIndex implements SearchEngine {
  private readonly client: Pinecone;
  private readonly index: Index<VectorMetadata>;
  private readonly options: Required<Omit<PineconeVectorIndexOptions, 'index' | 'host' | 'logger'>>;
  /** The index's dimension, once known (describe_index_stats). */
  private dimension: number | null = null;

  constructor(
    readonly base: SearchEngine,
    options: PineconeVectorIndexOptions,
  ) {
    if (!options.index && !options.host) throw new Error('PineconeVectorIndex: an index name or host is required');
    this.options = {
      apiKey: options.apiKey,
      timeoutMs: options.timeoutMs ?? 10_000,
      maxBatchRecords: Math.min(options.maxBatchRecords ?? PINECONE_LIMITS.upsertRecords, PINECONE_LIMITS.upsertRecords),
      maxRequestBytes: Math.min(options.maxRequestBytes ?? 2_000_000, PINECONE_LIMITS.requestBytes),
      writeAttempts: options.writeAttempts ?? 4,
      retryBaseMs: options.retryBaseMs ?? 500,
    };
    this.logger = options.logger;
    const timeoutMs = this.options.timeoutMs;
    // Every data-plane request gets a deadline (the client has none of its own), and the signal
    // of the request it is made for (callSignal: the client's query() takes none).
    const fetchApi = ((input: string | URL | Request, init?: RequestInit) => {
      const signals = [AbortSignal.timeout(timeoutMs), init?.signal, callSignal.getStore()].filter((s): s is AbortSignal => s instanceof AbortSignal);
      return fetch(input, { ...init, signal: AbortSignal.any(signals) });
    }) as typeof fetch;
    this.client = new Pinecone({ apiKey: options.apiKey, fetchApi, sourceTag: 'legal_search' });
    this.index = this.client.index<VectorMetadata>({ name: options.index, host: options.host });
  }

  private readonly logger: Logger | undefined;

  // -------------------------------------------------------------------------------------------
  // Lifecycle: the base engine's; Pinecone is only asked when needed (a down index must not
  // stop the service: search then answers from the keyword leg).

  async open(): Promise<void> {
    await this.base.open();
    try {
      await this.loadDimension();
    } catch (error) {
      this.logger?.warn(`pinecone: index not reachable at start (${(error as Error).message}); the vector leg will retry on each search`);
    }
  }

  close(): Promise<void> {
    return this.base.close();
  }

  private async loadDimension(): Promise<number | null> {
    if (this.dimension === null) {
      const stats = await this.index.describeIndexStats();
      this.dimension = stats.dimension ?? null;
    }
    return this.dimension;
  }

  // -------------------------------------------------------------------------------------------
  // Search

  keywordSearch(query: string, filters: EngineFilters, limit: number, options?: EngineCallOptions): Promise<DocumentHit[]> {
    return this.base.keywordSearch(query, filters, limit, options);
  }

  vectorSearch(vector: Float32Array, filters: EngineFilters, limit: number, options: EngineCallOptions = {}): Promise<DocumentHit[]> {
    // The signal reaches fetchApi (above) through the async context: an abandoned request's
    // HTTP request to Pinecone is aborted, its connection closed.
    return options.signal ? callSignal.run(options.signal, () => this.nearestDocuments(vector, filters, limit)) : this.nearestDocuments(vector, filters, limit);
  }

  private async nearestDocuments(vector: Float32Array, filters: EngineFilters, limit: number): Promise<DocumentHit[]> {
    if (limit <= 0 || norm(vector) === 0) return [];
    const dimension = await this.loadDimension();
    if (dimension !== null && dimension !== vector.length) return [];
    const filter = pineconeFilter(filters);
    const namespace = this.index.namespace(filters.namespace);
    const values = Array.from(vector);
    // The window with values is capped by Pinecone's top_k limit and its 4 MB result size.
    const maxK = Math.max(1, Math.min(PINECONE_LIMITS.topKWithValues, Math.floor((PINECONE_LIMITS.resultBytes * 0.8) / (vector.length * 4 + 200))));
    let k = Math.min(Math.max(limit * 4, 20), maxK);
    for (;;) {
      const response = await namespace.query({ vector: values, topK: k, includeValues: true, includeMetadata: false, ...(filter ? { filter } : {}) });
      const rows = response.matches
        .filter((m) => m.values && m.values.length === vector.length)
        .map((m) => ({ chunkId: m.id, docId: docIdOfChunk(m.id), score: cosine(vector, m.values!) }));
      rows.sort((a, b) => b.score - a.score);
      const seen = new Set<string>();
      const best = rows.filter((r) => !seen.has(r.docId) && seen.add(r.docId));
      if (best.length >= limit || response.matches.length < k || k >= maxK) {
        const top = best.slice(0, limit);
        const passages = await this.passagesOf(top, filters);
        return top.map((r) => ({ docId: r.docId, score: r.score, passage: passages.get(r.chunkId) ?? '' }));
      }
      k = Math.min(k * 4, maxK);
    }
  }

  /** The text of the hits' passages, from the base engine (its first passage when it cannot say by chunk). */
  private async passagesOf(hits: { chunkId: string; docId: string }[], filters: EngineFilters): Promise<Map<string, string>> {
    if (hits.length === 0) return new Map();
    if (this.base.passages) return this.base.passages(hits.map((h) => h.chunkId));
    const first = await this.base.documentsMatching(hits.map((h) => h.docId), filters);
    const byDoc = new Map(first.map((h) => [h.docId, h.passage]));
    return new Map(hits.map((h) => [h.chunkId, byDoc.get(h.docId) ?? '']));
  }

  /** The base engine's dependencies (Elasticsearch); a failing Pinecone only degrades searches to the keyword leg. */
  health(): Promise<EngineHealth[]> {
    return this.base.health ? this.base.health() : Promise.resolve([]);
  }

  /** What another process wrote to the base engine (the startup ingest's child). */
  async refresh(): Promise<void> {
    await this.base.refresh?.();
  }

  /** Passages by chunk id: the base engine's (its legs may defer them). */
  passages(chunkIds: string[]): Promise<Map<string, string>> {
    return this.base.passages ? this.base.passages(chunkIds) : Promise.resolve(new Map());
  }

  // -------------------------------------------------------------------------------------------
  // Documents: the base engine's

  documentPlaces(ids: string[]): Promise<Map<string, DocumentPlace>> {
    return this.base.documentPlaces(ids);
  }
  documentsMatching(ids: string[], filters: EngineFilters): Promise<DocumentHit[]> {
    return this.base.documentsMatching(ids, filters);
  }
  getDocuments(ids: string[]): Promise<Map<string, LegalDocument>> {
    return this.base.getDocuments(ids);
  }
  getDocumentsWithoutText(ids: string[]): Promise<Map<string, DocumentWithoutText>> {
    return this.base.getDocumentsWithoutText(ids);
  }
  contentHashes(docIds: string[]): Promise<Map<string, string>> {
    return this.base.contentHashes(docIds);
  }
  scanMetadata(): AsyncIterable<DocumentMetadata[]> {
    return this.base.scanMetadata();
  }
  countDocuments(): Promise<number> {
    return this.base.countDocuments();
  }
  scanChunks(batchSize: number): AsyncIterable<StoredChunk[]> {
    return this.base.scanChunks(batchSize);
  }
  optimize(onStep?: (step: string) => void): Promise<void> {
    return this.base.optimize(onStep);
  }
  // The keyword index is the base engine's, and so is its index-time compound splitting.
  async needsCompoundVocabulary(): Promise<boolean> {
    return (await this.base.needsCompoundVocabulary?.()) ?? false;
  }
  async setCompoundVocabulary(vocabulary: CompoundVocabulary): Promise<void> {
    await this.base.setCompoundVocabulary?.(vocabulary);
  }
  vectorModel(): Promise<string | null> {
    return this.base.vectorModel();
  }

  /** The base engine's passages; the vectors are Pinecone's records (0 when Pinecone does not answer). */
  async countChunks(): Promise<{ total: number; withVectors: number }> {
    const { total } = await this.base.countChunks();
    try {
      const stats = await this.index.describeIndexStats();
      this.dimension = stats.dimension ?? this.dimension;
      const withVectors = NAMESPACES.reduce((n, ns) => n + (stats.namespaces?.[ns]?.recordCount ?? 0), 0);
      return { total, withVectors };
    } catch (error) {
      this.logger?.warn(`pinecone: describe_index_stats failed (${(error as Error).message})`);
      return { total, withVectors: 0 };
    }
  }

  // -------------------------------------------------------------------------------------------
  // Writes

  async upsertDocuments(batch: DocumentInput[]): Promise<void> {
    const byId = new Map<string, DocumentInput>();
    for (const input of batch) byId.set(input.document.id, input);
    const inputs = [...byId.values()];
    const byNamespace = new Map<string, { ids: string[]; records: PineconeRecord<VectorMetadata>[] }>();
    for (const { document: doc, chunks } of inputs) {
      let group = byNamespace.get(doc.namespace);
      if (!group) byNamespace.set(doc.namespace, (group = { ids: [], records: [] }));
      group.ids.push(doc.id);
      const metadata = vectorMetadata(doc);
      chunks.forEach((chunk, seq) => {
        if (chunk.vector && norm(chunk.vector) > 0) group.records.push({ id: `${doc.id}#${seq}`, values: Array.from(chunk.vector), metadata });
      });
    }
    // Without vectors in the batch nor a model (EMBEDDER=none), Pinecone holds nothing of these documents.
    const anyVectors = [...byNamespace.values()].some((g) => g.records.length > 0);
    if (anyVectors || (await this.base.vectorModel()) !== null) {
      for (const [namespace, { ids, records }] of byNamespace) {
        await this.deleteByDocIds(namespace, ids);
        await this.upsertRecords(namespace, records);
      }
    }
    // The base engine stores no vectors (it would keep a second copy of them).
    await this.base.upsertDocuments(inputs.map((input) => ({ ...input, chunks: input.chunks.map((c) => ({ content: c.content })) })));
  }

  async deleteDocuments(ids: string[]): Promise<void> {
    const unique = [...new Set(ids)];
    const known = await this.base.getDocumentsWithoutText(unique);
    const byNamespace = new Map<string, string[]>();
    for (const id of unique) {
      // A document the base engine does not know may still have vectors (a crash between the two writes): every namespace.
      const namespaces = known.has(id) ? [known.get(id)!.namespace] : [...NAMESPACES];
      for (const ns of namespaces) byNamespace.set(ns, [...(byNamespace.get(ns) ?? []), id]);
    }
    for (const [namespace, docIds] of byNamespace) await this.deleteByDocIds(namespace, docIds);
    await this.base.deleteDocuments(unique);
  }

  /** Replaces every vector with those of `modelId`: the namespaces are emptied, then filled batch by batch. */
  async replaceVectors(modelId: string, vectors: AsyncIterable<Map<string, Float32Array>>): Promise<void> {
    await this.deleteAllVectors();
    let dimension: number | null = null;
    const pending = new Map<string, PineconeRecord<VectorMetadata>[]>();
    const flush = async (force: boolean) => {
      for (const [namespace, records] of pending) {
        if (!force && records.length < this.options.maxBatchRecords) continue;
        await this.upsertRecords(namespace, records);
        pending.delete(namespace);
      }
    };
    for await (const map of vectors) {
      // The filter metadata of this batch's documents only: memory stays bounded by the batch, not the corpus.
      const documents = await this.base.getDocumentsWithoutText([...new Set([...map.keys()].map(docIdOfChunk))]);
      const metadata = new Map([...documents].map(([id, doc]) => [id, vectorMetadata(doc)]));
      for (const [chunkId, vector] of map) {
        dimension ??= vector.length;
        if (vector.length !== dimension) throw new Error(`replaceVectors: vector of ${chunkId} has dimension ${vector.length}, expected ${dimension}`);
        const docId = docIdOfChunk(chunkId);
        const doc = documents.get(docId);
        if (!doc || norm(vector) === 0) continue; // a chunk deleted meanwhile, or an empty text
        const list = pending.get(doc.namespace) ?? [];
        list.push({ id: chunkId, values: Array.from(vector), metadata: metadata.get(docId)! });
        pending.set(doc.namespace, list);
      }
      await flush(false);
    }
    await flush(true);
    await this.base.setVectorModel(modelId, dimension ?? (await this.loadDimension()));
  }

  /** Another model (or none) than the stored one: its vectors are dropped, as the embedded engine does. */
  async setVectorModel(modelId: string | null, dimension: number | null): Promise<void> {
    const current = await this.base.vectorModel();
    if (current !== modelId) await this.deleteAllVectors();
    await this.base.setVectorModel(modelId, dimension);
  }

  // -------------------------------------------------------------------------------------------
  // Pinecone writes

  /** Upserts in batches within Pinecone's limits: at most `maxBatchRecords` records and `maxRequestBytes` of JSON. */
  private async upsertRecords(namespace: string, records: PineconeRecord<VectorMetadata>[]): Promise<void> {
    const target = this.index.namespace(namespace);
    const envelope = Buffer.byteLength(JSON.stringify({ vectors: [], namespace }));
    let batch: PineconeRecord<VectorMetadata>[] = [];
    let bytes = envelope;
    const send = async () => {
      if (batch.length === 0) return;
      const records = batch;
      batch = [];
      bytes = envelope;
      await this.withRetries('upsert', () => target.upsert({ records }));
    };
    for (const record of records) {
      const size = Buffer.byteLength(JSON.stringify(record)) + 1;
      if (envelope + size > this.options.maxRequestBytes) throw new Error(`pinecone: record ${record.id} alone exceeds the request size limit (${size} bytes)`);
      if (batch.length >= this.options.maxBatchRecords || bytes + size > this.options.maxRequestBytes) await send();
      batch.push(record);
      bytes += size;
    }
    await send();
  }

  /** Deletes the passages of these documents in one namespace (by metadata filter, ≤ 1,000 ids a request). */
  private async deleteByDocIds(namespace: string, docIds: string[]): Promise<void> {
    const target = this.index.namespace(namespace);
    for (let i = 0; i < docIds.length; i += PINECONE_LIMITS.deleteIds) {
      const ids = docIds.slice(i, i + PINECONE_LIMITS.deleteIds);
      await this.withRetries('delete', () => ignoreMissingNamespace(target.deleteMany({ filter: { doc_id: { $in: ids } } })));
    }
  }

  private async deleteAllVectors(): Promise<void> {
    for (const ns of NAMESPACES) {
      await this.withRetries('delete', () => ignoreMissingNamespace(this.index.namespace(ns).deleteAll()));
    }
  }

  private async withRetries<T>(what: string, fn: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await fn();
      } catch (error) {
        if (attempt >= this.options.writeAttempts || !retryable(error)) throw error;
        const wait = this.options.retryBaseMs * 2 ** (attempt - 1);
        this.logger?.warn(`pinecone: ${what} failed (${(error as Error).message}); retrying in ${wait} ms (attempt ${attempt + 1} of ${this.options.writeAttempts})`);
        await sleep(wait);
      }
    }
  }
}

/** A namespace that does not exist yet has nothing to delete (Pinecone answers 404). */
async function ignoreMissingNamespace(p: Promise<void>): Promise<void> {
  try {
    await p;
  } catch (error) {
    if ((error as Error)?.name !== 'PineconeNotFoundError') throw error;
  }
}
