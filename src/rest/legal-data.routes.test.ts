/**
 * The REST edge over real HTTP: an express app on an ephemeral port with the real routers and
 * error mapper, over a small in-memory LegalDataApi that validates with the real schemas.
 */
import { request as httpRequest } from 'node:http';
import type { DocumentRead, DocumentReadRequest } from '../modules/legal-data/legal-data.port.js';
import { documentVersion } from '../modules/legal-data/document-version.js';
import express from 'express';
import { z } from 'zod';
import type { RequestContext } from '../context.js';
import { NotFoundError, type ValidationIssue } from '../errors.js';
import type { CountriesResponse, CountryInfo, CourtInfo, Manifest, Readiness, SourceFilters, SourceInfo, SourcesResponse, Stats } from '../modules/legal-data/catalog.schema.js';
import type { LegalDataApi } from '../modules/legal-data/legal-data.port.js';
import { documentId, NAMESPACES, type LegalDocument } from '../domain/legal-document.js';
import { searchRequestSchema, type SearchRequest, type SearchResponse } from '../modules/legal-data/search.schema.js';
import { parseInput } from '../validation.js';
import { errorHandler, notFoundHandler } from './errors.js';
import { legalDataRouter } from './legal-data.routes.js';
import { RestApi } from './rest-api.js';
import { systemRouter } from './system.routes.js';
import { makeDocument } from '../../test/fixtures/documents.js';
import { serve } from '../../test/helpers/http.js';

// ---------------------------------------------------------------------------------------------
// An in-memory LegalDataApi
// ---------------------------------------------------------------------------------------------

const doc = makeDocument;

const DOCUMENTS = [
  doc('DE/GesetzeImInternet', 'bgb/823', { title: '§ 823 BGB Schadensersatzpflicht', text: 'Wer vorsätzlich oder fahrlässig ...', language: 'de' }),
  doc('FR/Legifrance', 'LEGITEXT000006070721/1240', { title: 'Article 1240 Code civil', text: 'Tout fait quelconque de l’homme ...', language: 'fr' }),
  doc('EU/Eurlex', 'C-131/12', { namespace: 'case_law', court: 'CJEU', court_tier: 1, title: 'Google Spain', text: 'right to be forgotten', date: '2014-05-13' }),
];

class InMemoryLegalData implements LegalDataApi {
  lastSearch: SearchRequest | null = null;
  lastContext: RequestContext | null = null;
  lastCall: unknown[] = [];
  ready = false;

  async search(ctx: RequestContext, input: unknown): Promise<SearchResponse> {
    const request = parseInput(searchRequestSchema, input);
    this.lastSearch = request;
    this.lastContext = ctx;
    const words = request.q.toLowerCase().split(/\s+/);
    const hits = DOCUMENTS.filter((d) => d.namespace === request.namespace)
      .filter((d) => words.some((w) => `${d.title} ${d.text}`.toLowerCase().includes(w)))
      .slice(0, request.top_k)
      .map((d) => ({ id: d.id, source: d.source, source_id: d.source_id, score: 1, namespace: d.namespace, title: d.title }));
    return { query: request.q, hits, total_hits: hits.length, alpha: request.alpha, namespace: request.namespace, elapsed_ms: 1 };
  }

  async getDocument(_ctx: RequestContext, source: string, sourceId: string): Promise<LegalDocument> {
    this.lastCall = ['getDocument', source, sourceId];
    const found = DOCUMENTS.find((d) => d.id === documentId(source, sourceId));
    if (!found) throw new NotFoundError(`Document not found: ${source}/${sourceId}`);
    return found;
  }

  async getDocuments(): Promise<never> {
    throw new Error('not used by REST (the GraphQL subgraph batches document references)');
  }

  async readDocument(ctx: RequestContext, source: string, sourceId: string, request: DocumentReadRequest): Promise<DocumentRead> {
    const document = await this.getDocument(ctx, source, sourceId);
    const version = documentVersion(document);
    return { document, version, billed: !request.headOnly && !request.isCurrent(version) };
  }

