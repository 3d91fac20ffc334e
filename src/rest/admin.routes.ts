/**
 * The administration REST routes (/v1/admin/*): administrators only (401 without credentials,
 * 403 for anyone else: the services check it first). Each handler calls one service method.
 */
import express, { type Request } from 'express';
import { adminStatsSchema, adminUsersPageSchema, eraseUserBodySchema, planOverrideBodySchema, userEndpointsSchema, usersQuerySchema } from '../modules/admin/admin.schema.js';
import { planOverrideAnswerSchema } from '../modules/admin/plan-override.service.js';
import { adminFeedbackListSchema, adminFeedbackReportSchema, feedbackQuerySchema, feedbackUpdateSchema, markForwardedSchema } from '../modules/admin/feedback-admin.service.js';
import { erasureAnswerSchema } from '../modules/admin/user-erasure.service.js';
import type { AdminModule } from '../modules/admin/admin.module.js';
import { auditPageSchema, auditQuerySchema } from '../modules/admin/audit-log.js';
import { contextOf } from '../http/request-context.js';
import { jsonBody, withLoc } from './errors.js';
import type { RestApi } from './rest-api.js';

/** The query string with scalar parameters (a repeated parameter gives its last value, as FastAPI). */
function queryParams(req: Request): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(req.query as Record<string, unknown>)) params[name] = Array.isArray(value) ? value.at(-1) : value;
  return params;
}

const tags = ['admin'];
const FORBIDDEN = 'Not an administrator';

// size: a route table: one registration per endpoint, in the order /openapi.json lists them, each handler a few lines that build the request context and call one service method; split by endpoint, the table would be scattered over files without making any handler shorter
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

  rest.route(router, '/v1/admin/users/:user_id', {
    patch: [
      {
        name: 'admin_user_plan_override', limited: 'admin_plan_override',
        summary: 'Admin Set Plan Override',
        description: "Administrators only. Sets (a catalogue plan slug) or removes (null) the user's plan override; it applies from the user's next request and wins over the subscription.",
        tags,
        access: 'account',
        params: { user_id: 'The user id (UUID)' },
        body: planOverrideBodySchema,
        responses: { 200: planOverrideAnswerSchema, 403: FORBIDDEN, 404: 'Unknown user' },
      },
      jsonBody(),
      async (req, res) => {
        res.json(await withLoc({ user_id: 'path', '*': 'body' }, () => admin.overrides.set(ctx(req), req.params, req.body)));
      },
    ],
    delete: [
      {
        name: 'admin_user_erase', limited: 'admin_erase_user',
        summary: 'Admin Erase User',
        description: 'Administrators only. Erases the account by the deletion rules (docs/admin.md); an administrator cannot erase themself (409).',
        tags,
        access: 'account',
        params: { user_id: 'The user id (UUID)' },
        body: eraseUserBodySchema,
        bodyRequired: false,
        responses: { 200: erasureAnswerSchema, 403: FORBIDDEN, 404: 'Unknown user', 409: 'The administrator themself' },
      },
      jsonBody(),
      async (req, res) => {
        res.json(await withLoc({ user_id: 'path', '*': 'body' }, () => admin.erasure.erase(ctx(req), req.params, req.body ?? {})));
      },
    ],
  });

  rest.route(router, '/v1/admin/feedback', {
    get: [
      {
        name: 'admin_feedback',
        summary: 'Admin Feedback',
        description: 'Administrators only. Feedback reports sent by MCP agents (report_source_issue), newest first.',
        tags,
        access: 'account',
        query: feedbackQuerySchema,
        responses: { 200: adminFeedbackListSchema, 403: FORBIDDEN },
      },
      async (req, res) => {
        res.json(await withLoc('query', () => admin.feedback.list(ctx(req), queryParams(req))));
      },
    ],
  });

  rest.route(router, '/v1/admin/feedback/:report_id', {
    patch: [
      {
        name: 'admin_feedback_update', limited: 'admin_feedback_update',
        summary: 'Admin Update Feedback',
        description: 'Administrators only. Sets resolved, dismissed or forwarded, with an optional note; a closed (resolved or dismissed) report is 409.',
        tags,
        access: 'account',
        params: { report_id: 'The report id (UUID)' },
        body: feedbackUpdateSchema,
        responses: { 200: adminFeedbackReportSchema, 403: FORBIDDEN, 404: 'Unknown report', 409: 'The report is closed' },
      },
      jsonBody(),
      async (req, res) => {
        res.json(await withLoc({ report_id: 'path', '*': 'body' }, () => admin.feedback.update(ctx(req), req.params, req.body)));
      },
    ],
  });

  rest.route(router, '/v1/admin/feedback/:report_id/mark-forwarded', {
    post: [
      {
        name: 'admin_feedback_mark_forwarded', limited: 'admin_feedback_forward',
        summary: 'Admin Mark Feedback Forwarded',
        description: 'Administrators only. Sets forwarded and keeps the URL of the issue created elsewhere.',
        tags,
        access: 'account',
        params: { report_id: 'The report id (UUID)' },
        body: markForwardedSchema,
        responses: { 200: adminFeedbackReportSchema, 403: FORBIDDEN, 404: 'Unknown report', 409: 'The report is closed' },
      },
      jsonBody(),
      async (req, res) => {
        res.json(await withLoc({ report_id: 'path', '*': 'body' }, () => admin.feedback.markForwarded(ctx(req), req.params, req.body)));
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

