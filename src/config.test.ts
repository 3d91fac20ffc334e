import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8000);
    expect(config.baseUrl).toBe('http://localhost:8000');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.searchEngine).toBe('embedded');
    expect(config.embedder).toEqual({ kind: 'none' });
    expect(config.dataDir.endsWith('/data')).toBe(true);
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

  it('parses remote subgraph URLs and the static embedder', () => {
    const config = loadConfig({ SUBGRAPH_URLS: 'legal-data=http://127.0.0.1:4001/graphql', EMBEDDER: 'static:/models/x' });
    expect(config.subgraphUrls).toEqual({ 'legal-data': 'http://127.0.0.1:4001/graphql' });
    expect(config.embedder).toEqual({ kind: 'static', dir: '/models/x' });
  });
});
