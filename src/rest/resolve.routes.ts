/**
 * The resolver's REST doors: POST /v1/resolve and GET /v1/resolve/coverage. Each handler builds
 * the request context and calls ONE LegalDataApi method; the service validates the body.
 * Mount errorHandler() (./errors.ts) after this router.
 */
import express, { type Request } from 'express';
import type { LegalDataApi } from '../modules/legal-data/legal-data.port.js';
import { jsonBody, methodNotAllowed, withLoc } from './errors.js';
import { contextOf } from './request-context.js';

/** The caller as the authentication middleware (./request-context.ts) found it. */
const context = (req: Request) => contextOf(req);

/** The resolve routes over the legal-data service. */
export function resolveRouter(api: LegalDataApi): express.Router {
  const router = express.Router();
  router
    .route('/v1/resolve')
    .post(jsonBody(), async (req, res) => {
      res.json(await withLoc('body', () => api.resolve(context(req), req.body)));
    })
    .all(methodNotAllowed(['POST']));
  router
    .route('/v1/resolve/coverage')
    .get(async (req, res) => {
      res.json(await api.resolveCoverage(context(req)));
    })
    .all(methodNotAllowed(['GET', 'HEAD']));
  return router;
}
