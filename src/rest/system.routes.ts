/**
 * Operational routes: the OpenAPI document, liveness and readiness.
 */
import express from 'express';
import { z } from 'zod';
import { readinessSchema } from '../modules/legal-data/catalog.schema.js';
import type { LegalDataApi } from '../modules/legal-data/legal-data.port.js';
import { methodNotAllowed } from './errors.js';
import type { RestApi } from './rest-api.js';

const healthSchema = z.object({ status: z.literal('ok') }).meta({ id: 'Health' });

/** `rest` holds every route described so far: /openapi.json is generated from it at the first request. */
export function systemRouter(api: Pick<LegalDataApi, 'readiness'>, rest: RestApi): express.Router {
  const router = express.Router();
  const tags = ['system'];

  // The document itself is not an operation of the API (FastAPI does not list it either).
  router
    .route('/openapi.json')
    .get((_req, res) => {
      res.json(rest.openApiDocument());
    })
    .all(methodNotAllowed(['GET', 'HEAD']));

  rest.route(router, '/health', {
    get: [
      { name: 'health', summary: 'Health', description: 'Liveness: 200 as long as the process serves requests.', tags, access: 'open', beforeAuthentication: true, responses: { 200: healthSchema } },
      (_req, res) => {
        res.json({ status: 'ok' });
      },
    ],
  });

  // Readiness: 503 with the same body (ingest progress) until the service is ready.
  rest.route(router, '/ready', {
    get: [
      {
        name: 'ready',
        summary: 'Ready',
        description: 'Readiness: 200 once the stores are open and the index is built, else 503 with the progress.',
        tags,
        access: 'open',
        beforeAuthentication: true,
        responses: { 200: readinessSchema, 503: { description: 'Not ready yet', schema: readinessSchema } },
      },
      async (_req, res) => {
        const readiness = await api.readiness();
        res.status(readiness.status === 'ready' ? 200 : 503).json(readiness);
      },
    ],
  });

  return router;
}
