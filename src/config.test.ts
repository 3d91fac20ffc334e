import { availableParallelism } from 'node:os';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8000);
    expect(config.baseUrl).toBe('http://localhost:8000');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.searchEngine).toBe('embedded');
    expect(config.embedder).toEqual({ kind: 'auto' });
    expect(config.dataDir.endsWith('/data')).toBe(true);
  });

  it('reads the engine settings: embedded by default, Elasticsearch with its vector leg and credentials', () => {
    expect(loadConfig({})).toMatchObject({ searchEngine: 'embedded', vectorEngine: 'embedded', elasticsearch: null });
    const es = loadConfig({ SEARCH_ENGINE: 'elasticsearch', ELASTICSEARCH_URL: 'http://es:9200/', ELASTICSEARCH_API_KEY: 'k' });
    expect(es).toMatchObject({
      searchEngine: 'elasticsearch',
      vectorEngine: 'elasticsearch',
      elasticsearch: { url: 'http://es:9200', apiKey: 'k', username: undefined, password: undefined, indexPrefix: 'legal-', shards: 1, replicas: 0 },
    });
    expect(loadConfig({ SEARCH_ENGINE: 'elasticsearch', VECTOR_ENGINE: 'pinecone', PINECONE_INDEX: 'passages', PINECONE_API_KEY: 'k', ELASTICSEARCH_URL: 'http://es:9200', ELASTICSEARCH_USERNAME: 'u', ELASTICSEARCH_PASSWORD: 'p', ELASTICSEARCH_INDEX_PREFIX: 'prod.' })).toMatchObject({
      vectorEngine: 'pinecone',
      elasticsearch: { username: 'u', password: 'p', indexPrefix: 'prod.' },
    });
    expect(loadConfig({ SEARCH_ENGINE: 'elasticsearch', ELASTICSEARCH_URL: 'http://es:9200', ELASTICSEARCH_SHARDS: '12', ELASTICSEARCH_REPLICAS: '1' })).toMatchObject({
      elasticsearch: { shards: 12, replicas: 1 },
    });
    expect(() => loadConfig({ SEARCH_ENGINE: 'elasticsearch' })).toThrow(/ELASTICSEARCH_URL: required with SEARCH_ENGINE=elasticsearch/);
    expect(() => loadConfig({ VECTOR_ENGINE: 'pinecone' })).toThrow(/VECTOR_ENGINE: "pinecone" needs PINECONE_INDEX or PINECONE_HOST/);
    expect(() => loadConfig({ VECTOR_ENGINE: 'elasticsearch' })).toThrow(/VECTOR_ENGINE: must be "embedded" or "pinecone" with SEARCH_ENGINE=embedded/);
    expect(() => loadConfig({ VECTOR_ENGINE: 'embedded', PINECONE_HOST: 'http://127.0.0.1:5081', PINECONE_API_KEY: 'k' })).toThrow(/PINECONE_INDEX \/ PINECONE_HOST: set/);
    expect(loadConfig({ PINECONE_HOST: 'http://127.0.0.1:5081', PINECONE_API_KEY: 'k' })).toMatchObject({ searchEngine: 'embedded', vectorEngine: 'pinecone' });
    expect(() => loadConfig({ SEARCH_ENGINE: 'elasticsearch', VECTOR_ENGINE: 'embedded', ELASTICSEARCH_URL: 'http://es:9200' })).toThrow(/VECTOR_ENGINE/);
    expect(() => loadConfig({ SEARCH_ENGINE: 'elasticsearch', ELASTICSEARCH_URL: 'http://es:9200', ELASTICSEARCH_USERNAME: 'u' })).toThrow(/ELASTICSEARCH_PASSWORD/);
    expect(() => loadConfig({ SEARCH_ENGINE: 'elasticsearch', ELASTICSEARCH_URL: 'http://es:9200', ELASTICSEARCH_INDEX_PREFIX: 'Bad*' })).toThrow(/ELASTICSEARCH_INDEX_PREFIX/);
  });

  it('lists every invalid value at once', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', SEARCH_ENGINE: 'solr', LOG_LEVEL: 'loud' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toMatch(/PORT/);
    expect(problems).toMatch(/DATABASE_URL/);
    expect(problems).toMatch(/SEARCH_ENGINE/);
    expect(problems).toMatch(/LOG_LEVEL/);
  });

  it('reads the billing settings: off without a secret key, validated keys and a local API base', () => {
    expect(loadConfig({}).billing).toEqual({ stripe: null, catalogueFile: undefined, extraRequestPriceUsd: undefined });
    expect(loadConfig({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_y', STRIPE_API_BASE: 'http://127.0.0.1:12111/', BILLING_EXTRA_REQUEST_PRICE_USD: '0.01' }).billing).toEqual({
      stripe: { secretKey: 'sk_test_x', webhookSecret: 'whsec_y', apiBase: 'http://127.0.0.1:12111', timeoutMs: 20_000, maxNetworkRetries: 2 },
      catalogueFile: undefined,
      extraRequestPriceUsd: 0.01,
    });
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'pk_test_public', STRIPE_WEBHOOK_SECRET: 'nope' })).toThrow(/STRIPE_SECRET_KEY[\s\S]*STRIPE_WEBHOOK_SECRET/);
  });

  it('parses remote subgraph URLs and the static embedder', () => {
    const config = loadConfig({ SUBGRAPH_URLS: 'legal-data=http://127.0.0.1:4001/graphql', EMBEDDER: 'static:/models/x' });
    expect(config.subgraphUrls).toEqual({ 'legal-data': 'http://127.0.0.1:4001/graphql' });
    expect(config.embedder).toEqual({ kind: 'static', dir: '/models/x' });
  });

  it('reads the accounts settings: safe defaults, admin e-mails, identity providers, a required secret in production', () => {
    expect(loadConfig({}).accounts).toMatchObject({
      sessionSecret: undefined,
      adminEmails: [],
      allowAnonymous: false,
      rateLimits: true,
      redisUrl: undefined,
      smtpUrl: undefined,
      devLogin: false,
      identityProviders: {},
    });
    const config = loadConfig({
      ADMIN_EMAILS: ' Boss@Example.org ,ops@example.org,',
      RATE_LIMITS: 'off',
      GOOGLE_CLIENT_ID: 'id',
      GOOGLE_CLIENT_SECRET: 'secret',
      GITHUB_CLIENT_ID: 'only-an-id',
    });
    expect(config.accounts.adminEmails).toEqual(['boss@example.org', 'ops@example.org']);
    expect(config.accounts.rateLimits).toBe(false);
    expect(Object.keys(config.accounts.identityProviders)).toEqual(['google']);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SESSION_SECRET/);
    expect(() => loadConfig({ SESSION_SECRET: 'short' })).toThrow(/SESSION_SECRET/);
    expect(() => loadConfig({ REDIS_URL: 'http://x' })).toThrow(/REDIS_URL/);
  });

  it('refuses development-only mail and sign-in settings in production, every problem listed at once', () => {
    const secret = 'x'.repeat(32);
    // MAIL_LOG writes one-time tokens (password reset, verification) to the log: never in production
    expect(() => loadConfig({ NODE_ENV: 'production', SESSION_SECRET: secret, MAIL_LOG: 'true' })).toThrow(/MAIL_LOG: must not be true when NODE_ENV=production/);
    expect(loadConfig({ NODE_ENV: 'production', SESSION_SECRET: secret, MAIL_LOG: 'false' }).accounts.mailLog).toBe(false);
    expect(loadConfig({ MAIL_LOG: 'true' }).accounts.mailLog).toBe(true);
    let error: unknown;
    try {
      loadConfig({ NODE_ENV: 'production', MAIL_LOG: 'on', DEV_LOGIN: 'true' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      expect.stringMatching(/^SESSION_SECRET: required/),
      expect.stringMatching(/^DEV_LOGIN: must not be true/),
      expect.stringMatching(/^MAIL_LOG: must not be true/),
    ]);
  });

  it('reads the sign-in throttle with documented defaults and refuses nonsense', () => {
    expect(loadConfig({}).accounts.signInThrottle).toEqual({ windowSeconds: 900, freeFailuresPerAccount: 5, maxDelaySeconds: 60, failuresPerIp: 100 });
    expect(
      loadConfig({ LOGIN_WINDOW_SECONDS: '600', LOGIN_FREE_FAILURES_PER_ACCOUNT: '3', LOGIN_MAX_DELAY_SECONDS: '120', LOGIN_FAILURES_PER_IP: '500' }).accounts.signInThrottle,
    ).toEqual({ windowSeconds: 600, freeFailuresPerAccount: 3, maxDelaySeconds: 120, failuresPerIp: 500 });
    expect(() => loadConfig({ LOGIN_MAX_DELAY_SECONDS: '0' })).toThrow(/LOGIN_MAX_DELAY_SECONDS/);
    expect(() => loadConfig({ LOGIN_FAILURES_PER_IP: 'many' })).toThrow(/LOGIN_FAILURES_PER_IP/);
  });

  it('sends HSTS for a year by default, configurable', () => {
    expect(loadConfig({}).hstsMaxAgeSeconds).toBe(31_536_000);
    expect(loadConfig({ HSTS_MAX_AGE_SECONDS: '0' }).hstsMaxAgeSeconds).toBe(0);
    expect(() => loadConfig({ HSTS_MAX_AGE_SECONDS: '-1' })).toThrow(/HSTS_MAX_AGE_SECONDS/);
  });
});

