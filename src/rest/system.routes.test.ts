/** /openapi.json, /health and /ready over real HTTP. */
import express from 'express';
import type { Readiness } from '../modules/legal-data/catalog.schema.js';
import { errorHandler, notFoundHandler } from './errors.js';
import { systemRouter } from './system.routes.js';
import { serve } from '../../test/helpers/http.js';

let readiness: Readiness = { status: 'starting', stores: { database: false, index: false }, ingest: null };
let close: () => Promise<void>;
let base: string;

beforeAll(async () => {
  const app = express();
  app.use(systemRouter({ readiness: async () => readiness }, 'https://legal.example.org'));
  app.use(notFoundHandler);
  app.use(errorHandler({ error: () => undefined }));
  ({ base, close } = await serve(app));
});

afterAll(() => close());

async function get(path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(base + path);
  return { status: res.status, body: await res.json() };
}

describe('/health and /ready', () => {
  it('health is 200 whatever the readiness', async () => {
    expect(await get('/health')).toEqual({ status: 200, body: { status: 'ok' } });
  });

  it('ready is 503 with the progress until ready, then 200', async () => {
    readiness = { status: 'starting', stores: { database: true, index: false }, ingest: null };
    expect(await get('/ready')).toEqual({ status: 503, body: readiness });

    readiness = {
      status: 'indexing',
      stores: { database: true, index: true },
      ingest: { phase: 'indexing', documents_done: 500, documents_total: 1000, files_done: 2, files_total: 4, documents_per_second: 250, eta_seconds: 2 },
    };
    expect(await get('/ready')).toEqual({ status: 503, body: readiness });

    readiness = { status: 'ready', stores: { database: true, index: true }, ingest: null };
    expect(await get('/ready')).toEqual({ status: 200, body: readiness });
  });
});

