/**
 * Progress of a long-running command: a redrawn bar on a terminal, a log line every few
 * seconds otherwise (server logs), and a snapshot for /ready.
 */
export interface ProgressSnapshot {
  done: number;
  total: number | null;
  perSecond: number | null;
  etaSeconds: number | null;
  elapsedSeconds: number;
}

export interface ProgressOptions {
  /** Writes one finished line (log mode). */
  log: (line: string) => void;
  /** A terminal stream to redraw a bar on; when absent, lines go to `log` every `intervalMs`. */
  tty?: NodeJS.WriteStream;
  intervalMs?: number;
  now?: () => number;
}

export class Progress {
  private done = 0;
  private lastDraw = 0;
  private readonly startedAt: number;
  private readonly now: () => number;

  constructor(
    private readonly label: string,
    private total: number | null,
    private readonly options: ProgressOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.startedAt = this.now();
  }

  setTotal(total: number): void {
    this.total = total;
  }

  advance(count: number, note = ''): void {
    this.done += count;
    const at = this.now();
    const interval = this.options.tty ? 200 : (this.options.intervalMs ?? 5000);
    if (at - this.lastDraw >= interval) {
      this.lastDraw = at;
      this.draw(note);
    }
  }

  snapshot(): ProgressSnapshot {
    const elapsedSeconds = (this.now() - this.startedAt) / 1000;
    const perSecond = elapsedSeconds > 0.5 ? this.done / elapsedSeconds : null;
    const remaining = this.total !== null ? Math.max(0, this.total - this.done) : null;
    const etaSeconds = perSecond && remaining !== null ? remaining / perSecond : null;
    return { done: this.done, total: this.total, perSecond, etaSeconds, elapsedSeconds };
  }

  /** Draws the final state and ends the bar's line. */
  finish(note = ''): void {
    this.draw(note);
    if (this.options.tty) this.options.tty.write('\n');
  }

  private draw(note: string): void {
    const line = formatProgress(this.label, this.snapshot(), note);
    if (this.options.tty) this.options.tty.write(`\r${line.padEnd(110).slice(0, 140)}`);
    else this.options.log(line);
  }
}

/** `ingest [#####-----] 45% 61,234/137,000 docs 812 docs/s ETA 1m33s (note)` */
export function formatProgress(label: string, s: ProgressSnapshot, note = ''): string {
  const width = 24;
  const ratio = s.total ? Math.min(1, s.done / s.total) : 0;
  const filled = Math.round(ratio * width);
  const bar = s.total ? `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${Math.floor(ratio * 100)}% ` : '';
  const counts = s.total !== null ? `${s.done.toLocaleString('en')}/${s.total.toLocaleString('en')}` : s.done.toLocaleString('en');
  const rate = s.perSecond !== null ? ` ${Math.round(s.perSecond).toLocaleString('en')} docs/s` : '';
  const eta = s.etaSeconds !== null ? ` ETA ${formatDuration(s.etaSeconds)}` : '';
  return `${label} ${bar}${counts} docs${rate}${eta}${note ? ` (${note})` : ''}`;
}

export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}
