/**
 * The only reader of `process.env`. Every setting is documented in its schema below, from which
 * docs/configuration.md is generated; an invalid value stops the boot with a readable list of
 * problems.
 */
// size: the environment schema is a declarative table (~210 lines, one documented entry per variable, the source of docs/configuration.md) and the Config interfaces are its typed mirror; loadConfig maps one onto the other in named steps. Kept in one file so a new setting is added in one place
import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const DEFAULT_CORPUS = path.resolve('../shared/corpus');
/** The built dashboard (`npm run build:dashboard`), next to the sources whatever the working directory. */
const DEFAULT_DASHBOARD_DIR = fileURLToPath(new URL('../dist/dashboard', import.meta.url));

/** One year: the Strict-Transport-Security max-age browsers' preload lists expect at least. */
export const DEFAULT_HSTS_MAX_AGE_SECONDS = 31_536_000;

/**
 * Default bounds on a GraphQL operation (GRAPHQL_MAX_*): the largest operation they accept keeps
 * the event loop under ~100 ms (`npm run bench:graphql-limits`), every dashboard operation stays
 * within half of each (src/graphql/operation-limits.test.ts). The reasons for each value are in
 * docs/security.md, "GraphQL operations".
 */
export const GRAPHQL_LIMIT_DEFAULTS: GraphqlOperationLimits = {
  maxBodyBytes: 100 * 1024,
  maxTokens: 500,
  maxAliases: 5,
  maxDepth: 12,
  maxDirectives: 10,
  maxCost: 1000,
};

/** Automatic persisted queries (src/graphql/persisted-queries.ts): 16 MiB of query text, a day each. */
export const PERSISTED_QUERY_DEFAULTS: PersistedQuerySettings = { maxBytes: 16 * 1024 * 1024, ttlSeconds: 24 * 60 * 60 };

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'])
  .transform((v) => ['true', '1', 'yes', 'on'].includes(v));

/**
 * Every variable the service reads, each with its meaning: `npm run docs:config` renders this
 * schema into docs/configuration.md (src/config-docs.ts), and a test fails when they differ.
 * `.describe()` carries the meaning; `.meta({ unset })` says what an unset variable without a
 * schema default means. Keep one key per line: test/docker-compose.test.ts reads the names here.
 */