  async countries(): Promise<CountriesResponse> {
    const countries = ['DE', 'EU', 'FR'].map((code) => ({
      code,
      case_law_sources: code === 'EU' ? 1 : 0,
      legislation_sources: code === 'EU' ? 0 : 1,
      doctrine_sources: 0,
      total_documents: 1,
    }));
    return { countries };
  }

  async sources(_ctx: RequestContext, country: string, options: { includeEmpty: boolean }): Promise<SourcesResponse> {
    this.lastCall = ['sources', country, options];
    const sources = DOCUMENTS.filter((d) => d.country === country);
    if (!sources.length) throw new NotFoundError(`Unknown country: ${country}`);
    return { country, sources: sources.map((d) => ({ source_id: d.source, source: d.source, country: d.country, name: d.source.split('/')[1]! }) as SourceInfo) };
  }

  async filters(_ctx: RequestContext, source: string, namespace?: string): Promise<SourceFilters> {
    this.lastCall = ['filters', source, namespace];
    const ns = parseInput(z.object({ namespace: z.enum(NAMESPACES).optional() }), { namespace }).namespace;
    if (!DOCUMENTS.some((d) => d.source === source)) throw new NotFoundError(`Unknown source: ${source}`);
    return { source, namespace: ns ?? 'legislation', total_documents: 1 } as SourceFilters;
  }

  async courts(_ctx: RequestContext, options: { country?: string; source?: string }): Promise<CourtInfo[]> {
    this.lastCall = ['courts', options];
    return DOCUMENTS.filter((d) => d.court && (!options.country || d.country === options.country)).map((d) => ({
      court: d.court!,
      country: d.country,
      source: d.source,
      court_tier: d.court_tier,
      total_documents: 1,
    }));
  }

  async stats(): Promise<Stats> {
    return { total_documents: DOCUMENTS.length } as Stats;
  }

  async manifest(): Promise<Manifest> {
    return { name: 'legal-search-platform', version: '0.1.0' } as Manifest;
  }

  // The resolver has its own tests (src/modules/legal-data/resolver, test/resolve.e2e.test.ts).
  async resolve(): Promise<never> {
    throw new Error('not used by these tests');
  }

  async resolveCoverage(): Promise<never> {
    throw new Error('not used by these tests');
  }

  async citedBy(): Promise<never> {
    throw new Error('not used by these tests');
  }

  async cites(): Promise<never> {
    throw new Error('not used by these tests');
  }

  async citedByCounts(): Promise<never> {
    throw new Error('not used by these tests');
  }

  async citedByPerYear(): Promise<never> {
    throw new Error('not used by these tests');
  }

  async readiness(): Promise<Readiness> {
    return {
      status: this.ready ? 'ready' : 'indexing',
      stores: { database: true, index: this.ready },
      ingest: this.ready
        ? null
        : { phase: 'indexing', documents_done: 1, documents_total: 3, files_done: 1, files_total: 3, documents_per_second: 10, eta_seconds: 1 },
    };
  }
}

// ---------------------------------------------------------------------------------------------
// HTTP plumbing
// ---------------------------------------------------------------------------------------------

const api = new InMemoryLegalData();
const logged: unknown[] = [];
let close: () => Promise<void>;
let base: string;

beforeAll(async () => {
  const app = express();
  const rest = new RestApi('http://localhost:8000');
  app.use(systemRouter(api, rest));
  app.use(legalDataRouter(api, rest));
  app.use(notFoundHandler);
  app.use(errorHandler({ error: (_message, error) => logged.push(error) }));
  ({ base, close } = await serve(app));
});

afterAll(() => close());

async function get(path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(base + path);
  return { status: res.status, body: await res.json() };
}

