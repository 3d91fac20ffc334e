/**
 * The index's optimize, never silent: a log line as each step starts, another every
 * `heartbeatMs` while one step runs (the vector index of the full corpus builds for minutes),
 * and one summary with every step's duration. `onStep` tells /ready which step runs.
 */
import type { SearchEngine } from '../../../engines/search-engine.js';

export interface OptimizeProgressOptions {
  log: (line: string) => void;
  onStep?: (step: string) => void;
  heartbeatMs?: number;
  now?: () => number;
}

export interface OptimizeTimeline {
  seconds: number;
  steps: { step: string; seconds: number }[];
}

export async function optimizeWithProgress(engine: Pick<SearchEngine, 'optimize'>, options: OptimizeProgressOptions): Promise<OptimizeTimeline> {
  const now = options.now ?? Date.now;
  const started = now();
  const steps: { step: string; started: number }[] = [];
  const seconds = (ms: number) => Math.round(ms / 100) / 10;
  const heartbeat = setInterval(() => {
    const current = steps.at(-1);
    const what = current ? `${current.step}, ${seconds(now() - current.started)} s in this step` : 'starting';
    options.log(`ingest: optimizing the index: ${what} (${seconds(now() - started)} s so far)`);
  }, options.heartbeatMs ?? 15_000);
  heartbeat.unref();
  try {
    await engine.optimize((step) => {
      steps.push({ step, started: now() });
      options.log(`ingest: optimizing the index: ${step}`);
      options.onStep?.(step);
    });
  } finally {
    clearInterval(heartbeat);
  }
  const ended = now();
  const timeline = {
    seconds: seconds(ended - started),
    steps: steps.map((s, i) => ({ step: s.step, seconds: seconds((steps[i + 1]?.started ?? ended) - s.started) })),
  };
  const parts = timeline.steps.map((s) => `${s.step} ${s.seconds} s`).join(', ');
  options.log(`ingest: index optimized in ${timeline.seconds} s${parts ? ` (${parts})` : ''}`);
  return timeline;
}
