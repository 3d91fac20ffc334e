/**
 * `npm run bench:soak` (issue #33 item 11): a mixed workload against one real service process,
 * 32 clients for 3 minutes on the full corpus. Every client loops over a weighted mix of
 * operations through every door, each with one of several accounts' API keys:
 *   search     POST /v1/search (the evaluation questions, with their filters)
 *   documents  GET /v1/documents/{country}/{source_name}/{source_id} (documents seen in hits)
 *   resolve    POST /v1/resolve (references of the resolver's development set)
 *   usage      GET /v1/usage/me
 *   graphql    POST /graphql `search` + `usage` (through the gateway and two subgraphs)
 *   mcp        POST /mcp tools/call `search` (stateless Streamable HTTP)
 * It prints, beside the machine's calibration: throughput, p50/p95/p99 and statuses per
 * operation, every 5xx and transport error, and the service's RSS over time; then the issue's
 * targets: zero 5xx, RSS growth after the first minute < 10 %, search p99 ≤ 1 s.
 *
 *   npm run bench:soak                          # DATA_DIR=./data/bench (reused when indexed, else a full ingest)
 *   npm run bench:soak -- --slice --data-dir ./data/soak-slice --seconds 60    # the tests' slice (quick)
 *   npm run bench:soak -- --url http://127.0.0.1:8000 --pid 1234               # a running service
 *
 * Limits are off in the started service (RATE_LIMITS=off, as every benchmark): the soak measures
 * the service under load, not the plans' refusals; usage is still counted for every call.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { positiveNumberOrExit } from '../src/cli/cli-args.js';
import { writeCorpusSlice } from '../test/fixtures/corpus-slice.js';
import { fmt, percentile, printCalibration, runningService, sleep, startService, waitReady, type RunningService } from './lib.js';

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string', default: './data/bench' },
    slice: { type: 'boolean', default: false },
    clients: { type: 'string', default: '32' },
    seconds: { type: 'string', default: '180' },
    accounts: { type: 'string', default: '8' },
    url: { type: 'string' },
    pid: { type: 'string' },
  },
});
const clients = positiveNumberOrExit('clients', values.clients, { integer: true })!;
const seconds = positiveNumberOrExit('seconds', values.seconds)!;
const accountCount = positiveNumberOrExit('accounts', values.accounts, { integer: true })!;

type Operation = 'search' | 'documents' | 'resolve' | 'usage' | 'graphql' | 'mcp';
/** Weights of the mix (out of 100): mostly search, as the API's traffic is. */
const MIX: [Operation, number][] = [['search', 40], ['documents', 20], ['resolve', 15], ['usage', 5], ['graphql', 10], ['mcp', 10]];

interface Sample {
  op: Operation;
  ms: number;
  /** HTTP status, or 0 for a transport error. */
  status: number;
}

const readJsonl = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

async function main(): Promise<void> {
  printCalibration();
  const service = await serviceUnderTest();
  try {
    await soak(service);
  } finally {
    await service.stop();
  }
}

async function serviceUnderTest(): Promise<RunningService> {
  if (values.url) return runningService(values.url, Number(values.pid));
  const dataDir = path.resolve(values['data-dir']!);
  const corpusDir = path.join(dataDir, 'corpus');
  if (values.slice) await writeCorpusSlice(undefined, { dir: corpusDir });
  console.log(`soak: starting the service on DATA_DIR=${dataDir}`);
  const service = await startService({ DATA_DIR: dataDir, ...(values.slice ? { CORPUS_DIR: corpusDir } : {}) });
  let lastProgress = 0;
  const waited = await waitReady(service.url, 60 * 60_000, (body: any) => {
    if (Date.now() - lastProgress < 30_000 || !body?.ingest) return;
    lastProgress = Date.now();
    console.log(`  ingest ${body.ingest.phase}: ${body.ingest.documents_done}/${body.ingest.documents_total ?? '?'} docs`);
  });
  console.log(`soak: ready after ${fmt(waited)} s`);
  return service;
}

/** Registers `n` accounts and gives each an API key. */
async function apiKeys(url: string, n: number): Promise<string[]> {
  const json = { 'content-type': 'application/json' };
  const run = Date.now().toString(36);
  const keys: string[] = [];
  for (let i = 0; i < n; i++) {
    const email = `soak-${run}-${i}@example.org`;
    const password = `soak-password-${run}-${i}`;
    await fetch(`${url}/auth/register`, { method: 'POST', headers: json, body: JSON.stringify({ email, password, accept_terms: true, acknowledge_privacy: true }) });
    const login = await fetch(`${url}/auth/login`, { method: 'POST', headers: json, body: JSON.stringify({ email, password }) });
    const cookie = login.headers.getSetCookie()[0]?.split(';')[0];
    if (!cookie) throw new Error(`soak: login of ${email} gave no session (${login.status})`);
    const created = await fetch(`${url}/v1/keys`, { method: 'POST', headers: { ...json, cookie }, body: '{}' });
    keys.push(((await created.json()) as { key: string }).key);
  }
  return keys;
}