async function search(body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}/v1/search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** A raw request, for bodies fetch would not send as is (no Content-Type, broken JSON). */
function raw(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(base + path, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Expects a 422 whose `detail` is exactly `issues`. */
async function expect422(body: unknown, issues: ValidationIssue[]) {
  const res = await search(body);
  expect(res.status).toBe(422);
  expect(res.body).toEqual({ detail: issues });
}

// ---------------------------------------------------------------------------------------------
// POST /v1/search
// ---------------------------------------------------------------------------------------------

describe('POST /v1/search', () => {
  it('searches with defaults and passes the caller context', async () => {
    const res = await search({ q: 'Schadensersatz', namespace: 'legislation' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ query: 'Schadensersatz', total_hits: 1, alpha: 0.7, namespace: 'legislation' });
    expect(res.body.hits[0].id).toBe('DE/GesetzeImInternet/bgb/823');
    expect(api.lastContext?.caller).toEqual({ kind: 'anonymous', ip: '127.0.0.1' });
  });

  it('accepts numeric strings the way pydantic lax mode does', async () => {
    const res = await search({ q: 'x', top_k: '5', alpha: '0.5', court_tier: '2' });
    expect(res.status).toBe(200);
    expect(api.lastSearch).toMatchObject({ top_k: 5, alpha: 0.5, court_tier: 2 });
    expect((await search({ q: 'x', top_k: 3.0, alpha: 1 })).status).toBe(200);
  });

  it('missing q', async () => {
    await expect422({ top_k: 5 }, [{ type: 'missing', loc: ['body', 'q'], msg: 'Field required', input: { top_k: 5 } }]);
  });

  it('empty q', async () => {
    await expect422({ q: '' }, [
      { type: 'string_too_short', loc: ['body', 'q'], msg: 'String should have at least 1 character', input: '', ctx: { min_length: 1 } },
    ]);
  });

  it('q not a string', async () => {
    await expect422({ q: 42 }, [{ type: 'string_type', loc: ['body', 'q'], msg: 'Input should be a valid string', input: 42 }]);
  });

  it('top_k below, above, unparsable, fractional', async () => {
    await expect422({ q: 'x', top_k: 0 }, [
      { type: 'greater_than_equal', loc: ['body', 'top_k'], msg: 'Input should be greater than or equal to 1', input: 0, ctx: { ge: 1 } },
    ]);
    await expect422({ q: 'x', top_k: 101 }, [
      { type: 'less_than_equal', loc: ['body', 'top_k'], msg: 'Input should be less than or equal to 100', input: 101, ctx: { le: 100 } },
    ]);
    await expect422({ q: 'x', top_k: 'abc' }, [
      { type: 'int_parsing', loc: ['body', 'top_k'], msg: 'Input should be a valid integer, unable to parse string as an integer', input: 'abc' },
    ]);
    await expect422({ q: 'x', top_k: 1.5 }, [
      { type: 'int_from_float', loc: ['body', 'top_k'], msg: 'Input should be a valid integer, got a number with a fractional part', input: 1.5 },
    ]);
  });

  it('alpha below, above, unparsable', async () => {
    await expect422({ q: 'x', alpha: -0.1 }, [
      { type: 'greater_than_equal', loc: ['body', 'alpha'], msg: 'Input should be greater than or equal to 0', input: -0.1, ctx: { ge: 0 } },
    ]);
    await expect422({ q: 'x', alpha: 1.1 }, [
      { type: 'less_than_equal', loc: ['body', 'alpha'], msg: 'Input should be less than or equal to 1', input: 1.1, ctx: { le: 1 } },
    ]);
    await expect422({ q: 'x', alpha: 'x' }, [
      { type: 'float_parsing', loc: ['body', 'alpha'], msg: 'Input should be a valid number, unable to parse string as a number', input: 'x' },
    ]);
  });

  it('court_tier out of 1..3', async () => {
    await expect422({ q: 'x', court_tier: 0 }, [
      { type: 'greater_than_equal', loc: ['body', 'court_tier'], msg: 'Input should be greater than or equal to 1', input: 0, ctx: { ge: 1 } },
    ]);
    await expect422({ q: 'x', court_tier: 4 }, [
      { type: 'less_than_equal', loc: ['body', 'court_tier'], msg: 'Input should be less than or equal to 3', input: 4, ctx: { le: 3 } },
    ]);
  });

  it('bad namespace and result_detail', async () => {
    await expect422({ q: 'x', namespace: 'x' }, [
      {
        type: 'enum',
        loc: ['body', 'namespace'],
        msg: "Input should be 'case_law', 'legislation' or 'doctrine'",
        input: 'x',
        ctx: { expected: "'case_law', 'legislation' or 'doctrine'" },
      },
    ]);
    await expect422({ q: 'x', result_detail: 'everything' }, [
      {
        type: 'enum',
        loc: ['body', 'result_detail'],
        msg: "Input should be 'snippet', 'summary_only', 'full_text' or 'full_metadata'",
        input: 'everything',
        ctx: { expected: "'snippet', 'summary_only', 'full_text' or 'full_metadata'" },
      },
    ]);
  });

  it('bad dates', async () => {
    await expect422({ q: 'x', date_start: '2020-13-01', date_end: 'yesterday' }, [
      {
        type: 'date_from_datetime_parsing',
        loc: ['body', 'date_start'],
        msg: 'Input should be a valid date or datetime, month value is outside expected range of 1-12',
        input: '2020-13-01',
        ctx: { error: 'month value is outside expected range of 1-12' },
      },
      {
        type: 'date_from_datetime_parsing',
        loc: ['body', 'date_end'],
        msg: 'Input should be a valid date or datetime, input is too short',
        input: 'yesterday',
        ctx: { error: 'input is too short' },
      },
    ]);
  });

  it('country not a list, list items not strings', async () => {
    await expect422({ q: 'x', country: 'DE' }, [
      { type: 'list_type', loc: ['body', 'country'], msg: 'Input should be a valid list', input: 'DE' },
    ]);
    await expect422({ q: 'x', country: ['DE', 5] }, [
      { type: 'string_type', loc: ['body', 'country', 1], msg: 'Input should be a valid string', input: 5 },
    ]);
  });

  it('reports several issues together, in field order', async () => {
    const res = await search({ q: '', top_k: 0, alpha: 2, namespace: 'x', date_end: 'nope' });
    expect(res.status).toBe(422);
    expect(res.body.detail.map((d: ValidationIssue) => d.loc)).toEqual([
      ['body', 'q'],
      ['body', 'top_k'],
      ['body', 'alpha'],
      ['body', 'date_end'],
      ['body', 'namespace'],
    ]);
  });

  it('malformed JSON gives json_invalid with the character position', async () => {
    const body = '{"q": "x", "top_k": 5,}';
    const res = await raw('POST', '/v1/search', body, { 'content-type': 'application/json' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      detail: [
        {
          type: 'json_invalid',
          loc: ['body', 22],
          msg: 'JSON decode error',
          input: {},
          ctx: { error: 'Expecting property name enclosed in double quotes' },
        },
      ],
    });
    const truncated = await raw('POST', '/v1/search', '{"q": "x"', { 'content-type': 'application/json' });
    expect(truncated.body.detail[0]).toMatchObject({ loc: ['body', 9], ctx: { error: "Expecting ',' delimiter" } });
  });

  it('a body without Content-Type is not read as JSON (a cross-site no-CORS post can send one): 422 as for any non-JSON type', async () => {
    const res = await raw('POST', '/v1/search', '{"q": "Google"}');
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([expect.objectContaining({ type: 'model_attributes_type', loc: ['body'], input: '{"q": "Google"}' })]);
  });

  it('a missing body, a null body and a non-object body', async () => {
    expect(await raw('POST', '/v1/search')).toEqual({
      status: 422,
      body: { detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }] },
    });
    expect((await search(null)).body).toEqual({ detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }] });
    expect((await search(['q'])).body).toEqual({
      detail: [
        { type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: ['q'] },
      ],
    });
    const text = await raw('POST', '/v1/search', 'q=x', { 'content-type': 'text/plain' });
    expect(text.body.detail[0]).toMatchObject({ type: 'model_attributes_type', loc: ['body'], input: 'q=x' });
  });
});

