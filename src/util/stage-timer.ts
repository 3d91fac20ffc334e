/**
 * A cheap per-request stage timer: the search pipeline records how long each of its stages
 * took (parse, citation scan, embedding, each leg, fusion, ...), and the REST route sends them
 * as a `Server-Timing` header (https://www.w3.org/TR/server-timing/) so the response body keeps
 * the shape of the spec. Stages that run concurrently (the two legs) each report their own
 * duration; a stage timed twice (a retried search) adds up.
 */
export class StageTimer {
  private readonly stages = new Map<string, number>();

  /** Times a synchronous step. */
  sync<T>(stage: string, fn: () => T): T {
    const started = performance.now();
    try {
      return fn();
    } finally {
      this.add(stage, performance.now() - started);
    }
  }

  /** Times an asynchronous step (until its promise settles). */
  async time<T>(stage: string, fn: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await fn();
    } finally {
      this.add(stage, performance.now() - started);
    }
  }

  add(stage: string, ms: number): void {
    this.stages.set(stage, (this.stages.get(stage) ?? 0) + ms);
  }

  /** Stage -> milliseconds, in the order the stages first ran. */
  entries(): [string, number][] {
    return [...this.stages];
  }

  /** `parse;dur=0.12, keyword;dur=3.4, …` (durations in ms, 2 decimals). */
  serverTiming(): string {
    return this.entries()
      .map(([stage, ms]) => `${stage};dur=${ms.toFixed(2)}`)
      .join(', ');
  }
}

/** Parses a `Server-Timing` header into stage -> milliseconds (entries without `dur` are skipped). */
export function parseServerTiming(header: string | null | undefined): Map<string, number> {
  const out = new Map<string, number>();
  for (const entry of (header ?? '').split(',')) {
    const [name, ...params] = entry.trim().split(';');
    const dur = params.map((p) => /^\s*dur=([\d.]+)\s*$/.exec(p)?.[1]).find((d) => d !== undefined);
    if (name && dur !== undefined) out.set(name.trim(), Number(dur));
  }
  return out;
}

