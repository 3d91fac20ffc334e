/**
 * Small dense/sparse linear algebra for the trainer, on typed arrays: a seeded random number
 * generator, a randomized truncated SVD of a sparse passage x token matrix (Halko, Martinsson
 * and Tropp 2011, with power iterations), and a Jacobi eigen-solver for the small matrix it
 * reduces to. Pure, single-threaded and deterministic for a seed.
 */

/** Seeded PRNG (mulberry32): uniform numbers in [0, 1). */
export function createRandom(seed: number): () => number {
  let a = seed >>> 0 || 0x9e3779b9;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard normal numbers from a uniform generator (Box–Muller). */
export function gaussian(random: () => number): () => number {
  let spare: number | null = null;
  return () => {
    if (spare !== null) {
      const s = spare;
      spare = null;
      return s;
    }
    const u = Math.max(random(), 1e-12);
    const v = random();
    const r = Math.sqrt(-2 * Math.log(u));
    spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  };
}

/** Sparse rows (one row per passage): column indices (token ids) and values. */
export interface SparseRows {
  offsets: Int32Array;
  columns: Int32Array;
  values: Float32Array;
  rows: number;
  cols: number;
}

/** Y (cols x l, row-major) = X^T Z, for Z (rows x l). */
function xtMul(x: SparseRows, z: Float64Array, l: number): Float64Array {
  const y = new Float64Array(x.cols * l);
  for (let r = 0; r < x.rows; r++) {
    const zo = r * l;
    for (let k = x.offsets[r]; k < x.offsets[r + 1]; k++) {
      const v = x.values[k];
      const yo = x.columns[k] * l;
      for (let j = 0; j < l; j++) y[yo + j] += v * z[zo + j];
    }
  }
  return y;
}

/** Z (rows x l) = X Q, for Q (cols x l, row-major). */
function xMul(x: SparseRows, q: Float64Array, l: number): Float64Array {
  const z = new Float64Array(x.rows * l);
  for (let r = 0; r < x.rows; r++) {
    const zo = r * l;
    for (let k = x.offsets[r]; k < x.offsets[r + 1]; k++) {
      const v = x.values[k];
      const qo = x.columns[k] * l;
      for (let j = 0; j < l; j++) z[zo + j] += v * q[qo + j];
    }
  }
  return z;
}

/** Orthonormal columns (modified Gram–Schmidt) of a row-major n x l matrix, in place. */
export function orthonormalize(a: Float64Array, n: number, l: number): void {
  // Work on columns (contiguous) for speed, then write back.
  const cols: Float64Array[] = [];
  for (let j = 0; j < l; j++) {
    const c = new Float64Array(n);
    for (let i = 0; i < n; i++) c[i] = a[i * l + j];
    cols.push(c);
  }
  for (let j = 0; j < l; j++) {
    const cj = cols[j];
    for (let p = 0; p < j; p++) {
      const cp = cols[p];
      let dot = 0;
      for (let i = 0; i < n; i++) dot += cp[i] * cj[i];
      for (let i = 0; i < n; i++) cj[i] -= dot * cp[i];
    }
    let norm = 0;
    for (let i = 0; i < n; i++) norm += cj[i] * cj[i];
    norm = Math.sqrt(norm);
    const inv = norm > 1e-12 ? 1 / norm : 0;
    for (let i = 0; i < n; i++) cj[i] *= inv;
  }
  for (let j = 0; j < l; j++) {
    const c = cols[j];
    for (let i = 0; i < n; i++) a[i * l + j] = c[i];
  }
}

/** Eigen-decomposition of a symmetric l x l matrix (cyclic Jacobi): values descending, vectors as columns. */
export function symmetricEigen(m: Float64Array, l: number): { values: Float64Array; vectors: Float64Array } {
  const a = Float64Array.from(m);
  const v = new Float64Array(l * l);
  for (let i = 0; i < l; i++) v[i * l + i] = 1;
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    for (let p = 0; p < l; p++) for (let q = p + 1; q < l; q++) off += a[p * l + q] * a[p * l + q];
    if (off < 1e-22) break;
    for (let p = 0; p < l; p++) {
      for (let q = p + 1; q < l; q++) {
        const apq = a[p * l + q];
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (a[q * l + q] - a[p * l + p]) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < l; k++) {
          const akp = a[k * l + p];
          const akq = a[k * l + q];
          a[k * l + p] = c * akp - s * akq;
          a[k * l + q] = s * akp + c * akq;
        }
        for (let k = 0; k < l; k++) {
          const apk = a[p * l + k];
          const aqk = a[q * l + k];
          a[p * l + k] = c * apk - s * aqk;
          a[q * l + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < l; k++) {
          const vkp = v[k * l + p];
          const vkq = v[k * l + q];
          v[k * l + p] = c * vkp - s * vkq;
          v[k * l + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const order = Array.from({ length: l }, (_, i) => i).sort((x, y) => a[y * l + y] - a[x * l + x]);
  const values = new Float64Array(l);
  const vectors = new Float64Array(l * l);
  order.forEach((src, dst) => {
    values[dst] = a[src * l + src];
    for (let k = 0; k < l; k++) vectors[k * l + dst] = v[k * l + src];
  });
  return { values, vectors };
}

/**
 * Top-`k` right singular vectors of X (the token side: cols x k, row-major) and the singular
 * values, by randomized SVD with `powerIterations` passes of X^T X.
 */
export function randomizedSvd(
  x: SparseRows,
  k: number,
  options: { seed: number; oversample?: number; powerIterations?: number; onStep?: (step: string) => void },
): { vectors: Float64Array; values: Float64Array } {
  const l = Math.min(k + (options.oversample ?? 8), x.cols);
  const normal = gaussian(createRandom(options.seed));
  const omega = new Float64Array(x.rows * l);
  for (let i = 0; i < omega.length; i++) omega[i] = normal();
  let q = xtMul(x, omega, l); // cols x l: the range of X^T
  orthonormalize(q, x.cols, l);
  for (let it = 0; it < (options.powerIterations ?? 2); it++) {
    options.onStep?.(`power iteration ${it + 1}`);
    q = xtMul(x, xMul(x, q, l), l);
    orthonormalize(q, x.cols, l);
  }
  // M = Q^T X^T X Q (l x l): eigenvectors W give the singular vectors Q W.
  const y = xtMul(x, xMul(x, q, l), l);
  const m = new Float64Array(l * l);
  for (let t = 0; t < x.cols; t++) {
    const o = t * l;
    for (let i = 0; i < l; i++) {
      const qi = q[o + i];
      if (qi === 0) continue;
      for (let j = i; j < l; j++) m[i * l + j] += qi * y[o + j];
    }
  }
  for (let i = 0; i < l; i++) for (let j = 0; j < i; j++) m[i * l + j] = m[j * l + i];
  const { values, vectors: w } = symmetricEigen(m, l);
  const out = new Float64Array(x.cols * k);
  for (let t = 0; t < x.cols; t++) {
    for (let j = 0; j < Math.min(k, l); j++) {
      let s = 0;
      for (let p = 0; p < l; p++) s += q[t * l + p] * w[p * l + j];
      out[t * k + j] = s;
    }
  }
  const singular = new Float64Array(k);
  // A vocabulary smaller than k gives fewer directions: the remaining columns stay 0.
  for (let j = 0; j < Math.min(k, l); j++) singular[j] = Math.sqrt(Math.max(0, values[j]));
  return { vectors: out, values: singular };
}
