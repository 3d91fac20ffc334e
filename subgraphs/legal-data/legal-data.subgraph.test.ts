/**
 * The legal-data subgraph: directly through its schema, through the gateway over HTTP with
 * the subgraph in process, and through the gateway with the subgraph served remotely.
 * The service is a small in-memory LegalDataApi that validates with the real zod schema.
 */
import express from 'express';
import type { DocumentRead, DocumentReadRequest } from '../../src/modules/legal-data/legal-data.port.js';
import { documentVersion } from '../../src/modules/legal-data/document-version.js';
import { graphql, type ExecutionResult, type GraphQLSchema } from 'graphql';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { contextsWithoutDatabase, type RequestContext } from '../../src/context.js';

/** The legal-data subgraph never touches the relational database. */
const anonymousContext = (ip: string) => contextsWithoutDatabase.anonymous(ip);
import { NotFoundError } from '../../src/errors.js';
import { createLogger } from '../../src/logger.js';
import { graphqlContext } from '../../src/graphql/context.js';
import { mountGraphql, REQUEST_ID_HEADER, serveSubgraph, type ServedSubgraph } from '../../src/graphql/gateway.js';
import {
  type CountriesResponse,
  type CountryInfo,
  type CourtInfo,
  type Manifest,
  type Readiness,
  type SourceFilters,
  type SourceInfo,
  type SourcesResponse,
  type Stats,
} from '../../src/modules/legal-data/catalog.schema.js';
import type { LegalDataApi } from '../../src/modules/legal-data/legal-data.port.js';
import { documentId, type LegalDocument } from '../../src/domain/legal-document.js';
import {
  searchRequestSchema,
  type SearchResponse,
} from '../../src/modules/legal-data/search.schema.js';
import { parseInput } from '../../src/validation.js';
import { schemaOnlyServices } from '../../src/graphql/subgraphs.js';
import { buildLegalDataSubgraph } from './index.js';
import { makeDocument } from '../../test/fixtures/documents.js';
import { splitDocumentId } from './legal-data.resolver.js';

// ---------------------------------------------------------------------------------------------
// In-memory service

const doc = (source: string, sourceId: string, fields: Partial<LegalDocument>) => makeDocument(source, sourceId, { title: '', ...fields });

const DOCUMENTS: LegalDocument[] = [
  doc('DE/GesetzeImInternet', 'bgb/823', {
    title: '§ 823 Schadensersatzpflicht',
    text: 'Wer vorsätzlich oder fahrlässig das Leben, den Körper, die Gesundheit ... verletzt, ist zum Ersatz verpflichtet.',
    language: 'de',
    short_names: ['BGB'],
    extra: { jurabk: 'BGB', paragraphs: 2 },
  }),
  doc('DE/BGH', 'VI-ZR-1-20', {
    namespace: 'case_law',
    title: 'BGH VI ZR 1/20: Schadensersatz bei Verkehrsunfall',
    text: 'Der Kläger verlangt Schadensersatz nach § 823 BGB.',
    language: 'de',
    court: 'BGH',
    court_tier: 1,
    date: '2021-03-04',
    ecli: 'ECLI:DE:BGH:2021:040321UVIZR1.20.0',
  }),
  doc('FR/Legifrance', 'code-civil/1240', {
    title: 'Article 1240',
    text: "Tout fait quelconque de l'homme, qui cause à autrui un dommage, oblige celui par la faute duquel il est arrivé à le réparer.",
    language: 'fr',
  }),
];

class InMemoryLegalData implements LegalDataApi {
  /** Every call: method name and the RequestContext it received. */
  readonly calls: { method: string; ctx: RequestContext }[] = [];
  failNext: Error | null = null;

  private record(method: string, ctx: RequestContext): void {
    this.calls.push({ method, ctx });
    const failure = this.failNext;
    this.failNext = null;
    if (failure) throw failure;
  }

