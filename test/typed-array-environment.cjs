/**
 * Jest's node environment with the host's typed-array constructors. onnxruntime-node hands
 * back tensors made in the host realm, and onnxruntime-common checks `instanceof
 * Float32Array` in the test's realm, which fails across the two (a jest-only problem: the
 * service runs in one realm). Used by the ONNX embedder test through its docblock.
 */
const { TestEnvironment } = require('jest-environment-node');

class TypedArrayEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of ['ArrayBuffer', 'Float32Array', 'Float64Array', 'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array', 'BigInt64Array', 'BigUint64Array']) {
      this.global[name] = globalThis[name];
    }
  }
}

module.exports = TypedArrayEnvironment;
