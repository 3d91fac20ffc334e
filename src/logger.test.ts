import { createLogger } from './logger.js';

/** A logger writing into an array, and its lines parsed. */
function capture(level: Parameters<typeof createLogger>[0] = 'debug') {
  const lines: string[] = [];
  return { logger: createLogger(level, (line) => lines.push(line)), lines, parsed: () => lines.map((l) => JSON.parse(l) as Record<string, any>) };
}

describe('createLogger (pino)', () => {
  it('writes one JSON object per line with the level name, time and message, from the configured level up', () => {
    const { logger, lines, parsed } = capture('info');
    logger.debug('hidden');
    logger.info('listening on http://127.0.0.1:8000');
    logger.warn('careful', { file: 'a.jsonl.gz' });
    expect(lines).toHaveLength(2);
    expect(parsed()).toEqual([
      { level: 'info', time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), msg: 'listening on http://127.0.0.1:8000' },
      { level: 'warn', time: expect.any(String), msg: 'careful', file: 'a.jsonl.gz' },
    ]);
    expect(logger.level).toBe('info');
  });

  it('writes nothing at silent', () => {
    const { logger, lines } = capture('silent');
    logger.error('boom', new Error('x'));
    expect(lines).toEqual([]);
  });

  it('logs an error with its type, message and stack', () => {
    const { logger, parsed } = capture();
    logger.error('ingest failed', new TypeError('bad line'));
    expect(parsed()[0]).toMatchObject({ level: 'error', msg: 'ingest failed', err: { type: 'TypeError', message: 'bad line', stack: expect.stringContaining('TypeError: bad line') } });
  });

  it('redacts authorization headers, cookies, tokens, secrets and passwords wherever they sit in the fields', () => {
    const { logger, lines } = capture();
    const error = Object.assign(new Error('upstream refused'), {
      request: { headers: { authorization: 'Bearer sk-SECRET-KEY', cookie: 'session=SECRET-COOKIE' } },
    });
    logger.error('identity provider failed', error, {
      req: { headers: { authorization: 'Basic SECRET-BASIC', cookie: 'session=SECRET-COOKIE-2', 'set-cookie': 'session=SECRET-3' } },
      body: { email: 'ann@example.org', password: 'SECRET-PASSWORD', refresh_token: 'SECRET-REFRESH', client_secret: 'SECRET-CLIENT' },
      token: 'SECRET-TOKEN',
    });
    const text = lines.join('\n');
    expect(text).not.toMatch(/SECRET/);
    expect(text).toContain('ann@example.org');
    expect(text.match(/\[REDACTED\]/g)!.length).toBeGreaterThanOrEqual(8);
  });
});