export const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8000).describe('HTTP port'),
  BASE_URL: z.url().optional().meta({
    unset: '`http://localhost:$PORT`',
    description:
      'public URL of the service (links, OAuth metadata); the issuer of the OAuth authorization server: every URL of its metadata, redirects and cookie paths, and the `aud` of its access tokens, derive from it',
  }),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL (leave unset for embedded PGlite)')
    .optional()
    .describe('`postgres://…` for PostgreSQL; unset = embedded PGlite (PostgreSQL in WASM) under `DATA_DIR/pglite`'),
  DATABASE_STATEMENT_TIMEOUT_MS: z
    .coerce.number().int().min(100).max(3_600_000).default(10_000)
    .describe('longest wait for one PostgreSQL query (the server cancels it, and the client gives up on a server that does not answer at all); then 503 with Retry-After ([reliability.md](reliability.md#faults)); PGlite: not applied (it runs inside the process)'),
  DATABASE_ACQUIRE_TIMEOUT_MS: z
    .coerce.number().int().min(100).max(600_000).default(5_000)
    .describe('longest wait for a PostgreSQL connection from the pool (all busy, or the server does not accept); then 503 with Retry-After; PGlite: not applied'),
  DATA_DIR: z.string().min(1).default('./data').describe('index, embedded database and models (git-ignored)'),
  CORPUS_DIR: z.string().min(1).optional().meta({
    unset: '`../shared/corpus` when it exists',
    description: 'corpus folder in the format of `shared/corpus/FORMAT.md`',
  }),
  SEARCH_ENGINE: z
    .enum(['embedded', 'elasticsearch'])
    .default('embedded')
    .describe('`embedded` = LanceDB on disk in `DATA_DIR/index`; `elasticsearch` = documents, keyword leg and filters in Elasticsearch ([search.md, "Engines"](search.md#engines))'),
  // scale engines (docs/search.md "Engines")
  VECTOR_ENGINE: z
    .enum(['embedded', 'elasticsearch', 'pinecone'])
    .optional()
    .meta({ unset: 'as `SEARCH_ENGINE` (`pinecone` when `PINECONE_INDEX` or `PINECONE_HOST` is set)', description: 'where vectors live: `embedded`, `elasticsearch` (dense_vector kNN) or `pinecone`' }),
  ELASTICSEARCH_URL: z.url().optional().describe('the Elasticsearch cluster; required with `SEARCH_ENGINE=elasticsearch`'),
  ELASTICSEARCH_API_KEY: z.string().min(1).optional().describe('Elasticsearch API key, sent as `Authorization: ApiKey` (wins over username and password; never logged)'),
  ELASTICSEARCH_USERNAME: z.string().min(1).optional().describe('Elasticsearch user for basic authentication (with `ELASTICSEARCH_PASSWORD`)'),
  ELASTICSEARCH_PASSWORD: z.string().min(1).optional().describe('password of `ELASTICSEARCH_USERNAME` (never logged)'),
  ELASTICSEARCH_INDEX_PREFIX: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_.-]*$/, 'must be lowercase letters, digits, "_", "-" or "." (an Elasticsearch index name prefix)')
    .max(100)
    .default('legal-')
    .describe('prefix of the Elasticsearch aliases and indexes (`legal-` → `legal-documents`, `legal-chunks`, `legal-meta`)'),
  // shards and replicas of the indexes a rebuild or a first start creates (docs/SCALING.md)
  ELASTICSEARCH_SHARDS: z.coerce.number().int().min(1).max(1024).default(1).describe('primary shards of the indexes the service creates (first start, `--rebuild`); existing indexes keep theirs ([SCALING.md](SCALING.md))'),
  ELASTICSEARCH_REPLICAS: z.coerce.number().int().min(0).max(16).default(0).describe('replicas of the indexes the service creates; existing indexes keep theirs'),
  EMBEDDER: z
    .string()
    .regex(/^(none|auto|static:.+|onnx:.+|hosted:.+)$/, 'must be "auto", "none", "static:<model directory>", "onnx:<model directory or Hugging Face id>" or "hosted:<Pinecone model>"')
    .default('auto')
    .describe(
      '`auto` = the domain model trained from the corpus into `DATA_DIR/models/domain-static` (trained in the background at the first start, see [search.md](search.md)); `static:<dir>` = a model2vec-format model (tokenizer.json + model.safetensors + config.json); `onnx:<dir or Hugging Face id>` = a sentence-transformers ONNX export (tokenizer.json + onnx/model*.onnx) run with @huggingface/transformers; `hosted:<model>` = Pinecone Inference embeddings (e.g. `hosted:multilingual-e5-large`); `none` = no vectors, keyword results for every alpha (a start logs one line saying so)',
    ),
  PINECONE_API_KEY: z.string().min(1).optional().describe('API key for `EMBEDDER=hosted:…` and for the Pinecone vector leg (`PINECONE_INDEX` / `PINECONE_HOST`; any value for a local index)'),
  PINECONE_CONTROLLER_HOST: z.url().optional().meta({ unset: '`https://api.pinecone.io`', description: 'base URL of the Pinecone API for `EMBEDDER=hosted:…` (a proxy, or a local test server)' }),
  // the Pinecone vector leg (docs/SCALING.md; src/engines/pinecone)
  PINECONE_INDEX: z
    .string()
    .regex(/^[a-z0-9-]{1,45}$/, 'must be a Pinecone index name (lower-case letters, digits and hyphens)')
    .optional()
    .describe(
      "keep the passages' vectors in this Pinecone index (the vector leg then queries it; everything else stays with the search engine), its host looked up through the control plane; `PINECONE_API_KEY` required ([SCALING.md](SCALING.md))",
    ),
  PINECONE_HOST: z.url().optional().describe("the same by the index's data-plane URL (a local `pinecone-index` container, a proxy); `PINECONE_API_KEY` required"),
  PINECONE_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000).describe('timeout of one Pinecone data-plane request'),
  VECTOR_TIMEOUT_MS: z
    .coerce.number().int().min(0).max(60_000).default(2000)
    .describe("wall-time budget of a search's vector leg (query embedding + vector search; `0` = none): when it fails or runs out, the search answers from the keyword leg with `degraded: [\"vector\"]` and a warning in the log"),
  SEARCH_FEEDBACK_PASSAGES: z
    .coerce.number().int().min(0).max(20).default(3)
    .describe("relevance feedback of hybrid search: the keyword leg's best passages the vector leg's query moves towards (`0` = none; see [search.md](search.md))"),
  SEARCH_VECTOR_MEMORY: booleanFlag
    .default(true)
    .describe("keep the embedded engine's indexed vectors in memory as int8 (~120 MB for the full corpus, ids included): the vector leg and relevance feedback score candidates there instead of rereading them, a fifth less processor per search on the full corpus ([search.md](search.md)); `false` reads them from the index",
    ),
  SEARCH_AUTHORITY_WEIGHT: z
    .coerce.number().min(0).max(1).default(0.1)
    .describe("citation authority prior of search: the boost added to the score of a provision cited by 50 or more of the corpus's decisions and guidance documents (less for fewer, logarithmically; `0` = none; see [search.md](search.md))"),
  CITATOR_LINK_LEGISLATION: booleanFlag
    .default(true)
    .describe("link legislation's articles too in the citation graph (an article citing articles: `des § 286` in § 280 BGB; see [citator.md](citator.md#legislation-citing-legislation)); on by default: the whole graph, decisions and legislation, built in 145 s on the full corpus (2 cores at load 7), within the first start's 3-minute budget; `false` links decisions and guidance only"),
  LOG_LEVEL: z
    .enum(['debug', 'info', 'warn', 'error', 'silent'])
    .default('info')
    .describe("`debug`, `info`, `warn`, `error`, `silent`; the log is pino's JSON, one object per line on stderr, with authorization headers, cookies, tokens, secrets, keys and passwords in structured fields replaced by `[REDACTED]` (`src/logger.ts`)"),
  INGEST_ON_START: booleanFlag.default(true).describe('index `CORPUS_DIR` in the background at start'),
  RESOLVE_TIMEOUT_MS: z.coerce.number().int().min(0).max(60_000).default(1500).describe('wall-time budget of one `POST /v1/resolve`; on overrun the answer is 200 with `match_type: "timeout"`'),
  ENGINE_CALLS_PER_REQUEST: z.coerce
    .number()
    .int()
    .min(1)
    .max(64)
    .default(4)
    .describe(
      'search-engine reads one request may have running at once (the two legs of a search, the title searches of a resolve, every alias of a GraphQL operation share them); the others wait, and are dropped when the request is abandoned (its client went away, its budget ran out): one request cannot queue hundreds of searches ahead of everyone else (see [reliability.md](reliability.md#abandoned-work))',
    ),
  SEARCH_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(0)
    .max(1024)
    .default(0)
    .describe(
      "requests whose searches run at once in this process (REST, GraphQL and MCP alike; every search of one request counts once); the others wait their turn in arrival order, and leave the queue when abandoned. `0` = twice the cores the process may use (`os.availableParallelism()`). At 32 clients (the soak) documents and resolve answer 3–5 × sooner and the search p99 fell from 1.6 to 1.46 s, throughput unchanged (see [search.md](search.md#searches-in-arrival-order))",
    ),
  TRUST_PROXY: z
    .string()
    .refine(isTrustProxyValue, 'must be true, false, a hop count, or comma-separated addresses, CIDR ranges and the names loopback, linklocal, uniquelocal')
    .default('loopback')
    .describe(
      "which proxies in front of the service are believed about the client (express's `trust proxy`): `true` (every hop: only behind a proxy that overwrites `X-Forwarded-For`), `false` (none), a hop count (`1`), or comma-separated addresses, CIDR ranges and the names `loopback`, `linklocal`, `uniquelocal` (`loopback, 10.0.0.0/8`). The client IP it yields keys the per-IP sign-in throttle, the Anonymous plan and the client-registration budget: behind any proxy not listed here every client shares the proxy's IP. Applied to every express app in one place (`src/http/trust-proxy.ts`). **With the default `loopback`, any process on the same host can claim any client address through `X-Forwarded-For`**, which makes every per-IP limit bypassable: a same-host sidecar or proxy must overwrite the header (never append; `deploy/nginx.conf` shows how), and a service that nothing proxies should run with `false`. Trusted proxies are also exempt from `HTTP_MAX_CONNECTIONS_PER_IP`",
    ),
  MCP_ALLOWED_ORIGINS: z
    .string()
    .refine((v) => parseAllowedOrigins(v) !== null, 'must be * or comma-separated origins such as https://app.example (scheme, host and port only: no path)')
    .optional()
    .meta({
      unset: "only `BASE_URL`'s own origin",
      description:
        "browser pages that may call the MCP endpoints (`/mcp`, `/sse`, `/sse/messages`): comma-separated origins (`https://app.example, http://localhost:6274`), or `*` for any. A request whose `Origin` is neither `BASE_URL`'s nor listed is refused 403 (the MCP transport's Origin check), and CORS answers only these origins; requests without `Origin` (SDKs, CLIs, servers) are not affected. The REST API, GraphQL and the OAuth endpoints take API keys and tokens from any origin ([rest-api.md](rest-api.md#browser-apps))",
    }),
  DASHBOARD_DIR: z.string().min(1).optional().meta({ unset: '`dist/dashboard` of the checkout', description: 'the built web dashboard served at `/dashboard` (see [dashboard.md](dashboard.md))' }),
  SSE_MAX_SESSIONS: z.coerce.number().int().min(1).max(100_000).default(500).describe('open MCP SSE streams (`GET /sse`) in this process; past any SSE cap `GET /sse` answers 429 with `Retry-After: 30`'),
  SSE_MAX_SESSIONS_PER_ACCOUNT: z.coerce.number().int().min(1).max(10_000).default(5).describe('open MCP SSE streams per account'),
  // who may hold the SSE streams, and for how long (docs/security.md, "Connections and streams")
  SSE_MAX_SESSIONS_PER_IP: z.coerce.number().int().min(1).max(100_000).default(20).describe('open SSE streams per client address (`req.ip`, the client a trusted proxy names; an IPv6 client by its /64), whatever the accounts'),
  SSE_MAX_SESSIONS_UNVERIFIED: z.coerce.number().int().min(0).max(10_000).default(1).describe('open SSE streams of an account whose e-mail is not verified (at most the per-account cap; `0` = none, `/mcp` still works)'),
  SSE_IDLE_TIMEOUT_SECONDS: z
    .coerce.number().int().min(1).max(86_400).default(300)
    .describe('an SSE stream on which the client posted no message for this long is closed and its slot freed (server-sent events do not count; an MCP `ping` from the client does)'),
  // the HTTP server's sockets: timeouts and caps against slow and crowding clients
  HTTP_HEADERS_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(10).describe("time to receive a request's headers; past it 408 and the socket closes (at most `HTTP_REQUEST_TIMEOUT_SECONDS`)"),
  HTTP_REQUEST_TIMEOUT_SECONDS: z
    .coerce.number().int().min(1).max(3600).default(30)
    .describe('time to receive a whole request, headers and body (a slow body is closed with 408); the response is not bounded by it, so SSE streams live on'),
  HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(5).describe("an idle kept-alive connection is closed after this long (keep a proxy's upstream keep-alive below it)"),
  HTTP_MAX_CONNECTIONS_PER_IP: z
    .coerce.number().int().min(1).max(1_000_000).default(64)
    .describe("open sockets per peer address (an IPv6 peer by its /64); the excess is closed at once. A trusted proxy's address (`TRUST_PROXY`) is exempt: the proxy must limit per client (`deploy/nginx.conf`)"),
  HTTP_MAX_CONNECTIONS: z
    .coerce.number().int().min(1).max(1_000_000).default(4096)
    .describe('open sockets in this process, the excess closed at once; keep it below the file-descriptor limit (`ulimit -n`) minus what the database, Redis and the search engine need'),
  // how long a shutdown waits for the requests in flight (docs/reliability.md, "Shutdown")
  SHUTDOWN_DRAIN_SECONDS: z
    .coerce.number().int().min(0).max(3600).default(10)
    .describe('on SIGTERM/SIGINT, how long the service lets the requests it had accepted finish before it closes their connections (`0` = at once); see [reliability.md](reliability.md#shutdown)'),
  SUBGRAPH_URLS: z
    .string()
    .regex(/^([a-z-]+=https?:\/\/\S+)(,[a-z-]+=https?:\/\/\S+)*$/, 'must be name=url pairs separated by commas')
    .optional()
    .describe('`name=url,…`: serve these GraphQL subgraphs from remote URLs instead of in-process'),
  // bounds on a GraphQL operation, checked before it is planned (docs/security.md, "GraphQL operations")
  GRAPHQL_INTROSPECTION: booleanFlag.optional().meta({
    unset: '`true`, `false` with `NODE_ENV=production`',
    description: 'GraphQL introspection, and with it the field suggestions of error messages ("Did you mean …"): both on or both off (see [security.md](security.md#graphql-operations))',
  }),
  GRAPHQL_VENDOR_TELEMETRY: booleanFlag
    .default(false)
    .describe("the Apollo gateway library's own telemetry (an OpenTelemetry exporter to Apollo that also probes cloud metadata addresses such as 169.254.169.254); off by default, so the service contacts no third party by itself (`true` = let the library decide)"),
  GRAPHQL_MAX_BODY_BYTES: z
    .coerce.number().int().min(1024).max(10 * 1024 * 1024).default(GRAPHQL_LIMIT_DEFAULTS.maxBodyBytes)
    .describe('bytes of one `POST /graphql` body; over it 413 `GRAPHQL_REQUEST_TOO_LARGE` (this and the five bounds below are checked before the operation is planned: [reliability.md](security.md#graphql-operations))'),
  GRAPHQL_MAX_TOKENS: z.coerce.number().int().min(1).max(1_000_000).default(GRAPHQL_LIMIT_DEFAULTS.maxTokens).describe('tokens of one operation; over it 400 `GRAPHQL_TOO_MANY_TOKENS`'),
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(0).max(10_000).default(GRAPHQL_LIMIT_DEFAULTS.maxAliases).describe('aliases of one operation; over it 400 `GRAPHQL_TOO_MANY_ALIASES`'),
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(1).max(1000).default(GRAPHQL_LIMIT_DEFAULTS.maxDepth).describe('depth of one operation; over it 400 `GRAPHQL_TOO_DEEP`'),
  GRAPHQL_MAX_DIRECTIVES: z.coerce.number().int().min(0).max(10_000).default(GRAPHQL_LIMIT_DEFAULTS.maxDirectives).describe('directives of one operation; over it 400 `GRAPHQL_TOO_MANY_DIRECTIVES`'),
  GRAPHQL_MAX_COST: z.coerce.number().int().min(1).max(10_000_000).default(GRAPHQL_LIMIT_DEFAULTS.maxCost).describe('cost of one operation (objects 2, scalars 1, ×1.5 a level); over it 400 `GRAPHQL_TOO_COSTLY`'),
  GRAPHQL_PERSISTED_QUERIES_MAX_BYTES: z
    .coerce.number().int().min(0).max(1024 * 1024 * 1024).default(PERSISTED_QUERY_DEFAULTS.maxBytes)
    .describe('automatic persisted queries: bytes of query text kept by hash, least recently used out first (in Redis, with `REDIS_URL`: bytes registered per TTL window, so at most twice this is held); `0` turns persisted queries off ([graphql.md](graphql.md#automatic-persisted-queries))'),
  GRAPHQL_PERSISTED_QUERIES_TTL_SECONDS: z
    .coerce.number().int().min(60).max(30 * 24 * 3600).default(PERSISTED_QUERY_DEFAULTS.ttlSeconds)
    .describe('how long a persisted query is known by its hash after it was registered; then the client registers it again'),
  // accounts, keys, usage and limits (docs/accounts.md)
  NODE_ENV: z.string().optional().describe('`production` makes `SESSION_SECRET` required, refuses `DEV_LOGIN` and `MAIL_LOG`, and turns GraphQL introspection off (`GRAPHQL_INTROSPECTION`)'),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional().meta({
    unset: 'generated',
    description:
      "HMAC secret (≥ 32 characters) of session cookies and legal-acceptance tokens, and (through derived keys) of the authorization server's cookies and the consent page's `mcp_flow`; required in production, and the same for every process behind one `BASE_URL`; in development a random secret is generated once into `DATA_DIR/session-secret` and reused (never logged)",
  }),
  ADMIN_EMAILS: z.string().optional().describe('comma-separated e-mails of the administrators (counted, never limited); an account is an administrator only once its e-mail is verified (`/auth/verify-email/*` or an identity provider)'),
  ALLOW_ANONYMOUS: booleanFlag.default(false).describe('let callers without credentials use search, documents and resolve under the Anonymous plan, counted per client IP'),
  OAUTH_CLIENT_METADATA_ALLOW_PRIVATE: booleanFlag
    .default(false)
    .describe('`true` lets the authorization server fetch client ID metadata documents (a `client_id` that is an https URL) from private, loopback and link-local addresses; for tests and local development only, never where the server can reach an internal network ([mcp-oauth.md](mcp-oauth.md))'),
  RATE_LIMITS: booleanFlag.default(true).describe('`false` = usage is counted but never limited (self-hosted deployments)'),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL').optional().describe('`redis://…`: rate-limit counters in Redis (shared by several server processes); unset = in process'),
  REDIS_COMMAND_TIMEOUT_MS: z
    .coerce.number().int().min(10).max(60_000).default(250)
    .describe('longest wait for one Redis command; a Redis that does not answer in time, or is down, makes billable requests 503 with Retry-After ([reliability.md](reliability.md#faults))'),
  USAGE_MEMORY_MAX_ROWS: z
    .coerce.number().int().min(100).max(10_000_000).default(50_000)
    .describe('usage rows held in memory when neither the database nor `DATA_DIR/usage-spill/` takes them; past it the oldest are dropped, each time logged as an error and counted on `/ready` ([reliability.md](reliability.md#faults))'),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional()
    .describe('`smtp://user:pass@host:port` for outgoing mail (password reset, e-mail verification); unset = the mail is not sent and the log says so (recipient hashed, no contents)'),
  MAIL_FROM: z.string().min(3).default('Legal Search <no-reply@localhost>').describe('sender of outgoing mail'),
  DEV_LOGIN: booleanFlag.default(false).describe('`true` enables `POST /auth/dev-login` (sign in as any e-mail; local development only; refused at boot with `NODE_ENV=production`)'),
  MAIL_LOG: booleanFlag
    .default(false)
    .describe('without `SMTP_URL`, `true` writes whole mails, one-time tokens included, to the log (local development; `DEV_LOGIN=true` implies it; refused at boot with `NODE_ENV=production`)'),
  MAIL_OUTBOX_MAX_PENDING: z
    .coerce.number().int().min(1).max(1_000_000).default(1000)
    .describe('mails queued to go out after the answer (password reset, what a proof of the address ended); past it new ones are dropped and logged (see [security.md](security.md#credentials-and-the-proof-of-an-address))'),
  LEGAL_TERMS_URL: z.string().min(1).optional().describe('where the terms of service are read (linked from registration, legal acceptance, checkout and the landing page); unset: the text in the repository, served at `/legal/terms`'),
  LEGAL_PRIVACY_URL: z.string().min(1).optional().describe('where the privacy notice is read; unset: the text in the repository, served at `/legal/privacy`'),
  LEGAL_DPA_URL: z.string().min(1).optional().describe('where the data processing agreement is read (per-seat checkout); unset: the text in the repository, served at `/legal/data-processing`'),
  TERMS_VERSION: z.string().min(1).default('2025-01').describe('current terms version; accounts that have not accepted it get a legal-acceptance token instead of a session'),
  // the password sign-in throttle (docs/security.md, "Sign-in, headers and small leaks")
  LOGIN_WINDOW_SECONDS: z.coerce.number().int().min(60).max(86_400).default(900).describe('how long the sign-in throttle remembers a failed password (see [security.md](security.md#sign-in-headers-and-small-leaks))'),
  LOGIN_FREE_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).max(1000).default(5).describe('failed passwords on one account within the window before its attempts are spaced out'),
  LOGIN_MAX_DELAY_SECONDS: z.coerce.number().int().min(1).max(3600).default(60).describe('the longest wait between two sign-in attempts on one account (the delay doubles from 1 s up to this)'),
  LOGIN_FAILURES_PER_IP: z.coerce.number().int().min(1).max(1_000_000).default(100).describe('failed passwords from one client IP, over every account, within the window; then 429'),
  // Strict-Transport-Security max-age, sent only when BASE_URL is https (0 tells browsers to forget it)
  HSTS_MAX_AGE_SECONDS: z
    .coerce.number().int().min(0).max(63_072_000).default(DEFAULT_HSTS_MAX_AGE_SECONDS)
    .describe('`Strict-Transport-Security` max-age, sent only when `BASE_URL` is https (`0` tells browsers to forget it)'),
  // billing through Stripe (docs/billing.md)
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_\S+$/, 'must be a Stripe secret key (sk_test_…, sk_live_… or a restricted rk_…)')
    .optional()
    .describe('billing through Stripe (`sk_test_…`, `sk_live_…` or a restricted `rk_…`); unset = billing off: plans and status answer, the paying paths 503 (see [billing.md](billing.md))'),
  STRIPE_WEBHOOK_SECRET: z.string().regex(/^whsec_\S+$/, 'must be a webhook signing secret (whsec_…)').optional().describe("the webhook endpoint's signing secret (`whsec_…`); without it webhooks cannot be verified and answer 503"),
  STRIPE_API_BASE: z.url().optional().meta({ unset: "Stripe's API", description: 'a server speaking the Stripe protocol to talk to instead of api.stripe.com (tests, local development)' }),
  STRIPE_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(20_000).describe('timeout of one Stripe request'),
  STRIPE_MAX_NETWORK_RETRIES: z.coerce.number().int().min(0).max(5).default(2).describe("retries of a Stripe request after a network error (the Stripe client's own, with idempotency keys)"),
  BILLING_CATALOGUE: z.string().min(1).optional().meta({ unset: '`billing-catalogue.json` of the checkout', description: 'the catalogue file: prices, Stripe price ids, features, audience texts' }),
  BILLING_EXTRA_REQUEST_PRICE_USD: z.coerce.number().positive().max(10).optional().meta({ unset: "the catalogue's", description: 'price of one request drawn from extra credits, overriding the catalogue' }),
  // contributor credits (docs/admin.md, "Contributor credits")
  CONTRIBUTORS_GITHUB_REPO: z
    .string()
    .regex(/^[\w.-]+\/[\w.-]+$/, 'must be owner/name')
    .optional()
    .describe("contributor credits from that repository's issues and pull requests on GitHub (`owner/name`) instead of `contributions.jsonl.gz` in `CORPUS_DIR`; see [admin.md](admin.md)"),
  GITHUB_TOKEN: z.string().min(1).optional().describe("token for GitHub's API when reading contributor credits (optional; never logged)"),
  GITHUB_API_BASE: z.url().default('https://api.github.com').describe("base URL of GitHub's REST API for contributor credits (a proxy, or a local test server)"),
  // team allowed domains: the DNS proof of ownership (docs/security.md, "Team allowed domains need proof of ownership")
  DNS_SERVERS: z
    .string()
    .refine((v) => parseDnsServers(v) !== null, 'must be comma-separated IP addresses, each with an optional port: 10.0.0.2, 127.0.0.1:5353, [::1]:53')
    .optional()
    .meta({
      unset: "the system's (`/etc/resolv.conf`)",
      description:
        "comma-separated resolvers (IP addresses, each with an optional port: `10.0.0.2, 127.0.0.1:5353, [::1]:53`) the team domains' TXT proofs are looked up through (`node:dns` `Resolver`); see [security.md](security.md#team-allowed-domains-need-proof-of-ownership)",
    }),
  DNS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(3000).describe('timeout of one DNS attempt of those look-ups'),
  DNS_TRIES: z.coerce.number().int().min(1).max(5).default(2).describe('attempts per DNS server of those look-ups'),
  TEAM_DOMAIN_RECHECK_HOURS: z.coerce.number().positive().max(720).default(24).describe("a team's allowed domain is looked up again this long after its last answer (its proof re-checked)"),
  TEAM_DOMAIN_GRACE_HOURS: z
    .coerce.number().min(0).max(720).default(72)
    .describe('a verified domain whose look-ups fail (timeout, SERVFAIL) keeps auto-joining while its record was seen within `TEAM_DOMAIN_RECHECK_HOURS` + this'),
  TEAM_DOMAIN_RETRY_MINUTES: z.coerce.number().positive().max(1440).default(60).describe('after a failed look-up, the next try comes this soon (also the first background check of a new domain)'),
  TEAM_DOMAIN_SWEEP_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300).describe('how often each process looks for due domain re-checks (`0` = not this process)'),
  TEAM_DOMAIN_SWEEP_BATCH: z.coerce.number().int().min(1).max(10_000).default(100).describe('how many claims one sweep takes at most'),
  ...identityProviderEnv('GITHUB'),
  ...identityProviderEnv('GOOGLE'),
  ...identityProviderEnv('MICROSOFT'),
});

