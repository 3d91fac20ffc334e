/**
 * The legal-data REST routes: each handler builds the request context, calls ONE LegalDataApi
 * method and sends its JSON; each route is described in /openapi.json where it is mounted.
 * Services validate their own input; the query/path parameters
 * below are validated here with the same parseInput helper (pydantic-style 422s), and every
 * call runs inside withLoc() so a ValidationError's loc says where the bad value came from.
 * Mount errorHandler() (./errors.ts) after this router.
 */
import express, { type Request, type Response } from 'express';
import { z } from 'zod';
import type { DocumentRead, DocumentReadRequest, LegalDataApi } from '../modules/legal-data/legal-data.port.js';
import { matchingEntityTag } from '../http/compression.js';
import { NAMESPACES } from '../domain/legal-document.js';
import {
  countriesResponseSchema,
  courtInfoSchema,
  documentSchema,
  manifestSchema,
  sourceFiltersSchema,
  sourcesResponseSchema,
  statsSchema,
} from '../modules/legal-data/catalog.schema.js';
import { searchRequestSchema, searchResponseSchema } from '../modules/legal-data/search.schema.js';
import { StageTimer } from '../util/stage-timer.js';
import { laxBool, parseInput } from '../validation.js';
import { jsonBody, withLoc } from './errors.js';
import { contextOf } from '../http/request-context.js';
import type { RestApi } from './rest-api.js';

/** `?source_id=` for GET /v1/documents/{country}/{source_name}. */
export const documentQuerySchema = z.object({
  source_id: z.string().describe('Identifier of the document within its source (may contain slashes).'),
});

/** `?include_empty=` for GET /v1/discover/countries/{country_code}/sources. */
export const sourcesQuerySchema = z.object({
  include_empty: laxBool()
    .prefault(false)
    .describe('Also list catalogued sources that hold no documents yet.'),
});

/** `?namespace=` for GET /v1/discover/sources/{source}/filters. */
export const filtersQuerySchema = z.object({
  namespace: z.enum(NAMESPACES).optional().describe("Defaults to the source's largest namespace."),
});

/** `?country=&source=` for GET /v1/discover/courts. */
export const courtsQuerySchema = z.object({
  country: z.string().optional().describe('Jurisdiction code, e.g. DE.'),
  source: z.string().optional().describe('<country>/<source_name>'),
});

/**
 * The query string as FastAPI sees scalar parameters: a repeated parameter gives its last value.
 * (Express 5's default "simple" parser yields a string or an array of strings.)
 */
function queryParams(req: Request): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(req.query as Record<string, unknown>)) {
    params[name] = Array.isArray(value) ? value.at(-1) : value;
  }
  return params;
}

/** A `*name` wildcard parameter: Express 5 gives its decoded segments as an array. */
function wildcard(value: unknown): string {
  return Array.isArray(value) ? value.join('/') : String(value ?? '');
}

/**
 * How long a browser or client may reuse a document without asking: documents change only at
 * ingest, so an hour keeps a re-ingested text at most an hour stale, and asking again after it
 * costs nothing (a 304 is not billed). `private`: every read needs credentials, so no shared cache
 * may keep it.
 */
export const DOCUMENT_CACHE_CONTROL = 'private, max-age=3600';

const VALIDATOR_HEADERS = {
  ETag: { description: 'Strong entity tag of the document as served (with `-br`/`-gzip` when the body is compressed)', schema: { type: 'string' } },
  'Last-Modified': { description: "The document's date, when it has one", schema: { type: 'string' } },
  'Cache-Control': { description: `\`${DOCUMENT_CACHE_CONTROL}\``, schema: { type: 'string' } },
};

/** The document routes' responses in /openapi.json: the revalidation answers beside the document. */
const DOCUMENT_RESPONSES = {
  200: { description: 'Successful Response (also to HEAD, without the body and not billed)', schema: documentSchema, headers: VALIDATOR_HEADERS },
  304: { description: 'Not Modified: `If-None-Match` names the current version; not billed', headers: VALIDATOR_HEADERS },
  404: 'Not Found',
};

/**
 * A HEAD wants no body; an If-None-Match naming the current version answers 304, and so does an
 * If-Modified-Since not older than its date when no If-None-Match is sent (RFC 9110 §13.2.2, what
 * express would otherwise do by itself after the read was billed). Neither is billed.
 */
function documentReadRequest(req: Request): DocumentReadRequest {
  const ifNoneMatch = req.header('if-none-match');
  const ifModifiedSince = Date.parse(req.header('if-modified-since') ?? '');
  return {
    headOnly: req.method === 'HEAD',
    isCurrent: (version) =>
      ifNoneMatch ? matchingEntityTag(ifNoneMatch, version.etag) !== null : version.lastModified !== null && ifModifiedSince >= version.lastModified.getTime(),
  };
}

/** The document with its validators, or 304 with them alone when the client's copy is current. */
function sendDocument(res: Response, read: DocumentRead): void {
  res.setHeader('ETag', `"${read.version.etag}"`);
  if (read.version.lastModified) res.setHeader('Last-Modified', read.version.lastModified.toUTCString());
  res.setHeader('Cache-Control', DOCUMENT_CACHE_CONTROL);
  if (!read.billed && res.req.method !== 'HEAD') {
    // the tag of the copy the client holds (`"…-gzip"` for a compressed one): a 304 has no body to compress
    res.setHeader('ETag', matchingEntityTag(res.req.header('if-none-match'), read.version.etag) ?? `"${read.version.etag}"`);
    res.status(304).end();
    return;
  }
  res.json(read.document);
}

/** The caller as the authentication middleware (./request-context.ts) found it. */
const context = (req: Request) => contextOf(req);

