/**
 * /openapi.json, generated from the very zod schemas the services validate with (z.toJSONSchema),
 * laid out the way FastAPI lays its document out: named components, FastAPI-style operation ids,
 * and the `HTTPValidationError`/`ValidationError` components behind every 422.
 */
import { z } from 'zod';
import {
  countryInfoSchema,
  courtInfoSchema,
  documentSchema,
  manifestSchema,
  readinessSchema,
  sourceFiltersSchema,
  sourceInfoSchema,
  statsSchema,
} from '../modules/legal-data/catalog.schema.js';
import { resolveCoverageSchema, resolveRequestSchema, resolveResponseSchema } from '../modules/legal-data/resolve.schema.js';
import { searchHitSchema, searchRequestSchema, searchResponseSchema } from '../modules/legal-data/search.schema.js';
import { courtsQuerySchema, documentQuerySchema, filtersQuerySchema, sourcesQuerySchema } from './legal-data.routes.js';
import {
  ACCOUNTS_REQUEST_SCHEMAS,
  ACCOUNTS_RESPONSE_SCHEMAS,
  accountsOperations,
  AUTHENTICATED,
  RATE_LIMITED,
  SECURITY_SCHEMES,
  UNAUTHORIZED,
} from './openapi-accounts.js';
import { BILLING_REQUEST_SCHEMAS, BILLING_RESPONSE_SCHEMAS, billingOperations } from './openapi-billing.js';

export const API_VERSION = '0.1.0';

type JsonSchema = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, JsonSchema> };
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Request schemas are described as clients send them (io: input: defaults shown, not required). */
const REQUEST_SCHEMAS: Record<string, z.ZodType> = { SearchRequest: searchRequestSchema, ResolveRequest: resolveRequestSchema };

/** Response schemas are described as the service returns them (io: output). */
const RESPONSE_SCHEMAS: Record<string, z.ZodType> = {
  SearchHit: searchHitSchema,
  SearchResponse: searchResponseSchema,
  ResolveResponse: resolveResponseSchema,
  ResolveCoverage: resolveCoverageSchema,
  LegalDocument: documentSchema,
  CountryInfo: countryInfoSchema,
  SourceInfo: sourceInfoSchema,
  SourceFilters: sourceFiltersSchema,
  CourtInfo: courtInfoSchema,
  Stats: statsSchema,
  Manifest: manifestSchema,
  Readiness: readinessSchema,
};

/** FastAPI's own components, byte for byte (FastAPI >= 0.115 lists input and ctx too). */
const FASTAPI_SCHEMAS: Record<string, JsonSchema> = {
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
  Health: {
    properties: { status: { type: 'string', const: 'ok' } },
    type: 'object',
    required: ['status'],
    title: 'Health',
  },
};

const jsonSchemaOptions = (io: 'input' | 'output') =>
  ({
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
    override: ({ jsonSchema }) => {
      // zod prints z.iso.date() with a 300-character calendar regex; `format: date` says it
      if (jsonSchema.format === 'date') delete jsonSchema.pattern;
      // .int() is zod's safe integer: its ±2^53 range is an implementation detail, not a contract
      if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
      if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
      // responses may gain fields; FastAPI does not close its models either
      if (io === 'output' && jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
    },
  }) satisfies Parameters<typeof z.toJSONSchema>[1];

function clean(schema: JsonSchema): JsonSchema {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}

function componentSchemas(schemas: Record<string, z.ZodType>, io: 'input' | 'output'): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  const { schemas: converted } = z.toJSONSchema(registry, {
    ...jsonSchemaOptions(io),
    uri: (id) => `#/components/schemas/${id}`,
  });
  return Object.fromEntries(
    Object.entries(converted)
      .filter(([id]) => id !== '__shared')
      .map(([id, schema]) => [id, { ...clean(schema as JsonSchema), title: (schema as JsonSchema).title ?? id }]),
  );
}

