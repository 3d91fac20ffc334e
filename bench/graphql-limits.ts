/**
 * `npm run bench:graphql-limits`: how long the largest GraphQL operations the bounds accept, and
 * the ones they refuse, hold the service's event loop (issue #31, item 1: the query planner runs
 * on the event loop, so an unbounded operation froze the whole process).
 *
 * Starts the service (`src/main.ts`, its own OS process, LOG_LEVEL=debug) on a small corpus
 * slice, with the bounds of the environment (GRAPHQL_MAX_*, the defaults unless set), and sends:
 *
 * - accepted: for each shape that stresses the planner or the validator, the largest operation
 *   of that shape the bounds accept (sized by the service's own rules, so the figures follow the
 *   configured bounds), anonymously and with an API key (then the resolvers run too);
 * - refused: the issue's 3,000- and 1,500-alias attacks, one over each bound, a 95 kB document,
 *   a body over the body bound.
 *
 * Event-loop delay is measured from outside: while each request is in flight, a second
 * keep-alive connection polls GET /health back to back; the slowest /health answer is how long
 * the loop was held (plus ~1 ms for /health itself, the idle figure printed first). Each run's
 * operation has a new name, so neither Apollo's document cache nor the gateway's plan cache
 * helps. The gateway logs each operation it plans (debug): the `planned` column counts them, and
 * must be 0 for every refused operation.
 *
 * Environment: BENCH_RUNS (default 5 measured runs per case, after one warm-up run).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { Agent, get } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { buildSchema, getNamedType, type GraphQLNamedType, isLeafType, isNonNullType, isObjectType, Kind, Lexer, parse, print, Source, specifiedRules, TokenKind, validate } from 'graphql';
import { loadConfig } from '../src/config.js';
import { operationLimitRules } from '../src/graphql/operation-limits.js';
import { writeCorpusSlice } from '../test/fixtures/corpus-slice.js';
import { fmt, percentile, printCalibration, startService, waitReady } from './lib.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PLANNED = 'graphql: query plan resolved';

printCalibration();
const limits = loadConfig(process.env).graphql.limits;
console.log(`bounds: ${Object.entries(limits).map(([k, v]) => `${k} ${v}`).join(', ')}`);
console.log(`database: ${process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'embedded PGlite (in the service process)'}`);

// ---------------------------------------------------------------------------------------------
// Operations
// ---------------------------------------------------------------------------------------------

const schema = buildSchema(readFileSync('graphql/supergraph.graphql', 'utf8'));

function tokenCount(query: string): number {
  const lexer = new Lexer(new Source(query));
  let n = 0;
  while (lexer.advance().kind !== TokenKind.EOF) n++;
  return n;
}

/** Whether the service accepts `query`: its bounds and graphql-js's own validation (whose overlapping-fields check has a work budget of its own). */
function accepted(query: string): boolean {
  if (tokenCount(query) > limits.maxTokens) return false;
  return validate(schema, parse(query), [...specifiedRules, ...operationLimitRules(limits)]).length === 0;
}

/** The largest n in [1, max] for which `make(n)` is accepted (acceptance shrinks as n grows). */
function largest(make: (n: number) => string, max = 5000): number {
  let lo = 0;
  let hi = max;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (accepted(make(mid))) lo = mid;
    else hi = mid - 1;
  }
  if (lo === 0) throw new Error(`no size of this shape is accepted: ${make(1).slice(0, 200)}`);
  return lo;
}

/** The largest n for which `make(n)` stays within the token bound, whatever other bound it breaks. */
function largestByTokens(make: (n: number) => string): number {
  let n = 1;
  while (tokenCount(make(n + 1)) <= limits.maxTokens) n++;
  return n;
}

const repeat = (n: number, make: (i: number) => string) => Array.from({ length: n }, (_, i) => make(i)).join(' ');
const salt = () => randomBytes(2).toString('hex');
let runs = 0;
/** A fresh operation name: no two runs share one (the planned column matches plans to runs by name). */
const runName = (prefix: string) => `${prefix}_${++runs}_${randomBytes(4).toString('hex')}`;

