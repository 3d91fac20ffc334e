/**
 * Auth + limits overhead per billable request (`npm run bench:auth`): the latency an API key,
 * the plan limiter and usage counting add to a billable call, with both counter stores.
 *
 * Runs the platform in process on a small corpus slice in its own DATA_DIR
 * (data/accounts-bench, rebuilt when missing), signs up an administrator (counted, never
 * limited) with an API key, then measures sequentially over real HTTP:
 *   - open:      GET /v1/documents/... as an anonymous caller with ALLOW_ANONYMOUS=true and
 *                RATE_LIMITS=off (the guard still counts it, but nothing is looked up);
 *   - key:       the same request with `Authorization: Bearer sk-...` (key lookup + limiter + count);
 * and in process, without HTTP:
 *   - work:      the document read alone (engine.getDocuments),
 *   - guarded:   legalData.getDocument with the API key's context (authenticate + limiter + count + work).
 * Added latency = p50(key) - p50(open) over HTTP, and p50(guarded incl. authenticate) - p50(work).
 *
 * Then the OAuth authorization server (in-process counters only; the counter store plays no part):
 * an access token is obtained through the real flow (registration, consent page over HTTP,
 * PKCE code exchange), and measured sequentially:
 *   - mcp key / mcp token: POST /mcp `tools/list` (not billable: authentication + MCP only) with
 *     the API key, then with the access token (JWT verified locally + account lookup);
 *   - authenticate key / token: the authenticator alone, in process;
 *   - token endpoint: refresh_token grants, each with the refresh token the previous one rotated.
 *
 * Then extra credits (billing), with limits enforced, once with in-process counters and balances and once with Redis (REDIS_URL: both shared): two Developer Pro
 * accounts in their billing window, one within its period allowance and one past it with a
 * credit balance (each billable call draws the price of one request), measured in process
 * (authenticate + limiter + count [+ draw] + work), 500 calls each after 50 warm-up (under the
 * plan's 600 per minute), interleaved; added by drawing = p50(past allowance) - p50(within
 * allowance); then the draw alone. `BENCH_ONLY=credits` runs this part only.
 */
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { PLANS } from '../src/modules/usage/plans.js';
import { limitWindows } from '../src/modules/usage/usage.service.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { writeCorpusSlice } from '../test/fixtures/corpus-slice.js';
import { createHash, randomBytes } from 'node:crypto';
import { printCalibration, fmt, freePort, percentile } from './lib.js';

// The machine's speed beside every figure this benchmark prints (bench/calibrate.ts).
printCalibration();

const DATA_DIR = path.resolve(process.env.BENCH_DATA_DIR ?? 'data/accounts-bench');
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const N = Number(process.env.BENCH_REQUESTS ?? 2000);
const WARMUP = 200;

async function timeEach(n: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < WARMUP; i++) await fn(i);
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b);
}

/**
 * CPU time (user + system) of this process per call of `fn`, in microseconds, over `n` calls.
 * Client and service share the process here, so the difference between two variants of the same
 * request is the service's extra work; unlike latency it hardly moves when the machine is busy.
 */
async function cpuPerCall(n: number, fn: (i: number) => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < n; i++) await fn(i);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / n;
}

const OAUTH_N = Number(process.env.BENCH_REFRESHES ?? 300);
const REDIRECT_URI = 'http://127.0.0.1:9/callback';

