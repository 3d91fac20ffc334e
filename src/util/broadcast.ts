/**
 * Lets several consumers read one async stream in lockstep: each item is read from the source
 * once, and the next is only read when every consumer has taken the current one, so memory
 * holds one item whatever the stream's length. A consumer that stops early leaves the others
 * going.
 */
export function broadcast<T>(source: AsyncIterable<T>, consumers: number): AsyncIterable<T>[] {
  const iterator = source[Symbol.asyncIterator]();
  let generation = 0;
  let current: Promise<IteratorResult<T>> = iterator.next();
  let taken = 0;
  let active = consumers;
  let advanced = deferred();

  const advanceIfAllTook = (result: IteratorResult<T> | null) => {
    if (taken < active) return;
    taken = 0;
    generation += 1;
    if (result && !result.done) current = iterator.next();
    const waiting = advanced;
    advanced = deferred();
    waiting.resolve();
  };

  const take = async (mine: number): Promise<IteratorResult<T>> => {
    while (mine > generation) await advanced.promise;
    const result = await current;
    taken += 1;
    advanceIfAllTook(result);
    return result;
  };

  return Array.from({ length: consumers }, () => ({
    async *[Symbol.asyncIterator]() {
      let mine = 0;
      let tookCurrent = false;
      try {
        for (; ; mine++) {
          tookCurrent = false;
          const result = await take(mine);
          tookCurrent = true;
          if (result.done) return;
          yield result.value;
        }
      } finally {
        // Leaving early: stop counting on this consumer (and undo its take of the current item).
        active -= 1;
        if (tookCurrent && mine === generation) taken -= 1;
        if (active > 0) advanceIfAllTook(await current.catch(() => null));
        else void iterator.return?.();
      }
    },
  }));
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
