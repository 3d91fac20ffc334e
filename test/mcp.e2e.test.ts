/**
 * The MCP server end to end, with the official MCP TypeScript SDK client exactly as an agent
 * uses it: real HTTP on an ephemeral port, a platform on a slice of the real corpus (embedded
 * PGlite + LanceDB in a temp DATA_DIR), API keys created through the REST API.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { DEFAULT_SLICES, writeCorpusSlice } from './fixtures/corpus-slice.js';
import { call, cookieFrom } from './helpers/http.js';
import { makeTestDataDir } from './helpers/pglite-template.js';

const BASE_URL = 'https://legal.example';
const PASSWORD = 'correct horse battery staple 42';
const TOOLS = ['discover_countries', 'discover_sources', 'find_citing_documents', 'get_courts', 'get_document', 'get_filters', 'list_citations', 'report_source_issue', 'resolve_reference', 'search'];

describe('MCP server (/mcp streamable HTTP, /sse legacy SSE)', () => {
  let platform: Platform;
  let url: string;
  const clients: Client[] = [];

  /** Registers an account and creates an API key for it; answers the key and the key's id. */
  const newKey = async (email: string) => {
    await call(`${url}/auth/register`, 'POST', { email, password: PASSWORD, accept_terms: true, acknowledge_privacy: true });
    const login = await call(`${url}/auth/login`, 'POST', { email, password: PASSWORD });
    const cookie = cookieFrom(login.headers, 'session')!;
    const created = await call(`${url}/v1/keys`, 'POST', { name: 'agent' }, { cookie });
    expect(created.status).toBe(200);
    return { key: created.body.key as string, id: created.body.id as string, cookie };
  };

  const transportFor = (kind: 'streamable' | 'sse', key: string): Transport => {
    const requestInit = { headers: { authorization: `Bearer ${key}` } };
    return kind === 'streamable'
      ? new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit })
      : new SSEClientTransport(new URL(`${url}/sse`), { requestInit });
  };

  const connect = async (kind: 'streamable' | 'sse', key: string) => {
    const client = new Client({ name: 'jest-agent', version: '1.0.0' });
    await client.connect(transportFor(kind, key));
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    const corpus = await writeCorpusSlice([DEFAULT_SLICES[0]!, { file: 'case_law/DE-BGH.jsonl.gz', lines: 10 }]);
    const dataDir = await makeTestDataDir('mcp-e2e-');
    const config = loadConfig({ DATA_DIR: dataDir, CORPUS_DIR: corpus.dir, PORT: '0', EMBEDDER: 'none', BASE_URL });
    platform = await startPlatform(config, createLogger('silent'));
    url = platform.url!;
    await platform.ingestDone;
  });

  afterAll(async () => {
    // Stopped while the SSE clients are still connected: stop() must end their streams, or the
    // HTTP server would wait for them forever (this hook would time out).
    await platform?.stop();
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  });

  it('answers 401 naming the protected-resource metadata (derived from BASE_URL) and the scope to ask for, without credentials', async () => {
    const mcp = await call(`${url}/mcp`, 'POST', { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(mcp.status).toBe(401);
    expect(mcp.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${BASE_URL}/.well-known/oauth-protected-resource/mcp", scope="mcp"`);
    const sse = await call(`${url}/sse`, 'GET');
    expect(sse.status).toBe(401);
    expect(sse.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${BASE_URL}/.well-known/oauth-protected-resource/sse", scope="mcp"`);
    const messages = await call(`${url}/sse/messages?sessionId=x`, 'POST', {});
    expect(messages.status).toBe(401);
    expect(messages.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${BASE_URL}/.well-known/oauth-protected-resource/sse", scope="mcp"`);
    const bogus = await call(`${url}/mcp`, 'POST', {}, { key: 'sk-NotAKeyAtAll0000000000000000000000000000' });
    expect(bogus.status).toBe(401);
    expect(bogus.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token", error_description="Invalid or revoked API key", resource_metadata="https:\/\/legal\.example\/\.well-known\/oauth-protected-resource\/mcp", scope="mcp"$/);
  });

  it('serves RFC 9728 protected-resource metadata for the service, /mcp, /sse, paths under them and any other path', async () => {
    const root = await call(`${url}/.well-known/oauth-protected-resource`, 'GET');
    expect(root.status).toBe(200);
    expect(root.body).toMatchObject({ resource: BASE_URL, authorization_servers: [BASE_URL], bearer_methods_supported: ['header'] });
    for (const resource of ['/mcp', '/sse', '/sse/messages']) {
      const doc = await call(`${url}/.well-known/oauth-protected-resource${resource}`, 'GET');
      expect(doc.status).toBe(200);
      // RFC 9728 §3.3: the resource in the document is the one the well-known URL was built from.
      expect(doc.body.resource).toBe(`${BASE_URL}${resource}`);
      expect(doc.body.authorization_servers).toEqual([BASE_URL]);
    }
    // the spec's path-aware fallback: any other path answers, with the whole service as the resource
    for (const other of ['/v1/search', '/anything/else']) {
      const fallback = await call(`${url}/.well-known/oauth-protected-resource${other}`, 'GET');
      expect(fallback.status).toBe(200);
      expect(fallback.body).toMatchObject({ resource: BASE_URL, authorization_servers: [BASE_URL] });
    }
  });

  it('rejects a session cookie (cross-site requests would carry it): agents send a bearer token', async () => {
    const { cookie } = await newKey('cookie-agent@example.org');
    const res = await call(`${url}/mcp`, 'POST', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { cookie });
    expect(res.status).toBe(401);
  });

  describe.each(['streamable', 'sse'] as const)('over %s', (kind) => {
    let client: Client;
    let key: { key: string; id: string; cookie: string };

    beforeAll(async () => {
      key = await newKey(`agent-${kind}@example.org`);
      client = await connect(kind, key.key);
    });

    it('advertises only what a stateless server can do: tools, no change notifications', async () => {
      // listChanged would promise notifications/tools/list_changed, which needs a stream the
      // server can write to later: stateless /mcp has none (GET /mcp is 405), and the tool list never changes.
      const capabilities = client.getServerCapabilities()!;
      expect(capabilities.tools).toEqual({ listChanged: false });
      expect(Object.keys(capabilities)).toEqual(['tools']);
    });

    it('lists every tool with described JSON-schema inputs', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
      const search = tools.find((t) => t.name === 'search')!;
      expect(search.description).toMatch(/get_document/);
      expect(Object.keys(search.inputSchema.properties!)).toEqual(
        expect.arrayContaining(['q', 'top_k', 'alpha', 'namespace', 'country', 'source', 'court', 'court_tier', 'jurisdiction', 'language', 'date_start', 'date_end', 'result_detail']),
      );
      expect(search.inputSchema.required).toEqual(['q']);
      for (const tool of tools) {
        for (const [name, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
          expect([tool.name, name, typeof (schema as { description?: unknown }).description]).toEqual([tool.name, name, 'string']);
        }
      }
      // Every tool answers structured content, so every tool declares its output schema (the SDK
      // client then validates each result against it), and get_document's is the spec's document record.
      expect(tools.filter((t) => t.outputSchema).map((t) => t.name).sort()).toEqual(TOOLS);
      const reportOutput = tools.find((t) => t.name === 'report_source_issue')!.outputSchema!;
      expect(reportOutput.required).toEqual(['report']);
      const documentOutput = tools.find((t) => t.name === 'get_document')!.outputSchema!;
      expect(documentOutput.type).toBe('object');
      expect(documentOutput.required).toEqual(expect.arrayContaining(['id', 'source', 'source_id', 'namespace', 'country', 'title', 'text']));
      expect(documentOutput.properties).toMatchObject({ id: { type: 'string' }, text: { type: 'string' }, namespace: { enum: ['case_law', 'legislation', 'doctrine'] } });
    });

    it('searches, reads the document of a hit and resolves a citation, with structured results', async () => {
      const search = await client.callTool({ name: 'search', arguments: { q: 'Schadensersatz Eigentum', namespace: 'legislation', country: ['DE'], top_k: 5 } });
      expect(search.isError).toBeFalsy();
      const found = search.structuredContent as { hits: { id: string; source: string; source_id: string; country: string }[]; namespace: string };
      expect(found.namespace).toBe('legislation');
      expect(found.hits.length).toBe(5);
      expect(found.hits.every((h) => h.source === 'DE/GesetzeImInternet' && h.source_id.startsWith('bgb'))).toBe(true);
      expect(JSON.parse((search.content as { text: string }[])[0]!.text)).toEqual(search.structuredContent);

      const top = found.hits[0]!;
      const doc = await client.callTool({ name: 'get_document', arguments: { source: top.source, source_id: top.source_id } });
      expect(doc.isError).toBeFalsy();
      expect(doc.structuredContent).toMatchObject({ id: top.id, source_id: top.source_id, country: 'DE' });
      expect(String((doc.structuredContent as { text: string }).text).length).toBeGreaterThan(20);

      const resolved = await client.callTool({ name: 'resolve_reference', arguments: { reference: '§ 823 Abs. 1 BGB' } });
      expect(resolved.isError).toBeFalsy();
      expect(resolved.structuredContent).toMatchObject({ resolved: true, documents: [expect.objectContaining({ source: 'DE/GesetzeImInternet', source_id: 'bgb/823' })] });
    });

    it('serves the discovery tools from the shared services', async () => {
      const countries = await client.callTool({ name: 'discover_countries', arguments: {} });
      expect((countries.structuredContent as { countries: { code: string }[] }).countries.map((c) => c.code)).toContain('DE');
      const sources = await client.callTool({ name: 'discover_sources', arguments: { country: 'DE' } });
      expect(sources.structuredContent).toMatchObject({ country: 'DE' });
      expect((sources.structuredContent as { sources: { source_id: string }[] }).sources.map((s) => s.source_id)).toEqual(expect.arrayContaining(['DE/BGH', 'DE/GesetzeImInternet']));
      const filters = await client.callTool({ name: 'get_filters', arguments: { source: 'DE/BGH' } });
      expect(filters.structuredContent).toMatchObject({ source: 'DE/BGH', namespace: 'case_law' });
      const courts = await client.callTool({ name: 'get_courts', arguments: { country: 'DE' } });
      expect((courts.structuredContent as { courts: { source: string }[] }).courts.length).toBeGreaterThan(0);
    });

    it('stores report_source_issue as an open feedback report of the caller', async () => {
      const description = `The text of § 823 is cut after Abs. 1 (${kind})`;
      const res = await client.callTool({ name: 'report_source_issue', arguments: { source: 'DE/GesetzeImInternet', source_id: 'bgb/823', issue_type: 'broken_text', description } });
      expect(res.isError).toBeFalsy();
      const report = (res.structuredContent as { report: { id: string; status: string } }).report;
      expect(report.status).toBe('open');
      const rows = await platform.orm.em.fork().getConnection().execute('select * from feedback_report where id = ?', [report.id]);
      expect(rows).toEqual([expect.objectContaining({ source: 'DE/GesetzeImInternet', source_id: 'bgb/823', issue_type: 'broken_text', status: 'open', channel: 'mcp', api_key_id: key.id, description })]);
    });

    it('answers tool errors as isError results with a clear message', async () => {
      const missing = await client.callTool({ name: 'get_document', arguments: { source: 'DE/GesetzeImInternet', source_id: 'bgb/99999' } });
      expect(missing.isError).toBe(true);
      expect((missing.content as { text: string }[])[0]!.text).toMatch(/not found.*bgb\/99999/i);
      const invalid = await client.callTool({ name: 'search', arguments: { q: 'Eigentum', top_k: 0 } });
      expect(invalid.isError).toBe(true);
      expect((invalid.content as { text: string }[])[0]!.text).toMatch(/top_k/);
      const unknownCountry = await client.callTool({ name: 'discover_sources', arguments: { country: 'ZZ' } });
      expect(unknownCountry.isError).toBe(true);
      const badReport = await client.callTool({ name: 'report_source_issue', arguments: { source: 'DE/BGH', description: 'short' } });
      expect(badReport.isError).toBe(true);
      expect((badReport.content as { text: string }[])[0]!.text).toMatch(/description/);
    });

    it('counts every tool call, discovery included, as usage of the key', async () => {
      // its own account and key: the count cannot depend on what other tests called
      const own = await newKey(`counted-${kind}@example.org`);
      const counted = await connect(kind, own.key);
      const calls: [string, Record<string, unknown>][] = [
        ['search', { q: 'Schadensersatz', namespace: 'legislation', top_k: 1 }],
        ['get_document', { source: 'DE/GesetzeImInternet', source_id: 'bgb/823' }],
        ['get_document', { source: 'DE/GesetzeImInternet', source_id: 'bgb/99999' }], // 404: counted
        ['resolve_reference', { reference: '§ 823 BGB' }],
        ['discover_countries', {}],
        ['discover_sources', { country: 'DE' }],
        ['discover_sources', { country: 'ZZ' }], // 404: counted
        ['get_filters', { source: 'DE/BGH' }],
        ['get_courts', { country: 'DE' }],
        ['report_source_issue', { source: 'DE/BGH', issue_type: 'other', description: 'A counted report of a missing decision.' }],
        // arguments the tool's input schema refuses never reach a service: not counted
        ['search', { q: 'Eigentum', top_k: 0 }],
        ['report_source_issue', { source: 'DE/BGH', description: 'short' }],
      ];
      for (const [name, args] of calls) await counted.callTool({ name, arguments: args });
      const usage = await call(`${url}/v1/usage/me`, 'GET', undefined, { key: own.key });
      const rows: { endpoint: string }[] = await platform.orm.em
        .fork()
        .getConnection()
        .execute('select endpoint from usage_event where api_key_id = ? order by id', [own.id]);
      expect(rows.map((r) => r.endpoint).sort()).toEqual(
        ['search', 'documents', 'documents', 'resolve', 'discover_countries', 'discover_sources', 'discover_sources', 'get_filters', 'get_courts', 'report_source_issue'].sort(),
      );
      expect(usage.body.requests_today).toBe(rows.length);
    });

    it('refuses a revoked key at once, on new connections and on an open session', async () => {
      const own = await newKey(`revoked-${kind}@example.org`);
      const open = await connect(kind, own.key);
      expect((await open.callTool({ name: 'discover_countries', arguments: {} })).isError).toBeFalsy();
      const revoked = await call(`${url}/v1/keys/${own.id}`, 'DELETE', undefined, { cookie: own.cookie });
      expect([revoked.status, revoked.body]).toEqual([200, { status: 'revoked', id: own.id }]);
      await expect(open.callTool({ name: 'discover_countries', arguments: {} })).rejects.toThrow(/401|Unauthorized|invalid/i);
      await expect(connect(kind, own.key)).rejects.toThrow();
    });
  });

  it('turns a plan limit into an isError result that says when to retry', async () => {
    const { key } = await newKey('busy-agent@example.org');
    const client = await connect('streamable', key);
    // The Free plan allows 10 calls per minute; discovery is billable over MCP.
    for (let i = 0; i < 10; i++) expect((await client.callTool({ name: 'discover_countries', arguments: {} })).isError).toBeFalsy();
    const limited = await client.callTool({ name: 'discover_countries', arguments: {} });
    expect(limited.isError).toBe(true);
    expect((limited.content as { text: string }[])[0]!.text).toMatch(/Rate limit exceeded.*10 requests per minute.*Retry after \d+ seconds?\./);
  });

  it('keeps discovery open and unbilled on REST', async () => {
    expect((await call(`${url}/v1/discover/countries`, 'GET')).status).toBe(200);
  });

  it('records the analytics of scripted REST, GraphQL and MCP calls of five accounts exactly, once each, without query text', async () => {
    type Row = { kind: string; scope: string; item: string; account: string; searches: number; hits: number; documents: number; resolutions: number; calls: number };
    const expected = new Map<string, Row>();
    const add = (account: string, kind: string, scope: string, item: string, measures: Partial<Row>) => {
      const key = [account, kind, scope, item].join('|');
      const row = expected.get(key) ?? { kind, scope, item, account, searches: 0, hits: 0, documents: 0, resolutions: 0, calls: 0 };
      for (const [name, value] of Object.entries(measures) as [keyof Row, number][]) (row[name] as number) += value;
      expected.set(key, row);
    };
    const searched = (account: string, hits: { source: string; country?: string }[]) => {
      const sources = new Set(hits.map((h) => h.source));
      for (const source of sources) add(account, 'source', source, '', { searches: 1, hits: hits.filter((h) => h.source === source).length });
      for (const hit of hits) add(account, 'country', hit.country ?? hit.source.split('/')[0]!, '', { hits: 1 });
      // the grid (source, country, detail) every released hit, document and resolution figure is summed from
      for (const hit of hits) add(account, 'grid', hit.source, `${hit.country ?? hit.source.split('/')[0]!}|`, { hits: 1 });
      add(account, 'country', 'DE', '', { searches: 1 });
      add(account, 'namespace', 'legislation', '', { searches: 1 });
    };
    const fetched = (account: string, source: string, sourceId: string) => {
      add(account, 'source', source, '', { documents: 1 });
      add(account, 'country', 'DE', '', { documents: 1 });
      add(account, 'grid', source, `DE|doc:${sourceId}`, { documents: 1 });
    };
    const query = { q: 'Schadensersatz Eigentum', namespace: 'legislation', country: ['DE'], top_k: 5 };
    const accounts: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { key, cookie } = await newKey(`analytics-${i}@example.org`);
      const account = (await call(`${url}/auth/me`, 'GET', undefined, { cookie })).body.user.id as string;
      accounts.push(account);
      const search = await call(`${url}/v1/search`, 'POST', query, { key });
      searched(account, search.body.hits);
      const top = search.body.hits[0];
      expect((await call(`${url}/v1/documents/${top.source}/${top.source_id}`, 'GET', undefined, { key })).status).toBe(200);
      fetched(account, top.source, top.source_id);
      const resolved = await call(`${url}/v1/resolve`, 'POST', { reference: '§ 823 Abs. 1 BGB' }, { key });
      const first = resolved.body.documents[0];
      add(account, 'grid', first.source, `${first.country}|match:${resolved.body.match_type}`, { resolutions: 1 });
      add(account, 'source', first.source, '', { resolutions: 1 });
      add(account, 'country', first.country, '', { resolutions: 1 });
      if (i === 2) {
        const gql = await call(`${url}/graphql`, 'POST', { query: '{ document(source: "DE/GesetzeImInternet", sourceId: "bgb/823") { id } }' }, { key });
        expect(gql.body.data.document.id).toBe('DE/GesetzeImInternet/bgb/823');
        fetched(account, 'DE/GesetzeImInternet', 'bgb/823');
      }
      if (i < 2) {
        const client = await connect('streamable', key);
        const viaMcp = await client.callTool({ name: 'search', arguments: query });
        searched(account, (viaMcp.structuredContent as { hits: { source: string; country?: string }[] }).hits);
        add(account, 'tool', '', 'search', { calls: 1 });
        expect((await client.callTool({ name: 'get_document', arguments: { source: top.source, source_id: top.source_id } })).isError).toBeFalsy();
        fetched(account, top.source, top.source_id);
        add(account, 'tool', '', 'get_document', { calls: 1 });
        expect((await client.callTool({ name: 'discover_countries', arguments: {} })).isError).toBeFalsy();
        add(account, 'tool', '', 'discover_countries', { calls: 1 });
      }
    }
    await platform.analytics.recorder.flush();
    const rows = await platform.orm.em
      .fork()
      .getConnection()
      .execute<Row[]>(`select kind, scope, item, account, searches, hits, documents, resolutions, calls from analytics_account_day where account in (${accounts.map(() => '?').join(', ')})`, accounts);
    const byKey = (list: Row[]) => list.map((r) => ({ ...r })).sort((a, b) => [a.account, a.kind, a.scope, a.item].join('|').localeCompare([b.account, b.kind, b.scope, b.item].join('|')));
    expect(byKey(rows)).toEqual(byKey([...expected.values()]));
    // nothing of the query text is kept anywhere in the analytics
    const text = await platform.orm.em.fork().getConnection().execute<{ n: number }[]>(`select count(*)::int as n from analytics_account_day where scope like '%Schadensersatz%' or item like '%Schadensersatz%'`);
    expect(text[0]!.n).toBe(0);
  }, 60_000);

  // Last: it ends the process's SSE streams, as the start of a shutdown does.
  it('at shutdown ends the open SSE streams and answers a new GET /sse with 503 and Retry-After', async () => {
    const { key } = await newKey('leaving-agent@example.org');
    const stream = await fetch(`${url}/sse`, { headers: { authorization: `Bearer ${key}` } });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toMatch(/^event: endpoint/);
    await platform.app.closeStreams();
    expect((await reader.read()).done).toBe(true);
    const refused = await call(`${url}/sse`, 'GET', undefined, { key });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(refused.body.detail).toMatch(/shutting down/);
  }, 20_000);
});