/** An access token and refresh token for `email`, through the whole authorization-code flow over HTTP. */
async function authorize(url: string, email: string, password: string): Promise<{ clientId: string; access: string; refresh: string }> {
  const json = { 'content-type': 'application/json' };
  const client = (await (await fetch(`${url}/oauth/register`, { method: 'POST', headers: json, body: JSON.stringify({ client_name: 'bench', redirect_uris: [REDIRECT_URI] }) })).json()) as { client_id: string };
  const verifier = randomBytes(32).toString('base64url');
  const authorizeUrl = new URL(`${url}/oauth/authorize`);
  authorizeUrl.search = new URLSearchParams({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: REDIRECT_URI,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    resource: `${url}/mcp`,
    scope: 'mcp',
  }).toString();
  // the browser: cookies of each response sent back (paths are distinct, so one jar is enough here)
  const jar = new Map<string, string>();
  const visit = async (target: string, init: RequestInit = {}) => {
    const res = await fetch(target, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
    for (const set of res.headers.getSetCookie()) {
      const [pair] = set.split(';');
      jar.set(pair!.slice(0, pair!.indexOf('=')), pair!.slice(pair!.indexOf('=') + 1));
    }
    return res;
  };
  const consentUrl = (await visit(authorizeUrl.href)).headers.get('location')!;
  const page = await (await visit(consentUrl)).text();
  const mcpFlow = /name="mcp_flow" value="([^"]+)"/.exec(page)![1]!;
  const answer = (await (await visit(`${url}/auth/password-authorize`, { method: 'POST', headers: json, body: JSON.stringify({ email, password, mcp_flow: mcpFlow }) })).json()) as { redirect_url: string };
  const code = new URL((await visit(answer.redirect_url)).headers.get('location')!).searchParams.get('code')!;
  const tokens = (await (
    await fetch(`${url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT_URI, client_id: client.client_id }).toString(),
    })
  ).json()) as { access_token: string; refresh_token: string };
  return { clientId: client.client_id, access: tokens.access_token, refresh: tokens.refresh_token };
}

async function measureOAuth(platform: Platform, key: string, email: string, password: string): Promise<Record<string, number>> {
  const url = platform.url!;
  const { clientId, access, refresh } = await authorize(url, email, password);
  const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  const mcp = async (bearer: string) => {
    const res = await fetch(`${url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${bearer}` }, body: list });
    if (res.status !== 200) throw new Error(`POST /mcp: ${res.status}`);
    await res.arrayBuffer();
  };
  const authenticate = (bearer: string) =>
    platform.accounts.authenticator.authenticate({ authorization: `Bearer ${bearer}`, cookie: undefined, ip: '127.0.0.1', resource: `${url}/mcp` });
  const mcpKey = await timeEach(N, () => mcp(key));
  const mcpToken = await timeEach(N, () => mcp(access));
  const authKey = await timeEach(N, () => authenticate(key));
  const authToken = await timeEach(N, () => authenticate(access));
  let current = refresh;
  const refreshes: number[] = [];
  for (let i = 0; i < OAUTH_N; i++) {
    const t = performance.now();
    const res = await fetch(`${url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: current, client_id: clientId }).toString(),
    });
    const body = (await res.json()) as { refresh_token?: string };
    refreshes.push(performance.now() - t);
    if (res.status !== 200 || !body.refresh_token) throw new Error(`refresh: ${res.status} ${JSON.stringify(body)}`);
    current = body.refresh_token;
  }
  refreshes.sort((a, b) => a - b);
  return {
    mcp_key_p50: percentile(mcpKey, 50),
    mcp_key_p95: percentile(mcpKey, 95),
    mcp_token_p50: percentile(mcpToken, 50),
    mcp_token_p95: percentile(mcpToken, 95),
    auth_key_p50: percentile(authKey, 50),
    auth_key_p95: percentile(authKey, 95),
    auth_token_p50: percentile(authToken, 50),
    auth_token_p95: percentile(authToken, 95),
    refresh_p50: percentile(refreshes, 50),
    refresh_p95: percentile(refreshes, 95),
  };
}

/** The small corpus slice every measurement's service indexes (written once into DATA_DIR). */
async function benchCorpus(): Promise<string> {
  const corpusDir = path.join(DATA_DIR, 'corpus');
  if (!existsSync(corpusDir)) {
    await mkdir(DATA_DIR, { recursive: true });
    await writeCorpusSlice([{ file: 'legislation/EU-EUR-Lex.jsonl.gz', lines: 100 }], { dir: corpusDir });
  }
  return corpusDir;
}