/**
 * express's `trust proxy` setting: which hops in front of the service are believed when they
 * say who the client is (X-Forwarded-For, -Proto, -Host). `true` trusts every hop (only behind
 * a proxy that overwrites the header), a number trusts that many hops from the service, a list
 * trusts those addresses, CIDR ranges and names (`loopback`, `linklocal`, `uniquelocal`).
 */
export type TrustProxySetting = boolean | number | string[];

const TRUST_PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function trustProxyEntry(entry: string): boolean {
  if (TRUST_PROXY_NAMES.has(entry)) return true;
  const [address, bits, extra] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || extra !== undefined) return false;
  if (bits === undefined) return true;
  if (isIP(bits) === 4 && family === 4) return true; // a netmask: 10.0.0.0/255.0.0.0
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

function isTrustProxyValue(value: string): boolean {
  return parseTrustProxy(value) !== null;
}

/** TRUST_PROXY's text as express's value; null when it is not one. */
export function parseTrustProxy(value: string): TrustProxySetting | null {
  const text = value.trim().toLowerCase();
  if (['true', 'false'].includes(text)) return text === 'true';
  if (/^\d{1,3}$/.test(text)) return Number(text);
  const entries = text.split(',').map((e) => e.trim());
  return entries.length > 0 && entries.every(trustProxyEntry) ? entries : null;
}