// ---------------------------------------------------------------------------------------------
// Documents
// ---------------------------------------------------------------------------------------------

describe('GET /v1/documents', () => {
  it('takes the rest of the path as source_id, slashes included', async () => {
    const res = await get('/v1/documents/DE/GesetzeImInternet/bgb/823');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: 'DE/GesetzeImInternet/bgb/823', source_id: 'bgb/823', title: '§ 823 BGB Schadensersatzpflicht' });

    const fr = await get('/v1/documents/FR/Legifrance/LEGITEXT000006070721/1240');
    expect(fr.status).toBe(200);
    expect(fr.body.source_id).toBe('LEGITEXT000006070721/1240');
  });

  it('URL-decodes the source_id, including encoded slashes', async () => {
    expect((await get('/v1/documents/EU/Eurlex/C-131%2F12')).body.id).toBe('EU/Eurlex/C-131/12');
    expect(api.lastCall).toEqual(['getDocument', 'EU/Eurlex', 'C-131/12']);
  });

  it('accepts the ?source_id= form', async () => {
    const res = await get('/v1/documents/DE/GesetzeImInternet?source_id=bgb%2F823');
    expect(res.status).toBe(200);
    expect(res.body.id).toBe('DE/GesetzeImInternet/bgb/823');
  });

  it('422 with a query loc when source_id is missing', async () => {
    expect(await get('/v1/documents/DE/GesetzeImInternet')).toEqual({
      status: 422,
      body: { detail: [{ type: 'missing', loc: ['query', 'source_id'], msg: 'Field required', input: null }] },
    });
  });

  it('404 with the service message for an unknown document', async () => {
    expect(await get('/v1/documents/DE/GesetzeImInternet/bgb/9999')).toEqual({
      status: 404,
      body: { detail: 'Document not found: DE/GesetzeImInternet/bgb/9999' },
    });
    expect((await get('/v1/documents/DE/GesetzeImInternet?source_id=nope')).status).toBe(404);
  });
});

