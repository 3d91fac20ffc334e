/**
 * /openapi.json of the whole app, compared with the routes express really serves: every REST
 * route (/v1, /auth, /health, /ready) is documented with its methods and nothing documented is
 * unserved; the protocol endpoints outside it (OAuth, MCP, GraphQL, well-known metadata) are
 * described by their own standards. Then the document's content: components from the zod
 * schemas, FastAPI's operation ids and error components, credentials of each operation.
 */
import type express from 'express';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { describeRestApi } from '../src/app.js';
import { openApiPath } from '../src/rest/rest-api.js';
import { writeCorpusSlice } from './fixtures/corpus-slice.js';
import { makeTestDataDir } from './helpers/pglite-template.js';

/** Every (METHOD path) an express app routes, from its router stack (all routers are mounted at the root). */
function servedRoutes(app: express.Express): string[] {
  const out: string[] = [];
  const walk = (stack: any[]) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const method of Object.keys(layer.route.methods)) if (method !== '_all') out.push(`${method.toUpperCase()} ${layer.route.path}`);
      } else if (Array.isArray(layer.handle?.stack)) walk(layer.handle.stack);
    }
  };
  walk((app as any).router.stack);
  return out;
}

/** REST routes: described in /openapi.json. */
const isRestPath = (p: string) => /^\/(v1|auth)\//.test(p) || p === '/health' || p === '/ready';

