/**
 * Operational routes: the OpenAPI document, liveness and readiness.
 */
import express from 'express';
import type { LegalDataApi } from '../modules/legal-data/legal-data.port.js';
import { methodNotAllowed } from './errors.js';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi.js';

/** `baseUrl`: the public base URL of the service (config.baseUrl), printed in the OpenAPI `servers`. */
export function systemRouter(api: Pick<LegalDataApi, 'readiness'>, baseUrl: string): express.Router {
  const router = express.Router();
  let openApi: OpenApiDocument | undefined;

  router.route('/openapi.json').get((_req, res) => {
    openApi ??= buildOpenApiDocument(baseUrl);
    res.json(openApi);
  }).all(methodNotAllowed(['GET', 'HEAD']));

  // Liveness: answers as long as the process can serve a request, whatever the stores say.
  router.route('/health').get((_req, res) => {
    res.json({ status: 'ok' });
  }).all(methodNotAllowed(['GET', 'HEAD']));

  // Readiness: 503 with the same body (ingest progress) until the service is ready.
  router.route('/ready').get(async (_req, res) => {
    const readiness = await api.readiness();
    res.status(readiness.status === 'ready' ? 200 : 503).json(readiness);
  }).all(methodNotAllowed(['GET', 'HEAD']));

  return router;
}
