/**
 * A local server speaking the part of Pinecone's data-plane REST API the vector leg uses, in
 * its documented request and response formats (docs.pinecone.io/reference/api, data plane):
 *
 * - `POST /vectors/upsert`  `{ vectors: [{ id, values, metadata }], namespace }` -> `{ upsertedCount }`
 * - `POST /query`           `{ namespace, vector, topK, filter, includeValues, includeMetadata }` -> `{ matches: [{ id, score, values, metadata }], namespace, usage: { readUnits } }`
 * - `POST /vectors/delete`  `{ ids | filter | deleteAll, namespace }` -> `{}` (404 for deleteAll on a namespace that does not exist)
 * - `POST /describe_index_stats` -> `{ namespaces: { <ns>: { vectorCount } }, dimension, indexFullness, totalVectorCount, metric, vectorType }`
 *
 * It keeps the records in memory, evaluates metadata filters with Pinecone's operators
 * ($eq $ne $gt $gte $lt $lte $in $nin $exists $and $or), scores by cosine, enforces the
 * documented limits that matter here (1,000 records and 2 MB per upsert, the dimension, the
 * Api-Key header), records every request, and can be made slow or failing.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cosine } from '../../src/engines/vector-math.js';

export interface StoredRecord {
  id: string;
  values: number[];
  metadata: Record<string, string | number | boolean | string[]>;
}

export interface RecordedRequest {
  path: string;
  /** The parsed JSON body. */
  body: any;
  /** Body size in bytes. */
  bytes: number;
  apiKey: string | undefined;
  apiVersion: string | undefined;
}

export interface LocalPinecone {
  url: string;
  dimension: number;
  /** Records by namespace, then id. */
  namespaces: Map<string, Map<string, StoredRecord>>;
  requests: RecordedRequest[];
  /** The requests whose client closed the connection before they were answered (aborted). */
  closedBeforeAnswer: RecordedRequest[];
  /** Requests on this path wait this long before answering (e.g. `/query` to test timeouts). */
  delays: Map<string, number>;
  /** Answer requests on this path with this status, `count` times (then normally). */
  failures: Map<string, { status: number; count: number }>;
  requestsTo(path: string): RecordedRequest[];
  stop(): Promise<void>;
}

const MAX_UPSERT_RECORDS = 1000;
const MAX_REQUEST_BYTES = 2 * 1024 * 1024;

type Metadata = StoredRecord['metadata'];

/** Pinecone's metadata filter semantics (a missing field matches only $ne / $nin / $exists:false). */
export function matchesFilter(metadata: Metadata, filter: Record<string, any> | undefined): boolean {
  if (!filter) return true;
  return Object.entries(filter).every(([key, condition]) => {
    if (key === '$and') return (condition as any[]).every((f) => matchesFilter(metadata, f));
    if (key === '$or') return (condition as any[]).some((f) => matchesFilter(metadata, f));
    const value = metadata[key];
    const ops: Record<string, any> = condition !== null && typeof condition === 'object' && !Array.isArray(condition) ? condition : { $eq: condition };
    return Object.entries(ops).every(([op, operand]) => {
      const has = value !== undefined;
      const list = Array.isArray(value) ? value : [value];
      switch (op) {
        case '$eq':
          return has && list.includes(operand);
        case '$ne':
          return !has || !list.includes(operand);
        case '$in':
          return has && list.some((v) => (operand as unknown[]).includes(v));
        case '$nin':
          return !has || !list.some((v) => (operand as unknown[]).includes(v));
        case '$exists':
          return has === Boolean(operand);
        case '$gt':
        case '$gte':
        case '$lt':
        case '$lte': {
          if (typeof operand !== 'number') throw new BadRequest(`${op} requires a number operand`);
          if (typeof value !== 'number') return false;
          return op === '$gt' ? value > operand : op === '$gte' ? value >= operand : op === '$lt' ? value < operand : value <= operand;
        }
        default:
          throw new BadRequest(`unknown filter operator ${op}`);
      }
    });
  });
}

class BadRequest extends Error {}