describe('TRUST_PROXY', () => {
  it('takes express\'s trust-proxy values, loopback by default, and refuses anything else', () => {
    expect(loadConfig({}).trustProxy).toEqual(['loopback']);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8, 192.168.0.1, fc00::/7, 172.16.0.0/255.240.0.0' }).trustProxy).toEqual([
      'loopback',
      '10.0.0.0/8',
      '192.168.0.1',
      'fc00::/7',
      '172.16.0.0/255.240.0.0',
    ]);
    for (const bad of ['yes please', '10.0.0.0/33', '300.1.1.1', 'loopback,', 'example.org']) {
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(/TRUST_PROXY/);
    }
  });

  it('reads MCP_ALLOWED_ORIGINS as browser origins (none by default, * for any) and refuses what is not an origin', () => {
    expect(loadConfig({}).mcpAllowedOrigins).toEqual([]);
    expect(loadConfig({ MCP_ALLOWED_ORIGINS: '*' }).mcpAllowedOrigins).toBe('*');
    expect(loadConfig({ MCP_ALLOWED_ORIGINS: 'HTTPS://App.Example:443/, http://localhost:6274, chrome-extension://abcdefgh' }).mcpAllowedOrigins).toEqual([
      'https://app.example',
      'http://localhost:6274',
      'chrome-extension://abcdefgh',
    ]);
    for (const bad of ['app.example', 'https://app.example/callback', 'https://app.example?x=1', 'https://user@app.example', '*, https://app.example', 'null', ',']) {
      expect(() => loadConfig({ MCP_ALLOWED_ORIGINS: bad })).toThrow(/MCP_ALLOWED_ORIGINS/);
    }
  });

  it('lets twice the cores search at once by default (SEARCH_CONCURRENCY=0), any count from 1, and refuses the rest', () => {
    expect(loadConfig({}).searchConcurrency).toBe(2 * availableParallelism());
    expect(loadConfig({ SEARCH_CONCURRENCY: '0' }).searchConcurrency).toBe(2 * availableParallelism());
    expect(loadConfig({ SEARCH_CONCURRENCY: '3' }).searchConcurrency).toBe(3);
    expect(() => loadConfig({ SEARCH_CONCURRENCY: '-1' })).toThrow(/SEARCH_CONCURRENCY/);
    expect(() => loadConfig({ SEARCH_CONCURRENCY: 'many' })).toThrow(/SEARCH_CONCURRENCY/);
  });

  it('caps SSE sessions with defaults', () => {
    expect(loadConfig({}).sse).toEqual({ maxSessions: 500, maxSessionsPerAccount: 5, maxSessionsPerIp: 20, maxSessionsUnverified: 1, idleTimeoutSeconds: 300 });
    expect(
      loadConfig({ SSE_MAX_SESSIONS: '10', SSE_MAX_SESSIONS_PER_ACCOUNT: '1', SSE_MAX_SESSIONS_PER_IP: '3', SSE_MAX_SESSIONS_UNVERIFIED: '0', SSE_IDLE_TIMEOUT_SECONDS: '60' }).sse,
    ).toEqual({ maxSessions: 10, maxSessionsPerAccount: 1, maxSessionsPerIp: 3, maxSessionsUnverified: 0, idleTimeoutSeconds: 60 });
    expect(() => loadConfig({ SSE_MAX_SESSIONS_PER_ACCOUNT: '0' })).toThrow(/SSE_MAX_SESSIONS_PER_ACCOUNT/);
    expect(() => loadConfig({ SSE_MAX_SESSIONS_PER_IP: '0' })).toThrow(/SSE_MAX_SESSIONS_PER_IP/);
    expect(() => loadConfig({ SSE_IDLE_TIMEOUT_SECONDS: '0' })).toThrow(/SSE_IDLE_TIMEOUT_SECONDS/);
  });

  it('sets the HTTP server\'s timeouts and connection caps, with defaults; the headers timeout within the request timeout', () => {
    expect(loadConfig({}).http).toEqual({ headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5000, maxConnections: 4096, maxConnectionsPerIp: 64 });
    expect(
      loadConfig({ HTTP_HEADERS_TIMEOUT_SECONDS: '5', HTTP_REQUEST_TIMEOUT_SECONDS: '5', HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: '2', HTTP_MAX_CONNECTIONS: '100', HTTP_MAX_CONNECTIONS_PER_IP: '10' }).http,
    ).toEqual({ headersTimeoutMs: 5000, requestTimeoutMs: 5000, keepAliveTimeoutMs: 2000, maxConnections: 100, maxConnectionsPerIp: 10 });
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_SECONDS: '40' })).toThrow(/HTTP_HEADERS_TIMEOUT_SECONDS: must not exceed HTTP_REQUEST_TIMEOUT_SECONDS \(30\)/);
    // 0 would mean "no timeout" to Node: refused
    for (const name of ['HTTP_HEADERS_TIMEOUT_SECONDS', 'HTTP_REQUEST_TIMEOUT_SECONDS', 'HTTP_KEEP_ALIVE_TIMEOUT_SECONDS', 'HTTP_MAX_CONNECTIONS', 'HTTP_MAX_CONNECTIONS_PER_IP']) {
      expect(() => loadConfig({ [name]: '0' })).toThrow(new RegExp(name));
    }
  });
});

