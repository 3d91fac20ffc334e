/**
 * The search engine as one request sees it: every read waits for one of the request's engine
 * slots (ENGINE_CALLS_PER_REQUEST), and none starts once the request's signal has aborted (its
 * client went away, its budget ran out). Before, a GraphQL request of 250 aliased resolves put
 * ~1,000 full-text queries into the engine at once, and they all ran after their answers had
 * been given up: another account's search waited 39-97 s behind them. Now a request holds at
 * most its slots' worth of engine work, and what it queued is dropped when it is abandoned; a
 * query already running inside the engine finishes (LanceDB's native queries take no signal),
 * which the slots bound too.
 */
import type { SearchEngine } from './search-engine.js';

/** The engine's read methods a request calls; the others (writes, lifecycle) pass through untouched. */
export const READS: ReadonlySet<string | symbol> = new Set<string | symbol>([
  'keywordSearch',
  'vectorSearch',
  'vectorScores',
  'passageVectors',
  'passages',
  'documentPlaces',
  'documentsMatching',
  'getDocuments',
  'getDocumentsWithoutText',
  'vectorModel',
]);

/** The reads that take the signal themselves (their engines check it between the rounds of a search). */
const SIGNAL_AWARE = new Set<string | symbol>(['keywordSearch', 'vectorSearch']);

/** What requests made the engine do, for tests, benchmarks and /ready-style reports. */
export class EngineWork {
  /** Reads started. */
  started = 0;
  /** Reads that ended (answered or failed). */
  finished = 0;
  /** Reads never started because their request was abandoned (while waiting for a slot, or before asking). */
  dropped = 0;
  /** Reads waiting for a slot of their request now. */
  waiting = 0;

  /** Reads running in the engine now. */
  get running(): number {
    return this.started - this.finished;
  }
}

/** One request's engine slots: at most `size` reads at once, the rest wait in order. */
export class EngineCallSlots {
  private busy = 0;
  private readonly queue: { grant: () => void }[] = [];

  constructor(readonly size: number) {}

  /** Resolves when a slot is free (the caller must then call the release it gets); rejects when `signal` aborts first. */
  acquire(signal: AbortSignal): Promise<() => void> {
    signal.throwIfAborted();
    if (this.busy < this.size) {
      this.busy++;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        grant: () => {
          signal.removeEventListener('abort', abandon);
          resolve(this.releaser());
        },
      };
      const abandon = () => {
        this.queue.splice(this.queue.indexOf(waiter), 1);
        reject(signal.reason as Error);
      };
      signal.addEventListener('abort', abandon, { once: true });
      this.queue.push(waiter);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      if (next) next.grant();
      else this.busy--;
    };
  }
}

/**
 * `engine` for one request: its reads wait for a slot of `slots` and are dropped once `signal`
 * aborts (they reject with the signal's reason); `work` counts them.
 */
export function requestEngine(engine: SearchEngine, options: { signal: AbortSignal; slots: EngineCallSlots; work: EngineWork }): SearchEngine {
  const { signal, slots, work } = options;
  const read = async (method: (...args: unknown[]) => Promise<unknown>, name: string | symbol, args: unknown[]) => {
    work.waiting++;
    let release: () => void;
    try {
      release = await slots.acquire(signal);
    } catch (error) {
      work.dropped++;
      throw error;
    } finally {
      work.waiting--;
    }
    if (signal.aborted) {
      // abandoned while the slot was being handed over
      release();
      work.dropped++;
      throw signal.reason as Error;
    }
    work.started++;
    try {
      return await method.apply(engine, SIGNAL_AWARE.has(name) ? [...args.slice(0, 3), { signal: withCallersSignal(signal, args[3]) }] : args);
    } finally {
      work.finished++;
      release();
    }
  };
  return new Proxy(engine, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => Promise<unknown>;
      return READS.has(name) ? (...args: unknown[]) => read(method, name, args) : method.bind(target);
    },
  });
}

/** The request's signal, and the caller's own when it passed one (a leg's budget: VECTOR_TIMEOUT_MS). */
function withCallersSignal(signal: AbortSignal, options: unknown): AbortSignal {
  const own = (options as { signal?: AbortSignal } | undefined)?.signal;
  return own ? AbortSignal.any([signal, own]) : signal;
}
