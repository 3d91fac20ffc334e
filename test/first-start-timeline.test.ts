import { firstStartTimeline } from '../bench/first-start-timeline.js';

const line = (at: number, msg: string) => JSON.stringify({ level: 30, time: new Date(at).toISOString(), msg });

describe('the first start timeline of npm run bench', () => {
  const t0 = Date.parse('2026-11-28T03:00:00Z');
  const logs = [
    line(t0 + 2_000, 'listening on http://127.0.0.1:1 (public URL http://localhost:1)'),
    line(t0 + 3_000, 'ingest: 10 files, 0 unchanged, 10 to index (100 documents), keyword index only (no embedding model configured)'),
    line(t0 + 8_000, 'ingest [####] 50% 50/100 docs'),
    line(t0 + 13_000, 'ingest: optimizing the index: full-text index'),
    line(t0 + 60_000, 'ingest: optimizing the index: compacting passages'),
    line(t0 + 61_000, 'ingest: optimizing the index done in 48 s (full-text index 47 s, compacting passages 1 s)'),
    'not json: a stack trace line',
    line(t0 + 62_000, 'ingest finished in 59s: files 10 indexed'),
  ];

  it('lists each step with its duration up to ready', () => {
    const t = firstStartTimeline(logs, t0, t0 + 70_000);
    expect(t.steps.map((s) => s.name)).toEqual(['listening', 'ingest (keyword index)', 'optimize', 'optimize', 'optimized', 'ingest finished', 'ready']);
    expect(t.steps[2]).toMatchObject({ at: 13, seconds: 47, detail: 'ingest: optimizing the index: full-text index' });
    expect(t.steps.at(-1)).toMatchObject({ at: 70, seconds: 0 });
  });

  it('finds the longest silence between two log lines', () => {
    const t = firstStartTimeline(logs, t0, t0 + 70_000);
    expect(t.silences[0]).toEqual({ seconds: 47, after: 'ingest: optimizing the index: full-text index', before: 'ingest: optimizing the index: compacting passages' });
    expect(t.silences[1]!.seconds).toBe(8);
  });
});
