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

  it('caps SSE sessions with defaults', () => {
    expect(loadConfig({}).sse).toEqual({ maxSessions: 500, maxSessionsPerAccount: 5 });
    expect(loadConfig({ SSE_MAX_SESSIONS: '10', SSE_MAX_SESSIONS_PER_ACCOUNT: '1' }).sse).toEqual({ maxSessions: 10, maxSessionsPerAccount: 1 });
    expect(() => loadConfig({ SSE_MAX_SESSIONS_PER_ACCOUNT: '0' })).toThrow(/SSE_MAX_SESSIONS_PER_ACCOUNT/);
  });
});

describe('GRAPHQL_*', () => {
  it('bounds GraphQL operations with defaults, each overridable and validated', () => {
    expect(loadConfig({}).graphql.limits).toEqual({ maxBodyBytes: 102_400, maxTokens: 500, maxAliases: 5, maxDepth: 8, maxDirectives: 10, maxCost: 1000 });
    const env = { GRAPHQL_MAX_BODY_BYTES: '2048', GRAPHQL_MAX_TOKENS: '50', GRAPHQL_MAX_ALIASES: '0', GRAPHQL_MAX_DEPTH: '3', GRAPHQL_MAX_DIRECTIVES: '1', GRAPHQL_MAX_COST: '99' };
    expect(loadConfig(env).graphql.limits).toEqual({ maxBodyBytes: 2048, maxTokens: 50, maxAliases: 0, maxDepth: 3, maxDirectives: 1, maxCost: 99 });
    for (const [name, bad] of [['GRAPHQL_MAX_TOKENS', '0'], ['GRAPHQL_MAX_DEPTH', 'deep'], ['GRAPHQL_MAX_BODY_BYTES', '10'], ['GRAPHQL_MAX_COST', '1.5']]) {
      expect(() => loadConfig({ [name!]: bad })).toThrow(new RegExp(name!));
    }
  });

  it('turns introspection (and with it field suggestions) off in production unless GRAPHQL_INTROSPECTION says otherwise', () => {
    const secret = 'x'.repeat(32);
    expect(loadConfig({}).graphql.introspection).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', SESSION_SECRET: secret }).graphql.introspection).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', SESSION_SECRET: secret, GRAPHQL_INTROSPECTION: 'true' }).graphql.introspection).toBe(true);
    expect(loadConfig({ GRAPHQL_INTROSPECTION: 'off' }).graphql.introspection).toBe(false);
    expect(() => loadConfig({ GRAPHQL_INTROSPECTION: 'maybe' })).toThrow(/GRAPHQL_INTROSPECTION/);
  });
});
