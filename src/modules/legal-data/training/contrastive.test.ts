import { groupedOrder } from './contrastive.js';
import { createRandom } from './linalg.js';

describe('grouped batches', () => {
  // 12 groups of 96 pairs each (18 runs of 64), in a shuffled order
  const groups = Int32Array.from({ length: 1152 }, (_, i) => Math.floor(i / 96));
  const order = Int32Array.from({ length: 1152 }, (_, i) => (i * 7919) % 1152);

  it('keeps every pair once and cuts the groups into runs of `run` pairs of (mostly) one group', () => {
    const out = groupedOrder(order, groups, 64, createRandom(1));
    expect([...out].sort((a, b) => a - b)).toEqual([...order].sort((a, b) => a - b));
    const runs = Array.from({ length: Math.ceil(out.length / 64) }, (_, r) => out.subarray(r * 64, (r + 1) * 64));
    // a run is cut from the pairs sorted by group: at most two groups (one boundary) each
    for (const run of runs) expect(new Set(Array.from(run, (id) => groups[id])).size).toBeLessThanOrEqual(2);
    // so a batch of 512 mixes several groups' runs: hard negatives inside each, easier ones across
    const batch = new Set(Array.from(out.subarray(0, 512), (id) => groups[id]));
    expect(batch.size).toBeGreaterThanOrEqual(5);
  });

  it('is deterministic for a seed', () => {
    expect(groupedOrder(order, groups, 64, createRandom(7))).toEqual(groupedOrder(order, groups, 64, createRandom(7)));
    expect(groupedOrder(order, groups, 64, createRandom(7))).not.toEqual(groupedOrder(order, groups, 64, createRandom(8)));
  });
});
