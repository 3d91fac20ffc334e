/**
 * The first start as a timeline, read from the service's own log (pino JSON lines): each step
 * with when it began and how long it ran until the next, and the longest silences (gaps with
 * no log line at all). Issue 38: no step longer than 30 s without a progress line.
 */

interface LogLine {
  at: number;
  msg: string;
}

/** Log lines that start a step of the first start, with the step's name. */
const MILESTONES: { name: string; pattern: RegExp; once?: boolean }[] = [
  { name: 'listening', pattern: /^listening on/ },
  { name: 'ingest (keyword index)', pattern: /^ingest: \d+ files, .*keyword index only/ },
  { name: 'ingest (embedding the index)', pattern: /^ingest: \d+ files, (?!.*keyword index only)/ },
  { name: 're-embedding', pattern: /^ingest: the embedding model changed/ },
  { name: 'training', pattern: /^train: (vocabulary|SVD of|held-out pairs before)/ },
  { name: 'optimize', pattern: /^ingest: optimizing the index: (?!.*s in this step)/ },
  { name: 'optimized', pattern: /^ingest: optimizing the index done in/ },
  { name: 're-embedding step', pattern: /^ingest: re-embedding: (?!.*s in this step)/ },
  { name: 're-embedded', pattern: /^ingest: re-embedding done in/ },
  { name: 'citation counts', pattern: /^citation counts /, once: true },
  { name: 'citations counted', pattern: /^ingest: citations counted/ },
  { name: 'citation graph', pattern: /^ingest: citation graph/ },
  { name: 'ingest finished', pattern: /^ingest finished/ },
  { name: 'model trained', pattern: /^search: domain embedding model trained|^train: model written/ },
];

export function parseLogLines(lines: string[]): LogLine[] {
  const out: LogLine[] = [];
  for (const line of lines) {
    try {
      const entry = JSON.parse(line) as { time?: string | number; msg?: string };
      const at = typeof entry.time === 'number' ? entry.time : Date.parse(String(entry.time));
      if (Number.isFinite(at) && typeof entry.msg === 'string') out.push({ at, msg: entry.msg });
    } catch {
      /* not a log line (a stack trace's continuation) */
    }
  }
  return out;
}

export interface Timeline {
  steps: { at: number; name: string; detail: string; seconds: number }[];
  silences: { seconds: number; after: string; before: string }[];
}

/** Steps from `started` (ms) to `endedAt` (ms: ready), and the three longest silences. */
export function firstStartTimeline(lines: string[], started: number, endedAt: number): Timeline {
  const parsed = parseLogLines(lines).filter((l) => l.at >= started - 1000);
  const marks: { at: number; name: string; detail: string }[] = [];
  const seen = new Set<string>();
  for (const l of parsed) {
    const m = MILESTONES.find((x) => x.pattern.test(l.msg));
    if (!m || (m.once && seen.has(m.name))) continue;
    seen.add(m.name);
    marks.push({ at: l.at, name: m.name, detail: l.msg.slice(0, 110) });
  }
  marks.push({ at: endedAt, name: 'ready', detail: '/ready answered 200' });
  const steps = marks.map((m, i) => ({ ...m, at: (m.at - started) / 1000, seconds: ((marks[i + 1]?.at ?? m.at) - m.at) / 1000 }));
  const gaps: Timeline['silences'] = [];
  const times = [{ at: started, msg: '(start)' }, ...parsed, { at: endedAt, msg: '(ready)' }];
  for (let i = 1; i < times.length; i++) gaps.push({ seconds: (times[i]!.at - times[i - 1]!.at) / 1000, after: times[i - 1]!.msg.slice(0, 90), before: times[i]!.msg.slice(0, 90) });
  gaps.sort((a, b) => b.seconds - a.seconds);
  return { steps, silences: gaps.slice(0, 3) };
}

export function printTimeline(t: Timeline): void {
  console.log('\nfirst start, step by step (from the service log; s from the start):');
  for (const s of t.steps) console.log(`  ${s.at.toFixed(1).padStart(7)} s  ${s.name.padEnd(28)} ${s.seconds.toFixed(1).padStart(7)} s  ${s.detail}`);
  const worst = t.silences[0];
  console.log(`longest silences (no log line): ${t.silences.map((s) => `${s.seconds.toFixed(1)} s`).join(', ')}; target ≤ 30 s: ${worst && worst.seconds > 30 ? 'OVER' : 'ok'}`);
  if (worst) console.log(`  the longest after "${worst.after}" until "${worst.before}"`);
}
