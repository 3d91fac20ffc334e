/**
 * The fine-tuning's dense products in WebAssembly SIMD (dense-kernels.wat, compiled by `npm run
 * build:wasm`): a batch's B × B similarities and the two gradient products, four float32 values
 * at a time. The batch's arrays live in the module's memory; contrastive.ts fills and reads them
 * through the views below.
 */
import { DENSE_KERNELS_WASM_BASE64 } from './dense-kernels.wasm.js';

interface KernelExports {
  similarities(a: number, p: number, out: number, B: number, dim: number, scale: number, from: number, to: number): void;
  combine(g: number, gOut: number, gIn: number, x: number, out: number, n: number, dim: number, from: number, to: number): void;
}

/** The part of the WebAssembly API used here (the project's TypeScript libraries type only its namespace). */
interface WasmApi {
  Memory: new (descriptor: { initial: number }) => { buffer: ArrayBuffer };
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

let compiled: object | null = null;

export class DenseKernels {
  /** The batch's anchor and passage embeddings (B rows of dim). */
  readonly a: Float32Array;
  readonly p: Float32Array;
  /** Similarities, then the loss's gradient with respect to them (B × B). */
  readonly sims: Float32Array;
  readonly g: Float32Array;
  /** Gradients with respect to the embeddings (B rows of dim). */
  readonly dA: Float32Array;
  readonly dP: Float32Array;
  private readonly kernels: KernelExports;
  private readonly at: { a: number; p: number; sims: number; g: number; dA: number; dP: number };

  constructor(
    private readonly B: number,
    private readonly dim: number,
  ) {
    if (dim % 4 !== 0) throw new Error(`contrastive fine-tuning: the dimension must be a multiple of 4 (${dim})`);
    const rows = B * dim * 4;
    const square = B * B * 4;
    const sizes = { a: rows, p: rows, sims: square, g: square, dA: rows, dP: rows };
    let offset = 0;
    const at = {} as Record<keyof typeof sizes, number>;
    for (const [name, size] of Object.entries(sizes) as [keyof typeof sizes, number][]) {
      at[name] = offset;
      offset += Math.ceil(size / 16) * 16;
    }
    const memory = new wasm.Memory({ initial: Math.max(1, Math.ceil(offset / 65_536)) });
    compiled ??= new wasm.Module(Buffer.from(DENSE_KERNELS_WASM_BASE64, 'base64'));
    this.kernels = new wasm.Instance(compiled, { env: { memory } }).exports as unknown as KernelExports;
    this.at = at;
    const view = (name: keyof typeof sizes, length: number) => new Float32Array(memory.buffer, at[name], length);
    this.a = view('a', B * dim);
    this.p = view('p', B * dim);
    this.sims = view('sims', B * B);
    this.g = view('g', B * B);
    this.dA = view('dA', B * dim);
    this.dP = view('dP', B * dim);
  }

  /** sims[i * B + j] = scale · (a_i · p_j). */
  similarities(scale: number): void {
    this.kernels.similarities(this.at.a, this.at.p, this.at.sims, this.B, this.dim, scale, 0, this.B);
  }

  /** dA = G P and dP = Gᵀ A (the rows of G that are zero cost nothing). */
  gradients(): void {
    const { g, a, p, dA, dP } = this.at;
    this.kernels.combine(g, this.B, 1, p, dA, this.B, this.dim, 0, this.B);
    this.kernels.combine(g, 1, this.B, a, dP, this.B, this.dim, 0, this.B);
  }
}
