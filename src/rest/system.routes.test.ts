/** /health and /ready over real HTTP (the OpenAPI document is tested on the whole app: test/openapi.e2e.test.ts). */
import express from 'express';
import type { Readiness } from '../modules/legal-data/catalog.schema.js';
import { errorHandler, notFoundHandler } from './errors.js';
import { RestApi } from './rest-api.js';
import { systemRouter } from './system.routes.js';
import { serve } from '../../test/helpers/http.js';

let readiness: Readiness = { status: 'starting', stores: { database: false, index: false }, ingest: null };
let close: () => Promise<void>;
let base: string;

beforeAll(async () => {
  const app = express();
  app.use(systemRouter({ readiness: async () => readiness }, new RestApi('https://legal.example.org')));
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