// size: a route table: one registration per endpoint, in the order /openapi.json lists them, each handler a few lines that build the request context and call one service method; split by endpoint, the table would be scattered over files without making any handler shorter
export function legalDataRouter(api: LegalDataApi, rest: RestApi): express.Router {
  const router = express.Router();
  const tags = { search: ['search'], documents: ['documents'], discovery: ['discovery'] };

  rest.route(router, '/v1/search', {
    post: [
      {
        name: 'search',
        summary: 'Search',
        description: 'Hybrid semantic + keyword search over the corpus, with filters.',
        tags: tags.search,
        access: 'billable',
        body: searchRequestSchema,
        responses: { 200: searchResponseSchema },
      },
      jsonBody(),
      async (req, res) => {
        // The duration of each stage of the search (src/util/stage-timer.ts), the body as the spec has it.
        const timer = new StageTimer();
        const response = await withLoc('body', () => api.search(context(req), req.body, timer));
        res.setHeader('Server-Timing', timer.serverTiming());
        res.json(response);
      },
    ],
  });

  // The document id is <country>/<source_name>/<source_id>, and source ids may contain slashes
  // (`bgb/823`): the wildcard takes the rest of the path, each segment URL-decoded.
  rest.route(router, '/v1/documents/:country/:source_name/*source_id', {
    get: [
      {
        name: 'get_document',
        summary: 'Get Document',
        description: 'The full document. `source_id` is the rest of the path and may contain slashes (`bgb/823`).',
        tags: tags.documents,
        access: 'billable',
        responses: DOCUMENT_RESPONSES,
      },
      async (req, res) => {
        const { country, source_name } = req.params;
        const read = await withLoc('path', () => api.readDocument(context(req), `${country}/${source_name}`, wildcard(req.params.source_id), documentReadRequest(req)));
        sendDocument(res, read);
      },
    ],
  });

  rest.route(router, '/v1/documents/:country/:source_name', {
    get: [
      {
        name: 'get_document_by_query',
        summary: 'Get Document By Query',
        description: 'The full document, with its source id given as `?source_id=`.',
        tags: tags.documents,
        access: 'billable',
        query: documentQuerySchema,
        responses: DOCUMENT_RESPONSES,
      },
      async (req, res) => {
        const { country, source_name } = req.params;
        const read = await withLoc('query', () => {
          const query = parseInput(documentQuerySchema, queryParams(req));
          return api.readDocument(context(req), `${country}/${source_name}`, query.source_id, documentReadRequest(req));
        });
        sendDocument(res, read);
      },
    ],
  });

  rest.route(router, '/v1/discover/countries', {
    get: [
      { name: 'list_countries', summary: 'List Countries', tags: tags.discovery, access: 'open', responses: { 200: countriesResponseSchema } },
      async (req, res) => {
        res.json(await api.countries(context(req)));
      },
    ],
  });

  rest.route(router, '/v1/discover/countries/:country_code/sources', {
    get: [
      {
        name: 'list_sources',
        summary: 'List Sources',
        tags: tags.discovery,
        access: 'open',
        params: { country_code: 'Jurisdiction code, e.g. DE.' },
        query: sourcesQuerySchema,
        responses: { 200: sourcesResponseSchema, 404: 'Unknown country' },
      },
      async (req, res) => {
        const sources = await withLoc({ country_code: 'path', '*': 'query' }, () => {
          const query = parseInput(sourcesQuerySchema, queryParams(req));
          return api.sources(context(req), String(req.params.country_code), { includeEmpty: query.include_empty });
        });
        res.json(sources);
      },
    ],
  });

  // `:source` is <country>/<source_name>: both `/sources/DE/GesetzeImInternet/filters` and the
  // URL-encoded `/sources/DE%2FGesetzeImInternet/filters` match this wildcard.
  rest.route(router, '/v1/discover/sources/*source/filters', {
    get: [
      {
        name: 'source_filters',
        summary: 'Source Filters',
        description: 'The filter values a source offers. `source` is `<country>/<source_name>`, with the slash as is or URL-encoded.',
        tags: tags.discovery,
        access: 'open',
        params: { source: '<country>/<source_name>' },
        query: filtersQuerySchema,
        responses: { 200: sourceFiltersSchema, 404: 'Unknown source' },
      },
      async (req, res) => {
        const filters = await withLoc({ source: 'path', '*': 'query' }, () => {
          const query = parseInput(filtersQuerySchema, queryParams(req));
          return api.filters(context(req), wildcard(req.params.source), query.namespace);
        });
        res.json(filters);
      },
    ],
  });

  rest.route(router, '/v1/discover/courts', {
    get: [
      { name: 'list_courts', summary: 'List Courts', tags: tags.discovery, access: 'open', query: courtsQuerySchema, responses: { 200: z.array(courtInfoSchema), 404: 'Unknown country or source' } },
      async (req, res) => {
        const courts = await withLoc('query', () => {
          const query = parseInput(courtsQuerySchema, queryParams(req));
          return api.courts(context(req), { country: query.country, source: query.source });
        });
        res.json(courts);
      },
    ],
  });

  rest.route(router, '/v1/stats', {
    get: [
      { name: 'stats', summary: 'Stats', tags: tags.discovery, access: 'open', responses: { 200: statsSchema } },
      async (req, res) => {
        res.json(await api.stats(context(req)));
      },
    ],
  });

  rest.route(router, '/v1/manifest', {
    get: [
      { name: 'manifest', summary: 'Manifest', tags: tags.discovery, access: 'open', responses: { 200: manifestSchema } },
      async (req, res) => {
        res.json(await api.manifest(context(req)));
      },
    ],
  });

  return router;
}
