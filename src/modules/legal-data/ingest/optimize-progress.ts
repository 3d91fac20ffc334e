/**
 * Long index steps, never silent: a log line as each step starts, another every `heartbeatMs`
 * while one step runs (the vector index of the full corpus builds for minutes), and one summary
 * with every step's duration. `onStep` tells /ready which step runs. Used by the index's
 * optimize and by the vector index build at the end of a re-embedding.
 */
import type { SearchEngine } from '../../../engines/search-engine.js';

export interface StepProgressOptions {
  log: (line: string) => void;
  onStep?: (step: string) => void;
  heartbeatMs?: number;
  now?: () => number;
}

export interface StepTimeline {
  seconds: number;
  steps: { step: string; seconds: number }[];
}

/**
 * Runs `work`, handing it the `step(name)` callback it names its steps with; logs as above under
 * `what` ("optimizing the index" → "ingest: optimizing the index: <step>").
 */
export async function withStepProgress(what: string, work: (step: (name: string) => void) => Promise<void>, options: StepProgressOptions): Promise<StepTimeline> {
  const now = options.now ?? Date.now;
  const started = now();
  const steps: { step: string; started: number }[] = [];
  const seconds = (ms: number) => Math.round(ms / 100) / 10;
  const heartbeat = setInterval(() => {
    const current = steps.at(-1);
    const where = current ? `${current.step}, ${seconds(now() - current.started)} s in this step` : 'starting';
    options.log(`ingest: ${what}: ${where} (${seconds(now() - started)} s so far)`);
  }, options.heartbeatMs ?? 15_000);
  heartbeat.unref();
  try {
    await work((step) => {
      steps.push({ step, started: now() });
      options.log(`ingest: ${what}: ${step}`);
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
  options.log(`ingest: ${what} done in ${timeline.seconds} s${parts ? ` (${parts})` : ''}`);
  return timeline;
}

/** The engine's optimize, each of its steps logged (see withStepProgress). */
export function optimizeWithProgress(engine: Pick<SearchEngine, 'optimize'>, options: StepProgressOptions): Promise<StepTimeline> {
  return withStepProgress('optimizing the index', (step) => engine.optimize(step), options);
}