  async search(ctx: RequestContext, input: unknown): Promise<SearchResponse> {
    this.record('search', ctx);
    const request = parseInput(searchRequestSchema, input); // the real service's validation
    const words = request.q.toLowerCase().split(/\s+/);
    const matches = DOCUMENTS.filter(
      (d) =>
        d.namespace === request.namespace &&
        (!request.country || request.country.includes(d.country)) &&
        words.some((w) => `${d.title} ${d.text}`.toLowerCase().includes(w)),
    );
    return {
      query: request.q,
      hits: matches.slice(0, request.top_k).map((d, i) => ({
        id: d.id,
        source: d.source,
        source_id: d.source_id,
        score: 1 / (i + 1),
        namespace: d.namespace,
        title: d.title,
        snippet: d.text.slice(0, 40),
        country: d.country,
        language: d.language ?? undefined,
        court: d.court ?? undefined,
        court_tier: d.court_tier ?? undefined,
        date: d.date ?? undefined,
        ...(request.result_detail === 'full_metadata' ? { text: d.text, metadata: { ...d.extra, short_names: d.short_names } } : {}),
      })),
      total_hits: matches.length,
      alpha: request.alpha,
      namespace: request.namespace,
      elapsed_ms: 1.5,
    };
  }

  async getDocument(ctx: RequestContext, source: string, sourceId: string): Promise<LegalDocument> {
    this.record('getDocument', ctx);
    const found = DOCUMENTS.find((d) => d.id === documentId(source, sourceId));
    if (!found) throw new NotFoundError(`Document ${documentId(source, sourceId)} not found`);
    return found;
  }

  async getDocuments(ctx: RequestContext, ids: readonly string[]): Promise<Map<string, LegalDocument>> {
    this.record('getDocuments', ctx);
    return new Map(DOCUMENTS.filter((d) => ids.includes(d.id)).map((d) => [d.id, d]));
  }

  async readDocument(ctx: RequestContext, source: string, sourceId: string, request: DocumentReadRequest): Promise<DocumentRead> {
    const document = await this.getDocument(ctx, source, sourceId);
    const version = documentVersion(document);
    return { document, version, billed: !request.headOnly && !request.isCurrent(version) };
  }

  async countries(ctx: RequestContext): Promise<CountriesResponse> {
    this.record('countries', ctx);
    const countries = [...new Set(DOCUMENTS.map((d) => d.country))].map((code) => ({
      code,
      case_law_sources: new Set(DOCUMENTS.filter((d) => d.country === code && d.namespace === 'case_law').map((d) => d.source)).size,
      legislation_sources: new Set(DOCUMENTS.filter((d) => d.country === code && d.namespace === 'legislation').map((d) => d.source)).size,
      doctrine_sources: 0,
      total_documents: DOCUMENTS.filter((d) => d.country === code).length,
    }));
    return { countries };
  }

  async sources(ctx: RequestContext, country: string, options: { includeEmpty: boolean }): Promise<SourcesResponse> {
    this.record('sources', ctx);
    const sources = [...new Set(DOCUMENTS.filter((d) => d.country === country).map((d) => d.source))];
    if (sources.length === 0) throw new NotFoundError(`No source for country ${country}`);
    const infos = sources.map((source) => {
      const docs = DOCUMENTS.filter((d) => d.source === source);
      const count = (ns: string) => docs.filter((d) => d.namespace === ns).length;
      return {
        source_id: source,
        document_count: docs.length,
        date_range: null,
        source,
        country,
        name: source.split('/')[1]!,
        data_types: [...new Set(docs.map((d) => d.namespace))],
        url: null,
        license_id: null,
        license_name: null,
        license_url: null,
        commercial_use: null,
        status: 'active',
        blocked_reason: null,
        court_name: null,
        tier: null,
        notes: options.includeEmpty ? 'includeEmpty' : null,
        total_documents: docs.length,
        documents_by_namespace: { case_law: count('case_law'), legislation: count('legislation'), doctrine: count('doctrine') },
      };
    });
    return { country, sources: infos };
  }

  async filters(ctx: RequestContext, source: string, namespace?: string): Promise<SourceFilters> {
    this.record('filters', ctx);
    const docs = DOCUMENTS.filter((d) => d.source === source);
    if (docs.length === 0) throw new NotFoundError(`Unknown source ${source}`);
    return {
      source,
      namespace: (namespace as SourceFilters['namespace'] | undefined) ?? docs[0]!.namespace,
      total_documents: docs.length,
      courts: docs.flatMap((d) => (d.court ? [d.court] : [])),
      jurisdictions: [],
      chambers: [],
      decision_types: [],
      languages: [...new Set(docs.flatMap((d) => (d.language ? [d.language] : [])))],
      subdivisions: [],
      court_tiers: docs.flatMap((d) => (d.court_tier ? [d.court_tier] : [])),
      date_range: { min: null, max: null },
    };
  }

