import { formatDuration, formatProgress, Progress } from './progress.js';

describe('Progress', () => {
  it('reports rate and ETA from a clock', () => {
    let now = 0;
    const lines: string[] = [];
    const p = new Progress('ingest', 1000, { log: (l) => lines.push(l), intervalMs: 1000, now: () => now });
    now = 2000;
    p.advance(200);
    const s = p.snapshot();
    expect(s.perSecond).toBe(100);
    expect(s.etaSeconds).toBe(8);
    expect(lines[0]).toMatch(/ingest \[#+-+\] 20% 200\/1,000 docs 100 docs\/s ETA 8s/);
    p.finish('done');
    expect(lines.at(-1)).toMatch(/\(done\)$/);
  });

  it('formats durations', () => {
    expect(formatDuration(59)).toBe('59s');
    expect(formatDuration(125)).toBe('2m05s');
    expect(formatDuration(3 * 3600 + 60)).toBe('3h01m');
    expect(formatProgress('x', { done: 5, total: null, perSecond: null, etaSeconds: null, elapsedSeconds: 0 })).toBe('x 5 docs');
  });
});
