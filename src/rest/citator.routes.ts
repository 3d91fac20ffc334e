/**
 * The citator's REST doors (issue 37, item 2; additive to the spec): who cites a document and
 * what it cites. Each handler builds the request context and calls ONE LegalDataApi method; the
 * service validates the query. Mounted before the document routes: their `*source_id` wildcard
 * would otherwise take `…/bgb/536/cited-by` as a source id.
 */
import express, { type Request } from 'express';
import type { LegalDataApi } from '../modules/legal-data/legal-data.port.js';
import { citedByQuerySchema, citedByResponseSchema, citesResponseSchema } from '../modules/legal-data/citator/citator.schema.js';
import { withLoc } from './errors.js';
import { contextOf } from '../http/request-context.js';
import type { RestApi } from './rest-api.js';

/** The last value of each query parameter (Express 5's "simple" parser yields a string or an array). */
function queryParams(req: Request): Record<string, unknown> {
  return Object.fromEntries(Object.entries(req.query as Record<string, unknown>).map(([name, value]) => [name, Array.isArray(value) ? value.at(-1) : value]));
}

/** A `*name` wildcard parameter: Express 5 gives its decoded segments as an array. */
function wildcard(value: unknown): string {
  return Array.isArray(value) ? value.join('/') : String(value ?? '');
}

export function citatorRouter(api: LegalDataApi, rest: RestApi): express.Router {
  const router = express.Router();
  rest.route(router, '/v1/documents/:country/:source_name/*source_id/cited-by', {
    get: [
      {
        name: 'document_cited_by',
        summary: 'Document Cited By',
        description:
          'The decisions and guidance documents citing this document (a provision: the article; an act: citations naming no article, or with `include_articles` also those of its articles), one item per citing document with the passage of its first citation (under `sort=relevance`: its passage most relevant to `q`) highlighted and the pinpoint as written. Filters, sort (`date` newest first, `court_tier` highest court first, `relevance`) and cursor paging. Billed as a document read.',
        tags: ['documents'],
        access: 'billable',
        query: citedByQuerySchema,
        responses: { 200: citedByResponseSchema, 404: 'Unknown document' },
      },
      async (req, res) => {
        const { country, source_name } = contextParams(req);
        res.json(await withLoc('query', () => api.citedBy(contextOf(req), `${country}/${source_name}`, wildcard(req.params.source_id), queryParams(req))));
      },
    ],
  });
  rest.route(router, '/v1/documents/:country/:source_name/*source_id/cites', {
    get: [
      {
        name: 'document_cites',
        summary: 'Document Cites',
        description: 'What this document cites: the resolved links in order of appearance, then the citations resolving to nothing sure, as text with the reason. Billed as a document read.',
        tags: ['documents'],
        access: 'billable',
        responses: { 200: citesResponseSchema, 404: 'Unknown document' },
      },
      async (req, res) => {
        const { country, source_name } = contextParams(req);
        res.json(await api.cites(contextOf(req), `${country}/${source_name}`, wildcard(req.params.source_id)));
      },
    ],
  });
  return router;
}

function contextParams(req: Request): { country: string; source_name: string } {
  return { country: String(req.params.country), source_name: String(req.params.source_name) };
}