  async courts(ctx: RequestContext, options: { country?: string; source?: string }): Promise<CourtInfo[]> {
    this.record('courts', ctx);
    return DOCUMENTS.filter(
      (d) => d.court && (!options.country || d.country === options.country) && (!options.source || d.source === options.source),
    ).map((d) => ({ court: d.court!, country: d.country, source: d.source, court_tier: d.court_tier, total_documents: 1 }));
  }

  async stats(ctx: RequestContext): Promise<Stats> {
    this.record('stats', ctx);
    return {
      total_documents: DOCUMENTS.length,
      documents_by_namespace: { case_law: 1, legislation: 2, doctrine: 0 },
      countries: 2,
      sources: 3,
      catalogued_sources: 4,
      documents_by_country: { DE: 2, FR: 1 },
      documents_by_language: { de: 2, fr: 1 },
      date_range: { min: '2021-03-04', max: '2021-03-04' },
      index: { chunks: 3, chunks_with_vectors: 0, embedding_model: null, ready: true },
      generated_at: '2025-01-01T00:00:00.000Z',
    };
  }

  async manifest(ctx: RequestContext): Promise<Manifest> {
    this.record('manifest', ctx);
    return {
      name: 'legal-search-platform',
      version: '0.1.0',
      api_version: 'v1',
      description: 'test',
      collections: [{ namespace: 'legislation', total_documents: 2, sources: 2 }],
      jurisdictions: ['DE', 'FR'],
      sources: [
        {
          source: 'DE/BGH',
          country: 'DE',
          name: 'BGH',
          total_documents: 1,
          license_id: null,
          license_name: null,
          license_url: null,
          commercial_use: true,
        },
      ],
      search: { engine: 'embedded', embedding_model: null, hybrid: false },
      endpoints: ['/v1/search', '/graphql'],
      generated_at: '2025-01-01T00:00:00.000Z',
    };
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
    return { status: 'ready', stores: { database: true, index: true }, ingest: null };
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers

type Result = ExecutionResult<Record<string, any>>;

async function run(schema: GraphQLSchema, source: string, variableValues?: Record<string, unknown>, ctx = anonymousContext('10.0.0.1')): Promise<Result> {
  return (await graphql({ schema, source, variableValues, contextValue: graphqlContext(ctx) })) as Result;
}

async function listen(app: express.Express): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

async function post(url: string, query: string, variables?: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Result> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  expect(response.headers.get('content-type')).toMatch(/application\/(graphql-response\+)?json/);
  return (await response.json()) as Result;
}

const SEARCH = /* GraphQL */ `
  query Search($input: SearchInput!) {
    search(input: $input) {
      query
      total_hits
      alpha
      namespace
      hits { id source source_id score namespace title country court court_tier date text metadata }
    }
  }
`;

const DOCUMENT = /* GraphQL */ `
  query Doc($source: String!, $sourceId: String!) {
    document(source: $source, sourceId: $sourceId) { id title namespace language short_names extra court_tier }
  }
`;

const ENTITIES = /* GraphQL */ `
  query Entities($representations: [_Any!]!) {
    _entities(representations: $representations) { ... on Document { __typename id title source source_id } }
  }
`;

// ---------------------------------------------------------------------------------------------
// The subgraph schema

describe('legal-data subgraph schema', () => {
  let api: InMemoryLegalData;
  let schema: GraphQLSchema;

  beforeAll(async () => {
    api = new InMemoryLegalData();
    schema = await buildLegalDataSubgraph(api);
  });

  it('searches with the service defaults when optional fields are absent or null', async () => {
    const result = await run(schema, SEARCH, { input: { q: 'Schadensersatz', topK: null } });
    expect(result.errors).toBeUndefined();
    expect(result.data!.search).toMatchObject({ query: 'Schadensersatz', alpha: 0.7, namespace: 'case_law', total_hits: 1 });
    expect(result.data!.search.hits).toEqual([
      expect.objectContaining({ id: 'DE/BGH/VI-ZR-1-20', court: 'BGH', court_tier: 1, text: null, metadata: null }),
    ]);
  });

  it('passes every search field to the service and returns JSON metadata', async () => {
    const result = await run(schema, SEARCH, {
      input: { q: 'Schadensersatz', namespace: 'legislation', country: ['DE'], alpha: 0.2, topK: 5, resultDetail: 'full_metadata' },
    });
    expect(result.errors).toBeUndefined();
    expect(result.data!.search.alpha).toBe(0.2);
    expect(result.data!.search.hits[0]).toMatchObject({
      id: 'DE/GesetzeImInternet/bgb/823',
      metadata: { jurabk: 'BGB', paragraphs: 2, short_names: ['BGB'] },
    });
  });

  it('reports a validation failure as BAD_USER_INPUT with the issues', async () => {
    const result = await run(schema, SEARCH, { input: { q: 'x', topK: 500, dateStart: '2021-02-30' } });
    expect(result.data).toEqual({ search: null });
    expect(result.errors).toHaveLength(1);
    const error = result.errors![0]!;
    expect(error.extensions.code).toBe('BAD_USER_INPUT');
    const issues = error.extensions.issues as { loc: unknown[] }[];
    expect(issues.map((i) => i.loc)).toEqual(expect.arrayContaining([['input', 'topK'], ['input', 'dateStart']]));
    expect(error.message).toContain('input.topK');
  });

  it('returns a document, and null for an unknown one', async () => {
    const found = await run(schema, DOCUMENT, { source: 'DE/GesetzeImInternet', sourceId: 'bgb/823' });
    expect(found.errors).toBeUndefined();
    expect(found.data!.document).toEqual({
      id: 'DE/GesetzeImInternet/bgb/823',
      title: '§ 823 Schadensersatzpflicht',
      namespace: 'legislation',
      language: 'de',
      short_names: ['BGB'],
      extra: { jurabk: 'BGB', paragraphs: 2 },
      court_tier: null,
    });
    const missing = await run(schema, DOCUMENT, { source: 'DE/GesetzeImInternet', sourceId: 'nope' });
    expect(missing).toEqual({ data: { document: null } });
  });

  it('resolves Document entities by id (federation reference)', async () => {
    const result = await run(schema, ENTITIES, {
      representations: [
        { __typename: 'Document', id: 'FR/Legifrance/code-civil/1240' },
        { __typename: 'Document', id: 'FR/Legifrance/unknown' },
        { __typename: 'Document', id: 'not-an-id' },
        { __typename: 'Document', id: 'DE/BGH/VI-ZR-1-20' },
      ],
    });
    expect(result.errors).toBeUndefined();
    expect(result.data!._entities).toEqual([
      { __typename: 'Document', id: 'FR/Legifrance/code-civil/1240', title: 'Article 1240', source: 'FR/Legifrance', source_id: 'code-civil/1240' },
      null,
      null,
      { __typename: 'Document', id: 'DE/BGH/VI-ZR-1-20', title: 'BGH VI ZR 1/20: Schadensersatz bei Verkehrsunfall', source: 'DE/BGH', source_id: 'VI-ZR-1-20' },
    ]);
  });

  it('declares Document as an entity keyed by id in its SDL', async () => {
    const result = await run(schema, '{ _service { sdl } }');
    const sdl = result.data!._service.sdl as string;
    expect(sdl).toMatch(/@link\(url: "https:\/\/specs\.apollo\.dev\/federation\/v2\.\d+", import: \["@key"\]\)/);
    expect(sdl).toMatch(/type Document\s+@key\(fields: "id"\)/);
  });

  it('serves discovery, statistics and the manifest', async () => {
    const result = await run(
      schema,
      /* GraphQL */ `{
        countries { code total_documents legislation_sources }
        sources(country: "DE") { source total_documents notes documents_by_namespace { case_law legislation } }
        withEmpty: sources(country: "DE", includeEmpty: true) { notes }
        filters(source: "DE/BGH") { source namespace courts court_tiers languages date_range { min max } }
        courts(country: "DE") { court source court_tier }
        stats { total_documents documents_by_country index { ready embedding_model } }
        manifest { name sources { source commercial_use } search { engine hybrid } }
      }`,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data).toMatchObject({
      countries: [{ code: 'DE', total_documents: 2, legislation_sources: 1 }, { code: 'FR', total_documents: 1 }],
      sources: [
        { source: 'DE/GesetzeImInternet', notes: null, documents_by_namespace: { case_law: 0, legislation: 1 } },
        { source: 'DE/BGH', total_documents: 1 },
      ],
      withEmpty: [{ notes: 'includeEmpty' }, { notes: 'includeEmpty' }],
      filters: { source: 'DE/BGH', namespace: 'case_law', courts: ['BGH'], court_tiers: [1], date_range: { min: null, max: null } },
      courts: [{ court: 'BGH', source: 'DE/BGH', court_tier: 1 }],
      stats: { total_documents: 3, documents_by_country: { DE: 2, FR: 1 }, index: { ready: true, embedding_model: null } },
      manifest: { name: 'legal-search-platform', sources: [{ source: 'DE/BGH', commercial_use: true }], search: { engine: 'embedded' } },
    });
  });

  it('maps NotFoundError to NOT_FOUND for non-nullable lookups', async () => {
    const result = await run(schema, '{ sources(country: "XX") { source } }');
    expect(result.errors?.[0]?.extensions.code).toBe('NOT_FOUND');
    expect(result.errors?.[0]?.message).toBe('No source for country XX');
  });

  it('masks unexpected errors as INTERNAL_SERVER_ERROR', async () => {
    api.failNext = new Error('connection string postgres://secret');
    const result = await run(schema, '{ stats { total_documents } }');
    expect(result.errors?.[0]?.extensions.code).toBe('INTERNAL_SERVER_ERROR');
    expect(result.errors?.[0]?.message).toBe('Internal server error');
  });

  it('gives the resolvers the RequestContext of the GraphQL context', async () => {
    const ctx = anonymousContext('192.0.2.7');
    api.calls.length = 0;
    await run(schema, '{ countries { code } stats { total_documents } }', undefined, ctx);
    expect(api.calls.map((c) => c.method)).toEqual(['countries', 'stats']);
    expect(api.calls.every((c) => c.ctx === ctx)).toBe(true);
  });

  // the field-for-field comparison with the REST shapes is test/schema-drift.test.ts, for every subgraph

  it('splits document ids into source and source id', () => {
    expect(splitDocumentId('DE/GesetzeImInternet/bgb/823')).toEqual({ source: 'DE/GesetzeImInternet', sourceId: 'bgb/823' });
    expect(splitDocumentId('DE/BGH')).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------
// Through the gateway, over HTTP

describe('legal-data through the gateway (in process)', () => {
  let api: InMemoryLegalData;
  let http: { url: string; close(): Promise<void> };
  let graphqlDoor: { stop(): Promise<void>; supergraphSdl: string };

  beforeAll(async () => {
    api = new InMemoryLegalData();
    const app = express();
    graphqlDoor = await mountGraphql(app, { services: { ...schemaOnlyServices(), legalData: api }, subgraphUrls: {} });
    http = await listen(app);
  });

  afterAll(async () => {
    await http.close();
    await graphqlDoor.stop();
  });

  it('answers a search', async () => {
    const result = await post(http.url, SEARCH, { input: { q: 'dommage', namespace: 'legislation' } });
    expect(result.errors).toBeUndefined();
    expect(result.data!.search).toMatchObject({ total_hits: 1, hits: [{ id: 'FR/Legifrance/code-civil/1240', country: 'FR' }] });
  });

  it('returns null for an unknown document and the document otherwise', async () => {
    expect(await post(http.url, DOCUMENT, { source: 'DE/BGH', sourceId: 'missing' })).toEqual({ data: { document: null } });
    const found = await post(http.url, DOCUMENT, { source: 'DE/BGH', sourceId: 'VI-ZR-1-20' });
    expect(found.data!.document).toMatchObject({ id: 'DE/BGH/VI-ZR-1-20', court_tier: 1, extra: {} });
  });

  it('surfaces a validation error as BAD_USER_INPUT with the issues', async () => {
    const result = await post(http.url, SEARCH, { input: { q: 'x', topK: 500 } });
    expect(result.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      issues: [expect.objectContaining({ loc: ['input', 'topK'], input: 500 })],
    });
  });

  it('refuses a value outside an enum before any resolver runs: GRAPHQL_VALIDATION_FAILED in the document, BAD_USER_INPUT in a variable', async () => {
    api.calls.length = 0;
    const literal = await post(http.url, '{ countries { code } search(input: { q: "x", namespace: poetry }) { total_hits } }');
    expect(literal.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'GRAPHQL_VALIDATION_FAILED' }) })]);
    expect(literal.data).toBeUndefined();
    const variable = await post(http.url, SEARCH, { input: { q: 'x', namespace: 'poetry' } });
    expect(variable.errors).toEqual([expect.objectContaining({ message: expect.stringContaining('Namespace'), extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) })]);
    expect(api.calls).toEqual([]);
  });