// ---------------------------------------------------------------------------------------------
// Discovery
// ---------------------------------------------------------------------------------------------

describe('discovery routes', () => {
  it('lists countries', async () => {
    const res = await get('/v1/discover/countries');
    expect(res.status).toBe(200);
    expect(res.body.countries.map((c: CountryInfo) => c.code)).toEqual(['DE', 'EU', 'FR']);
  });

  it('lists sources of a country, with include_empty parsed like FastAPI', async () => {
    expect((await get('/v1/discover/countries/DE/sources')).status).toBe(200);
    expect(api.lastCall).toEqual(['sources', 'DE', { includeEmpty: false }]);
    for (const [value, expected] of [['true', true], ['1', true], ['yes', true], ['on', true], ['false', false], ['0', false], ['no', false], ['OFF', false]] as const) {
      expect((await get(`/v1/discover/countries/DE/sources?include_empty=${value}`)).status).toBe(200);
      expect(api.lastCall).toEqual(['sources', 'DE', { includeEmpty: expected }]);
    }
  });

  it('rejects an unparsable include_empty with a query loc', async () => {
    expect(await get('/v1/discover/countries/DE/sources?include_empty=maybe')).toEqual({
      status: 422,
      body: {
        detail: [
          {
            type: 'bool_parsing',
            loc: ['query', 'include_empty'],
            msg: 'Input should be a valid boolean, unable to interpret input',
            input: 'maybe',
          },
        ],
      },
    });
  });

  it('404 for an unknown country', async () => {
    expect(await get('/v1/discover/countries/XX/sources')).toEqual({ status: 404, body: { detail: 'Unknown country: XX' } });
  });

  it('filters: the source with its slash as is or URL-encoded', async () => {
    const plain = await get('/v1/discover/sources/DE/GesetzeImInternet/filters');
    expect(plain.status).toBe(200);
    expect(plain.body.source).toBe('DE/GesetzeImInternet');
    const encoded = await get('/v1/discover/sources/DE%2FGesetzeImInternet/filters?namespace=legislation');
    expect(encoded.status).toBe(200);
    expect(api.lastCall).toEqual(['filters', 'DE/GesetzeImInternet', 'legislation']);
  });

  it('filters: a bad namespace is a query error even though the service validated it', async () => {
    const res = await get('/v1/discover/sources/DE%2FGesetzeImInternet/filters?namespace=statutes');
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      {
        type: 'enum',
        loc: ['query', 'namespace'],
        msg: "Input should be 'case_law', 'legislation' or 'doctrine'",
        input: 'statutes',
        ctx: { expected: "'case_law', 'legislation' or 'doctrine'" },
      },
    ]);
  });

  it('filters: 404 for an unknown source', async () => {
    expect(await get('/v1/discover/sources/XX%2FNope/filters')).toEqual({ status: 404, body: { detail: 'Unknown source: XX/Nope' } });
  });

  it('courts with optional country and source (last value of a repeated parameter wins)', async () => {
    const res = await get('/v1/discover/courts?country=DE&country=EU');
    expect(res.status).toBe(200);
    expect(api.lastCall).toEqual(['courts', { country: 'EU', source: undefined }]);
    expect(res.body).toEqual([{ court: 'CJEU', country: 'EU', source: 'EU/Eurlex', court_tier: 1, total_documents: 1 }]);
  });

  it('stats and manifest', async () => {
    expect(await get('/v1/stats')).toEqual({ status: 200, body: { total_documents: 3 } });
    expect((await get('/v1/manifest')).body.name).toBe('legal-search-platform');
  });
});

