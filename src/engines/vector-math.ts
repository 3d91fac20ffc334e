/** Small vector arithmetic shared by the engines (and the tests' protocol servers). */

/** Euclidean norm of a vector. */
export function norm(v: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  return Math.sqrt(s);
}

/** Cosine similarity (0 when either vector is zero): the embedded engine's rescoring. */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

/**
 * A query vector moved towards passages judged relevant (Rocchio's relevance feedback, with
 * only positive examples): `normalize(q / |q| + weight · Σp / |Σp|)`. With no passages (or
 * only zero vectors) it is the normalised query.
 */
export function feedbackQuery(query: Float32Array, passages: ArrayLike<number>[], weight: number): Float32Array {
  const sum = new Float32Array(query.length);
  for (const p of passages) for (let i = 0; i < sum.length; i++) sum[i] += p[i] ?? 0;
  const nq = norm(query) || 1;
  const ns = norm(sum);
  const out = new Float32Array(query.length);
  for (let i = 0; i < out.length; i++) out[i] = query[i] / nq + (ns > 0 ? (weight * sum[i]) / ns : 0);
  const n = norm(out) || 1;
  for (let i = 0; i < out.length; i++) out[i] /= n;
  return out;
}

/** A copy of `array` with room for `length` elements (the same kind of typed array, zeros after). */
export function grownArray<T extends Int8Array | Uint8Array | Int32Array | Float32Array>(array: T, length: number): T {
  const out = new (array.constructor as new (n: number) => T)(length);
  out.set(array);
  return out;
}