async function measure(store: 'memory' | 'redis'): Promise<Record<string, number>> {
  const corpusDir = await benchCorpus();
  const dataDir = path.join(DATA_DIR, `service-${store}`);
  await rm(path.join(dataDir, 'pglite'), { recursive: true, force: true }); // fresh accounts each run
  const port = await freePort();
  const config = loadConfig({
    DATA_DIR: dataDir,
    CORPUS_DIR: corpusDir,
    PORT: String(port),
    // the authorization server's redirects and token audiences name the URL the bench calls
    BASE_URL: `http://127.0.0.1:${port}`,
    EMBEDDER: 'none',
    ALLOW_ANONYMOUS: 'true',
    RATE_LIMITS: 'off',
    ADMIN_EMAILS: 'bench@example.org',
    ...(store === 'redis' ? { REDIS_URL } : {}),
  });
  const platform: Platform = await startPlatform(config, createLogger('warn'));
  try {
    await platform.ingestDone;
    const url = platform.url!;
    const email = 'bench@example.org';
    const password = 'bench passphrase 1234';
    const json = { 'content-type': 'application/json' };
    await fetch(`${url}/auth/register`, { method: 'POST', headers: json, body: JSON.stringify({ email, password, accept_terms: true, acknowledge_privacy: true }) });
    const login = await fetch(`${url}/auth/login`, { method: 'POST', headers: json, body: JSON.stringify({ email, password }) });
    const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
    const key = ((await (await fetch(`${url}/v1/keys`, { method: 'POST', headers: { ...json, cookie }, body: '{}' })).json()) as { key: string }).key;

    const docs = (await (await fetch(`${url}/v1/search`, { method: 'POST', headers: { ...json, authorization: `Bearer ${key}` }, body: JSON.stringify({ q: 'regulation', namespace: 'legislation', top_k: 1 }) })).json()) as {
      hits: { source: string; source_id: string; id: string }[];
    };
    const doc = docs.hits[0]!;
    const route = `${url}/v1/documents/${doc.source}/${doc.source_id}`;
    const get = async (headers: Record<string, string>) => {
      const res = await fetch(route, { headers });
      if (res.status !== 200) throw new Error(`GET ${route}: ${res.status}`);
      await res.arrayBuffer();
    };

    const open = await timeEach(N, () => get({}));
    const keyed = await timeEach(N, () => get({ authorization: `Bearer ${key}` }));
    const openCpu = await cpuPerCall(N, () => get({}));
    const keyedCpu = await cpuPerCall(N, () => get({ authorization: `Bearer ${key}` }));
    const work = await timeEach(N, () => platform.engine.getDocuments([doc.id]));
    const guarded = await timeEach(N, async () => {
      const caller = await platform.accounts.authenticator.authenticate({ authorization: `Bearer ${key}`, cookie: undefined, ip: '127.0.0.1' });
      await platform.legalData.getDocument(platform.contexts.forCaller(caller), doc.source, doc.source_id);
    });
    await platform.accounts.usage.flush();
    const oauth = store === 'memory' ? await measureOAuth(platform, key, email, password) : {};
    return {
      ...oauth,
      open_p50: percentile(open, 50),
      open_cpu_us: openCpu,
      key_cpu_us: keyedCpu,
      key_p50: percentile(keyed, 50),
      key_p95: percentile(keyed, 95),
      work_p50: percentile(work, 50),
      guarded_p50: percentile(guarded, 50),
      guarded_p95: percentile(guarded, 95),
    };
  } finally {
    await platform.stop();
  }
}

/**
 * The draw alone, 5000 times, sorted (in-memory check-and-decrement; the ledger write is batched
 * off the request path).
 */
async function timeDraws(platform: Platform, userId: string): Promise<number[]> {
  const draws: number[] = [];
  for (let i = 0; i < 5000; i++) {
    const t = performance.now();
    await platform.billing.credits.meter.draw(userId, 1);
    draws.push(performance.now() - t);
  }
  return draws.sort((x, y) => x - y);
}

