/**
 * The SearchEngine port on Elasticsearch (`SEARCH_ENGINE=elasticsearch`), through the official
 * client. Indexes and mappings: es-mapping.ts; query DSL: es-queries.ts.
 *
 * Same semantics as the embedded engine: both legs search passages (chunks) prefiltered by the
 * request's filters and collapse them to each document's best passage; documents are fetched
 * by id (realtime GETs); the ingest's content hashes make re-ingest idempotent; a re-ingested
 * document loses exactly the passages its new version no longer has.
 *
 * Writes go through the client's bulk helper (es-bulk.ts: bounded batches by bytes, bounded concurrency:
 * back-pressure; items answered 429 retried, and only those; other failed items collected and
 * reported as one error after the batch, so the ingest does not record the document's hash).
 * Passages are written before their document, so after a crash mid-batch the stored hash still
 * says "changed" and the resumed ingest rewrites them.
 *
 * Elasticsearch unreachable: every call fails with DomainError `unavailable` (HTTP 503) naming
 * Elasticsearch and the reason; `health()` says the same for /ready. Setup (indexes, aliases)
 * is retried at the next call, so the service starts and serves 503 until Elasticsearch is up.
 */
// size: one class implements the ~25 methods of the SearchEngine port, and they share state (setup once, the cached vector model, the rebuild's generations that every write and count follows); the stateless parts live beside it: es-mapping, es-queries, es-bulk, es-client, es-documents
import { Client, errors, type ClientOptions } from '@elastic/elasticsearch';
import { DomainError } from '../../errors.js';
import type { DocumentMetadata, DocumentWithoutText, LegalDocument } from '../../domain/legal-document.js';
import { searchHeader } from '../embedded/lancedb-tables.js';
import { filterValues } from '../filter-values.js';
import type {
  DocumentHit,
  DocumentInput,
  DocumentPlace,
  EngineCallOptions,
  EngineFilters,
  EngineHealth,
  SearchEngine,
  StoredChunk,
} from '../search-engine.js';
import { documentPlace } from '../search-engine.js';
import { resolveDocumentLanguage } from '../text-analysis.js';
import {
  aliasNames,
  chunksMapping,
  documentsMapping,
  ES_MAPPING_VERSION,
  generationIndex,
  indexSettings,
  META_MAPPING,
  searchSubfield,
  type IndexNames,
} from './es-mapping.js';
import { bulkWrite, BulkWriteError, type BulkOp, type BulkSettings } from './es-bulk.js';
import { isUnavailable, QuickRetryTransport, redact } from './es-client.js';
import { documentSource, INTERNAL_FIELDS, toDocument, toMetadata } from './es-documents.js';
import { cosineOfScore, filterClauses, keywordSearchBody, vectorSearchBody } from './es-queries.js';

export { BulkWriteError };

export interface ElasticsearchEngineOptions {
  /** `http(s)://host:port` of one node (or a load balancer in front of the cluster). */
  node: string;
  apiKey?: string;
  username?: string;
  password?: string;
  /** Prefix of every index and alias name (`legal-` -> `legal-documents`, `legal-chunks`, `legal-meta`). */
  indexPrefix: string;
  /** Primary shards and replicas of the indexes it creates (defaults 1 and 0: one node). */
  shards?: number;
  replicas?: number;
  /** VECTOR_ENGINE=elasticsearch: passages carry a dense_vector and vectorSearch runs kNN. */
  vectors: boolean;
  /** Per-request timeout (ms). */
  requestTimeoutMs?: number;
  /** Bulk helper settings: bytes per request, requests in flight, retries of 429 items and the wait between them (ms). */
  bulk?: { flushBytes?: number; concurrency?: number; retries?: number; wait?: number };
  /** Extra client options (tests). */
  client?: Partial<ClientOptions>;
}

/** Ids per mget / terms look-up. */
const LOOKUP_BATCH = 1000;
/** How long the stored vector model is trusted before it is read again (the embedded engine: 2 s too). */
const META_MAX_AGE_MS = 2000;
/** Documents per scanMetadata batch. */
const SCAN_BATCH = 2000;
interface Meta {
  vectorModel: string | null;
  dimension: number | null;
}

