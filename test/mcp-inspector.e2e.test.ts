/**
 * The MCP Inspector's CLI (`@modelcontextprotocol/inspector --cli`, a client nobody here wrote)
 * against the real service, over both transports: `/mcp` (streamable HTTP) and `/sse` (legacy
 * SSE). It lists the tools with `--strict` (schema portability problems reported in full) and
 * calls every tool with valid arguments, as an API-key holder would. The CLI is a Node process
 * per call: calls run two at a time (the machine has two cores). Its state (catalog, client
 * config) goes to a temp HOME, never the user's.
 */
import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { DEFAULT_SLICES, writeCorpusSlice } from './fixtures/corpus-slice.js';
import { call, cookieFrom } from './helpers/http.js';

const INSPECTOR = fileURLToPath(new URL('../node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js', import.meta.url));
const PASSWORD = 'correct horse battery staple 42';
const TRANSPORTS = [
  { transport: 'http', path: '/mcp' },
  { transport: 'sse', path: '/sse' },
] as const;

interface ToolResult {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
}

/** Every tool, valid arguments (`--tool-arg key=value`), and what its structured answer must hold. */
const CALLS: { tool: string; args: string[]; check: (out: Record<string, unknown>) => void }[] = [
  {
    tool: 'search',
    args: ['q=Schadensersatz Eigentum', 'namespace=legislation', 'top_k=3'],
    check: (out) => expect((out.hits as { source: string }[]).map((h) => h.source)).toEqual(Array(3).fill('DE/GesetzeImInternet')),
  },
  { tool: 'get_document', args: ['source=DE/GesetzeImInternet', 'source_id=bgb/823'], check: (out) => expect(out).toMatchObject({ source_id: 'bgb/823', country: 'DE' }) },
  {
    tool: 'resolve_reference',
    args: ['reference=§ 823 Abs. 1 BGB'],
    check: (out) => expect(out).toMatchObject({ resolved: true, documents: [expect.objectContaining({ source_id: 'bgb/823' })] }),
  },
  { tool: 'discover_countries', args: [], check: (out) => expect((out.countries as { code: string }[]).map((c) => c.code)).toContain('DE') },
  {
    tool: 'discover_sources',
    args: ['country=DE', 'include_empty=false'],
    check: (out) => expect((out.sources as { source_id: string }[]).map((s) => s.source_id)).toEqual(expect.arrayContaining(['DE/BGH', 'DE/GesetzeImInternet'])),
  },
  { tool: 'get_filters', args: ['source=DE/BGH'], check: (out) => expect(out).toMatchObject({ source: 'DE/BGH', namespace: 'case_law' }) },
  { tool: 'get_courts', args: ['country=DE'], check: (out) => expect((out.courts as unknown[]).length).toBeGreaterThan(0) },
  { tool: 'find_citing_documents', args: ['source=DE/GesetzeImInternet', 'source_id=bgb/823', 'sort=court_tier', 'limit=5'], check: (out) => expect(out).toMatchObject({ cited_by_count: expect.any(Number), items: expect.any(Array) }) },
  { tool: 'list_citations', args: ['source=DE/GesetzeImInternet', 'source_id=bgb/823'], check: (out) => expect(out).toMatchObject({ links: expect.any(Array), unresolved: expect.any(Array) }) },
  {
    tool: 'report_source_issue',
    args: ['source=DE/GesetzeImInternet', 'source_id=bgb/823', 'issue_type=broken_text', 'description=The text of § 823 stops after Abs. 1.'],
    check: (out) => expect(out.report).toMatchObject({ source: 'DE/GesetzeImInternet', status: 'open' }),
  },
];

describe('MCP Inspector CLI over /mcp and /sse', () => {
  let platform: Platform;
  let url: string;
  let home: string;

  /** Runs the Inspector CLI; answers its exit code, stdout and stderr. */
  const inspector = (args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const env = { ...process.env, HOME: home, MCP_CATALOG_PATH: path.join(home, 'catalog.json'), MCP_CLIENT_CONFIG_PATH: path.join(home, 'client.json') };
      execFile(process.execPath, [INSPECTOR, '--cli', ...args], { env, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
        resolve({ code: error ? Number((error as { code?: unknown }).code ?? 1) : 0, stdout, stderr });
      });
    });

  /** An account with an API key: one per transport, so its 10 billable calls stay within the Free plan's 10 a minute. */
  const newKey = async (email: string) => {
    await call(`${url}/auth/register`, 'POST', { email, password: PASSWORD, accept_terms: true, acknowledge_privacy: true });
    const cookie = cookieFrom((await call(`${url}/auth/login`, 'POST', { email, password: PASSWORD })).headers, 'session')!;
    const created = await call(`${url}/v1/keys`, 'POST', { name: 'inspector' }, { cookie });
    expect(created.status).toBe(200);
    return created.body.key as string;
  };

  beforeAll(async () => {
    home = await mkdtemp(path.join(os.tmpdir(), 'mcp-inspector-home-'));
    const corpus = await writeCorpusSlice([DEFAULT_SLICES[0]!, { file: 'case_law/DE-BGH.jsonl.gz', lines: 10 }]);
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'mcp-inspector-e2e-'));
    // Each CLI call over SSE opens its own stream: two at a time, while the streams of the calls
    // that just ended may still be closing. An unverified account may hold one stream by default.
    const config = loadConfig({ DATA_DIR: dataDir, CORPUS_DIR: corpus.dir, PORT: '0', EMBEDDER: 'none', SSE_MAX_SESSIONS_UNVERIFIED: '5' });
    platform = await startPlatform(config, createLogger('silent'));
    url = platform.url!;
    await platform.ingestDone;
  }, 400_000);

  afterAll(async () => {
    await platform?.stop();
  });

  it.each(TRANSPORTS)('lists every tool over $transport ($path) with no schema portability problem under --strict, and calls each one', async ({ transport, path: endpoint }) => {
    const key = await newKey(`inspector-${transport}@example.org`);
    const common = [`${url}${endpoint}`, '--transport', transport, '--header', `Authorization: Bearer ${key}`, '--format', 'json'];

    const list = await inspector([...common, '--method', 'tools/list', '--strict']);
    expect([list.code, list.stderr.trim()]).toEqual([0, '']);
    const tools = (JSON.parse(list.stdout) as { result: { tools: { name: string }[] } }).result.tools;
    expect(tools.map((t) => t.name).sort()).toEqual(CALLS.map((c) => c.tool).sort());

    // two CLI processes at a time
    const results: { tool: string; code: number; stderr: string; result?: ToolResult }[] = [];
    const queue = [...CALLS];
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const args = next.args.flatMap((arg) => ['--tool-arg', arg]);
        const run = await inspector([...common, '--method', 'tools/call', '--tool-name', next.tool, ...args]);
        results.push({ tool: next.tool, code: run.code, stderr: run.stderr, result: run.code === 0 ? (JSON.parse(run.stdout) as { result: ToolResult }).result : undefined });
      }
    };
    await Promise.all([worker(), worker()]);

    for (const { tool, check } of CALLS) {
      const run = results.find((r) => r.tool === tool)!;
      // stderr is in the comparison so that a failing call says why
      expect([tool, run.code, run.result?.isError ?? false, run.code ? run.stderr : '']).toEqual([tool, 0, false, '']);
      const structured = run.result!.structuredContent!;
      // the text content is the same answer, for clients that read only text
      expect(JSON.parse(run.result!.content[0]!.text!)).toEqual(structured);
      check(structured);
    }
  }, 300_000);
});