describe('DNS and team domain re-checks', () => {
  it('uses the system resolvers and daily re-checks by default; takes IP servers with ports and refuses host names', () => {
    expect(loadConfig({})).toMatchObject({
      dns: { servers: null, timeoutMs: 3000, tries: 2 },
      teamDomains: { recheckMs: 24 * 3_600_000, graceMs: 72 * 3_600_000, retryMs: 3_600_000, sweepMs: 300_000, sweepBatch: 100 },
    });
    const set = loadConfig({ DNS_SERVERS: '10.0.0.2, 127.0.0.1:5353,[::1]:53,::1', TEAM_DOMAIN_RECHECK_HOURS: '0.5', TEAM_DOMAIN_SWEEP_SECONDS: '0' });
    expect(set.dns.servers).toEqual(['10.0.0.2', '127.0.0.1:5353', '[::1]:53', '::1']);
    expect(set.teamDomains).toMatchObject({ recheckMs: 1_800_000, sweepMs: 0 });
    for (const bad of ['dns.example', '127.0.0.1:0', '127.0.0.1:70000', '1.2.3.4:53:1', '[127.0.0.1]:53', ',']) {
      expect(() => loadConfig({ DNS_SERVERS: bad })).toThrow(/DNS_SERVERS: must be comma-separated IP addresses/);
    }
    expect(() => loadConfig({ TEAM_DOMAIN_RECHECK_HOURS: '0' })).toThrow(/TEAM_DOMAIN_RECHECK_HOURS/);
    expect(() => loadConfig({ DNS_TIMEOUT_MS: '10' })).toThrow(/DNS_TIMEOUT_MS/);
  });
});

