import { parseServerTiming, StageTimer } from './stage-timer.js';

describe('StageTimer', () => {
  it('times sync and async stages, adds up a stage timed twice, and writes Server-Timing', async () => {
    const timer = new StageTimer();
    expect(timer.sync('parse', () => 42)).toBe(42);
    await timer.time('keyword', () => new Promise((resolve) => setTimeout(resolve, 20)));
    await timer.time('keyword', () => new Promise((resolve) => setTimeout(resolve, 20)));
    await expect(timer.time('vector', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    const stages = new Map(timer.entries());
    expect([...stages.keys()]).toEqual(['parse', 'keyword', 'vector']);
    expect(stages.get('keyword')!).toBeGreaterThanOrEqual(35);
    expect(stages.get('parse')!).toBeLessThan(stages.get('keyword')!);
    const header = timer.serverTiming();
    expect(header).toMatch(/^parse;dur=\d+\.\d\d, keyword;dur=\d+\.\d\d, vector;dur=\d+\.\d\d$/);
    const parsed = parseServerTiming(header);
    expect([...parsed.keys()]).toEqual(['parse', 'keyword', 'vector']);
    expect(parsed.get('keyword')).toBeCloseTo(stages.get('keyword')!, 1);
  });

  it('parses Server-Timing headers of other servers, skipping entries without a duration', () => {
    expect(parseServerTiming('db;desc="Database";dur=53.2, cache;desc="Cache Read", app;dur=7')).toEqual(
      new Map([
        ['db', 53.2],
        ['app', 7],
      ]),
    );
    expect(parseServerTiming(null)).toEqual(new Map());
  });
});