  it('surfaces NOT_FOUND from a subgraph', async () => {
    const result = await post(http.url, '{ filters(source: "XX/None") { source } }');
    expect(result.errors?.[0]).toMatchObject({ message: 'Unknown source XX/None', extensions: { code: 'NOT_FOUND' } });
  });

  it('hands the request context built from the HTTP request to the subgraph resolvers', async () => {
    api.calls.length = 0;
    await post(http.url, '{ countries { code } stats { total_documents } }', undefined, { [REQUEST_ID_HEADER]: 'req-in-process-1' });
    expect(api.calls.map((c) => c.method).sort()).toEqual(['countries', 'stats']);
    const [first, second] = api.calls;
    expect(first!.ctx).toBe(second!.ctx); // one context object per request, shared by every resolver
    expect(first!.ctx).toMatchObject({ requestId: 'req-in-process-1', caller: { kind: 'anonymous' } });
    expect(first!.ctx.caller.ip).toMatch(/127\.0\.0\.1$/);
  });

  it('gives each request its own context', async () => {
    api.calls.length = 0;
    await post(http.url, '{ stats { total_documents } }');
    await post(http.url, '{ stats { total_documents } }');
    expect(api.calls).toHaveLength(2);
    expect(api.calls[0]!.ctx.requestId).not.toBe(api.calls[1]!.ctx.requestId);
  });
});

