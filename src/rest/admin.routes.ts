/**
 * The administration REST routes (/v1/admin/*): administrators only (401 without credentials,
 * 403 for anyone else: the services check it first). Each handler calls one service method.
 */
import express, { type Request } from 'express';
import { adminStatsSchema, adminUsersPageSchema, userEndpointsSchema, usersQuerySchema } from '../modules/admin/admin.schema.js';
import type { AdminModule } from '../modules/admin/admin.module.js';
import { auditPageSchema, auditQuerySchema } from '../modules/admin/audit-log.js';
import { contextOf } from '../http/request-context.js';
import { withLoc } from './errors.js';
import type { RestApi } from './rest-api.js';

/** The query string with scalar parameters (a repeated parameter gives its last value, as FastAPI). */
function queryParams(req: Request): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(req.query as Record<string, unknown>)) params[name] = Array.isArray(value) ? value.at(-1) : value;
  return params;
}

const tags = ['admin'];
const FORBIDDEN = 'Not an administrator';

export function adminRouter(admin: AdminModule, rest: RestApi): express.Router {
  const router = express.Router();
  const ctx = (req: Request) => contextOf(req);

  rest.route(router, '/v1/admin/stats', {
    get: [
      { name: 'admin_stats', summary: 'Admin Stats', description: 'Administrators only.', tags, access: 'account', responses: { 200: adminStatsSchema, 403: FORBIDDEN } },
      async (req, res) => {
        res.json(await admin.users.stats(ctx(req)));
      },
    ],
  });

  rest.route(router, '/v1/admin/users', {
    get: [
      {
        name: 'admin_users',
        summary: 'Admin Users',
        description: 'Administrators only. Users with their plan, override, workspace and request counts.',
        tags,
        access: 'account',
        query: usersQuerySchema,
        responses: { 200: adminUsersPageSchema, 403: FORBIDDEN },
      },
      async (req, res) => {
        res.json(await withLoc('query', () => admin.users.users(ctx(req), queryParams(req))));
      },
    ],
  });

  rest.route(router, '/v1/admin/users/:user_id/endpoints', {
    get: [
      {
        name: 'admin_user_endpoints',
        summary: 'Admin User Endpoints',
        description: "Administrators only. The user's top endpoints by call count.",
        tags,
        access: 'account',
        params: { user_id: 'The user id (UUID)' },
        responses: { 200: userEndpointsSchema, 403: FORBIDDEN, 404: 'Unknown user' },
      },
      async (req, res) => {
        res.json(await withLoc('path', () => admin.users.userEndpoints(ctx(req), req.params)));
      },
    ],
  });

  rest.route(router, '/v1/admin/audit', {
    get: [
      {
        name: 'admin_audit',
        summary: 'Admin Audit',
        description: 'Administrators only. The audit log of administrative writes, newest first.',
        tags,
        access: 'account',
        query: auditQuerySchema,
        responses: { 200: auditPageSchema, 403: FORBIDDEN },
      },
      async (req, res) => {
        res.json(await withLoc('query', () => admin.audit.list(ctx(req), queryParams(req))));
      },
    ],
  });

  return router;
}

