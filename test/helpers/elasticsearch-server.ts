/**
 * A local HTTP server that speaks the part of Elasticsearch's REST API the engine uses, in
 * Elasticsearch's documented request and response formats, for tests of the real client's
 * requests. It records every request (method, path, query string, parsed JSON or NDJSON body)
 * and keeps an in-memory store behind it:
 *
 * - indexes (`PUT /<index>` with settings, mappings and aliases; `HEAD`, `DELETE`), aliases
 *   (`GET|HEAD /_alias/<name>`, `POST /_aliases` applied atomically), `_refresh`;
 * - documents: `PUT /<index>/_doc/<id>`, `GET /<index>/_doc/<id>`, `_mget`, `_bulk` (index,
 *   update, delete; per-item results, with failures injected by `bulkItemFailure`),
 *   `_delete_by_query`, `_count`, `_reindex`, point in time (`_pit`);
 * - `_search`: `bool.filter` clauses (term, terms, range, exists, nested bool) evaluated
 *   exactly; scoring is NOT Elasticsearch's: `multi_match` scores a chunk by how many of the
 *   query's lowercased words its searched text contains (a stand-in that orders results, not
 *   BM25), `knn` by the exact cosine as Elasticsearch reports it ((1 + cos) / 2); `collapse`
 *   keeps the best hit per field value. Assertions on ranking quality belong in the contract
 *   suite against a real cluster.
 *
 * Every answer carries `X-Elastic-Product: Elasticsearch` (the client checks it).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { cosine } from '../../src/engines/vector-math.js';

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** Parsed JSON, an array of parsed NDJSON lines (`_bulk`), or undefined. */
  body: unknown;
  /** When it arrived (ms since the epoch). */
  at: number;
}

type Source = Record<string, unknown>;

interface IndexState {
  settings: unknown;
  mappings: unknown;
  aliases: Map<string, { is_write_index?: boolean }>;
  docs: Map<string, { source: Source; version: number }>;
}

/** Per bulk item: return a failure (status + ES error object) to answer for it, or null for success. */
export type BulkItemFailure = (item: { action: string; index: string; id: string; attempt: number }) => { status: number; error: { type: string; reason: string } } | null;

export class FakeElasticsearch {
  readonly requests: RecordedRequest[] = [];
  readonly indices = new Map<string, IndexState>();
  bulkItemFailure: BulkItemFailure | null = null;
  /**
   * Awaited before a recorded request is answered: a test holds some requests back (writes) until
   * it lets them go. `closedBeforeAnswer` resolves if the client closes the connection first (an
   * aborted request).
   */
  hold: ((request: RecordedRequest, connection: { closedBeforeAnswer: Promise<void> }) => Promise<void> | undefined) | null = null;
  private readonly attempts = new Map<string, number>();
  private readonly pits = new Map<string, string[]>();
  private pitSeq = 0;
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  url = '';