/** MCP_ALLOWED_ORIGINS: `'*'` (any origin) or the listed origins. */
export type AllowedOrigins = '*' | string[];

/**
 * MCP_ALLOWED_ORIGINS's text as origins, serialised as browsers send them in `Origin`
 * (`HTTPS://App.Example:443/` is `https://app.example`); `'*'` alone means any origin; null
 * when an entry is not an origin. Other schemes than http(s) (a browser extension's
 * `chrome-extension://<id>`) are kept as written.
 */
export function parseAllowedOrigins(value: string): AllowedOrigins | null {
  const entries = value.split(',').map((e) => e.trim()).filter(Boolean);
  if (entries.length === 1 && entries[0] === '*') return '*';
  const origins = entries.map(originOf);
  return origins.length > 0 && origins.every((o) => o !== null) ? (origins as string[]) : null;
}

function originOf(entry: string): string | null {
  if (!URL.canParse(entry)) return null;
  const url = new URL(entry);
  if (url.protocol === 'http:' || url.protocol === 'https:') {
    const bare = !url.username && !url.password && url.pathname === '/' && !url.search && !url.hash && !entry.endsWith('#') && !entry.endsWith('?');
    return bare ? url.origin : null;
  }
  return /^[a-z][a-z0-9+.-]*:\/\/[^/?#@\s]+$/i.test(entry) ? entry : null;
}

/**
 * DNS_SERVERS as `node:dns` `Resolver.setServers` takes them (IP addresses only: a host name
 * would need a resolver to find the resolver); null when an entry is not `ip`, `ipv4:port`,
 * `[ipv6]` or `[ipv6]:port`.
 */
export function parseDnsServers(value: string): string[] | null {
  const entries = value.split(',').map((e) => e.trim()).filter(Boolean);
  const portOk = (port: string | undefined) => port === undefined || (/^\d{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65535);
  const valid = (entry: string) => {
    if (isIP(entry) !== 0) return true;
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    if (bracketed) return isIP(bracketed[1]!) === 6 && portOk(bracketed[2]);
    const [host, port, extra] = entry.split(':');
    return extra === undefined && isIP(host ?? '') === 4 && portOk(port);
  };
  return entries.length > 0 && entries.every(valid) ? entries : null;
}

/**
 * CLIENT_ID, CLIENT_SECRET and the endpoint overrides of one identity provider, documented
 * with its display name and what its endpoints are when no override is set.
 */
function identityProviderEnv<P extends 'GITHUB' | 'GOOGLE' | 'MICROSOFT'>(prefix: P) {
  // the table is here, not beside the schema: the schema calls this before later constants exist
  const { name, endpoints } = {
    GITHUB: { name: 'GitHub', endpoints: "GitHub's endpoints (no OpenID discovery)" },
    GOOGLE: { name: 'Google', endpoints: '`https://accounts.google.com` (OpenID discovery)' },
    MICROSOFT: { name: 'Microsoft', endpoints: '`https://login.microsoftonline.com/common/v2.0` (OpenID discovery)' },
  }[prefix];
  const url = z.url();
  const override = (endpoint: string) => url.optional().meta({ unset: endpoints, description: `${name}'s ${endpoint} endpoint instead of its default (tests, a proxy)` });
  return {
    [`${prefix}_CLIENT_ID`]: z.string().min(1).optional().describe(`enables sign-in with ${name} (with \`${prefix}_CLIENT_SECRET\`)`),
    [`${prefix}_CLIENT_SECRET`]: z.string().min(1).optional().describe(`the client secret of \`${prefix}_CLIENT_ID\` (never logged)`),
    [`${prefix}_ISSUER`]: url.optional().meta({ unset: endpoints, description: `an OpenID issuer whose discovery gives ${name}'s endpoints (tests, another tenant)` }),
    [`${prefix}_AUTHORIZATION_URL`]: override('authorization'),
    [`${prefix}_TOKEN_URL`]: override('token'),
    [`${prefix}_USERINFO_URL`]: override('userinfo'),
  } as Record<`${P}_${'CLIENT_ID' | 'CLIENT_SECRET' | 'ISSUER' | 'AUTHORIZATION_URL' | 'TOKEN_URL' | 'USERINFO_URL'}`, z.ZodOptional<z.ZodString>>;
}

export const IDENTITY_PROVIDERS = ['github', 'google', 'microsoft'] as const;
export type IdentityProviderName = (typeof IDENTITY_PROVIDERS)[number];

/** One identity provider's client settings; endpoints left undefined come from the provider's defaults or discovery. */
export interface IdentityProviderSetting {
  clientId: string;
  clientSecret: string;
  issuer: string | undefined;
  authorizationUrl: string | undefined;
  tokenUrl: string | undefined;
  userinfoUrl: string | undefined;
}

export interface AccountsSettings {
  /** HMAC secret of session and legal-acceptance tokens; undefined = a development secret kept in DATA_DIR. */
  sessionSecret: string | undefined;
  /** Lower-cased e-mails of the administrators. */
  adminEmails: string[];
  allowAnonymous: boolean;
  rateLimits: boolean;
  redisUrl: string | undefined;
  /** Longest wait for one Redis command (then 503). */
  redisCommandTimeoutMs: number;
  /** Usage rows held in memory when neither the database nor DATA_DIR/usage-spill takes them; past it the oldest are dropped (logged). */
  usageMemoryMaxRows: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  devLogin: boolean;
  /** Without SMTP_URL, write whole mails (one-time tokens included) to the log: MAIL_LOG=true or DEV_LOGIN=true. */
  mailLog: boolean;
  /** Mails queued to be sent after the answer (src/modules/accounts/mail-outbox.ts); past it new ones are dropped and logged. */
  mailOutboxMaxPending: number;
  termsVersion: string;
  /** Where the legal documents are read: LEGAL_*_URL, or the repository's texts at /legal/*. */
  legalDocuments: { terms: string; privacy: string; dataProcessing: string };
  production: boolean;
  /** The password sign-in throttle (src/modules/accounts/sign-in-throttle.ts). */
  signInThrottle: SignInThrottleSettings;
  /** Configured identity providers (those with a client id and secret). */
  identityProviders: Partial<Record<IdentityProviderName, IdentityProviderSetting>>;
}

/** The password sign-in throttle: a slow-down per account, a bound per client IP. */
export interface SignInThrottleSettings {
  /** Failures are remembered this long (LOGIN_WINDOW_SECONDS). */
  windowSeconds: number;
  /** Failures on one account within the window before attempts are spaced out (LOGIN_FREE_FAILURES_PER_ACCOUNT). */
  freeFailuresPerAccount: number;
  /** The longest wait between two attempts on one account (LOGIN_MAX_DELAY_SECONDS). */
  maxDelaySeconds: number;
  /** Failures from one client IP, over every account, within the window (LOGIN_FAILURES_PER_IP). */
  failuresPerIp: number;
}

/**
 * `auto`: the domain model trained from the corpus into DATA_DIR/models/domain-static
 * (trained in the background at start when absent); `none`: no vectors (keyword only).
 */
export type EmbedderSetting =
  | { kind: 'none' }
  | { kind: 'auto' }
  | { kind: 'static'; dir: string }
  /** A sentence-transformers ONNX export: a local directory, or a Hugging Face id downloaded into DATA_DIR. */
  | { kind: 'onnx'; model: string }
  /** Pinecone Inference (`hosted:multilingual-e5-large`); `host` overrides the API's base URL. */
  | { kind: 'hosted'; model: string; apiKey: string; host?: string };

/** Billing through Stripe; `stripe` is null when STRIPE_SECRET_KEY is unset (billing off). */
export interface BillingSettings {
  stripe: {
    secretKey: string;
    /** Without it webhooks cannot be verified and answer 503. */
    webhookSecret: string | undefined;
    /** A Stripe-protocol server to talk to instead of api.stripe.com (tests, local development). */
    apiBase: string | undefined;
    timeoutMs: number;
    maxNetworkRetries: number;
  } | null;
  /** The catalogue file (prices, Stripe price ids, features, audience texts); undefined = the bundled billing-catalogue.json. */
  catalogueFile: string | undefined;
  /** Overrides the catalogue's price of one request drawn from extra credits. */
  extraRequestPriceUsd: number | undefined;
}

/** The resolver the domain proofs are looked up through (`node:dns/promises` `Resolver`). */
export interface DnsSettings {
  /** `ip[:port]` entries; null = the system's resolvers (/etc/resolv.conf). */
  servers: string[] | null;
  /** Per-attempt timeout and attempts per server (c-ares' `timeout` and `tries`). */
  timeoutMs: number;
  tries: number;
}

/** How proven team domains are re-checked (src/modules/teams/domain-verification.ts). */
export interface TeamDomainSettings {
  /** A checked domain is looked up again this long after its last answer. */
  recheckMs: number;
  /** A verified domain whose look-ups fail (no answer, SERVFAIL) keeps auto-joining this long past a due re-check. */
  graceMs: number;
  /** After a failed look-up the next try comes this much sooner than `recheckMs`. */
  retryMs: number;
  /** How often the background timer looks for due domains; 0 = no timer in this process. */
  sweepMs: number;
  /** Domains claimed (and looked up) per sweep at most. */
  sweepBatch: number;
}

export interface DatabaseTimeouts {
  statementMs: number;
  acquireMs: number;
}

export interface Config {
  port: number;
  baseUrl: string;
  databaseUrl: string | undefined;
  /** Bounds of every PostgreSQL query and connection (not PGlite): past them 503. */
  databaseTimeouts: DatabaseTimeouts;
  dataDir: string;
  corpusDir: string | undefined;
  searchEngine: 'embedded' | 'elasticsearch';
  /** Where passage vectors live: the embedded engine's tables, Elasticsearch's dense_vector, or Pinecone. */
  vectorEngine: 'embedded' | 'elasticsearch' | 'pinecone';
  /** SEARCH_ENGINE=elasticsearch (or VECTOR_ENGINE=elasticsearch): the cluster; null otherwise. */
  elasticsearch: ElasticsearchSettings | null;
  embedder: EmbedderSetting;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  ingestOnStart: boolean;
  /** Wall-time budget of one reference resolution (POST /v1/resolve). */
  resolveTimeoutMs: number;
  /** ENGINE_CALLS_PER_REQUEST. */
  engineCallsPerRequest: number;
  /** SEARCH_CONCURRENCY, 0 resolved to twice the cores. */
  searchConcurrency: number;
  /** Remote subgraph URLs by subgraph name; subgraphs not named run in-process. */
  subgraphUrls: Record<string, string>;
  /** Origins of the browser pages that may call /mcp and /sse besides BASE_URL's (MCP_ALLOWED_ORIGINS; none by default). */
  mcpAllowedOrigins: AllowedOrigins;
  /** Which proxies in front of the service are believed about the client's IP (TRUST_PROXY). */
  trustProxy: TrustProxySetting;
  /** Caps on open MCP SSE streams (GET /sse): in all, per account, per client address, and how long one may sit idle. */
  sse: SseLimits;
  /** OAUTH_CLIENT_METADATA_ALLOW_PRIVATE: client ID metadata documents may be fetched from private addresses (tests). */
  oauthClientMetadataAllowPrivate: boolean;
  /** Timeouts and connection caps of the HTTP server (src/http/http-server.ts). */
  http: HttpServerLimits;
  /** SHUTDOWN_DRAIN_SECONDS: how long a shutdown lets the requests in flight finish before closing their connections. */
  shutdownDrainSeconds: number;
  /** Introspection and the bounds on an operation at /graphql. */
  graphql: GraphqlSettings;
  /**
   * The external vector index the vector leg uses instead of the search engine's own
   * (PINECONE_INDEX or PINECONE_HOST set); null = the engine's own vectors.
   */
  pinecone: PineconeSettings | null;
  /** Wall-time budget of the vector leg of one search (VECTOR_TIMEOUT_MS; 0 = none): past it, keyword results, `degraded: ["vector"]`. */
  vectorTimeoutMs: number;
  /** Keyword passages the vector leg's query moves towards (SEARCH_FEEDBACK_PASSAGES; 0 = off): relevance feedback, see search.service.ts. */
  searchFeedbackPassages: number;
  /** Whether the embedded engine keeps its indexed vectors in memory (SEARCH_VECTOR_MEMORY). */
  searchVectorMemory: boolean;
  /** Weight of the citation authority prior in search (SEARCH_AUTHORITY_WEIGHT; 0 = off): see hybrid-fusion.ts, CitationAuthority. */
  searchAuthorityWeight: number;
  /** Whether the citation graph links legislation's articles too (CITATOR_LINK_LEGISLATION). */
  citatorLinkLegislation: boolean;
  /** The built web dashboard served at /dashboard (DASHBOARD_DIR; default dist/dashboard of the checkout). */
  dashboardDir: string;
  /** Strict-Transport-Security max-age when BASE_URL is https (HSTS_MAX_AGE_SECONDS). */
  hstsMaxAgeSeconds: number;
  accounts: AccountsSettings;
  billing: BillingSettings;
  contributors: ContributorsSettings;
  dns: DnsSettings;
  teamDomains: TeamDomainSettings;
}

export interface ElasticsearchSettings {
  url: string;
  /** Sent as `Authorization: ApiKey`; takes precedence over username/password. Never logged. */
  apiKey: string | undefined;
  username: string | undefined;
  password: string | undefined;
  /** Prefix of the index and alias names (`legal-` -> `legal-documents`, `legal-chunks`, `legal-meta`). */
  indexPrefix: string;
  /** Primary shards and replicas of the indexes this service creates (existing indexes keep theirs). */
  shards: number;
  replicas: number;
}

/** Where contributor credits come from: GitHub's REST API when `githubRepo` is set, else the corpus file. */
export interface ContributorsSettings {
  githubRepo: string | undefined;
  /** Sent as `Authorization: Bearer`; never logged. */
  githubToken: string | undefined;
  githubApiBase: string;
}

/** The Pinecone index holding the passages' vectors (src/engines/pinecone). */
export interface PineconeSettings {
  apiKey: string;
  /** The index name (resolved to its host through the control plane when `host` is unset). */
  index: string | undefined;
  /** The index's data-plane host: a local index (pinecone-index image) or a proxy. */
  host: string | undefined;
  /** Timeout of one data-plane request. */
  timeoutMs: number;
}

/** The GraphQL door's settings (GRAPHQL_*). */
export interface GraphqlSettings {
  /** Introspection queries, and field suggestions ("Did you mean …") in errors: both or neither (GRAPHQL_INTROSPECTION; default off in production). */
  introspection: boolean;
  /** GRAPHQL_VENDOR_TELEMETRY: let @apollo/gateway send its telemetry to Apollo (default off). */
  vendorTelemetry?: boolean;
  limits: GraphqlOperationLimits;
  /** Automatic persisted queries (GRAPHQL_PERSISTED_QUERIES_*); omitted: the defaults. */
  persistedQueries?: PersistedQuerySettings;
}

/** The store of automatic persisted queries. */
export interface PersistedQuerySettings {
  /** Query text held at most (memory), or registered per TTL window (Redis); 0 turns APQ off. */
  maxBytes: number;
  ttlSeconds: number;
}

/** Bounds on one GraphQL request, checked before its operation is planned (src/graphql/operation-limits.ts). */
export interface GraphqlOperationLimits {
  maxBodyBytes: number;
  maxTokens: number;
  maxAliases: number;
  maxDepth: number;
  maxDirectives: number;
  /** GraphQL Armor's cost: objects 2, scalars 1, each level deeper ×1.5. */
  maxCost: number;
}

export interface SseLimits {
  maxSessions: number;
  maxSessionsPerAccount: number;
  /** Per client address (`req.ip`, an IPv6 client by its /64): one address cannot take the whole server's share. */
  maxSessionsPerIp: number;
  /** Per account whose e-mail is not verified (at most maxSessionsPerAccount): fresh accounts cost nothing to make. */
  maxSessionsUnverified: number;
  /** A stream on which the client posted no message for this long is closed, freeing its slot. */
  idleTimeoutSeconds: number;
}

export interface HttpServerLimits {
  /** Receiving a request's headers (Node's `headersTimeout`). */
  headersTimeoutMs: number;
  /** Receiving a whole request, headers and body (Node's `requestTimeout`; a response may take longer). */
  requestTimeoutMs: number;
  /** An idle kept-alive connection between two requests (Node's `keepAliveTimeout`). */
  keepAliveTimeoutMs: number;
  /** Open sockets in this process (Node's `maxConnections`): kept below the file-descriptor limit. */
  maxConnections: number;
  /** Open sockets per peer address, a trusted proxy's exempt (src/http/connection-limits.ts). */
  maxConnectionsPerIp: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** A local path is made absolute; anything else (`org/name`) is a Hugging Face model id. */
function onnxModel(value: string): string {
  return value.startsWith('.') || value.startsWith('/') || existsSync(value) ? path.resolve(value) : value;
}

/** The environment after the schema's validation and defaults. */
type Env = z.infer<typeof envSchema>;

/** Reads and validates the configuration from an environment (process.env by default). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const e = parseEnvironment(env);
  const corpusDir = e.CORPUS_DIR ?? (existsSync(DEFAULT_CORPUS) ? DEFAULT_CORPUS : undefined);
  if (e.CORPUS_DIR && !existsSync(e.CORPUS_DIR)) {
    throw new ConfigError([`CORPUS_DIR: folder does not exist (got "${e.CORPUS_DIR}")`]);
  }
  const production = e.NODE_ENV === 'production';
  checkProductionSafety(e, production);
  if (e.HTTP_HEADERS_TIMEOUT_SECONDS > e.HTTP_REQUEST_TIMEOUT_SECONDS) {
    // the headers are part of the request: Node refuses a headers timeout past the request's
    throw new ConfigError([`HTTP_HEADERS_TIMEOUT_SECONDS: must not exceed HTTP_REQUEST_TIMEOUT_SECONDS (${e.HTTP_REQUEST_TIMEOUT_SECONDS}) (got "${e.HTTP_HEADERS_TIMEOUT_SECONDS}")`]);
  }
  const identityProviders = identityProviderSettings(e);
  const vectorEngine = checkedVectorEngine(e);
  return {
    port: e.PORT,
    baseUrl: (e.BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    databaseUrl: e.DATABASE_URL,
    databaseTimeouts: { statementMs: e.DATABASE_STATEMENT_TIMEOUT_MS, acquireMs: e.DATABASE_ACQUIRE_TIMEOUT_MS },
    dataDir: path.resolve(e.DATA_DIR),
    corpusDir: corpusDir ? path.resolve(corpusDir) : undefined,
    searchEngine: e.SEARCH_ENGINE,
    vectorEngine,
    elasticsearch: elasticsearchSettings(e),
    embedder: embedderSetting(e),
    logLevel: e.LOG_LEVEL,
    ingestOnStart: e.INGEST_ON_START,
    resolveTimeoutMs: e.RESOLVE_TIMEOUT_MS,
    engineCallsPerRequest: e.ENGINE_CALLS_PER_REQUEST,
    searchConcurrency: e.SEARCH_CONCURRENCY || 2 * availableParallelism(),
    subgraphUrls: Object.fromEntries(
      (e.SUBGRAPH_URLS ?? '')
        .split(',')
        .filter(Boolean)
        .map((pair) => pair.split('=', 2) as [string, string]),
    ),
    trustProxy: parseTrustProxy(e.TRUST_PROXY)!,
    mcpAllowedOrigins: e.MCP_ALLOWED_ORIGINS ? parseAllowedOrigins(e.MCP_ALLOWED_ORIGINS)! : [],
    oauthClientMetadataAllowPrivate: e.OAUTH_CLIENT_METADATA_ALLOW_PRIVATE,
    sse: {
      maxSessions: e.SSE_MAX_SESSIONS,
      maxSessionsPerAccount: e.SSE_MAX_SESSIONS_PER_ACCOUNT,
      maxSessionsPerIp: e.SSE_MAX_SESSIONS_PER_IP,
      maxSessionsUnverified: e.SSE_MAX_SESSIONS_UNVERIFIED,
      idleTimeoutSeconds: e.SSE_IDLE_TIMEOUT_SECONDS,
    },
    http: {
      headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_SECONDS * 1000,
      requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_SECONDS * 1000,
      keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_SECONDS * 1000,
      maxConnections: e.HTTP_MAX_CONNECTIONS,
      maxConnectionsPerIp: e.HTTP_MAX_CONNECTIONS_PER_IP,
    },
    shutdownDrainSeconds: e.SHUTDOWN_DRAIN_SECONDS,
    graphql: graphqlSettings(e, production),
    pinecone: pineconeSettings(e),
    vectorTimeoutMs: e.VECTOR_TIMEOUT_MS,
    searchFeedbackPassages: e.SEARCH_FEEDBACK_PASSAGES,
    searchVectorMemory: e.SEARCH_VECTOR_MEMORY,
    searchAuthorityWeight: e.SEARCH_AUTHORITY_WEIGHT,
    citatorLinkLegislation: e.CITATOR_LINK_LEGISLATION,
    dashboardDir: path.resolve(e.DASHBOARD_DIR ?? DEFAULT_DASHBOARD_DIR),
    hstsMaxAgeSeconds: e.HSTS_MAX_AGE_SECONDS,
    accounts: accountsSettings(e, production, identityProviders),
    billing: billingSettings(e),
    contributors: {
      githubRepo: e.CONTRIBUTORS_GITHUB_REPO,
      githubToken: e.GITHUB_TOKEN,
      githubApiBase: e.GITHUB_API_BASE.replace(/\/+$/, ''),
    },
    dns: { servers: e.DNS_SERVERS ? parseDnsServers(e.DNS_SERVERS) : null, timeoutMs: e.DNS_TIMEOUT_MS, tries: e.DNS_TRIES },
    teamDomains: {
      recheckMs: e.TEAM_DOMAIN_RECHECK_HOURS * 3_600_000,
      graceMs: e.TEAM_DOMAIN_GRACE_HOURS * 3_600_000,
      retryMs: e.TEAM_DOMAIN_RETRY_MINUTES * 60_000,
      sweepMs: e.TEAM_DOMAIN_SWEEP_SECONDS * 1000,
      sweepBatch: e.TEAM_DOMAIN_SWEEP_BATCH,
    },
  };
}

/** The schema applied to the set (non-empty) variables; every problem is listed at once. */
function parseEnvironment(env: NodeJS.ProcessEnv): Env {
  const raw = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message} (got ${JSON.stringify(raw[String(issue.path[0])])})`),
    );
  }
  return parsed.data;
}

/** Settings that are fine in development but unsafe in production stop the boot there. */
function checkProductionSafety(e: Env, production: boolean): void {
  const productionProblems: string[] = [];
  if (production && !e.SESSION_SECRET) productionProblems.push('SESSION_SECRET: required when NODE_ENV=production (at least 32 characters)');
  // dev-login signs in as any e-mail without a password: never in production
  if (production && e.DEV_LOGIN) productionProblems.push('DEV_LOGIN: must not be true when NODE_ENV=production');
  // the log would hold every one-time token (password reset, e-mail verification): never in production
  if (production && e.MAIL_LOG) productionProblems.push('MAIL_LOG: must not be true when NODE_ENV=production (it writes password-reset and verification tokens to the log; set SMTP_URL)');
  if (productionProblems.length) throw new ConfigError(productionProblems);
}

/** The identity providers whose client id and secret are both set. */
function identityProviderSettings(e: Env): AccountsSettings['identityProviders'] {
  const identityProviders: AccountsSettings['identityProviders'] = {};
  for (const name of IDENTITY_PROVIDERS) {
    const prefix = name.toUpperCase() as 'GITHUB' | 'GOOGLE' | 'MICROSOFT';
    const clientId = e[`${prefix}_CLIENT_ID`];
    const clientSecret = e[`${prefix}_CLIENT_SECRET`];
    if (!clientId || !clientSecret) continue;
    identityProviders[name] = {
      clientId,
      clientSecret,
      issuer: e[`${prefix}_ISSUER`],
      authorizationUrl: e[`${prefix}_AUTHORIZATION_URL`],
      tokenUrl: e[`${prefix}_TOKEN_URL`],
      userinfoUrl: e[`${prefix}_USERINFO_URL`],
    };
  }
  return identityProviders;
}

/**
 * The vector leg's engine: Pinecone when an index is configured, else the search engine's own
 * vectors; checks the engines' settings agree (and the credentials each needs are there).
 */
function checkedVectorEngine(e: Env): Config['vectorEngine'] {
  const pineconeConfigured = Boolean(e.PINECONE_INDEX || e.PINECONE_HOST);
  const vectorEngine = e.VECTOR_ENGINE ?? (pineconeConfigured ? 'pinecone' : e.SEARCH_ENGINE);
  if (e.SEARCH_ENGINE === 'elasticsearch' && !e.ELASTICSEARCH_URL) {
    throw new ConfigError(['ELASTICSEARCH_URL: required with SEARCH_ENGINE=elasticsearch']);
  }
  if (vectorEngine !== 'pinecone' && vectorEngine !== e.SEARCH_ENGINE) {
    throw new ConfigError([`VECTOR_ENGINE: must be "${e.SEARCH_ENGINE}" or "pinecone" with SEARCH_ENGINE=${e.SEARCH_ENGINE} (got "${vectorEngine}")`]);
  }
  if (vectorEngine === 'pinecone' && !pineconeConfigured) {
    throw new ConfigError(['VECTOR_ENGINE: "pinecone" needs PINECONE_INDEX or PINECONE_HOST']);
  }
  if (vectorEngine !== 'pinecone' && pineconeConfigured) {
    throw new ConfigError([`PINECONE_INDEX / PINECONE_HOST: set, but VECTOR_ENGINE=${vectorEngine} keeps the vectors elsewhere (unset them or set VECTOR_ENGINE=pinecone)`]);
  }
  if (e.ELASTICSEARCH_USERNAME && !e.ELASTICSEARCH_PASSWORD) {
    throw new ConfigError(['ELASTICSEARCH_PASSWORD: required with ELASTICSEARCH_USERNAME']);
  }
  if (e.EMBEDDER.startsWith('hosted:') && !e.PINECONE_API_KEY) {
    throw new ConfigError([`PINECONE_API_KEY: required with EMBEDDER=${e.EMBEDDER}`]);
  }
  if (pineconeConfigured && !e.PINECONE_API_KEY) {
    throw new ConfigError(['PINECONE_API_KEY: required with PINECONE_INDEX or PINECONE_HOST (any value for a local index)']);
  }
  return vectorEngine;
}

function elasticsearchSettings(e: Env): ElasticsearchSettings | null {
  if (!e.ELASTICSEARCH_URL) return null;
  return {
    url: e.ELASTICSEARCH_URL.replace(/\/+$/, ''),
    apiKey: e.ELASTICSEARCH_API_KEY,
    username: e.ELASTICSEARCH_USERNAME,
    password: e.ELASTICSEARCH_PASSWORD,
    indexPrefix: e.ELASTICSEARCH_INDEX_PREFIX,
    shards: e.ELASTICSEARCH_SHARDS,
    replicas: e.ELASTICSEARCH_REPLICAS,
  };
}

function pineconeSettings(e: Env): PineconeSettings | null {
  if (!(e.PINECONE_INDEX || e.PINECONE_HOST)) return null;
  // the API key's presence is checked by checkedVectorEngine
  return { apiKey: e.PINECONE_API_KEY!, index: e.PINECONE_INDEX, host: e.PINECONE_HOST?.replace(/\/+$/, ''), timeoutMs: e.PINECONE_TIMEOUT_MS };
}

/** EMBEDDER's `none` | `auto` | `onnx:<model>` | `hosted:<model>` | `static:<dir>`. */
function embedderSetting(e: Env): EmbedderSetting {
  if (e.EMBEDDER === 'none' || e.EMBEDDER === 'auto') return { kind: e.EMBEDDER };
  if (e.EMBEDDER.startsWith('onnx:')) return { kind: 'onnx', model: onnxModel(e.EMBEDDER.slice('onnx:'.length)) };
  if (e.EMBEDDER.startsWith('hosted:')) {
    return { kind: 'hosted', model: e.EMBEDDER.slice('hosted:'.length), apiKey: e.PINECONE_API_KEY!, host: e.PINECONE_CONTROLLER_HOST };
  }
  return { kind: 'static', dir: path.resolve(e.EMBEDDER.slice('static:'.length)) };
}

function graphqlSettings(e: Env, production: boolean): GraphqlSettings {
  return {
    introspection: e.GRAPHQL_INTROSPECTION ?? !production,
    vendorTelemetry: e.GRAPHQL_VENDOR_TELEMETRY,
    limits: {
      maxBodyBytes: e.GRAPHQL_MAX_BODY_BYTES,
      maxTokens: e.GRAPHQL_MAX_TOKENS,
      maxAliases: e.GRAPHQL_MAX_ALIASES,
      maxDepth: e.GRAPHQL_MAX_DEPTH,
      maxDirectives: e.GRAPHQL_MAX_DIRECTIVES,
      maxCost: e.GRAPHQL_MAX_COST,
    },
    persistedQueries: { maxBytes: e.GRAPHQL_PERSISTED_QUERIES_MAX_BYTES, ttlSeconds: e.GRAPHQL_PERSISTED_QUERIES_TTL_SECONDS },
  };
}

function accountsSettings(e: Env, production: boolean, identityProviders: AccountsSettings['identityProviders']): AccountsSettings {
  return {
    sessionSecret: e.SESSION_SECRET,
    adminEmails: (e.ADMIN_EMAILS ?? '')
      .split(',')
      .map((email) => email.trim().toLowerCase())
      .filter(Boolean),
    allowAnonymous: e.ALLOW_ANONYMOUS,
    rateLimits: e.RATE_LIMITS,
    redisUrl: e.REDIS_URL,
    redisCommandTimeoutMs: e.REDIS_COMMAND_TIMEOUT_MS,
    usageMemoryMaxRows: e.USAGE_MEMORY_MAX_ROWS,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    devLogin: e.DEV_LOGIN,
    mailLog: e.MAIL_LOG || e.DEV_LOGIN,
    mailOutboxMaxPending: e.MAIL_OUTBOX_MAX_PENDING,
    termsVersion: e.TERMS_VERSION,
    legalDocuments: {
      terms: e.LEGAL_TERMS_URL ?? '/legal/terms',
      privacy: e.LEGAL_PRIVACY_URL ?? '/legal/privacy',
      dataProcessing: e.LEGAL_DPA_URL ?? '/legal/data-processing',
    },
    production,
    signInThrottle: {
      windowSeconds: e.LOGIN_WINDOW_SECONDS,
      freeFailuresPerAccount: e.LOGIN_FREE_FAILURES_PER_ACCOUNT,
      maxDelaySeconds: e.LOGIN_MAX_DELAY_SECONDS,
      failuresPerIp: e.LOGIN_FAILURES_PER_IP,
    },
    identityProviders,
  };
}

function billingSettings(e: Env): BillingSettings {
  return {
    stripe: e.STRIPE_SECRET_KEY
      ? {
          secretKey: e.STRIPE_SECRET_KEY,
          webhookSecret: e.STRIPE_WEBHOOK_SECRET,
          apiBase: e.STRIPE_API_BASE?.replace(/\/+$/, ''),
          timeoutMs: e.STRIPE_TIMEOUT_MS,
          maxNetworkRetries: e.STRIPE_MAX_NETWORK_RETRIES,
        }
      : null,
    catalogueFile: e.BILLING_CATALOGUE ? path.resolve(e.BILLING_CATALOGUE) : undefined,
    extraRequestPriceUsd: e.BILLING_EXTRA_REQUEST_PRICE_USD,
  };
}
