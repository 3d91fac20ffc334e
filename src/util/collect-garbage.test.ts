import { setImmediate as nextTurn } from 'node:timers/promises';
import { collectGarbage } from './collect-garbage.js';

describe('collectGarbage', () => {
  it('collects what nothing references any more', async () => {
    let big: Uint8Array | null = new Uint8Array(8 * 1024 * 1024);
    const ref = new WeakRef(big);
    big = null;
    await nextTurn(); // a WeakRef keeps its target alive until the current job ends
    expect(await collectGarbage()).toBe(true);
    expect(ref.deref()).toBeUndefined();
  });
});