interface ChunkSource {
  doc_id: string;
  content: string;
}

export class ElasticsearchEngine implements SearchEngine {
  readonly client: Client;
  readonly names: IndexNames;
  private setupDone: Promise<void> | null = null;
  private meta: Meta = { vectorModel: null, dimension: null };
  /** When `meta` was read: another process (a CLI ingest) may change the model. */
  private metaReadAt = 0;
  /** While a rebuild runs: the new generations the writes (and the ingest's reads) go to. */
  private rebuild: { documents: string; chunks: string } | null = null;
  private readonly bulkOptions: BulkSettings;

  constructor(private readonly options: ElasticsearchEngineOptions) {
    const auth = options.apiKey
      ? { apiKey: options.apiKey }
      : options.username
        ? { username: options.username, password: options.password ?? '' }
        : undefined;
    this.client = new Client({
      node: options.node,
      ...(auth ? { auth } : {}),
      requestTimeout: options.requestTimeoutMs ?? 30_000,
      maxRetries: 2,
      Transport: QuickRetryTransport,
      ...options.client,
    });
    this.names = aliasNames(options.indexPrefix);
    this.bulkOptions = {
      flushBytes: options.bulk?.flushBytes ?? 5_000_000,
      concurrency: options.bulk?.concurrency ?? 2,
      retries: options.bulk?.retries ?? 3,
      wait: options.bulk?.wait ?? 1000,
    };
  }

  // -------------------------------------------------------------------------------------------
  // Lifecycle and errors