describe('/openapi.json of the whole app', () => {
  let platform: Platform;
  let doc: any;

  beforeAll(async () => {
    const corpus = await writeCorpusSlice([{ file: 'case_law/DE-BGH.jsonl.gz', lines: 2 }]);
    const dataDir = await makeTestDataDir('openapi-e2e-');
    const config = loadConfig({ DATA_DIR: dataDir, CORPUS_DIR: corpus.dir, PORT: '0', EMBEDDER: 'none', BASE_URL: 'https://legal.example.org' });
    platform = await startPlatform(config, createLogger('silent'));
    const res = await fetch(`${platform.url}/openapi.json`);
    expect(res.status).toBe(200);
    doc = await res.json();
  });

  afterAll(async () => {
    await platform?.stop();
  });

  it('documents exactly the REST routes express serves, method for method', () => {
    const served = servedRoutes(platform.app.app);
    const rest = served.filter((r) => isRestPath(r.split(' ')[1]!)).map((r) => {
      const [method, p] = r.split(' ');
      return `${method} ${openApiPath(p!)}`;
    });
    const documented = Object.entries<any>(doc.paths).flatMap(([p, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${p}`));
    expect([...new Set(rest)].sort()).toEqual(documented.sort());
    expect(rest.length).toBeGreaterThan(30);
    // what is left is the protocol endpoints, each described by its own standard, and the web
    // dashboard's pages (`/` is the landing page, the account mails' links lead to the dashboard), the legal texts and the landing page's script
    const others = [...new Set(served.filter((r) => !isRestPath(r.split(' ')[1]!)).map((r) => r.split(' ')[1]!))];
    const notRest = /^\/(openapi\.json|graphql|mcp|sse|oauth\/|\.well-known\/oauth-(authorization-server|protected-resource)|dashboard(\/|$)|reset-password$|verify-email$|legal-acceptance$|legal\/(terms|privacy|data-processing)$|landing-search\.js$|$)/;
    for (const p of others) expect([p, notRest.test(p)]).toEqual([p, true]);
  });

  it('is an OpenAPI 3.1 document at version 0.1.0 with BASE_URL as server', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ version: '0.1.0', title: expect.any(String) });
    expect(doc.servers).toEqual([{ url: 'https://legal.example.org' }]);
    expect(doc.paths['/v1/search'].post.operationId).toBe('search_v1_search_post');
    expect(doc.paths['/v1/keys/{key_id}'].delete.operationId).toBe('revoke_key_v1_keys__key_id__delete');
    expect(doc.paths['/v1/resolve'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ResolveRequest' });
    expect(doc.components.schemas.ResolveRequest.required).toEqual(['reference']);
  });

  it('describes the credentials of billable and account operations', () => {
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['HTTPBearer', 'SessionCookie']);
    for (const [p, method] of [['/v1/search', 'post'], ['/v1/resolve', 'post'], ['/v1/documents/{country}/{source_name}/{source_id}', 'get'], ['/v1/keys', 'get'], ['/v1/usage/me', 'get'], ['/v1/resolve/coverage', 'get']]) {
      const operation = doc.paths[p!][method!];
      expect([p, operation.security]).toEqual([p, [{ HTTPBearer: [] }, { SessionCookie: [] }]]);
      // a 401 whose body is the `{"detail": "..."}` error of every non-validation failure
      expect([p, operation.responses['401']]).toEqual([
        p,
        { description: expect.any(String), headers: { 'WWW-Authenticate': expect.objectContaining({ schema: { type: 'string' } }) }, content: { 'application/json': { schema: { $ref: '#/components/schemas/HTTPError' } } } },
      ]);
    }
    expect(doc.components.schemas.HTTPError).toMatchObject({ type: 'object', required: ['detail'], properties: { detail: { type: 'string' } } });
    expect(doc.paths['/v1/search'].post.responses['429']).toEqual({
      description: 'Over a plan limit (Retry-After)',
      headers: { 'Retry-After': expect.objectContaining({ schema: { type: 'integer', minimum: 1 } }), RateLimit: expect.any(Object), 'RateLimit-Policy': expect.any(Object) },
      content: { 'application/json': { schema: { $ref: '#/components/schemas/HTTPError' } } },
    });
    expect(Object.keys(doc.paths['/v1/search'].post.responses['200'].headers)).toEqual(['RateLimit', 'RateLimit-Policy']);
    // the per-account throttles (src/modules/usage/throttle.ts): not a plan limit, no RateLimit headers
    expect(doc.paths['/v1/keys'].get.responses['429']).toBeUndefined();
    for (const [p, method] of [['/v1/keys', 'post'], ['/v1/usage/me', 'get']]) {
      expect([p, Object.keys(doc.paths[p!][method!].responses['429'].headers)]).toEqual([p, ['Retry-After']]);
    }
    // open operations say so: no credentials needed
    expect(doc.paths['/v1/stats'].get.security).toEqual([]);
    expect(doc.paths['/v1/stats'].get.responses['503'].headers).toEqual({ 'Retry-After': expect.any(Object) });
    // mounted before authentication: no RFC 6750 answer, no 503 from the database
    expect(Object.keys(doc.paths['/health'].get.responses)).toEqual(['200']);
    expect(Object.keys(doc.paths['/ready'].get.responses)).toEqual(['200', '503']);
    expect(doc.paths['/auth/register'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/_EmailPasswordBody' });
    expect(doc.components.schemas._EmailPasswordBody.required).toEqual(['email', 'password']);
    expect(doc.paths['/v1/keys'].post.requestBody.required).toBe(false);
  });

  it('is the document describeRestApi builds without a server (what lint:openapi and the typed client read)', () => {
    expect(describeRestApi('https://legal.example.org')).toEqual(doc);
  });

  it('describes the search request from the zod schema, bounds and defaults included', () => {
    const search = doc.paths['/v1/search'].post;
    expect(search.requestBody).toEqual({ content: { 'application/json': { schema: { $ref: '#/components/schemas/SearchRequest' } } }, required: true });
    expect(search.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/SearchResponse' });
    expect(search.responses['422'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/HTTPValidationError' });
    const request = doc.components.schemas.SearchRequest;
    expect(request.required).toEqual(['q']);
    expect(request.properties.q).toMatchObject({ type: 'string', minLength: 1 });
    expect(request.properties.top_k).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 10 });
    expect(request.properties.alpha).toMatchObject({ type: 'number', minimum: 0, maximum: 1, default: 0.7 });
    expect(JSON.stringify(request.properties.court_tier)).toMatch(/"minimum":1.*"maximum":3/);
    expect(request.properties.namespace).toMatchObject({ enum: ['case_law', 'legislation', 'doctrine'], default: 'case_law' });
    expect(JSON.stringify(request.properties.date_start)).toMatch(/"format":"date"/);
    // a response component referenced, not inlined
    expect(doc.components.schemas.SearchResponse.properties.hits.items).toEqual({ $ref: '#/components/schemas/SearchHit' });
  });

  it('has FastAPI’s validation error components', () => {
    expect(doc.components.schemas.HTTPValidationError).toEqual({
      properties: { detail: { items: { $ref: '#/components/schemas/ValidationError' }, type: 'array', title: 'Detail' } },
      type: 'object',
      title: 'HTTPValidationError',
    });
    expect(doc.components.schemas.ValidationError).toMatchObject({ required: ['loc', 'msg', 'type'], properties: { loc: { type: 'array' }, msg: { type: 'string' }, type: { type: 'string' } } });
  });

  it('documents query and path parameters from the route schemas', () => {
    const params = doc.paths['/v1/discover/countries/{country_code}/sources'].get.parameters;
    expect(params).toContainEqual(expect.objectContaining({ name: 'include_empty', in: 'query', required: false }));
    expect(params).toContainEqual(expect.objectContaining({ name: 'country_code', in: 'path', required: true }));
    const byQuery = doc.paths['/v1/documents/{country}/{source_name}'].get.parameters;
    expect(byQuery).toContainEqual(expect.objectContaining({ name: 'source_id', in: 'query', required: true }));
    const callback = doc.paths['/auth/github/callback'].get.parameters.map((p: any) => [p.name, p.in, p.required]);
    expect(callback).toEqual(expect.arrayContaining([['code', 'query', true], ['state', 'query', true]]));
  });

  it('is internally consistent: refs resolve, path parameters are declared, operation ids are unique', () => {
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    for (const ref of refs) expect(doc.components.schemas).toHaveProperty([ref.slice('"$ref":"#/components/schemas/'.length, -1)]);
    const ids = new Set<string>();
    for (const [p, item] of Object.entries<any>(doc.paths)) {
      for (const operation of Object.values<any>(item)) {
        expect(Object.keys(operation.responses).some((code) => /^(200|204|302)$/.test(code))).toBe(true);
        expect(ids.has(operation.operationId)).toBe(false);
        ids.add(operation.operationId);
        const declared = (operation.parameters ?? []).filter((x: any) => x.in === 'path').map((x: any) => x.name);
        expect(declared.sort()).toEqual([...p.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort());
      }
    }
  });
});