export async function startLocalPinecone(options: { dimension: number; apiKey?: string }): Promise<LocalPinecone> {
  const state: LocalPinecone = {
    url: '',
    dimension: options.dimension,
    namespaces: new Map(),
    requests: [],
    closedBeforeAnswer: [],
    delays: new Map(),
    failures: new Map(),
    requestsTo: (path) => state.requests.filter((r) => r.path === path),
    stop: async () => undefined,
  };
  const ns = (name: string | undefined) => {
    const key = name ?? '';
    if (!state.namespaces.has(key)) state.namespaces.set(key, new Map());
    return state.namespaces.get(key)!;
  };

  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const send = (status: number, body: unknown) => {
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    let body: any = {};
    try {
      body = raw.length ? JSON.parse(raw.toString('utf8')) : {};
    } catch {
      return send(400, { code: 3, message: 'invalid JSON', details: [] });
    }
    const recorded = {
      path,
      body,
      bytes: raw.length,
      apiKey: req.headers['api-key'] as string | undefined,
      apiVersion: req.headers['x-pinecone-api-version'] as string | undefined,
    };
    state.requests.push(recorded);
    res.once('close', () => !res.writableFinished && state.closedBeforeAnswer.push(recorded));
    const delay = state.delays.get(path);
    if (delay) await new Promise((r) => setTimeout(r, delay));
    const failure = state.failures.get(path);
    if (failure && failure.count > 0) {
      failure.count -= 1;
      return send(failure.status, { code: failure.status === 429 ? 8 : 13, message: `injected failure ${failure.status}`, details: [] });
    }
    if (options.apiKey && req.headers['api-key'] !== options.apiKey) return send(401, { code: 16, message: 'Invalid API Key', details: [] });
    if (raw.length > MAX_REQUEST_BYTES) return send(400, { code: 3, message: `Request size ${raw.length} exceeds the maximum supported size of ${MAX_REQUEST_BYTES} bytes`, details: [] });
    try {
      if (req.method === 'POST' && path === '/vectors/upsert') {
        const vectors = body.vectors as StoredRecord[];
        if (!Array.isArray(vectors) || vectors.length === 0) throw new BadRequest('vectors must be a non-empty array');
        if (vectors.length > MAX_UPSERT_RECORDS) throw new BadRequest(`batch of ${vectors.length} exceeds the maximum of ${MAX_UPSERT_RECORDS} vectors`);
        for (const v of vectors) {
          if (v.values.length !== state.dimension) throw new BadRequest(`Vector dimension ${v.values.length} does not match the dimension of the index ${state.dimension}`);
          if (v.values.every((x) => x === 0)) throw new BadRequest('Dense vectors must contain at least one non-zero value');
          for (const value of Object.values(v.metadata ?? {})) if (value === null) throw new BadRequest('metadata values must not be null');
        }
        const target = ns(body.namespace);
        for (const v of vectors) target.set(v.id, { id: v.id, values: v.values, metadata: v.metadata ?? {} });
        return send(200, { upsertedCount: vectors.length });
      }
      if (req.method === 'POST' && path === '/query') {
        if (!Array.isArray(body.vector) || body.vector.length !== state.dimension) throw new BadRequest('query vector dimension does not match the index');
        const topK = Number(body.topK);
        if (!Number.isInteger(topK) || topK < 1 || topK > 10_000) throw new BadRequest('topK must be between 1 and 10000');
        if ((body.includeValues || body.includeMetadata) && topK > 1000) throw new BadRequest('topK must be at most 1000 with includeValues or includeMetadata');
        const records = [...(state.namespaces.get(body.namespace ?? '')?.values() ?? [])].filter((r) => matchesFilter(r.metadata, body.filter));
        const matches = records
          .map((r) => ({ r, score: cosine(body.vector, r.values) }))
          .sort((a, b) => b.score - a.score)
          .slice(0, topK)
          .map(({ r, score }) => ({
            id: r.id,
            score,
            values: body.includeValues ? r.values : [],
            ...(body.includeMetadata ? { metadata: r.metadata } : {}),
          }));
        return send(200, { results: [], matches, namespace: body.namespace ?? '', usage: { readUnits: 5 } });
      }
      if (req.method === 'POST' && path === '/vectors/delete') {
        const target = state.namespaces.get(body.namespace ?? '');
        if (body.deleteAll) {
          if (!target) return send(404, { code: 5, message: 'Namespace not found', details: [] });
          state.namespaces.delete(body.namespace ?? '');
        } else if (Array.isArray(body.ids)) {
          if (body.ids.length > 1000) throw new BadRequest('at most 1000 ids per delete');
          for (const id of body.ids) target?.delete(id);
        } else if (body.filter) {
          for (const [id, r] of target ?? []) if (matchesFilter(r.metadata, body.filter)) target!.delete(id);
        } else {
          throw new BadRequest('one of ids, filter or deleteAll is required');
        }
        return send(200, {});
      }
      if (req.method === 'POST' && path === '/describe_index_stats') {
        const namespaces: Record<string, { vectorCount: number }> = {};
        let total = 0;
        for (const [name, records] of state.namespaces) {
          const count = [...records.values()].filter((r) => matchesFilter(r.metadata, body.filter)).length;
          if (count === 0) continue;
          namespaces[name] = { vectorCount: count };
          total += count;
        }
        return send(200, { namespaces, dimension: state.dimension, indexFullness: 0, totalVectorCount: total, metric: 'cosine', vectorType: 'dense' });
      }
      return send(404, { code: 5, message: `no route ${req.method} ${path}`, details: [] });
    } catch (error) {
      if (error instanceof BadRequest) return send(400, { code: 3, message: error.message, details: [] });
      return send(500, { code: 13, message: String(error), details: [] });
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.stop = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
