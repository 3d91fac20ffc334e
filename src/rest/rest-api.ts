/**
 * One list of REST routes. `RestApi.route()` mounts a path's handlers on an express router AND
 * describes each of its operations in the OpenAPI registry (zod-to-openapi), from the same zod
 * schemas the services validate with; /openapi.json is generated from that registry. A route
 * cannot be served undocumented or documented unserved, and other methods on a path get
 * FastAPI's 405. Component names come from the schemas' own `.meta({ id })`.
 */
import { OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import type express from 'express';
import { z } from 'zod';
import { methodNotAllowed, RequestValidationError } from './errors.js';
import { valueError } from '../validation/pydantic-issues.js';
import { LOCATION, RATE_LIMIT_HEADERS, RETRY_AFTER, WWW_AUTHENTICATE } from './openapi-headers.js';
import { type LimitedOperation, OPERATION_LIMITS } from '../modules/usage/operation-limits.js';

export const API_VERSION = '0.1.0';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Who may call an operation. `open`: anyone; `account`: an API key or the session cookie (401
 * without); `billable`: the same, counted against the plan (429 over a limit).
 */
export type Access = 'open' | 'account' | 'billable';

/** A response: a zod schema (200-style JSON), an error description (HTTPError body), or both spelled out. */
type ResponseDoc =
  | z.ZodType
  | string
  | { description: string; schema?: z.ZodType | { $ref: string } | Record<string, unknown>; headers?: Record<string, { description: string; schema: Record<string, unknown> }> };

export interface OperationDoc {
  /** The handler's name (FastAPI's operationId is built from it: `search_v1_search_post`). */
  name: string;
  summary: string;
  description?: string;
  tags: string[];
  access: Access;
  /** JSON request body (a named schema shows as a $ref); `bodyRequired: false` when `{}` may be omitted. */
  body?: z.ZodType;
  bodyRequired?: boolean;
  query?: z.ZodObject;
  /** Descriptions of path parameters (every `:name`/`*name` of the path is declared anyway). */
  params?: Record<string, string>;
  responses: Record<number, ResponseDoc>;
  /**
   * The service counts the operation against this per-caller limit of the one list
   * (src/modules/usage/operation-limits.ts): documented as a 429 with Retry-After.
   */
  limited?: LimitedOperation;
  /**
   * Mounted before the authentication step (src/app.ts: /health, /ready): credentials are not
   * read, so neither RFC 6750's 400/401 nor a 503 from the database can come from it.
   */
  beforeAuthentication?: boolean;
}

type Route = [OperationDoc, ...express.RequestHandler[]];

/** The 429 of an operation limited per caller: its limit, and that the budget is shared with the other doors. */
function limitedDescription(operation: LimitedOperation): string {
  const { limit, durationSeconds, graphql } = OPERATION_LIMITS[operation];
  const sharedWith = graphql ? 'the same GraphQL field and every server process' : 'every server process';
  return `Too many requests: at most ${limit} per ${durationSeconds} seconds per caller (account, else client IP), refused calls included, one budget with ${sharedWith} (Retry-After)`;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** FastAPI's own components, byte for byte (FastAPI >= 0.115 lists input and ctx too). */
const FASTAPI_SCHEMAS: Record<string, Record<string, unknown>> = {
  HTTPValidationError: {
    properties: { detail: { items: ref('ValidationError'), type: 'array', title: 'Detail' } },
    type: 'object',
    title: 'HTTPValidationError',
  },
  ValidationError: {
    properties: {
      loc: { items: { anyOf: [{ type: 'string' }, { type: 'integer' }] }, type: 'array', title: 'Location' },
      msg: { type: 'string', title: 'Message' },
      type: { type: 'string', title: 'Error Type' },
      input: { title: 'Input' },
      ctx: { type: 'object', title: 'Context' },
    },
    type: 'object',
    required: ['loc', 'msg', 'type'],
    title: 'ValidationError',
  },
  HTTPError: {
    properties: { detail: { type: 'string', title: 'Detail' } },
    type: 'object',
    required: ['detail'],
    title: 'HTTPError',
  },
};

export const SECURITY_SCHEMES = {
  HTTPBearer: { type: 'http', scheme: 'bearer', description: 'An API key: `Authorization: Bearer sk-...`' },
  SessionCookie: { type: 'apiKey', in: 'cookie', name: 'session', description: 'The session cookie set by /auth/login' },
} as const;

/** Either credential: an API key or the session cookie. */
const AUTHENTICATED: Record<string, string[]>[] = [{ HTTPBearer: [] }, { SessionCookie: [] }];

/** `/v1/documents/:country/:source_name/*source_id` -> `/v1/documents/{country}/{source_name}/{source_id}`. */
export function openApiPath(expressPath: string): string {
  return expressPath.replace(/[:*](\w+)/g, '{$1}');
}

/** FastAPI's generate_unique_id: name + path with non-word characters as `_` + method. */
function operationId(name: string, path: string, method: string): string {
  return `${name}${path}`.replace(/\W/g, '_') + `_${method}`;
}

function response(doc: ResponseDoc): ResponseConfig {
  if (typeof doc === 'string') return { description: doc, content: { 'application/json': { schema: ref('HTTPError') } } };
  if (doc instanceof z.ZodType) return { description: 'Successful Response', content: { 'application/json': { schema: doc } } };
  return {
    description: doc.description,
    ...(doc.headers ? { headers: doc.headers as never } : {}),
    ...(doc.schema ? { content: { 'application/json': { schema: doc.schema as never } } } : {}),
  };
}

/** A status every route of its kind can answer, beside the route's own reason for it (an HTTPError body either way). */
function alsoAnswers(own: ResponseConfig | undefined, description: string): ResponseConfig {
  return own ? { ...own, description: `${own.description}; or: ${description}` } : response(description);
}

/**
 * The headers each response carries: `WWW-Authenticate` with a 401 and RFC 6750's 400,
 * `Retry-After` with a 429 and a 503, and the RateLimit pair with a billable call's answers
 * (they are written wherever the usage guard counted the call: its result or its refusal).
 */
function declareHeaders(responses: Record<string, ResponseConfig>, access: Access): void {
  const add = (status: string, headers: Record<string, unknown>) => {
    const target = responses[status];
    if (target) target.headers = { ...(target.headers as Record<string, unknown> | undefined), ...headers } as never;
  };
  add('400', { 'WWW-Authenticate': WWW_AUTHENTICATE });
  add('401', { 'WWW-Authenticate': WWW_AUTHENTICATE });
  add('429', { 'Retry-After': RETRY_AFTER });
  add('503', { 'Retry-After': RETRY_AFTER });
  add('302', { Location: LOCATION });
  if (access === 'billable') for (const status of ['200', '404', '429']) add(status, RATE_LIMIT_HEADERS);
}

/** C0 controls (NUL, CR, LF…) and DEL. */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;
const CONTROL_CHARACTER_MESSAGE = 'String should not contain control characters (U+0000 to U+001F, U+007F)';

/**
 * Every path parameter of every route: one decoded from `%00`, `%0a`… is refused with 422 at
 * `["path", name]` before a handler sees it (no identifier holds one, and PostgreSQL cannot
 * store a NUL), instead of failing deeper (a 500 from the database).
 */
const refuseControlCharactersInPath: express.RequestHandler = (req, _res, next) => {
  const issues = Object.entries(req.params as Record<string, string | string[]>).flatMap(([name, value]) => {
    const text = Array.isArray(value) ? value.join('/') : String(value);
    return CONTROL_CHARACTER.test(text) ? [{ ...valueError(CONTROL_CHARACTER_MESSAGE), loc: ['path', name], input: text }] : [];
  });
  next(issues.length > 0 ? new RequestValidationError(issues) : undefined);
};

export class RestApi {
  private readonly registry = new OpenAPIRegistry();
  private document: Record<string, unknown> | null = null;

  constructor(private readonly baseUrl: string) {
    for (const [name, schema] of Object.entries(FASTAPI_SCHEMAS)) this.registry.registerComponent('schemas', name, schema);
    for (const [name, scheme] of Object.entries(SECURITY_SCHEMES)) this.registry.registerComponent('securitySchemes', name, scheme as never);
  }

  /** Mounts each method of `path` (express syntax) on `router`, documents it, and answers 405 to other methods. */
  route(router: express.Router, path: string, methods: Partial<Record<Method, Route>>): void {
    const route = router.route(path);
    const guard = /[:*]\w/.test(path) ? [refuseControlCharactersInPath] : [];
    for (const [method, [doc, ...handlers]] of Object.entries(methods) as [Method, Route][]) {
      route[method](...guard, ...handlers);
      this.describe(method, path, doc);
    }
    const allowed = Object.keys(methods).map((m) => m.toUpperCase());
    route.all(methodNotAllowed(allowed.includes('GET') ? [...allowed, 'HEAD'] : allowed));
  }

  private describe(method: Method, expressPath: string, doc: OperationDoc): void {
    this.document = null;
    const path = openApiPath(expressPath);
    const pathParams = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    const params = pathParams.length
      ? z.object(Object.fromEntries(pathParams.map((name) => [name, doc.params?.[name] ? z.string().describe(doc.params[name]) : z.string()])))
      : undefined;
    const responses: Record<string, ResponseConfig> = {};
    for (const [status, value] of Object.entries(doc.responses)) responses[status] = response(value);
    if (!doc.beforeAuthentication) {
      // any route, open ones too: RFC 6750's answers to credentials that cannot be used (src/http/request-context.ts)
      responses['400'] = alsoAnswers(responses['400'], 'Malformed Authorization header (`WWW-Authenticate: Bearer error="invalid_request"`)');
      responses['401'] = alsoAnswers(
        responses['401'],
        doc.access === 'open'
          ? 'The bearer token sent is not valid (`WWW-Authenticate: Bearer error="invalid_token"`)'
          : 'Not authenticated (`WWW-Authenticate: Bearer`), or the bearer token is not valid (`Bearer error="invalid_token"`)',
      );
      // credentials are looked up in the database, and every limit is counted in the CounterStore (src/errors.ts, redis-counter-store.ts)
      responses['503'] = alsoAnswers(responses['503'], 'The database or the rate-limit counters do not answer (a restart, a failover): try again after `Retry-After`');
    }
    if (doc.access === 'billable') responses['429'] ??= response('Over a plan limit (Retry-After)');
    if (doc.limited) responses['429'] ??= response(limitedDescription(doc.limited));
    if (doc.body || doc.query || params) responses['422'] = { description: 'Validation Error', content: { 'application/json': { schema: ref('HTTPValidationError') } } };
    declareHeaders(responses, doc.access);
    const config: RouteConfig = {
      method,
      path,
      operationId: operationId(doc.name, path, method),
      summary: doc.summary,
      ...(doc.description ? { description: doc.description } : {}),
      tags: doc.tags,
      // `[]`: no credentials needed (a bearer token sent anyway must be valid: the 401 above)
      security: doc.access === 'open' ? [] : AUTHENTICATED,
      request: {
        ...(params ? { params } : {}),
        ...(doc.query ? { query: doc.query } : {}),
        ...(doc.body ? { body: { content: { 'application/json': { schema: doc.body } }, required: doc.bodyRequired ?? true } } : {}),
      },
      responses,
    };
    this.registry.registerPath(config);
  }

  /** `METHOD /path` of every operation described so far (the manifest lists them). */
  operations(): string[] {
    return this.registry.definitions.flatMap((d) => (d.type === 'route' ? [`${d.route.method.toUpperCase()} ${d.route.path}`] : []));
  }

  /** The OpenAPI 3.1 document of every route described so far (built once, after the last route). */
  openApiDocument(): Record<string, unknown> {
    this.document ??= new OpenApiGeneratorV31(this.registry.definitions, { sortComponents: 'alphabetically' }).generateDocument({
      openapi: '3.1.0',
      info: {
        title: 'Legal Search Platform',
        version: API_VERSION,
        description: 'Hybrid semantic + keyword search over European and worldwide law, full documents, discovery and statistics.',
      },
      servers: [{ url: this.baseUrl }],
    }) as unknown as Record<string, unknown>;
    return this.document;
  }
}