describe('GRAPHQL_*', () => {
  it('bounds GraphQL operations with defaults, each overridable and validated', () => {
    expect(loadConfig({}).graphql.limits).toEqual({ maxBodyBytes: 102_400, maxTokens: 500, maxAliases: 5, maxDepth: 12, maxDirectives: 10, maxCost: 1000 });
    const env = { GRAPHQL_MAX_BODY_BYTES: '2048', GRAPHQL_MAX_TOKENS: '50', GRAPHQL_MAX_ALIASES: '0', GRAPHQL_MAX_DEPTH: '3', GRAPHQL_MAX_DIRECTIVES: '1', GRAPHQL_MAX_COST: '99' };
    expect(loadConfig(env).graphql.limits).toEqual({ maxBodyBytes: 2048, maxTokens: 50, maxAliases: 0, maxDepth: 3, maxDirectives: 1, maxCost: 99 });
    for (const [name, bad] of [['GRAPHQL_MAX_TOKENS', '0'], ['GRAPHQL_MAX_DEPTH', 'deep'], ['GRAPHQL_MAX_BODY_BYTES', '10'], ['GRAPHQL_MAX_COST', '1.5']]) {
      expect(() => loadConfig({ [name!]: bad })).toThrow(new RegExp(name!));
    }
  });

  it('turns introspection (and with it field suggestions) off in production unless GRAPHQL_INTROSPECTION says otherwise', () => {
    const secret = 'x'.repeat(32);
    expect(loadConfig({}).graphql.introspection).toBe(true);
    // the Apollo gateway library's own telemetry stays off unless asked for (no third party contacted)
    expect(loadConfig({}).graphql.vendorTelemetry).toBe(false);
    expect(loadConfig({ GRAPHQL_VENDOR_TELEMETRY: 'true' }).graphql.vendorTelemetry).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', SESSION_SECRET: secret }).graphql.introspection).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', SESSION_SECRET: secret, GRAPHQL_INTROSPECTION: 'true' }).graphql.introspection).toBe(true);
    expect(loadConfig({ GRAPHQL_INTROSPECTION: 'off' }).graphql.introspection).toBe(false);
    expect(() => loadConfig({ GRAPHQL_INTROSPECTION: 'maybe' })).toThrow(/GRAPHQL_INTROSPECTION/);
  });
});