/** A selection of the signed-in account spanning the accounts, billing and teams subgraphs. */
const HEAVY_FRAGMENT =
  'fragment U on MeType { plan workspace_role legal_acceptance { accepted terms_version } user { id email name is_admin billing { plan billing_enabled subscription { id status quantity } credits { balance_usd } workspace { id name seat_limit } } workspace { id name seat_limit seats_used members { user_id role user { email } } invites { id email } } } }';
const CROSS = 'me { plan user { id billing { plan } workspace { name } } }';

interface Case {
  name: string;
  /** The operation of run `run`, named `name` (a new name per run defeats the caches). */
  query: (name: string) => string;
  /** The expected `extensions.code`, or null for an accepted operation. */
  refusedWith: string | null;
  /** Sends the operation as a raw body (the body-size case). */
  rawBody?: (name: string) => string;
  /** Variables sent with the operation. */
  variables?: Record<string, unknown>;
}

const aliasesOfHeavy = (n: number) => (name: string) => `query ${name} { ${repeat(n, (i) => `a${i}_${salt()}: me { ...U }`)} } ${HEAVY_FRAGMENT}`;
const aliasesOfCross = (n: number) => (name: string) => `query ${name} { ${repeat(n, (i) => `a${i}_${salt()}: ${CROSS}`)} }`;
const nestedInline = (n: number) => (name: string) => `query ${name} ${'{ ... on Query '.repeat(n)}{ ${CROSS} }${' }'.repeat(n)}`;
const sameField = (n: number) => (name: string) => `query ${name} { ${repeat(n, () => CROSS)} }`;
const sameAlias = (n: number) => (name: string) => `query ${name} { ${repeat(n, () => `a: ${CROSS}`)} }`;
/** One fragment spread n times in one selection (2 tokens a spread, the fragment's cost each time). */
const spreads = (n: number) => (name: string) => `query ${name} { me { ${repeat(n, () => '...U')} } } ${HEAVY_FRAGMENT}`;
const directives = (n: number) => (name: string) => `query ${name} { me { ${repeat(n, () => 'plan @include(if: true)')} } }`;
const typenames = (n: number) => (name: string) => `query ${name} { ${repeat(n, () => '__typename')} }`;
/** The root fields that need no argument, each with its scalar fields and those of its objects (two levels): n of them. */
function broadSelections(): string[] {
  const query = schema.getQueryType()!;
  const leaves = (type: GraphQLNamedType, depth: number): string => {
    if (!isObjectType(type)) return '';
    const fields = Object.values(type.getFields()).filter((f) => f.args.every((a) => !isNonNullType(a.type)));
    const parts = fields.flatMap((f) => {
      const inner = getNamedType(f.type);
      if (isLeafType(inner)) return [f.name];
      if (depth === 0) return [];
      const sub = leaves(inner, depth - 1);
      return sub ? [`${f.name} ${sub}`] : [];
    });
    return parts.length ? `{ ${parts.join(' ')} }` : '';
  };
  return Object.values(query.getFields())
    .filter((f) => f.args.every((a) => !isNonNullType(a.type)) && !f.name.startsWith('_'))
    .map((f) => `${f.name} ${leaves(getNamedType(f.type), 1)}`.trim());
}
const BROAD = broadSelections();
const broad = (n: number) => (name: string) => `query ${name} { ${BROAD.slice(0, n).join(' ')} }`;

const sized = (make: (n: number) => (name: string) => string) => largest((n) => make(n)('Sizing'));

/** The dashboard's search operation (its largest query), as the search page sends it. */
function dashboardSearch(): { query: (name: string) => string; tokens: number } {
  const operation = parse(readFileSync('src/dashboard/pages/search/search.graphql', 'utf8')).definitions.find(
    (d) => d.kind === Kind.OPERATION_DEFINITION && d.name?.value === 'Search',
  );
  if (!operation) throw new Error('src/dashboard/pages/search/search.graphql has no Search operation');
  const text = print(operation);
  return { tokens: tokenCount(text), query: (name) => text.replace(/^query Search/, `query ${name}`) };
}

