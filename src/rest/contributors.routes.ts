/** GET /v1/contributors (open): contributor credits from the ContributorsService. */
import express from 'express';
import { contributorsResponseSchema } from '../modules/legal-data/contributors/contributors.schema.js';
import type { ContributorsService } from '../modules/legal-data/contributors/contributors.service.js';
import { contextOf } from '../http/request-context.js';
import type { RestApi } from './rest-api.js';

export function contributorsRouter(contributors: ContributorsService, rest: RestApi): express.Router {
  const router = express.Router();
  rest.route(router, '/v1/contributors', {
    get: [
      {
        name: 'contributors',
        summary: 'Contributors',
        description: 'Open. Contributor credits per source, per country and the global top contributors (cached for one hour when read from GitHub).',
        tags: ['discovery'],
        access: 'open',
        responses: { 200: contributorsResponseSchema, 503: 'GitHub did not answer and no credits were computed yet' },
      },
      async (req, res) => {
        res.json(await contributors.credits(contextOf(req)));
      },
    ],
  });
  return router;
}