describe('legal-data through the gateway (remote subgraph over HTTP)', () => {
  let remoteApi: InMemoryLegalData;
  let localApi: InMemoryLegalData;
  let subgraph: ServedSubgraph;
  let http: { url: string; close(): Promise<void> };
  let graphqlDoor: { stop(): Promise<void>; supergraphSdl: string };

  beforeAll(async () => {
    remoteApi = new InMemoryLegalData();
    localApi = new InMemoryLegalData();
    subgraph = await serveSubgraph(await buildLegalDataSubgraph(remoteApi), { logger: createLogger('silent') });
    const app = express();
    graphqlDoor = await mountGraphql(app, { services: { ...schemaOnlyServices(), legalData: localApi }, subgraphUrls: { 'legal-data': subgraph.url } });
    http = await listen(app);
  });

  afterAll(async () => {
    await http.close();
    await graphqlDoor.stop();
    await subgraph.stop();
  });

  it('records the remote URL in the supergraph it serves', () => {
    expect(graphqlDoor.supergraphSdl).toContain(`LEGAL_DATA @join__graph(name: "legal-data", url: "${subgraph.url}")`);
  });

  it('answers through the remote subgraph, never the local service', async () => {
    const result = await post(
      http.url,
      /* GraphQL */ `query ($input: SearchInput!) {
        search(input: $input) { total_hits hits { id } }
        document(source: "DE/GesetzeImInternet", sourceId: "bgb/823") { id extra }
        missing: document(source: "DE/GesetzeImInternet", sourceId: "nope") { id }
      }`,
      { input: { q: 'Schadensersatz' } },
      { [REQUEST_ID_HEADER]: 'req-remote-1' },
    );
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({
      search: { total_hits: 1, hits: [{ id: 'DE/BGH/VI-ZR-1-20' }] },
      document: { id: 'DE/GesetzeImInternet/bgb/823', extra: { jurabk: 'BGB', paragraphs: 2 } },
      missing: null,
    });
    expect(localApi.calls).toHaveLength(0);
    expect(remoteApi.calls.map((c) => c.method).sort()).toEqual(['getDocument', 'getDocument', 'search']);
    // The gateway forwards its request id; the remote subgraph builds its context around it.
    expect(remoteApi.calls.every((c) => c.ctx.requestId === 'req-remote-1')).toBe(true);
  });

  it('keeps error codes across the HTTP hop', async () => {
    const invalid = await post(http.url, SEARCH, { input: { q: '' } });
    expect(invalid.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', issues: [expect.objectContaining({ loc: ['input', 'q'] })] });
    const notFound = await post(http.url, '{ sources(country: "XX") { source } }');
    expect(notFound.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('resolves Document entities on the remote subgraph', async () => {
    const result = await post(subgraph.url, ENTITIES, { representations: [{ __typename: 'Document', id: 'DE/BGH/VI-ZR-1-20' }] });
    expect(result.data!._entities).toEqual([
      { __typename: 'Document', id: 'DE/BGH/VI-ZR-1-20', title: 'BGH VI ZR 1/20: Schadensersatz bei Verkehrsunfall', source: 'DE/BGH', source_id: 'VI-ZR-1-20' },
    ]);
  });
});
