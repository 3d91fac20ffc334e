/**
 * The resolver's REST doors: POST /v1/resolve and GET /v1/resolve/coverage. Each handler builds
 * the request context and calls ONE LegalDataApi method; the service validates the body.
 * Mount errorHandler() (./errors.ts) after this router.
 */
import express, { type Request } from 'express';
import type { LegalDataApi } from '../modules/legal-data/legal-data.port.js';
import { resolveCoverageSchema, resolveRequestSchema, resolveResponseSchema } from '../modules/legal-data/resolve.schema.js';
import { jsonBody, withLoc } from './errors.js';
import { contextOf } from '../http/request-context.js';
import type { RestApi } from './rest-api.js';

/** The caller as the authentication middleware (./request-context.ts) found it. */
const context = (req: Request) => contextOf(req);

/** The resolve routes over the legal-data service. */
export function resolveRouter(api: LegalDataApi, rest: RestApi): express.Router {
  const router = express.Router();
  rest.route(router, '/v1/resolve', {
    post: [
      {
        name: 'resolve',
        summary: 'Resolve',
        description:
          'Resolves a citation (ECLI, CELEX, ELI, `§ 823 Abs. 1 BGB`, `article L. 1234-1 du Code du travail`, `Article 6(1)(a) GDPR`…) to exact documents. Strict: `none` rather than a doubtful document; `ambiguous` lists the documents that fit equally.',
        tags: ['resolve'],
        access: 'billable',
        body: resolveRequestSchema,
        responses: { 200: resolveResponseSchema },
      },
      jsonBody(),
      async (req, res) => {
        res.json(await withLoc('body', () => api.resolve(context(req), req.body)));
      },
    ],
  });
  rest.route(router, '/v1/resolve/coverage', {
    get: [
      {
        name: 'resolve_coverage',
        summary: 'Resolve Coverage',
        description: 'Per source: whether resolve patterns reach its documents, how many patterns, and how many documents; plus totals.',
        tags: ['resolve'],
        access: 'account',
        responses: { 200: resolveCoverageSchema },
      },
      async (req, res) => {
        res.json(await api.resolveCoverage(context(req)));
      },
    ],
  });
  return router;
}
