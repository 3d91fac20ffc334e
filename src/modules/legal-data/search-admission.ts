/**
 * How many requests' searches run at once in this process (SEARCH_CONCURRENCY); the others wait
 * in arrival order. Without it, every search in flight shares the two cores: at 32 clients each
 * search ran 32-way shared, so its latency was its own cost times the crowd, and the long
 * questions' p99 reached nearly 3 × the median. In arrival order, a search waits its turn and then
 * runs among a few: the mean is the same (the cores do the same work), the tail shorter, and
 * the operations that are not searches (documents, resolve) no longer wait behind them
 * (docs/search.md, "Searches in arrival order").
 *
 * The unit is a request, not a search: every search of one request (a GraphQL operation's
 * aliases, an MCP batch) runs under the request's one admission, and within it the request's
 * own engine slots (ENGINE_CALLS_PER_REQUEST) bound what it does at once. So a request of 250
 * aliases takes one place in the queue, not 250 ahead of everyone else. A request that is
 * abandoned while it waits leaves the queue (its signal aborts the wait).
 */
import type { RequestContext } from '../../context.js';
import { EngineCallSlots } from '../../engines/request-engine.js';

const ADMISSION = Symbol('search admission');

/** The process's gate: at most `size` requests searching at once (size 0: no gate). */
export class SearchAdmission {
  private readonly slots: EngineCallSlots | null;
  /** Requests searching now, and waiting for their turn (for /ready-style reports and tests). */
  running = 0;
  waiting = 0;
  /** The most requests that ever searched at once, and waited at once. */
  peakRunning = 0;
  peakWaiting = 0;

  constructor(readonly size: number) {
    this.slots = size > 0 ? new EngineCallSlots(size) : null;
  }

  /** Runs `search` under `ctx`'s admission: the request's first search waits for a place, its others share it. */
  run<T>(ctx: RequestContext, search: () => Promise<T>): Promise<T> {
    if (!this.slots) return search();
    return ctx.loader(ADMISSION, () => new RequestAdmission(this, this.slots!, ctx.signal)).run(search);
  }

  /** Called by a request's admission as it enters and leaves. */
  entered(): void {
    this.running++;
    this.peakRunning = Math.max(this.peakRunning, this.running);
  }

  left(): void {
    this.running--;
  }
}

/** One request's place: taken when its first search starts, given back when its last one ends. */
class RequestAdmission {
  private searches = 0;
  private place: Promise<() => void> | null = null;

  constructor(
    private readonly gate: SearchAdmission,
    private readonly slots: EngineCallSlots,
    private readonly signal: AbortSignal,
  ) {}

  async run<T>(search: () => Promise<T>): Promise<T> {
    this.searches++;
    let release: () => void;
    try {
      release = await this.enter();
    } catch (error) {
      this.searches--;
      throw error;
    }
    try {
      return await search();
    } finally {
      if (--this.searches === 0) {
        this.place = null;
        this.gate.left();
        release();
      }
    }
  }

  /**
   * The request's place, asked for once however many of its searches wait for it. A wait that
   * fails fails for good: it fails only when the request was abandoned, and then so would any
   * later search of it.
   */
  private enter(): Promise<() => void> {
    if (!this.place) {
      // abandoned before it asked: refused here, never counted as waiting
      this.signal.throwIfAborted();
      this.gate.waiting++;
      this.gate.peakWaiting = Math.max(this.gate.peakWaiting, this.gate.waiting);
      const waiting = this.slots.acquire(this.signal).finally(() => this.gate.waiting--);
      this.place = waiting.then((release) => {
        this.gate.entered();
        return release;
      });
    }
    return this.place;
  }
}