const sizes = {
  aliasesHeavy: sized(aliasesOfHeavy),
  aliasesCross: sized(aliasesOfCross),
  depth: sized(nestedInline),
  sameField: sized(sameField),
  // only the tokens bound it: it is sent to be refused for its aliases after a whole validation
  sameAlias: largestByTokens((n) => sameAlias(n)('Sizing')),
  spreads: sized(spreads),
  broad: largest((n) => broad(n)('Sizing'), BROAD.length),
  directives: sized(directives),
  typenames: sized(typenames),
};
const dashboard = dashboardSearch();

const ACCEPTED: Case[] = [
  { name: `${sizes.aliasesHeavy} aliases × me { ...U } (3 subgraphs)`, query: aliasesOfHeavy(sizes.aliasesHeavy), refusedWith: null },
  { name: `${sizes.aliasesCross} aliases × me { user { billing, workspace } }`, query: aliasesOfCross(sizes.aliasesCross), refusedWith: null },
  { name: `depth: ${sizes.depth} nested inline fragments`, query: nestedInline(sizes.depth), refusedWith: null },
  { name: `tokens: ${sizes.sameField} × the same field`, query: sameField(sizes.sameField), refusedWith: null },
  { name: `cost: ${sizes.spreads} spreads of ...U`, query: spreads(sizes.spreads), refusedWith: null },
  { name: `breadth: ${sizes.broad} of ${BROAD.length} root fields, two levels`, query: broad(sizes.broad), refusedWith: null },
  { name: `directives: ${sizes.directives}`, query: directives(sizes.directives), refusedWith: null },
  { name: `tokens: ${sizes.typenames} × __typename`, query: typenames(sizes.typenames), refusedWith: null },
  { name: `dashboard: Search (${dashboard.tokens} tokens)`, query: dashboard.query, refusedWith: null, variables: { input: { q: 'contract', topK: 10 } } },
];

const bigBody = (name: string) => JSON.stringify({ query: `query ${name} { __typename } # ${'x'.repeat(limits.maxBodyBytes)}` });
const REFUSED: Case[] = [
  { name: 'issue: 3000 aliases × me { ...U }', query: aliasesOfHeavy(3000), refusedWith: 'GRAPHQL_TOO_MANY_TOKENS' },
  { name: 'issue: 1500 aliases × me { ...U }', query: aliasesOfHeavy(1500), refusedWith: 'GRAPHQL_TOO_MANY_TOKENS' },
  { name: `${limits.maxAliases + 1} aliases (one over)`, query: aliasesOfCross(limits.maxAliases + 1), refusedWith: 'GRAPHQL_TOO_MANY_ALIASES' },
  { name: `${sizes.sameAlias} × one alias (validated whole)`, query: sameAlias(sizes.sameAlias), refusedWith: 'GRAPHQL_TOO_MANY_ALIASES' },
  { name: `depth: ${sizes.depth + 1} nested (one over)`, query: nestedInline(sizes.depth + 1), refusedWith: 'GRAPHQL_TOO_DEEP' },
  { name: `cost: ${sizes.spreads + 1} spreads of ...U`, query: spreads(sizes.spreads + 1), refusedWith: 'GRAPHQL_TOO_COSTLY' },
  { name: `directives: ${limits.maxDirectives + 1} (one over)`, query: directives(limits.maxDirectives + 1), refusedWith: 'GRAPHQL_TOO_MANY_DIRECTIVES' },
  { name: `tokens: ${limits.maxTokens + 1} (one over)`, query: typenames(limits.maxTokens + 1), refusedWith: 'GRAPHQL_TOO_MANY_TOKENS' },
  { name: 'tokens: 95 kB of __typename', query: typenames(Math.floor((95 * 1024) / 11)), refusedWith: 'GRAPHQL_TOO_MANY_TOKENS' },
  { name: `body over ${limits.maxBodyBytes} bytes`, query: (name) => `query ${name} { __typename }`, rawBody: bigBody, refusedWith: 'GRAPHQL_REQUEST_TOO_LARGE' },
];

// ---------------------------------------------------------------------------------------------
// The service
// ---------------------------------------------------------------------------------------------