describe('/openapi.json', () => {
  let doc: any;
  beforeAll(async () => {
    const res = await get('/openapi.json');
    expect(res.status).toBe(200);
    doc = res.body;
  });

  it('is an OpenAPI 3.1 document at version 0.1.0 with the base URL as server', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ version: '0.1.0', title: expect.any(String) });
    expect(doc.servers).toEqual([{ url: 'https://legal.example.org' }]);
  });

  it('covers every route', () => {
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        '/health',
        '/ready',
        '/v1/discover/countries',
        '/v1/discover/countries/{code}/sources',
        '/v1/discover/courts',
        '/v1/discover/sources/{source}/filters',
        '/v1/documents/{country}/{source_name}',
        '/v1/documents/{country}/{source_name}/{source_id}',
        '/v1/manifest',
        '/v1/resolve',
        '/v1/resolve/coverage',
        '/v1/search',
        '/v1/stats',
        // accounts, keys and usage
        '/auth/register',
        '/auth/login',
        '/auth/logout',
        '/auth/legal-acceptance',
        '/auth/password-reset/request',
        '/auth/password-reset/confirm',
        '/auth/verify-email/request',
        '/auth/verify-email/confirm',
        '/auth/dev-login',
        '/auth/password-authorize',
        '/auth/me',
        '/auth/github',
        '/auth/github/callback',
        '/auth/google',
        '/auth/google/callback',
        '/auth/microsoft',
        '/auth/microsoft/callback',
        '/v1/keys',
        '/v1/keys/{key_id}',
        '/v1/usage/me',
        // billing
        '/v1/billing/plans',
        '/v1/billing/audience',
        '/v1/billing/promo',
        '/v1/billing/checkout',
        '/v1/billing/checkout/verify',
        '/v1/billing/credit-topups/checkout',
        '/v1/billing/credit-topups/auto',
        '/v1/billing/portal',
        '/v1/billing/status',
        '/v1/billing/webhooks',
      ].sort(),
    );
    expect(doc.paths['/v1/search'].post.operationId).toBe('search_v1_search_post');
    expect(doc.paths['/v1/resolve'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ResolveRequest' });
    expect(doc.components.schemas.ResolveRequest.required).toEqual(['reference']);
  });

  it('describes the credentials of billable and account operations', () => {
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['HTTPBearer', 'SessionCookie']);
    for (const [path, method] of [['/v1/search', 'post'], ['/v1/resolve', 'post'], ['/v1/documents/{country}/{source_name}/{source_id}', 'get'], ['/v1/keys', 'get'], ['/v1/usage/me', 'get']]) {
      const operation = doc.paths[path!][method!];
      expect([path, operation.security]).toEqual([path, [{ HTTPBearer: [] }, { SessionCookie: [] }]]);
      expect(operation.responses['401']).toBeDefined();
    }
    expect(doc.paths['/v1/search'].post.responses['429']).toBeDefined();
    expect(doc.paths['/v1/stats'].get.security).toBeUndefined();
    expect(doc.paths['/auth/register'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/_EmailPasswordBody' });
    expect(doc.components.schemas._EmailPasswordBody.required).toEqual(['email', 'password']);
    expect(doc.paths['/v1/keys/{key_id}'].delete.operationId).toBe('revoke_key_v1_keys__key_id__delete');
  });

  it('describes the search request from the zod schema, bounds and defaults included', () => {
    const search = doc.paths['/v1/search'].post;
    expect(search.requestBody).toEqual({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/SearchRequest' } } },
      required: true,
    });
    expect(search.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/SearchResponse' });
    expect(search.responses['422'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/HTTPValidationError' });

    const request = doc.components.schemas.SearchRequest;
    expect(request.required).toEqual(['q']);
    expect(request.properties.q).toMatchObject({ type: 'string', minLength: 1 });
    expect(request.properties.top_k).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 10 });
    expect(request.properties.alpha).toMatchObject({ type: 'number', minimum: 0, maximum: 1, default: 0.7 });
    expect(request.properties.court_tier.anyOf).toContainEqual({ type: 'integer', minimum: 1, maximum: 3 });
    expect(request.properties.namespace).toMatchObject({ enum: ['case_law', 'legislation', 'doctrine'], default: 'case_law' });
    expect(request.properties.date_start.anyOf).toContainEqual({ type: 'string', format: 'date' });
  });

  it('describes the billing operations with the spec\'s request bodies', () => {
    expect(doc.components.schemas.CheckoutRequest.required).toEqual(['plan']);
    expect(Object.keys(doc.components.schemas.CheckoutRequest.properties)).toEqual(['plan', 'interval', 'quantity', 'workspace_name', 'promo_code', 'audience', 'legal_accepted']);
    expect(doc.components.schemas.AutoTopupRequest.properties.threshold_usd).toMatchObject({ default: 10, minimum: 1 });
    expect(doc.paths['/v1/billing/plans'].get.parameters.map((p: any) => p.name)).toEqual(['audience']);
    expect(doc.paths['/v1/billing/plans'].get.security).toBeUndefined();
    expect(doc.paths['/v1/billing/checkout'].post.responses).toHaveProperty(['502']);
    expect(Object.keys(doc.paths['/v1/billing/portal']).sort()).toEqual(['get', 'post']);
    expect(doc.paths['/v1/billing/credit-topups/auto'].put.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/AutoTopupRequest' });
  });

  it('has FastAPI’s validation error components', () => {
    expect(doc.components.schemas.HTTPValidationError).toEqual({
      properties: { detail: { items: { $ref: '#/components/schemas/ValidationError' }, type: 'array', title: 'Detail' } },
      type: 'object',
      title: 'HTTPValidationError',
    });
    expect(doc.components.schemas.ValidationError).toMatchObject({
      required: ['loc', 'msg', 'type'],
      properties: { loc: { type: 'array' }, msg: { type: 'string' }, type: { type: 'string' } },
    });
  });

  it('documents query parameters from the route schemas', () => {
    const params = doc.paths['/v1/discover/countries/{code}/sources'].get.parameters;
    expect(params).toContainEqual(expect.objectContaining({ name: 'include_empty', in: 'query', required: false, schema: { type: 'boolean', default: false } }));
    const byQuery = doc.paths['/v1/documents/{country}/{source_name}'].get.parameters;
    expect(byQuery).toContainEqual(expect.objectContaining({ name: 'source_id', in: 'query', required: true }));
  });

  it('is internally consistent: refs resolve, path parameters are declared, operation ids are unique', () => {
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    for (const ref of refs) {
      const name = ref.slice('"$ref":"#/components/schemas/'.length, -1);
      expect(doc.components.schemas).toHaveProperty([name]);
    }
    const ids = new Set<string>();
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const operation of Object.values<any>(item)) {
        // a success answer: 200, or 204 (revoke) and 302 (identity-provider redirects)
        expect(Object.keys(operation.responses).some((code) => /^(200|204|302)$/.test(code))).toBe(true);
        expect(ids.has(operation.operationId)).toBe(false);
        ids.add(operation.operationId);
        const declared = (operation.parameters ?? []).filter((p: any) => p.in === 'path').map((p: any) => p.name);
        expect(declared.sort()).toEqual([...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort());
      }
    }
  });
});