/** The price of drawing credits: the same billable call within the period allowance and past it (credits drawn). */
async function measureCredits(store: 'memory' | 'redis'): Promise<Record<string, number>> {
  const corpusDir = await benchCorpus();
  const dataDir = path.join(DATA_DIR, 'service-credits');
  await rm(path.join(dataDir, 'pglite'), { recursive: true, force: true });
  const config = loadConfig({
    DATA_DIR: dataDir,
    CORPUS_DIR: corpusDir,
    PORT: '0',
    EMBEDDER: 'none',
    STRIPE_SECRET_KEY: 'sk_test_bench',
    STRIPE_API_BASE: 'http://127.0.0.1:9',
    // with Redis, the counters and the spendable credit balance are the shared ones
    ...(store === 'redis' ? { REDIS_URL } : {}),
  });
  const platform: Platform = await startPlatform(config, createLogger('warn'));
  try {
    await platform.ingestDone;
    const url = platform.url!;
    const json = { 'content-type': 'application/json' };
    const sql = (query: string, params: unknown[]) => platform.orm.em.fork().getConnection().execute(query, params, 'run');
    const keyOf = async (email: string) => {
      const password = 'bench passphrase 1234';
      const reg = (await (await fetch(`${url}/auth/register`, { method: 'POST', headers: json, body: JSON.stringify({ email, password, accept_terms: true, acknowledge_privacy: true }) })).json()) as { id: string };
      const login = await fetch(`${url}/auth/login`, { method: 'POST', headers: json, body: JSON.stringify({ email, password }) });
      const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
      const key = ((await (await fetch(`${url}/v1/keys`, { method: 'POST', headers: { ...json, cookie }, body: '{}' })).json()) as { key: string }).key;
      // a paid plan in its billing window, as a subscription webhook leaves it
      await sql(`update app_user set plan = 'developer_pro', billing_period_start = ?, billing_period_end = ? where id = ?`, [new Date(Date.now() - 86400_000), new Date(Date.now() + 29 * 86400_000), reg.id]);
      return { id: reg.id, key };
    };
    const within = await keyOf('within@example.org');
    const past = await keyOf('past@example.org');
    // the whole period allowance used an hour ago, and credits for every measured call
    await sql(
      `insert into usage_event (user_id, api_key_id, client_ip, endpoint, status, created_at) select ?::uuid, null, null, 'documents', 200, ?::timestamptz from generate_series(1, 100000)`,
      [past.id, new Date(Date.now() - 3600_000)],
    );
    if (store === 'redis') {
      // Redis counters are not rebuilt from usage rows: use the allowance up in the shared counters too
      const caller = await platform.accounts.authenticator.authenticate({ authorization: `Bearer ${past.key}`, cookie: undefined, ip: '127.0.0.1' });
      const usedAt = Date.now() - 3600_000;
      await platform.accounts.counters.consume(`user:${past.id}`, limitWindows(PLANS.developer_pro, caller, usedAt), { now: usedAt, enforce: false, cost: 100_000 });
    }
    await sql(`insert into credit_ledger (id, user_id, kind, amount_micro_usd, reference, note, created_at) values (gen_random_uuid(), ?, 'grant', ?, null, 'bench', ?)`, [past.id, 100 * 1_000_000, new Date()]);
    const docs = (await (await fetch(`${url}/v1/search`, { method: 'POST', headers: { ...json, authorization: `Bearer ${within.key}` }, body: JSON.stringify({ q: 'regulation', namespace: 'legislation', top_k: 1 }) })).json()) as {
      hits: { source: string; source_id: string }[];
    };
    const doc = docs.hits[0]!;
    const guarded = async (key: string) => {
      const t = performance.now();
      const caller = await platform.accounts.authenticator.authenticate({ authorization: `Bearer ${key}`, cookie: undefined, ip: '127.0.0.1' });
      await platform.legalData.getDocument(platform.contexts.forCaller(caller), doc.source, doc.source_id);
      return performance.now() - t;
    };
    // interleaved, so the machine's load weighs on both variants alike
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < 550; i++) {
      const ta = await guarded(within.key);
      const tb = await guarded(past.key);
      if (i >= 50) a.push(ta), b.push(tb);
    }
    a.sort((x, y) => x - y);
    b.sort((x, y) => x - y);
    const draws = await timeDraws(platform, past.id);
    const balance = await platform.billing.credits.meter.balance(past.id);
    // every measured call past the allowance must have drawn one request's price
    const drawnByCalls = 100 * 1_000_000 - balance - draws.length;
    if (drawnByCalls < 550 * Math.round(platform.billing.credits.extraRequestPriceUsd * 1_000_000)) throw new Error('the calls past the allowance did not all draw credits: the measurement is void');
    return { draw_p50: percentile(draws, 50), draw_p95: percentile(draws, 95), within_p50: percentile(a, 50), within_p95: percentile(a, 95), past_p50: percentile(b, 50), past_p95: percentile(b, 95), drawn_usd: 100 - balance / 1_000_000 };
  } finally {
    await platform.stop();
  }
}

