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
  embed(tokens: number, count: number, weights: number, table: number, out: number, dim: number): number;
  backprop(u: number, du: number, norm: number, tokens: number, count: number, weights: number, grad: number, touched: number, dim: number): void;
  update(tokens: number, count: number, grad: number, table: number, accum: number, touched: number, dim: number, rate: number): void;
}

/** WebAssembly's 32-bit memory: the token table and its gradient must fit in it. */
const MAX_BYTES = 4 * 1024 ** 3 - 65_536;

/** The part of the WebAssembly API used here (the project's TypeScript libraries type only its namespace). */
interface WasmApi {
  Memory: new (descriptor: { initial: number }) => { buffer: ArrayBuffer };
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

let compiled: object | null = null;

/**
 * The training state the kernels work on: the token table, its gradient, the Adagrad sums and the
 * touched marks (vocabulary rows), the token weights, one text's tokens, and the batch's arrays.
 */
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
  /** The token table being trained (vocabulary rows of dim): copied in by `loadTable`, out by `saveTable`. */
  readonly table: Float32Array;
  readonly weights: Float32Array;
  private readonly tokens: Int32Array;
  private readonly kernels: KernelExports;
  private readonly at: Record<'a' | 'p' | 'sims' | 'g' | 'dA' | 'dP' | 'table' | 'grad' | 'accum' | 'weights' | 'touched' | 'tokens', number>;

  constructor(
    private readonly B: number,
    private readonly dim: number,
    vocabSize: number,
    private readonly maxTokens: number,
  ) {
    if (dim % 4 !== 0) throw new Error(`contrastive fine-tuning: the dimension must be a multiple of 4 (${dim})`);
    const rows = B * dim * 4;
    const square = B * B * 4;
    const vocabRows = vocabSize * dim * 4;
    const sizes = { a: rows, p: rows, sims: square, g: square, dA: rows, dP: rows, table: vocabRows, grad: vocabRows, accum: vocabSize * 4, weights: vocabSize * 4, touched: vocabSize, tokens: maxTokens * 4 };
    let offset = 0;
    const at = {} as Record<keyof typeof sizes, number>;
    for (const [name, size] of Object.entries(sizes) as [keyof typeof sizes, number][]) {
      at[name] = offset;
      offset += Math.ceil(size / 16) * 16;
    }
    if (offset > MAX_BYTES) throw new Error(`contrastive fine-tuning: a vocabulary of ${vocabSize} x ${dim} does not fit in 4 GB of WebAssembly memory`);
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
    this.table = view('table', vocabSize * dim);
    this.weights = view('weights', vocabSize);
    this.tokens = new Int32Array(memory.buffer, at.tokens, maxTokens);
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

  /** Row `i` of the anchors' or passages' embeddings from a text's tokens; returns its norm before normalising. */
  embed(side: 'a' | 'p', i: number, tokens: Int32Array): number {
    const count = this.loadTokens(tokens);
    return this.kernels.embed(this.at.tokens, count, this.at.weights, this.at.table, this.at[side] + i * this.dim * 4, this.dim);
  }

  /** Row `i`'s gradient back through its normalisation into its tokens' gradient rows. */
  backprop(side: 'a' | 'p', i: number, norm: number, tokens: Int32Array): void {
    const count = this.loadTokens(tokens);
    const du = side === 'a' ? this.at.dA : this.at.dP;
    const offset = i * this.dim * 4;
    this.kernels.backprop(this.at[side] + offset, du + offset, norm, this.at.tokens, count, this.at.weights, this.at.grad, this.at.touched, this.dim);
  }

  /** Adagrad on the touched rows among a text's tokens (each row once per batch). */
  update(tokens: Int32Array, rate: number): void {
    const count = this.loadTokens(tokens);
    this.kernels.update(this.at.tokens, count, this.at.grad, this.at.table, this.at.accum, this.at.touched, this.dim, rate);
  }

  private loadTokens(tokens: Int32Array): number {
    const count = Math.min(tokens.length, this.maxTokens);
    this.tokens.set(count === tokens.length ? tokens : tokens.subarray(0, count));
    return count;
  }
}