describe('unknown routes and unexpected errors', () => {
  it('404 {"detail":"Not Found"} for an unknown route', async () => {
    expect(await get('/v1/nothing-here')).toEqual({ status: 404, body: { detail: 'Not Found' } });
  });

  it('405 {"detail":"Method Not Allowed"} for a known path called with another method', async () => {
    expect(await raw('DELETE', '/v1/stats')).toEqual({ status: 405, body: { detail: 'Method Not Allowed' } });
    expect(await get('/v1/search')).toEqual({ status: 405, body: { detail: 'Method Not Allowed' } });
    expect((await raw('POST', '/health')).status).toBe(405);
    const head = await fetch(`${base}/v1/stats`, { method: 'HEAD' });
    expect(head.status).toBe(200);
  });

  it('500 without a stack, error logged', async () => {
    const original = api.stats;
    api.stats = async () => {
      throw new Error('database exploded at /secret/path');
    };
    try {
      expect(await get('/v1/stats')).toEqual({ status: 500, body: { detail: 'Internal Server Error' } });
      expect(logged.at(-1)).toBeInstanceOf(Error);
    } finally {
      api.stats = original;
    }
  });
});

describe('system routes', () => {
  it('health is always ok; ready is 503 with progress, then 200', async () => {
    expect(await get('/health')).toEqual({ status: 200, body: { status: 'ok' } });
    api.ready = false;
    const notReady = await get('/ready');
    expect(notReady.status).toBe(503);
    expect(notReady.body).toMatchObject({ status: 'indexing', ingest: { documents_done: 1, documents_total: 3 } });
    api.ready = true;
    expect(await get('/ready')).toEqual({ status: 200, body: { status: 'ready', stores: { database: true, index: true }, ingest: null } });
  });
});
