/**
 * Partner accounts over REST (issue #35 item 2): `GET`/`PUT`/`DELETE /v1/admin/users/{user_id}/partner`,
 * administrators only (401 without credentials, 403 for anyone else: the service checks first).
 * Each handler calls one service method; the analytics themselves are GraphQL fields.
 */
import express from 'express';
import { contextOf } from '../http/request-context.js';
import { partnerAnswerSchema, partnerBodySchema, partnerRemovalAnswerSchema, partnerRemovalBodySchema } from '../modules/analytics/analytics.schema.js';
import type { PartnersService } from '../modules/analytics/partners.service.js';
import { jsonBody, withLoc } from './errors.js';
import type { RestApi } from './rest-api.js';

const tags = ['admin'];

export function partnersRouter(partners: Pick<PartnersService, 'get' | 'set' | 'remove'>, rest: RestApi): express.Router {
  const router = express.Router();
  rest.route(router, '/v1/admin/users/:user_id/partner', {
    get: [
      {
        name: 'admin_user_partner',
        summary: 'Admin Get Partner',
        description: "Administrators only. The account's partner scope, as PUT answers it; 404 when the account is not a partner.",
        tags,
        access: 'account',
        params: { user_id: 'The user id (UUID)' },
        responses: { 200: partnerAnswerSchema, 403: 'Not an administrator', 404: 'Unknown user, or not a partner' },
      },
      async (req, res) => {
        res.json(await withLoc({ user_id: 'path' }, () => partners.get(contextOf(req), req.params)));
      },
    ],
    put: [
      {
        name: 'admin_user_partner_set',
        limited: 'admin_partner_set',
        summary: 'Admin Set Partner',
        description: "Administrators only. Makes the account a partner whose analytics scope is these sources and/or countries, or replaces its scope (audited).",
        tags,
        access: 'account',
        params: { user_id: 'The user id (UUID)' },
        body: partnerBodySchema,
        responses: { 200: partnerAnswerSchema, 403: 'Not an administrator', 404: 'Unknown user' },
      },
      jsonBody(),
      async (req, res) => {
        res.json(await withLoc({ user_id: 'path', '*': 'body' }, () => partners.set(contextOf(req), req.params, req.body)));
      },
    ],
    delete: [
      {
        name: 'admin_user_partner_remove',
        limited: 'admin_partner_remove',
        summary: 'Admin Remove Partner',
        description: 'Administrators only. Ends the partnership: the account reads no analytics any more (audited).',
        tags,
        access: 'account',
        params: { user_id: 'The user id (UUID)' },
        body: partnerRemovalBodySchema,
        bodyRequired: false,
        responses: { 200: partnerRemovalAnswerSchema, 403: 'Not an administrator', 404: 'Unknown user, or not a partner' },
      },
      jsonBody(),
      async (req, res) => {
        res.json(await withLoc({ user_id: 'path', '*': 'body' }, () => partners.remove(contextOf(req), req.params, req.body ?? {})));
      },
    ],
  });
  return router;
}