  /** Creates the indexes when missing; Elasticsearch down is not fatal (retried at the next call). */
  async open(): Promise<void> {
    try {
      await this.ready();
    } catch (error) {
      if (!(error instanceof DomainError && error.code === 'unavailable')) throw error;
    }
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  async health(): Promise<EngineHealth[]> {
    try {
      await this.client.ping({}, { requestTimeout: 3000, maxRetries: 0 });
      await this.ready();
      return [{ dependency: 'elasticsearch', ok: true, detail: null }];
    } catch (error) {
      return [{ dependency: 'elasticsearch', ok: false, detail: this.unavailable(error).message }];
    }
  }

  /** Indexes, aliases and meta, once (again at the next call after a failure). */
  private ready(): Promise<void> {
    this.setupDone ??= this.guard(() => this.setup()).catch((error: unknown) => {
      this.setupDone = null;
      throw error;
    });
    return this.setupDone;
  }

  private async setup(): Promise<void> {
    const es = this.client;
    // The first generation has a fixed name: two processes starting at once create it once
    // (the second gets resource_already_exists); rebuilds name theirs by the clock.
    const generation = 1;
    for (const [alias, mappings] of [
      [this.names.documents, documentsMapping()],
      [this.names.chunks, chunksMapping(this.options.vectors)],
    ] as const) {
      if (await es.indices.existsAlias({ name: alias })) continue;
      await this.createIndex(generationIndex(alias, generation), mappings as unknown as Record<string, unknown>, alias);
    }
    if (!(await es.indices.exists({ index: this.names.meta }))) {
      await this.createIndex(this.names.meta, META_MAPPING as unknown as Record<string, unknown>, null);
    }
    await this.loadMeta();
  }

  private async createIndex(index: string, mappings: Record<string, unknown>, alias: string | null): Promise<void> {
    try {
      await this.client.indices.create({
        index,
        settings: indexSettings(this.options.shards, this.options.replicas),
        mappings,
        ...(alias ? { aliases: { [alias]: { is_write_index: true } } } : {}),
      });
    } catch (error) {
      // Another process created it meanwhile.
      if (error instanceof errors.ResponseError && error.body?.error?.type === 'resource_already_exists_exception') return;
      throw error;
    }
  }

  private async loadMeta(): Promise<void> {
    const got = await this.client.get<Meta>({ index: this.names.meta, id: 'vectors' }, { ignore: [404] });
    this.meta = got.found && got._source ? { vectorModel: got._source.vectorModel ?? null, dimension: got._source.dimension ?? null } : { vectorModel: null, dimension: null };
    this.metaReadAt = Date.now();
  }

  /** Re-reads the stored vector model now: another process (the startup ingest's child) may have set it. */
  async refresh(): Promise<void> {
    await this.ready();
    await this.guard(() => this.loadMeta());
  }

  /** Setup, and the vector model as stored, re-read when older than META_MAX_AGE_MS. */
  private async freshMeta(): Promise<Meta> {
    await this.ready();
    if (Date.now() - this.metaReadAt > META_MAX_AGE_MS) await this.guard(() => this.loadMeta());
    return this.meta;
  }

  private async saveMeta(meta: Meta): Promise<void> {
    await this.client.index({ index: this.names.meta, id: 'vectors', document: meta, refresh: true });
    this.meta = meta;
    this.metaReadAt = Date.now();
  }

  /** Runs `fn` after setup, with Elasticsearch's connection failures as DomainError `unavailable`. */
  private async run<T>(fn: (es: Client) => Promise<T>): Promise<T> {
    await this.ready();
    return this.guard(() => fn(this.client));
  }

  private async guard<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (isUnavailable(error)) throw this.unavailable(error);
      throw error;
    }
  }

  private unavailable(error: unknown): DomainError {
    if (error instanceof DomainError) return error;
    const reason = error instanceof errors.ResponseError ? `HTTP ${error.statusCode}` : error instanceof Error ? error.message : String(error);
    return new DomainError('unavailable', `Search engine unavailable: Elasticsearch at ${redact(this.options.node)} did not answer (${reason})`);
  }

  /** Where writes go: the aliases, or the new generations while a rebuild runs. */
  private get target(): { documents: string; chunks: string } {
    return this.rebuild ?? { documents: this.names.documents, chunks: this.names.chunks };
  }

  // -------------------------------------------------------------------------------------------
  // Search

  // The request's signal goes into the client's transport: an abandoned request's HTTP request to
  // Elasticsearch is aborted (its connection closed), not left to run to its answer.
  async keywordSearch(query: string, filters: EngineFilters, limit: number, options: EngineCallOptions = {}): Promise<DocumentHit[]> {
    if (limit <= 0 || query.trim() === '') return [];
    const body = keywordSearchBody(query, filters, limit);
    const res = await this.run((es) => es.search<ChunkSource>({ index: this.names.chunks, ...body }, { signal: options.signal }));
    return res.hits.hits.map((h) => ({ docId: h._source!.doc_id, score: Number(h._score), passage: h._source!.content }));
  }

  async vectorSearch(vector: Float32Array, filters: EngineFilters, limit: number, options: EngineCallOptions = {}): Promise<DocumentHit[]> {
    if (limit <= 0 || !this.options.vectors) return [];
    const meta = await this.freshMeta();
    if (meta.dimension !== vector.length || !vector.some((x) => x !== 0)) return [];
    let k = Math.max(limit * 4, 20);
    for (;;) {
      const body = vectorSearchBody(vector, filters, k);
      const res = await this.run((es) => es.search<ChunkSource>({ index: this.names.chunks, ...body }, { signal: options.signal }));
      const seen = new Set<string>();
      const best: DocumentHit[] = [];
      for (const h of res.hits.hits) {
        const docId = h._source!.doc_id;
        if (seen.has(docId)) continue;
        seen.add(docId);
        best.push({ docId, score: cosineOfScore(Number(h._score)), passage: h._source!.content });
      }
      if (best.length >= limit || res.hits.hits.length < k || k >= Math.min(limit * 64, 10_000)) return best.slice(0, limit);
      k = Math.min(k * 4, 10_000);
    }
  }

  // -------------------------------------------------------------------------------------------
  // Documents

  /** Stored sources of `ids` from `index` (realtime GETs), by id. */
  private async mget<T>(index: string, ids: string[], source: { includes?: string[]; excludes?: string[] }): Promise<Map<string, T>> {
    const out = new Map<string, T>();
    const unique = [...new Set(ids)];
    for (let i = 0; i < unique.length; i += LOOKUP_BATCH) {
      const slice = unique.slice(i, i + LOOKUP_BATCH);
      const res = await this.run((es) =>
        es.mget<T>({
          index,
          ids: slice,
          ...(source.includes ? { _source_includes: source.includes } : {}),
          ...(source.excludes ? { _source_excludes: source.excludes } : {}),
        }),
      );
      for (const d of res.docs) if ('found' in d && d.found && d._source) out.set(d._id, d._source);
    }
    return out;
  }

  async documentPlaces(ids: string[]): Promise<Map<string, DocumentPlace>> {
    type Row = { source: string; parent_source_id: string | null; canonical_path: string | null };
    const rows = await this.mget<Row>(this.names.documents, ids, { includes: ['source', 'parent_source_id', 'canonical_path'] });
    const out = new Map<string, DocumentPlace>();
    for (const [id, r] of rows) {
      const place = documentPlace(r.source, r.parent_source_id, r.canonical_path);
      if (place) out.set(id, place);
    }
    return out;
  }

  async documentsMatching(ids: string[], filters: EngineFilters): Promise<DocumentHit[]> {
    const wanted = [...new Set(ids)];
    const found = new Map<string, string>();
    for (let i = 0; i < wanted.length; i += LOOKUP_BATCH) {
      const slice = wanted.slice(i, i + LOOKUP_BATCH);
      const res = await this.run((es) =>
        es.search<ChunkSource>({
          index: this.names.chunks,
          size: slice.length,
          query: { bool: { filter: [{ terms: { doc_id: slice } }, { term: { seq: 0 } }, ...filterClauses(filters)] } },
          _source: ['doc_id', 'content'],
          track_total_hits: false,
        }),
      );
      for (const h of res.hits.hits) found.set(h._source!.doc_id, h._source!.content);
    }
    return wanted.filter((id) => found.has(id)).map((id) => ({ docId: id, score: 0, passage: found.get(id)! }));
  }

  async getDocuments(ids: string[]): Promise<Map<string, LegalDocument>> {
    const rows = await this.mget<Record<string, unknown>>(this.names.documents, ids, { excludes: INTERNAL_FIELDS });
    return new Map([...rows].map(([id, row]) => [id, toDocument(row)]));
  }

  async getDocumentsWithoutText(ids: string[]): Promise<Map<string, DocumentWithoutText>> {
    const rows = await this.mget<Record<string, unknown>>(this.names.documents, ids, { excludes: [...INTERNAL_FIELDS, 'text', 'extra'] });
    return new Map([...rows].map(([id, row]) => [id, { ...toMetadata(row), summary: (row.summary as string | null) ?? null }]));
  }

  /** Hashes of the stored documents; documents indexed under another mapping version are left out (re-indexed). */
  async contentHashes(docIds: string[]): Promise<Map<string, string>> {
    const rows = await this.mget<{ content_hash: string; analysis_version: number }>(this.target.documents, docIds, {
      includes: ['content_hash', 'analysis_version'],
    });
    const out = new Map<string, string>();
    for (const [id, r] of rows) if (r.analysis_version === ES_MAPPING_VERSION) out.set(id, r.content_hash);
    return out;
  }

  async *scanMetadata(): AsyncIterable<DocumentMetadata[]> {
    for await (const rows of this.scan<Record<string, unknown>>(this.target.documents, SCAN_BATCH, { excludes: [...INTERNAL_FIELDS, 'text', 'extra', 'summary'] })) {
      yield rows.map(toMetadata);
    }
  }

  /** Every document of an index in batches: a point in time and search_after on `_shard_doc`. */
  private async *scan<T>(index: string, size: number, source: { includes?: string[]; excludes?: string[] }): AsyncIterable<T[]> {
    const pit = await this.run((es) => es.openPointInTime({ index, keep_alive: '2m' }));
    let pitId = pit.id;
    let after: unknown[] | undefined;
    try {
      for (;;) {
        const res = await this.run((es) =>
          es.search<T>({
            pit: { id: pitId, keep_alive: '2m' },
            size,
            sort: [{ _shard_doc: 'asc' }],
            _source: source,
            track_total_hits: false,
            ...(after ? { search_after: after as never } : {}),
          }),
        );
        pitId = res.pit_id ?? pitId;
        const hits = res.hits.hits;
        if (hits.length === 0) return;
        yield hits.map((h) => h._source!);
        if (hits.length < size) return;
        after = hits[hits.length - 1].sort;
      }
    } finally {
      await this.client.closePointInTime({ id: pitId }).catch(() => undefined);
    }
  }

  async countDocuments(): Promise<number> {
    return (await this.run((es) => es.count({ index: this.target.documents }))).count;
  }

  async countChunks(): Promise<{ total: number; withVectors: number }> {
    const index = this.target.chunks;
    const total = (await this.run((es) => es.count({ index }))).count;
    const withVectors = this.options.vectors ? (await this.run((es) => es.count({ index, query: { exists: { field: 'vector' } } }))).count : 0;
    return { total, withVectors };
  }

  // -------------------------------------------------------------------------------------------
  // Writes

  async upsertDocuments(batch: DocumentInput[]): Promise<void> {
    const byId = new Map<string, DocumentInput>();
    for (const input of batch) byId.set(input.document.id, input);
    if (byId.size === 0) return;
    await this.freshMeta();
    const { documents, chunks } = this.target;
    const ids = [...byId.keys()];
    const stored = await this.mget<{ chunk_count?: number }>(documents, ids, { includes: ['chunk_count'] });
    // Passages a crash left behind for a document whose row was never written.
    const fresh = ids.filter((id) => !stored.has(id));
    if (fresh.length > 0) {
      await this.run((es) => es.deleteByQuery({ index: chunks, query: { terms: { doc_id: fresh } }, conflicts: 'proceed' }));
    }
    const chunkOps: BulkOp[] = [];
    const documentOps: BulkOp[] = [];
    for (const { document: doc, contentHash, chunks: list } of byId.values()) {
      const passages = list.length > 0 ? list : [{ content: '' }];
      const subfield = searchSubfield(resolveDocumentLanguage(doc.text, doc.language));
      const header = searchHeader(doc);
      const filters = filterValues(doc);
      passages.forEach((chunk, seq) => {
        const id = `${doc.id}#${seq}`;
        const source: Record<string, unknown> = {
          chunk_id: id,
          doc_id: doc.id,
          seq,
          ...filters,
          title: doc.title ?? '',
          content: chunk.content,
          search: { [subfield]: `${header}\n${chunk.content}` },
        };
        const vector = 'vector' in chunk ? chunk.vector : undefined;
        if (vector && this.options.vectors) {
          if (!this.meta.vectorModel || !this.meta.dimension) {
            throw new Error('upsertDocuments: chunks carry vectors but no vector model is set (call setVectorModel first)');
          }
          if (vector.length !== this.meta.dimension) {
            throw new Error(`upsertDocuments: vector of ${id} has dimension ${vector.length}, the index holds ${this.meta.dimension}`);
          }
          if (vector.some((x) => x !== 0)) source.vector = Array.from(vector);
        }
        chunkOps.push({ kind: 'index', index: chunks, id, doc: source });
      });
      // Passages of the previous version beyond the new count.
      const previous = stored.get(doc.id)?.chunk_count ?? 0;
      for (let seq = passages.length; seq < previous; seq++) chunkOps.push({ kind: 'delete', index: chunks, id: `${doc.id}#${seq}` });
      documentOps.push({ kind: 'index', index: documents, id: doc.id, doc: documentSource(doc, contentHash, passages.length) });
    }
    // Passages first, the document (with its hash) last: see the header.
    await this.bulk(chunkOps);
    await this.bulk(documentOps);
  }

  async deleteDocuments(ids: string[]): Promise<void> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return;
    await this.ready();
    const { documents, chunks } = this.target;
    const stored = await this.mget<{ chunk_count?: number }>(documents, unique, { includes: ['chunk_count'] });
    const ops: BulkOp[] = [];
    for (const [id, row] of stored) for (let seq = 0; seq < (row.chunk_count ?? 0); seq++) ops.push({ kind: 'delete', index: chunks, id: `${id}#${seq}` });
    for (const id of stored.keys()) ops.push({ kind: 'delete', index: documents, id });
    await this.bulk(ops);
    // Passages a crash left behind (the explicit deletes above cover the stored ones).
    await this.run((es) => es.deleteByQuery({ index: chunks, query: { terms: { doc_id: unique } }, conflicts: 'proceed' }));
  }

  /** Writes through the bulk helper (see es-bulk.ts: which failures count). */
  private async bulk(ops: BulkOp[]): Promise<void> {
    await this.guard(() => bulkWrite(this.client, ops, this.bulkOptions));
  }

  // -------------------------------------------------------------------------------------------
  // Vectors

  async vectorModel(): Promise<string | null> {
    return (await this.freshMeta()).vectorModel;
  }

  async *scanChunks(batchSize: number): AsyncIterable<StoredChunk[]> {
    type Row = { chunk_id: string; doc_id: string; title: string; content: string };
    for await (const rows of this.scan<Row>(this.target.chunks, Math.max(1, Math.min(batchSize, 10_000)), { includes: ['chunk_id', 'doc_id', 'title', 'content'] })) {
      yield rows.map((r) => ({ chunkId: r.chunk_id, docId: r.doc_id, title: r.title, content: r.content }));
    }
  }

  /** Another model (or none) drops the stored vectors: a new chunks generation without them. */
  async setVectorModel(modelId: string | null, dimension: number | null): Promise<void> {
    await this.freshMeta();
    if (modelId !== null && (dimension === null || !Number.isInteger(dimension) || dimension <= 0)) throw new Error(`setVectorModel: bad dimension ${dimension}`);
    if (this.meta.vectorModel === modelId && (this.meta.dimension === dimension || modelId === null)) return;
    if (this.options.vectors && this.meta.vectorModel !== null) await this.guard(() => this.rebuildChunks(null));
    await this.guard(() => this.saveMeta({ vectorModel: modelId, dimension: modelId === null ? null : dimension }));
  }

  /**
   * Replaces every vector with `modelId`'s: the passages are copied into a new chunks
   * generation without vectors (server-side `_reindex`), the new vectors written into it, and
   * the alias switched at the end; on failure the new generation is deleted and the current
   * one stays.
   */
  async replaceVectors(modelId: string, vectors: AsyncIterable<Map<string, Float32Array>>): Promise<void> {
    await this.ready();
    if (!this.options.vectors) {
      // Vectors live elsewhere (VECTOR_ENGINE): nothing to store here, the model is recorded.
      let dimension: number | null = null;
      for await (const map of vectors) for (const v of map.values()) dimension ??= v.length;
      await this.guard(() => this.saveMeta({ vectorModel: modelId, dimension: dimension ?? this.meta.dimension }));
      return;
    }
    let dimension: number | null = null;
    await this.guard(() =>
      this.rebuildChunks(async (index) => {
        for await (const map of vectors) {
          const ops: BulkOp[] = [];
          for (const [chunkId, vector] of map) {
            dimension ??= vector.length;
            if (vector.length !== dimension) throw new Error(`replaceVectors: vector of ${chunkId} has dimension ${vector.length}, expected ${dimension}`);
            if (!vector.some((x) => x !== 0)) continue;
            ops.push({ kind: 'update', index, id: chunkId, doc: { vector: Array.from(vector) } });
          }
          await this.bulkIgnoringMissing(ops);
        }
      }),
    );
    await this.guard(() => this.saveMeta({ vectorModel: modelId, dimension: dimension ?? this.meta.dimension }));
  }

  /** Updates of chunks deleted meanwhile (404) are skipped. */
  private async bulkIgnoringMissing(ops: BulkOp[]): Promise<void> {
    try {
      await this.bulk(ops);
    } catch (error) {
      if (error instanceof BulkWriteError && error.failures.every((f) => f.status === 404)) return;
      throw error;
    }
  }

  /** Copies the chunks (without vectors) into a new generation, lets `fill` write into it, then switches the alias. */
  private async rebuildChunks(fill: ((index: string) => Promise<void>) | null): Promise<void> {
    const alias = this.names.chunks;
    const index = generationIndex(alias, Date.now());
    await this.createIndex(index, chunksMapping(this.options.vectors) as unknown as Record<string, unknown>, null);
    try {
      await this.client.reindex({
        source: { index: this.rebuild?.chunks ?? alias },
        dest: { index },
        script: { lang: 'painless', source: "ctx._source.remove('vector')" },
        refresh: true,
        wait_for_completion: true,
      });
      if (fill) await fill(index);
      await this.client.indices.refresh({ index });
    } catch (error) {
      await this.client.indices.delete({ index }, { ignore: [404] }).catch(() => undefined);
      throw error;
    }
    if (this.rebuild) {
      const old = this.rebuild.chunks;
      this.rebuild = { ...this.rebuild, chunks: index };
      await this.client.indices.delete({ index: old }, { ignore: [404] });
    } else {
      await this.switchAliases([{ alias, index }]);
    }
  }

  // -------------------------------------------------------------------------------------------
  // Rebuild: a new generation of both indexes, filled by an ingest, switched in at the end

  /**
   * Starts a rebuild: writes (and the ingest's reads: hashes, scans, counts) go to new, empty
   * generations; searches keep reading the current ones through the aliases until
   * `finishRebuild` switches both aliases in one atomic `_aliases` call.
   */
  async beginRebuild(): Promise<void> {
    await this.ready();
    if (this.rebuild) throw new Error('a rebuild is already running');
    const generation = Date.now();
    const next = { documents: generationIndex(this.names.documents, generation), chunks: generationIndex(this.names.chunks, generation) };
    await this.guard(async () => {
      await this.createIndex(next.documents, documentsMapping() as unknown as Record<string, unknown>, null);
      await this.createIndex(next.chunks, chunksMapping(this.options.vectors) as unknown as Record<string, unknown>, null);
    });
    this.rebuild = next;
  }

  async finishRebuild(): Promise<void> {
    const next = this.rebuild;
    if (!next) throw new Error('no rebuild is running');
    await this.guard(async () => {
      await this.client.indices.refresh({ index: [next.documents, next.chunks] });
      await this.switchAliases([
        { alias: this.names.documents, index: next.documents },
        { alias: this.names.chunks, index: next.chunks },
      ]);
    });
    this.rebuild = null;
  }

  async abortRebuild(): Promise<void> {
    const next = this.rebuild;
    if (!next) return;
    this.rebuild = null;
    await this.guard(() => this.client.indices.delete({ index: [next.documents, next.chunks] }, { ignore: [404] }));
  }

  /**
   * Copies every document and passage into new generations with the current mapping
   * (server-side `_reindex`: a mapping or analyser change without reading the corpus again)
   * and switches the aliases at the end.
   */
  async reindex(): Promise<void> {
    await this.beginRebuild();
    const next = this.rebuild!;
    try {
      await this.guard(async () => {
        await this.client.reindex({ source: { index: this.names.documents }, dest: { index: next.documents }, wait_for_completion: true, refresh: true });
        await this.client.reindex({ source: { index: this.names.chunks }, dest: { index: next.chunks }, wait_for_completion: true, refresh: true });
      });
    } catch (error) {
      await this.abortRebuild();
      throw error;
    }
    await this.finishRebuild();
  }

  /** Points each alias at its new index only, in one atomic call, then deletes the indexes it left. */
  private async switchAliases(switches: { alias: string; index: string }[]): Promise<void> {
    const previous: string[] = [];
    const actions: Record<string, unknown>[] = [];
    for (const { alias, index } of switches) {
      const current = await this.client.indices.getAlias({ name: alias }, { ignore: [404] });
      const indices = Object.keys(current).filter((k) => k !== 'error' && k !== 'status' && k !== index);
      previous.push(...indices);
      if (indices.length > 0) actions.push({ remove: { indices, alias } });
      actions.push({ add: { index, alias, is_write_index: true } });
    }
    await this.client.indices.updateAliases({ actions: actions as never });
    const stale = previous.filter((i) => !switches.some((s) => s.index === i));
    if (stale.length > 0) await this.client.indices.delete({ index: stale }, { ignore: [404] });
  }

  // -------------------------------------------------------------------------------------------
  // Indexes

  /** Makes the writes so far searchable (Elasticsearch refreshes by itself every second too). */
  async optimize(): Promise<void> {
    const { documents, chunks } = this.target;
    await this.run((es) => es.indices.refresh({ index: [documents, chunks] }));
  }
}