interface Workload {
  questions: { q: string; namespace?: string; country?: string }[];
  references: { reference: string; hint_country: string | null }[];
  documents: string[];
}

/** The questions and references of the development sets, and document paths taken from real hits. */
async function workload(url: string, key: string): Promise<Workload> {
  const questions = [...readJsonl('../shared/eval/retrieval-dev.jsonl'), ...readJsonl('../shared/eval/retrieval-dev-2.jsonl')].map((c) => ({
    q: c.query as string,
    namespace: c.namespace as string | undefined,
    country: c.country as string | undefined,
  }));
  const references = readJsonl('../shared/eval/resolve-dev.jsonl').map((c) => ({ reference: c.reference as string, hint_country: c.hint_country as string | null }));
  const documents = new Set<string>();
  for (const question of questions.slice(0, 40)) {
    const response = await post(url, '/v1/search', key, searchBody(question));
    const body = (await response.json()) as { hits?: { source: string; source_id: string }[] };
    for (const hit of body.hits ?? []) documents.add(`/v1/documents/${hit.source}/${encodeURIComponent(hit.source_id).replace(/%2F/g, '/')}`);
  }
  if (documents.size === 0) throw new Error('soak: the warm-up searches found no documents (is the index built?)');
  return { questions, references, documents: [...documents] };
}

const searchBody = (question: Workload['questions'][number]) => ({
  q: question.q,
  top_k: 10,
  ...(question.namespace ? { namespace: question.namespace } : {}),
  ...(question.country ? { country: [question.country] } : {}),
});

function post(url: string, route: string, key: string, body: unknown, extra: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, ...extra },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
}

/** The same question as GraphQL's SearchInput spells it (camelCase fields). */
const graphqlSearchInput = (question: Workload['questions'][number]) => {
  const { top_k: topK, ...rest } = searchBody(question);
  return { ...rest, topK };
};

const GRAPHQL_QUERY = 'query Soak($input: SearchInput!) { search(input: $input) { total_hits hits { id source } } usage { plan } }';

/** One request of operation `op`; resolves to its status once the body is read. */
async function request(op: Operation, url: string, key: string, work: Workload, i: number): Promise<number> {
  const pick = <T>(list: T[]) => list[i % list.length]!;
  let response: Response;
  switch (op) {
    case 'search':
      response = await post(url, '/v1/search', key, searchBody(pick(work.questions)));
      break;
    case 'documents':
      response = await fetch(`${url}${pick(work.documents)}`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(60_000) });
      break;
    case 'resolve': {
      const r = pick(work.references);
      response = await post(url, '/v1/resolve', key, { reference: r.reference, ...(r.hint_country ? { hint_country: r.hint_country } : {}) });
      break;
    }
    case 'usage':
      response = await fetch(`${url}/v1/usage/me`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(60_000) });
      break;
    case 'graphql':
      response = await post(url, '/graphql', key, { query: GRAPHQL_QUERY, variables: { input: graphqlSearchInput(pick(work.questions)) } });
      break;
    case 'mcp':
      response = await post(url, '/mcp', key, { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'search', arguments: searchBody(pick(work.questions)) } }, { accept: 'application/json, text/event-stream' });
      break;
  }
  const text = await response.text();
  // GraphQL answers 200 with errors; an internal error there counts as a 5xx.
  if (op === 'graphql' && /"code":"INTERNAL_SERVER_ERROR"/.test(text)) return 500;
  // An error in a GraphQL answer is a refused request whatever the HTTP status: 429 when every
  // error is a rate limit (`usage` has the same per-account read throttle as /v1/usage/me), else 400.
  if (op === 'graphql' && response.status === 200 && /"errors":\[/.test(text)) {
    const codes = ((JSON.parse(text) as { errors: { extensions?: { code?: string } }[] }).errors ?? []).map((e) => e.extensions?.code);
    return codes.every((code) => code === 'RATE_LIMITED') ? 429 : 400;
  }
  if (op === 'mcp' && /"isError":true/.test(text) && /internal/i.test(text)) return 500;
  return response.status;
}