const corpus = await writeCorpusSlice([{ file: 'legislation/EU-EUR-Lex.jsonl.gz', lines: 50 }, { file: 'case_law/DE-BGH.jsonl.gz', lines: 20 }]);
const planned = new Map<string, number>();
const service = await startService(
  { DATA_DIR: await mkdtemp(path.join(os.tmpdir(), 'bench-graphql-limits-')), CORPUS_DIR: corpus.dir, EMBEDDER: 'none', LOG_LEVEL: 'debug' },
  (line) => {
    if (!line.includes(PLANNED)) return;
    const operation = (JSON.parse(line) as { operation?: string | null }).operation ?? '(anonymous)';
    planned.set(operation, (planned.get(operation) ?? 0) + 1);
  },
);
const healthAgent = new Agent({ keepAlive: true, maxSockets: 1 });

try {
  await waitReady(service.url, 300_000); // the start-up ingest of the slice done: nothing else runs meanwhile
  // an account with an API key: the accepted operations run once more with it (resolvers run)
  const email = `bench-${salt()}@example.org`;
  const password = `bench-${randomBytes(12).toString('hex')}`;
  const json = { 'content-type': 'application/json' };
  await fetch(`${service.url}/auth/register`, { method: 'POST', headers: json, body: JSON.stringify({ email, password, accept_terms: true, acknowledge_privacy: true }) });
  const login = await fetch(`${service.url}/auth/login`, { method: 'POST', headers: json, body: JSON.stringify({ email, password }) });
  const cookie = login.headers.getSetCookie().find((c) => c.startsWith('session='))!.split(';')[0]!;
  const key = ((await (await fetch(`${service.url}/v1/keys`, { method: 'POST', headers: { ...json, cookie }, body: '{"name":"bench"}' })).json()) as { key: string }).key;

  /** GET /health on its own keep-alive connection: milliseconds until it answered. */
  const health = () =>
    new Promise<number>((resolve, reject) => {
      const started = performance.now();
      get(`${service.url}/health`, { agent: healthAgent }, (res) => {
        res.resume();
        res.on('end', () => resolve(performance.now() - started));
      }).on('error', reject);
    });

  const idle: number[] = [];
  for (let i = 0; i < 50; i++) idle.push(await health());
  idle.sort((a, b) => a - b);
  console.log(`/health idle: p50 ${fmt(percentile(idle, 50))} ms, max ${fmt(idle.at(-1)!)} ms`);

  /** Processor time the service process has used so far (all its threads), in ms: /proc's ticks of 10 ms. */
  const serviceCpuMs = () => {
    const fields = readFileSync(`/proc/${service.child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime (fields 14 and 15 of stat(5))
  };

  /** The service's processor time per request over `RUNS` requests sent one after another without /health polling. */
  async function cpuPerRequest(c: Case, bearer?: string): Promise<number> {
    const before = serviceCpuMs();
    for (let i = 0; i < RUNS; i++) {
      const body = c.rawBody ? c.rawBody(runName('Cpu')) : JSON.stringify({ query: c.query(runName('Cpu')), variables: c.variables });
      await (await fetch(`${service.url}/graphql`, { method: 'POST', headers: { ...json, ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) }, body })).arrayBuffer();
    }
    return (serviceCpuMs() - before) / RUNS;
  }

  /** One request while /health is polled: its status, code, time, and the slowest /health meanwhile. */
  async function measure(c: Case, name: string, bearer?: string) {
    const body = c.rawBody ? c.rawBody(name) : JSON.stringify({ query: c.query(name), variables: c.variables });
    await health();
    let inFlight = true;
    let slowest = 0;
    const polling = (async () => {
      while (inFlight) slowest = Math.max(slowest, await health());
    })();
    const started = performance.now();
    const res = await fetch(`${service.url}/graphql`, { method: 'POST', headers: { ...json, ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) }, body });
    const answer = (await res.json()) as { errors?: { extensions?: { code?: string } }[] };
    const ms = performance.now() - started;
    inFlight = false;
    await polling;
    const codes = [...new Set((answer.errors ?? []).map((e) => e.extensions?.code ?? '?'))];
    return { status: res.status, codes, ms, slowest, bytes: body.length };
  }

  const rows: string[][] = [];
  const names: { label: string; names: string[]; refused: boolean }[] = [];
  async function run(c: Case, who: 'anonymous' | 'key') {
    await measure(c, runName('Warmup'), who === 'key' ? key : undefined);
    const results = [];
    const runNames: string[] = [];
    for (let i = 0; i < RUNS; i++) {
      const name = runName('Run');
      runNames.push(name);
      results.push(await measure(c, name, who === 'key' ? key : undefined));
    }
    const slowest = results.map((r) => r.slowest).sort((a, b) => a - b);
    const times = results.map((r) => r.ms).sort((a, b) => a - b);
    const cpu = await cpuPerRequest(c, who === 'key' ? key : undefined);
    const codes = [...new Set(results.flatMap((r) => r.codes))];
    // one size over a bound may cross another bound too (a deeper query also costs more): the expected code must be among them
    const unexpected = c.refusedWith ? !codes.includes(c.refusedWith) : codes.some((code) => code.startsWith('GRAPHQL_'));
    rows.push([
      c.name,
      who,
      String(results[0]!.bytes),
      String(tokenCount(c.query('X'))),
      `${[...new Set(results.map((r) => r.status))].join(',')} ${codes.join(',') || 'ok'}${unexpected ? ' (UNEXPECTED)' : ''}`,
      `${fmt(percentile(times, 50))} / ${fmt(times.at(-1)!)}`,
      `${fmt(percentile(slowest, 50))} / ${fmt(slowest.at(-1)!)}`,
      fmt(cpu, 0),
    ]);
    names.push({ label: `${c.name} (${who})`, names: runNames, refused: c.refusedWith !== null });
  }

  for (const c of ACCEPTED) {
    await run(c, 'anonymous');
    await run(c, 'key');
  }
  for (const c of REFUSED) await run(c, 'anonymous');

  // The log is complete once a last accepted operation's plan line has arrived (one pipe, in order).
  const sentinel = runName('Sentinel');
  await fetch(`${service.url}/graphql`, { method: 'POST', headers: json, body: JSON.stringify({ query: `query ${sentinel} { __typename }` }) });
  for (let waited = 0; !planned.has(sentinel) && waited < 30_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
  if (!planned.has(sentinel)) throw new Error('the gateway logged no "query plan resolved" line: is LOG_LEVEL=debug reaching it?');

  const header = ['operation', 'caller', 'bytes', 'tokens', 'status code', 'response p50 / max ms', 'loop held (slowest /health) p50 / max ms', 'service CPU ms', 'planned'];
  const table = rows.map((row, i) => [...row, `${names[i]!.names.filter((n) => planned.has(n)).length}/${RUNS}`]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i >= 2 && i !== 4 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ');
  console.log(
    `\n${RUNS} runs per row after one warm-up run, each under a new operation name; service CPU: the service process's processor time per request over ${RUNS} more runs without /health polling (/proc, 10 ms ticks)\n`,
  );
  console.log(line(header));
  console.log(line(header.map((_, i) => '-'.repeat(widths[i]!))));
  for (const row of table) console.log(line(row));

  const worst = (refused: boolean, pick: (row: string[]) => number) => fmt(Math.max(...rows.filter((_, i) => names[i]!.refused === refused).map(pick)));
  const heldP50 = (row: string[]) => Number(row[6]!.split(' / ')[0]);
  const heldMax = (row: string[]) => Number(row[6]!.split(' / ')[1]);
  const cpu = (row: string[]) => Number(row[7]);
  const refusedPlanned = names.filter((n) => n.refused).reduce((sum, n) => sum + n.names.filter((x) => planned.has(x)).length, 0);
  console.log(`\nlargest accepted operations: loop held p50 ≤ ${worst(false, heldP50)} ms (max ${worst(false, heldMax)} ms), service CPU ≤ ${worst(false, cpu)} ms a request (target ≤ ~100 ms)`);
  console.log(`refused operations: loop held p50 ≤ ${worst(true, heldP50)} ms (max ${worst(true, heldMax)} ms), service CPU ≤ ${worst(true, cpu)} ms a request; planned: ${refusedPlanned} (must be 0)`);
  printCalibration(); // again: the machine's speed may have changed while the benchmark ran
} finally {
  healthAgent.destroy();
  await service.stop();
}