  /** Listens on `port` (0: any free port). */
  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => this.send(res, 500, { error: { type: 'exception', reason: String(error) }, status: 500 }));
    });
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = null;
  }

  /** Requests whose path matches (a string: ends with it; a RegExp: tested). */
  requestsTo(method: string, path: string | RegExp): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method && (typeof path === 'string' ? r.path.endsWith(path) : path.test(r.path)));
  }

  /** The concrete indexes an alias points at. */
  aliasTargets(alias: string): string[] {
    return [...this.indices].filter(([, s]) => s.aliases.has(alias)).map(([name]) => name);
  }

  /** Sources of the documents of an index or alias. */
  documents(name: string): Map<string, Source> {
    const out = new Map<string, Source>();
    for (const index of this.resolve(name)) for (const [id, d] of this.indices.get(index)!.docs) out.set(id, d.source);
    return out;
  }

  // -------------------------------------------------------------------------------------------

  private send(res: ServerResponse, status: number, body?: unknown): void {
    if (res.destroyed) return; // its client went away while it was held
    res.statusCode = status;
    res.setHeader('X-Elastic-Product', 'Elasticsearch');
    if (body === undefined) {
      res.end();
      return;
    }
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify(body));
  }

  private resolve(names: string): string[] {
    const out = new Set<string>();
    for (const name of names.split(',')) {
      if (this.indices.has(name)) out.add(name);
      for (const [index, s] of this.indices) if (s.aliases.has(name)) out.add(index);
    }
    return [...out];
  }

  /** The index a write to `name` goes to (an alias must point at one write index). */
  private writeIndex(name: string): string | null {
    if (this.indices.has(name)) return name;
    const targets = [...this.indices].filter(([, s]) => s.aliases.has(name));
    if (targets.length === 1) return targets[0][0];
    const write = targets.find(([, s]) => s.aliases.get(name)?.is_write_index);
    return write ? write[0] : null;
  }

  private notFound(res: ServerResponse, index: string): void {
    this.send(res, 404, {
      error: { root_cause: [{ type: 'index_not_found_exception', reason: `no such index [${index}]` }], type: 'index_not_found_exception', reason: `no such index [${index}]`, index },
      status: 404,
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = req.method ?? 'GET';
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const path = decodeURIComponent(url.pathname);
    let body: unknown;
    if (raw.trim() !== '') {
      body = path.endsWith('/_bulk') ? raw.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as unknown) : (JSON.parse(raw) as unknown);
    }
    const query = Object.fromEntries(url.searchParams);
    const recorded = { method, path, query, body, at: Date.now() };
    this.requests.push(recorded);
    const closedBeforeAnswer = new Promise<void>((resolve) => res.once('close', () => !res.writableFinished && resolve()));
    await this.hold?.(recorded, { closedBeforeAnswer });
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const b = (body ?? {}) as Record<string, any>;

    if (parts.length === 0) {
      if (method === 'HEAD') return this.send(res, 200);
      return this.send(res, 200, { name: 'fake', cluster_name: 'fake', version: { number: '9.1.0' }, tagline: 'You Know, for Search' });
    }
    const [first, second, third] = parts;

    if (first === '_alias' && second) {
      const targets = this.aliasTargets(second);
      if (targets.length === 0) return method === 'HEAD' ? this.send(res, 404) : this.send(res, 404, { error: `alias [${second}] missing`, status: 404 });
      if (method === 'HEAD') return this.send(res, 200);
      return this.send(res, 200, Object.fromEntries(targets.map((t) => [t, { aliases: { [second]: {} } }])));
    }
    if (first === '_aliases' && method === 'POST') {
      // Validate every action first: the call is atomic.
      for (const action of b.actions as Record<string, any>[]) {
        const [kind, spec] = Object.entries(action)[0] as [string, any];
        const indices: string[] = spec.indices ?? [spec.index];
        for (const i of indices) if (!this.indices.has(i)) return this.notFound(res, i);
        if (kind === 'remove' && !indices.some((i) => this.indices.get(i)!.aliases.has(spec.alias))) {
          return this.send(res, 404, { error: { type: 'aliases_not_found_exception', reason: `aliases [${spec.alias}] missing` }, status: 404 });
        }
      }
      for (const action of b.actions as Record<string, any>[]) {
        const [kind, spec] = Object.entries(action)[0] as [string, any];
        for (const i of (spec.indices ?? [spec.index]) as string[]) {
          if (kind === 'add') this.indices.get(i)!.aliases.set(spec.alias, { is_write_index: spec.is_write_index });
          if (kind === 'remove') this.indices.get(i)!.aliases.delete(spec.alias);
        }
      }
      return this.send(res, 200, { acknowledged: true, errors: false });
    }
    if (first === '_bulk' && method === 'POST') return this.bulk(res, (body ?? []) as Source[], undefined);
    if (first === '_reindex' && method === 'POST') return this.reindex(res, b);
    if (first === '_refresh') return this.send(res, 200, { _shards: { total: 1, successful: 1, failed: 0 } });
    if (first === '_pit' && method === 'DELETE') {
      const freed = this.pits.delete(b.id);
      return this.send(res, 200, { succeeded: true, num_freed: freed ? 1 : 0 });
    }
    if (first === '_search') {
      const ids = this.pits.get(b.pit?.id);
      if (!ids) return this.send(res, 404, { error: { type: 'search_context_missing_exception', reason: 'No search context found' }, status: 404 });
      return this.search(res, ids, b);
    }

    // /<index>...
    const name = first;
    if (!second) {
      if (method === 'HEAD') return this.send(res, this.resolve(name).length > 0 ? 200 : 404);
      if (method === 'PUT') {
        if (this.indices.has(name)) {
          return this.send(res, 400, {
            error: { root_cause: [{ type: 'resource_already_exists_exception', reason: `index [${name}] already exists` }], type: 'resource_already_exists_exception', reason: `index [${name}] already exists`, index: name },
            status: 400,
          });
        }
        const aliases = new Map<string, { is_write_index?: boolean }>(Object.entries((b.aliases ?? {}) as Record<string, { is_write_index?: boolean }>));
        this.indices.set(name, { settings: b.settings, mappings: b.mappings, aliases, docs: new Map() });
        return this.send(res, 200, { acknowledged: true, shards_acknowledged: true, index: name });
      }
      if (method === 'DELETE') {
        const targets = name.split(',').filter((i) => this.indices.has(i));
        if (targets.length === 0 && query.ignore_unavailable !== 'true') return this.notFound(res, name);
        for (const t of targets) this.indices.delete(t);
        return this.send(res, 200, { acknowledged: true });
      }
    }
    const targets = this.resolve(name);
    if (second === '_refresh') return this.send(res, 200, { _shards: { total: targets.length, successful: targets.length, failed: 0 } });
    if (second === '_bulk') return this.bulk(res, (body ?? []) as Source[], name);
    if (targets.length === 0 && second !== '_doc') return this.notFound(res, name);
    if (second === '_doc' && third) {
      if (method === 'PUT' || method === 'POST') {
        const index = this.writeIndex(name);
        if (!index) return this.notFound(res, name);
        const state = this.indices.get(index)!;
        const previous = state.docs.get(third);
        const version = (previous?.version ?? 0) + 1;
        state.docs.set(third, { source: b, version });
        return this.send(res, previous ? 200 : 201, {
          _index: index, _id: third, _version: version, result: previous ? 'updated' : 'created',
          _shards: { total: 1, successful: 1, failed: 0 }, _seq_no: version - 1, _primary_term: 1,
        });
      }
      if (method === 'GET') {
        for (const t of targets) {
          const d = this.indices.get(t)!.docs.get(third);
          if (d) return this.send(res, 200, { _index: t, _id: third, _version: d.version, _seq_no: 0, _primary_term: 1, found: true, _source: d.source });
        }
        if (targets.length === 0) return this.notFound(res, name);
        return this.send(res, 404, { _index: targets[0], _id: third, found: false });
      }
    }
    if (second === '_mget') {
      const includes = query._source_includes?.split(',');
      const excludes = query._source_excludes?.split(',');
      const docs = (b.ids as string[]).map((id) => {
        for (const t of targets) {
          const d = this.indices.get(t)!.docs.get(id);
          if (d) return { _index: t, _id: id, _version: d.version, _seq_no: 0, _primary_term: 1, found: true, _source: pick(d.source, includes, excludes) };
        }
        return { _index: targets[0], _id: id, found: false };
      });
      return this.send(res, 200, { docs });
    }
    if (second === '_count') {
      const count = this.docsOf(targets).filter(({ source }) => matches(source, b.query)).length;
      return this.send(res, 200, { count, _shards: { total: 1, successful: 1, skipped: 0, failed: 0 } });
    }
    if (second === '_delete_by_query') {
      let deleted = 0;
      for (const t of targets) {
        for (const [id, d] of [...this.indices.get(t)!.docs]) {
          if (matches(d.source, b.query)) {
            this.indices.get(t)!.docs.delete(id);
            deleted++;
          }
        }
      }
      return this.send(res, 200, {
        took: 1, timed_out: false, total: deleted, deleted, batches: deleted > 0 ? 1 : 0, version_conflicts: 0, noops: 0,
        retries: { bulk: 0, search: 0 }, throttled_millis: 0, requests_per_second: -1, throttled_until_millis: 0, failures: [],
      });
    }
    if (second === '_pit') {
      const id = `pit-${++this.pitSeq}`;
      this.pits.set(id, targets);
      return this.send(res, 200, { id, _shards: { total: 1, successful: 1, skipped: 0, failed: 0 } });
    }
    if (second === '_search') return this.search(res, targets, b);
    return this.send(res, 400, { error: { type: 'illegal_argument_exception', reason: `fake server: no handler for ${method} ${url.pathname}` }, status: 400 });
  }

  private docsOf(indices: string[]): { index: string; id: string; source: Source }[] {
    const out: { index: string; id: string; source: Source }[] = [];
    for (const index of indices) for (const [id, d] of this.indices.get(index)?.docs ?? []) out.push({ index, id, source: d.source });
    return out;
  }

  private search(res: ServerResponse, indices: string[], b: Record<string, any>): void {
    let hits = this.docsOf(indices).map((d) => ({ ...d, score: 1 as number | null }));
    if (b.knn) {
      const knn = b.knn as { field: string; query_vector: number[]; k: number; filter?: unknown };
      hits = hits
        .filter((h) => Array.isArray(h.source[knn.field]) && matches(h.source, knn.filter))
        .map((h) => ({ ...h, score: (1 + cosine(knn.query_vector, h.source[knn.field] as number[])) / 2 }))
        .sort((x, y) => y.score! - x.score!)
        .slice(0, knn.k);
    } else {
      hits = hits.filter((h) => matches(h.source, b.query)).map((h) => ({ ...h, score: textScore(h.source, b.query) }));
      hits = hits.filter((h) => h.score === null || h.score > 0);
      if (hits.some((h) => h.score !== null)) hits.sort((x, y) => (y.score ?? 0) - (x.score ?? 0) || x.id.localeCompare(y.id));
    }
    if (b.sort) hits.sort((x, y) => `${x.index}\u0000${x.id}`.localeCompare(`${y.index}\u0000${y.id}`));
    if (b.search_after) {
      const [key] = b.search_after as string[];
      hits = hits.filter((h) => `${h.index}\u0000${h.id}` > key);
    }
    if (b.collapse) {
      const seen = new Set<unknown>();
      hits = hits.filter((h) => {
        const v = h.source[b.collapse.field as string];
        if (seen.has(v)) return false;
        seen.add(v);
        return true;
      });
    }
    const size = (b.size as number | undefined) ?? 10;
    const page = hits.slice(0, size);
    const src = b._source as string[] | { includes?: string[]; excludes?: string[] } | undefined;
    const includes = Array.isArray(src) ? src : src?.includes;
    const excludes = Array.isArray(src) ? undefined : src?.excludes;
    this.send(res, 200, {
      took: 1,
      timed_out: false,
      ...(b.pit ? { pit_id: b.pit.id } : {}),
      _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
      hits: {
        max_score: page[0]?.score ?? null,
        hits: page.map((h) => ({
          _index: h.index,
          _id: h.id,
          _score: b.sort ? null : h.score,
          _source: pick(h.source, includes, excludes),
          ...(b.sort ? { sort: [`${h.index}\u0000${h.id}`] } : {}),
        })),
      },
    });
  }

  private bulk(res: ServerResponse, lines: Source[], defaultIndex: string | undefined): void {
    const items: Record<string, unknown>[] = [];
    let errors = false;
    for (let i = 0; i < lines.length; i++) {
      const [action, meta] = Object.entries(lines[i])[0] as [string, { _index?: string; _id: string }];
      const doc = action === 'delete' ? undefined : lines[++i];
      const name = meta._index ?? defaultIndex!;
      const index = this.writeIndex(name) ?? name;
      const key = `${action} ${index} ${meta._id}`;
      const attempt = (this.attempts.get(key) ?? 0) + 1;
      this.attempts.set(key, attempt);
      const failure = this.bulkItemFailure?.({ action, index, id: meta._id, attempt }) ?? null;
      if (failure) {
        errors = true;
        items.push({ [action]: { _index: index, _id: meta._id, status: failure.status, error: { ...failure.error, index } } });
        continue;
      }
      const state = this.indices.get(index);
      if (!state) {
        errors = true;
        items.push({ [action]: { _index: index, _id: meta._id, status: 404, error: { type: 'index_not_found_exception', reason: `no such index [${index}]`, index } } });
        continue;
      }
      const previous = state.docs.get(meta._id);
      const ok = (result: string, status: number, version: number) =>
        items.push({ [action]: { _index: index, _id: meta._id, _version: version, result, _shards: { total: 1, successful: 1, failed: 0 }, _seq_no: 0, _primary_term: 1, status } });
      if (action === 'index' || action === 'create') {
        const version = (previous?.version ?? 0) + 1;
        state.docs.set(meta._id, { source: doc as Source, version });
        ok(previous ? 'updated' : 'created', previous ? 200 : 201, version);
      } else if (action === 'update') {
        if (!previous) {
          errors = true;
          items.push({ update: { _index: index, _id: meta._id, status: 404, error: { type: 'document_missing_exception', reason: `[${meta._id}]: document missing`, index } } });
          continue;
        }
        const version = previous.version + 1;
        state.docs.set(meta._id, { source: { ...previous.source, ...((doc as { doc: Source }).doc ?? {}) }, version });
        ok('updated', 200, version);
      } else if (action === 'delete') {
        if (!previous) {
          ok('not_found', 404, 1);
          continue;
        }
        state.docs.delete(meta._id);
        ok('deleted', 200, previous.version + 1);
      }
    }
    this.send(res, 200, { errors, took: 1, items });
  }

  private reindex(res: ServerResponse, b: Record<string, any>): void {
    const from = this.resolve(b.source.index as string);
    const dest = this.indices.get(b.dest.index as string);
    if (!dest) return this.notFound(res, b.dest.index as string);
    // The one script the engine sends: dropping a field (`ctx._source.remove('<field>')`).
    const script = (b.script?.source as string | undefined) ?? '';
    const removed = /^ctx\._source\.remove\('([^']+)'\)$/.exec(script);
    if (script && !removed) return this.send(res, 400, { error: { type: 'illegal_argument_exception', reason: `fake server: unsupported script ${script}` }, status: 400 });
    const excludes = removed ? [removed[1]] : undefined;
    let created = 0;
    for (const d of this.docsOf(from)) {
      dest.docs.set(d.id, { source: pick(d.source, undefined, excludes), version: 1 });
      created++;
    }
    this.send(res, 200, {
      took: 1, timed_out: false, total: created, updated: 0, created, deleted: 0, batches: 1, version_conflicts: 0, noops: 0,
      retries: { bulk: 0, search: 0 }, throttled_millis: 0, requests_per_second: -1, throttled_until_millis: 0, failures: [],
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Query evaluation (filters exactly; scores by the stand-in described above)

function pick(source: Source, includes?: string[], excludes?: string[]): Source {
  let out = source;
  if (includes && includes.length > 0) out = Object.fromEntries(Object.entries(out).filter(([k]) => includes.includes(k)));
  if (excludes && excludes.length > 0) out = Object.fromEntries(Object.entries(out).filter(([k]) => !excludes.includes(k)));
  return out;
}

/** Whether a source passes a query's filtering clauses (scoring clauses pass when they score > 0). */
export function matches(source: Source, query: any): boolean {
  if (!query) return true;
  if (query.match_all) return true;
  if (query.bool) {
    const all = [...(query.bool.filter ?? []), ...(query.bool.must ?? [])];
    return all.every((q: unknown) => matches(source, q)) && !(query.bool.must_not ?? []).some((q: unknown) => matches(source, q));
  }
  if (query.term) {
    const [field, value] = Object.entries(query.term)[0] as [string, unknown];
    const v = typeof value === 'object' && value !== null && 'value' in value ? (value as { value: unknown }).value : value;
    const s = source[field];
    return Array.isArray(s) ? s.includes(v) : s === v;
  }
  if (query.terms) {
    const [field, values] = Object.entries(query.terms)[0] as [string, unknown[]];
    return values.includes(source[field]);
  }
  if (query.exists) return source[query.exists.field] !== undefined && source[query.exists.field] !== null;
  if (query.range) {
    const [field, r] = Object.entries(query.range)[0] as [string, Record<string, string>];
    const v = source[field];
    if (typeof v !== 'string' && typeof v !== 'number') return false;
    if (r.gte !== undefined && String(v) < r.gte) return false;
    if (r.lte !== undefined && String(v) > r.lte) return false;
    return true;
  }
  if (query.multi_match) return true;
  throw new Error(`fake server: unsupported query ${JSON.stringify(query)}`);
}

/** The stand-in text score: query words (lowercased) found in the searched fields; null when nothing scores. */
function textScore(source: Source, query: any): number | null {
  const mm = query?.bool?.must?.find((q: any) => q.multi_match)?.multi_match as { query: string; fields: string[] } | undefined;
  if (!mm) return null;
  const search = (source.search ?? {}) as Record<string, string>;
  const texts = mm.fields.flatMap((f) => (f === 'search.*' ? Object.values(search) : [search[f.slice('search.'.length)] ?? ''])).map((t) => t.toLowerCase());
  const tokens = (text: string): string[] => text.match(/[\p{L}\p{N}]+/gu) ?? [];
  let score = 0;
  for (const w of tokens(mm.query.toLowerCase())) if (texts.some((t) => tokens(t).includes(w))) score++;
  return score;
}