function chooseOperation(): Operation {
  let roll = Math.random() * 100;
  for (const [op, weight] of MIX) if ((roll -= weight) < 0) return op;
  return 'search';
}

async function soak(service: RunningService): Promise<void> {
  const keys = await apiKeys(service.url, accountCount);
  const work = await workload(service.url, keys[0]!);
  console.log(`soak: ${clients} clients × ${seconds} s, ${keys.length} accounts, ${work.questions.length} questions, ${work.references.length} references, ${work.documents.length} documents`);
  const samples: Sample[] = [];
  const failures = new Map<string, number>();
  const rss: { second: number; rssMiB: number }[] = [];
  const started = Date.now();
  const deadline = started + seconds * 1000;
  const sampler = setInterval(() => rss.push({ second: (Date.now() - started) / 1000, rssMiB: service.memory().rssMiB }), 5000);
  let counter = 0;
  const client = async (c: number) => {
    while (Date.now() < deadline) {
      const op = chooseOperation();
      const i = counter++;
      const t = performance.now();
      let status: number;
      try {
        status = await request(op, service.url, keys[(c + i) % keys.length]!, work, i);
      } catch (error) {
        status = 0;
        const message = `${op}: ${(error as Error).message}`;
        failures.set(message, (failures.get(message) ?? 0) + 1);
      }
      samples.push({ op, ms: performance.now() - t, status });
    }
  };
  const progress = setInterval(() => console.log(`  ${fmt((Date.now() - started) / 1000, 0)} s: ${samples.length} requests, RSS ${fmt(service.memory().rssMiB, 0)} MiB`), 30_000);
  await Promise.all(Array.from({ length: clients }, (_, c) => client(c)));
  clearInterval(sampler);
  clearInterval(progress);
  report(samples, failures, rss, (Date.now() - started) / 1000);
}

function report(samples: Sample[], failures: Map<string, number>, rss: { second: number; rssMiB: number }[], elapsed: number): void {
  console.log(`\nsoak: ${samples.length} requests in ${fmt(elapsed)} s = ${fmt(samples.length / elapsed)} req/s`);
  console.log('operation   count   req/s    p50 ms   p95 ms   p99 ms   statuses');
  for (const [op] of MIX) {
    const mine = samples.filter((s) => s.op === op);
    const times = mine.map((s) => s.ms).sort((a, b) => a - b);
    const statuses = new Map<number, number>();
    for (const s of mine) statuses.set(s.status, (statuses.get(s.status) ?? 0) + 1);
    const statusText = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s || 'transport'}:${n}`).join(' ');
    console.log(`${op.padEnd(10)} ${String(mine.length).padStart(6)} ${fmt(mine.length / elapsed).padStart(7)} ${fmt(percentile(times, 50)).padStart(9)} ${fmt(percentile(times, 95)).padStart(8)} ${fmt(percentile(times, 99)).padStart(8)}   ${statusText}`);
  }
  for (const [message, n] of failures) console.log(`  transport error ×${n}: ${message}`);
  console.log(`RSS (MiB) every 15 s: ${rss.filter((_, i) => i % 3 === 0).map((r) => fmt(r.rssMiB, 0)).join(' ')}`);
  const serverErrors = samples.filter((s) => s.status >= 500 || s.status === 0).length;
  // Every answer is a 200, but the usage read throttle (429, REST and GraphQL): anything else means the
  // soak's requests are wrong (a GraphQL input spelled as it no longer is answered 400 × 1,625).
  const unexpected = samples.filter((s) => s.status !== 200 && !((s.op === 'usage' || s.op === 'graphql') && s.status === 429)).length;
  const afterFirstMinute = rss.filter((r) => r.second >= 60);
  const growth = afterFirstMinute.length >= 2 ? (Math.max(...afterFirstMinute.map((r) => r.rssMiB)) / afterFirstMinute[0]!.rssMiB - 1) * 100 : NaN;
  const searchTimes = samples.filter((s) => s.op === 'search').map((s) => s.ms).sort((a, b) => a - b);
  const searchP99 = percentile(searchTimes, 99);
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  console.log(`answers other than 200 (and the usage throttle's 429): ${unexpected} (0: ${verdict(unexpected === 0)})`);
  console.log(`targets: 5xx + transport errors ${serverErrors} (0: ${verdict(serverErrors === 0)}); RSS growth after the first minute ${fmt(growth)} % (< 10 %: ${verdict(growth < 10)}); search p99 ${fmt(searchP99)} ms (≤ 1000: ${verdict(searchP99 <= 1000)})`);
}

await main();