const ONLY_CREDITS = process.env.BENCH_ONLY === 'credits';
if (!ONLY_CREDITS) console.log(`auth-overhead: ${N} sequential requests per variant after ${WARMUP} warm-up, DATA_DIR ${DATA_DIR}`);
for (const store of ONLY_CREDITS ? [] : (['memory', 'redis'] as const)) {
  const r = await measure(store);
  console.log(
    `  ${store.padEnd(6)} HTTP: open p50 ${fmt(r.open_p50!, 2)} ms, API key p50 ${fmt(r.key_p50!, 2)} ms (p95 ${fmt(r.key_p95!, 2)}) -> added p50 ${fmt(r.key_p50! - r.open_p50!, 2)} ms`,
  );
  console.log(`  ${store.padEnd(6)} HTTP CPU per call (client + service, one process): open ${fmt(r.open_cpu_us!, 0)} µs, API key ${fmt(r.key_cpu_us!, 0)} µs -> added ${fmt(r.key_cpu_us! - r.open_cpu_us!, 0)} µs`);
  console.log(
    `  ${store.padEnd(6)} in process: work p50 ${fmt(r.work_p50!, 3)} ms, authenticate + limiter + count + work p50 ${fmt(r.guarded_p50!, 3)} ms (p95 ${fmt(r.guarded_p95!, 3)}) -> added p50 ${fmt(r.guarded_p50! - r.work_p50!, 3)} ms`,
  );
  if (r.mcp_token_p50 !== undefined) {
    console.log(
      `  oauth  HTTP POST /mcp tools/list: API key p50 ${fmt(r.mcp_key_p50!, 2)} ms (p95 ${fmt(r.mcp_key_p95!, 2)}), access token p50 ${fmt(r.mcp_token_p50!, 2)} ms (p95 ${fmt(r.mcp_token_p95!, 2)}) -> token - key p50 ${fmt(r.mcp_token_p50! - r.mcp_key_p50!, 2)} ms`,
    );
    console.log(
      `  oauth  in process authenticate: API key p50 ${fmt(r.auth_key_p50!, 3)} ms (p95 ${fmt(r.auth_key_p95!, 3)}), access token p50 ${fmt(r.auth_token_p50!, 3)} ms (p95 ${fmt(r.auth_token_p95!, 3)})`,
    );
    console.log(`  oauth  token endpoint (refresh_token grant with rotation, ${OAUTH_N} sequential): p50 ${fmt(r.refresh_p50!, 2)} ms, p95 ${fmt(r.refresh_p95!, 2)} ms`);
  }
}
for (const store of ['memory', 'redis'] as const) {
  const credits = await measureCredits(store);
  console.log(
  `  credits ${store.padEnd(6)}: within allowance p50 ${fmt(credits.within_p50!, 3)} ms (p95 ${fmt(credits.within_p95!, 3)}), past allowance drawing credits p50 ${fmt(credits.past_p50!, 3)} ms (p95 ${fmt(credits.past_p95!, 3)}) -> drawing adds p50 ${fmt(credits.past_p50! - credits.within_p50!, 3)} ms (${fmt(credits.drawn_usd!, 3)} USD drawn); the draw alone p50 ${fmt(credits.draw_p50!, 4)} ms (p95 ${fmt(credits.draw_p95!, 4)})`,
  );
}
process.exit(0);
