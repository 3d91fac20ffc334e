import { groupedOrder, toPairSet, trainContrastive } from './contrastive.js';
import { DenseKernels } from './dense-kernels.js';
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

describe('contrastive fine-tuning', () => {
  it('trains the same vectors as the plain loops it replaced (to float rounding)', () => {
    // figures of the straightforward implementation (one write per term of each gradient sum, one
    // accumulator per dot product) on this seeded problem, recorded before the loops were reordered
    const random = createRandom(3);
    const V = 200;
    const dim = 20;
    const tokens = (n: number) => Array.from({ length: n }, () => 1 + Math.floor(random() * (V - 1)));
    const pairs = toPairSet(Array.from({ length: 96 }, (_, i) => ({ anchor: tokens(5), passage: tokens(12), group: i % 6, doc: Math.floor(i / 2) })));
    const table = Float32Array.from({ length: V * dim }, () => random() - 0.5);
    const weights = Float32Array.from({ length: V }, () => 0.2 + random());
    const loss = trainContrastive(table, weights, dim, pairs, { epochs: 2, batchSize: 32, learningRate: 0.05, temperature: 0.1, seed: 5, groupedBatches: true });
    let sum = 0;
    let squares = 0;
    for (const v of table) {
      sum += v;
      squares += v * v;
    }
    expect(loss).toBeCloseTo(2.1802168, 5);
    expect(sum).toBeCloseTo(-2.8296858, 4);
    expect(squares).toBeCloseTo(360.769765, 3);
    const row = Array.from(table.slice(20, 26));
    [0.5846928, -0.3750126, 0.2291088, 0.1227742, 0.43782, 0.3586161].forEach((v, d) => expect(row[d]).toBeCloseTo(v, 5));
  });
});

describe('dense kernels (WebAssembly SIMD)', () => {
  it('are compiled from dense-kernels.wat as committed (npm run build:wasm)', async () => {
    const { readFile } = await import('node:fs/promises');
    const { DENSE_KERNELS_TS, DENSE_KERNELS_WAT, renderWasmModule } = await import('../../../cli/build-wasm.js');
    expect(await renderWasmModule(await readFile(DENSE_KERNELS_WAT, 'utf8'))).toBe(await readFile(DENSE_KERNELS_TS, 'utf8'));
  });

  it('give the plain products, zero weights skipped', () => {
    const B = 6;
    const dim = 12; // one turn of eight floats, then the last four
    const dense = new DenseKernels(B, dim, 1, 1);
    const random = createRandom(9);
    dense.a.forEach((_, i) => (dense.a[i] = random() - 0.5));
    dense.p.forEach((_, i) => (dense.p[i] = random() - 0.5));
    dense.similarities(10);
    for (let i = 0; i < B; i++) {
      for (let j = 0; j < B; j++) {
        let s = 0;
        for (let d = 0; d < dim; d++) s += dense.a[i * dim + d] * dense.p[j * dim + d];
        expect(dense.sims[i * B + j]).toBeCloseTo(10 * s, 5);
      }
    }
    dense.g.forEach((_, k) => (dense.g[k] = k % 5 === 0 ? 0 : random() - 0.5));
    dense.dA.fill(7); // overwritten, not added to
    dense.gradients();
    for (let o = 0; o < B; o++) {
      for (let d = 0; d < dim; d++) {
        let viaRows = 0;
        let viaColumns = 0;
        for (let k = 0; k < B; k++) {
          viaRows += dense.g[o * B + k] * dense.p[k * dim + d];
          viaColumns += dense.g[k * B + o] * dense.a[k * dim + d];
        }
        expect(dense.dA[o * dim + d]).toBeCloseTo(viaRows, 5);
        expect(dense.dP[o * dim + d]).toBeCloseTo(viaColumns, 5);
      }
    }
  });

  it('refuse a dimension that is not a multiple of 4', () => {
    expect(() => new DenseKernels(4, 10, 1, 1)).toThrow('multiple of 4');
  });
});