/** OpenAPI query parameters from a zod object schema, one per property. */
function queryParameters(schema: z.ZodObject): JsonSchema[] {
  const json = z.toJSONSchema(schema, jsonSchemaOptions('input')) as JsonSchema;
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...propertySchema } = property;
    return {
      name,
      in: 'query',
      required: required.has(name),
      schema: propertySchema,
      ...(description ? { description } : {}),
    };
  });
}

function pathParameter(name: string, description?: string): JsonSchema {
  return { name, in: 'path', required: true, schema: { type: 'string' }, ...(description ? { description } : {}) };
}

const json = (schema: JsonSchema, description = 'Successful Response') => ({
  description,
  content: { 'application/json': { schema } },
});
const VALIDATION_ERROR = json(ref('HTTPValidationError'), 'Validation Error');
const NOT_FOUND = json(ref('HTTPError'), 'Not Found');

/** FastAPI's generate_unique_id: name + path with non-word characters as `_` + method. */
function operationId(name: string, path: string, method: string): string {
  return `${name}${path}`.replace(/\W/g, '_') + `_${method}`;
}

interface OperationSpec {
  name: string;
  summary: string;
  description?: string;
  tags: string[];
  parameters?: JsonSchema[];
  requestBody?: JsonSchema;
  responses: Record<string, unknown>;
  security?: Record<string, string[]>[];
}

/** Billable operations: an API key or the session cookie; 401 without, 429 over a plan limit. */
const BILLABLE = new Set(['/v1/search', '/v1/resolve', '/v1/documents/{country}/{source_name}/{source_id}', '/v1/documents/{country}/{source_name}']);

export function buildOpenApiDocument(baseUrl: string): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  const add = (method: 'get' | 'post' | 'put' | 'delete', path: string, spec: OperationSpec) => {
    const { name, parameters, requestBody, ...rest } = spec;
    const billable = BILLABLE.has(path);
    const responses = billable ? { ...spec.responses, '401': UNAUTHORIZED, '429': RATE_LIMITED } : spec.responses;
    if (billable) rest.security = AUTHENTICATED;
    const validates = Boolean(requestBody) || Boolean(parameters?.length);
    paths[path] ??= {};
    paths[path][method] = {
      ...rest,
      operationId: operationId(name, path, method),
      ...(parameters?.length ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses: { ...responses, ...(validates ? { '422': VALIDATION_ERROR } : {}) },
    };
  };

  add('post', '/v1/search', {
    name: 'search',
    summary: 'Search',
    description: 'Hybrid semantic + keyword search over the corpus, with filters.',
    tags: ['search'],
    requestBody: { content: { 'application/json': { schema: ref('SearchRequest') } }, required: true },
    responses: { '200': json(ref('SearchResponse')) },
  });
  add('post', '/v1/resolve', {
    name: 'resolve',
    summary: 'Resolve',
    description:
      'Resolves a citation (ECLI, CELEX, ELI, `§ 823 Abs. 1 BGB`, `article L. 1234-1 du Code du travail`, `Article 6(1)(a) GDPR`…) to exact documents. Strict: `none` rather than a doubtful document; `ambiguous` lists the documents that fit equally.',
    tags: ['resolve'],
    requestBody: { content: { 'application/json': { schema: ref('ResolveRequest') } }, required: true },
    responses: { '200': json(ref('ResolveResponse')) },
  });
  add('get', '/v1/resolve/coverage', {
    name: 'resolve_coverage',
    summary: 'Resolve Coverage',
    description: 'Per source: whether resolve patterns reach its documents, how many patterns, and how many documents; plus totals.',
    tags: ['resolve'],
    responses: { '200': json(ref('ResolveCoverage')) },
  });
  add('get', '/v1/documents/{country}/{source_name}/{source_id}', {
    name: 'get_document',
    summary: 'Get Document',
    description: 'The full document. `source_id` is the rest of the path and may contain slashes (`bgb/823`).',
    tags: ['documents'],
    parameters: [pathParameter('country'), pathParameter('source_name'), pathParameter('source_id')],
    responses: { '200': json(ref('LegalDocument')), '404': NOT_FOUND },
  });
  add('get', '/v1/documents/{country}/{source_name}', {
    name: 'get_document_by_query',
    summary: 'Get Document By Query',
    description: 'The full document, with its source id given as `?source_id=`.',
    tags: ['documents'],
    parameters: [pathParameter('country'), pathParameter('source_name'), ...queryParameters(documentQuerySchema)],
    responses: { '200': json(ref('LegalDocument')), '404': NOT_FOUND },
  });
  add('get', '/v1/discover/countries', {
    name: 'list_countries',
    summary: 'List Countries',
    tags: ['discovery'],
    responses: { '200': json({ type: 'array', items: ref('CountryInfo') }) },
  });
  add('get', '/v1/discover/countries/{code}/sources', {
    name: 'list_sources',
    summary: 'List Sources',
    tags: ['discovery'],
    parameters: [pathParameter('code', 'Jurisdiction code, e.g. DE.'), ...queryParameters(sourcesQuerySchema)],
    responses: { '200': json({ type: 'array', items: ref('SourceInfo') }), '404': NOT_FOUND },
  });
  add('get', '/v1/discover/sources/{source}/filters', {
    name: 'source_filters',
    summary: 'Source Filters',
    description: 'The filter values a source offers. `source` is `<country>/<source_name>`, with the slash as is or URL-encoded.',
    tags: ['discovery'],
    parameters: [pathParameter('source', '<country>/<source_name>'), ...queryParameters(filtersQuerySchema)],
    responses: { '200': json(ref('SourceFilters')), '404': NOT_FOUND },
  });
  add('get', '/v1/discover/courts', {
    name: 'list_courts',
    summary: 'List Courts',
    tags: ['discovery'],
    parameters: queryParameters(courtsQuerySchema),
    responses: { '200': json({ type: 'array', items: ref('CourtInfo') }) },
  });
  add('get', '/v1/stats', {
    name: 'stats',
    summary: 'Stats',
    tags: ['discovery'],
    responses: { '200': json(ref('Stats')) },
  });
  add('get', '/v1/manifest', {
    name: 'manifest',
    summary: 'Manifest',
    tags: ['discovery'],
    responses: { '200': json(ref('Manifest')) },
  });
  add('get', '/health', {
    name: 'health',
    summary: 'Health',
    description: 'Liveness: 200 as long as the process serves requests.',
    tags: ['system'],
    responses: { '200': json(ref('Health')) },
  });
  add('get', '/ready', {
    name: 'ready',
    summary: 'Ready',
    description: 'Readiness: 200 once the stores are open and the index is built, else 503 with the progress.',
    tags: ['system'],
    responses: { '200': json(ref('Readiness')), '503': json(ref('Readiness'), 'Not ready yet') },
  });

  for (const { method, path, ...spec } of accountsOperations()) add(method, path, { ...spec, tags: [path.startsWith('/auth') ? 'auth' : path.startsWith('/v1/keys') ? 'keys' : 'usage'] });

  for (const { method, path, query, ...spec } of billingOperations()) {
    add(method, path, { ...spec, tags: ['billing'], ...(query ? { parameters: queryParameters(query) } : {}) });
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Legal Search Platform',
      version: API_VERSION,
      description: 'Hybrid semantic + keyword search over European and worldwide law, full documents, discovery and statistics.',
    },
    servers: [{ url: baseUrl }],
    paths,
    components: {
      schemas: sortKeys({
        ...componentSchemas(RESPONSE_SCHEMAS, 'output'),
        ...componentSchemas(REQUEST_SCHEMAS, 'input'),
        ...componentSchemas(ACCOUNTS_RESPONSE_SCHEMAS, 'output'),
        ...componentSchemas(ACCOUNTS_REQUEST_SCHEMAS, 'input'),
        ...componentSchemas(BILLING_RESPONSE_SCHEMAS, 'output'),
        ...componentSchemas(BILLING_REQUEST_SCHEMAS, 'input'),
        ...FASTAPI_SCHEMAS,
      }),
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
