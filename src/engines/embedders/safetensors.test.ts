import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseSafetensors, readRows, readSafetensorsHeader, readTensor } from './safetensors.js';

/** A safetensors file with the given tensors (raw little-endian bytes), header padded to `headerPad` spaces. */
function safetensorsFile(tensors: Record<string, { dtype: string; shape: number[]; bytes: Buffer }>, headerPad = 0): Buffer {
  const header: Record<string, unknown> = { __metadata__: { format: 'pt' } };
  let offset = 0;
  for (const [name, t] of Object.entries(tensors)) {
    header[name] = { dtype: t.dtype, shape: t.shape, data_offsets: [offset, offset + t.bytes.length] };
    offset += t.bytes.length;
  }
  const json = Buffer.from(JSON.stringify(header) + ' '.repeat(headerPad));
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(json.length));
  return Buffer.concat([length, json, ...Object.values(tensors).map((t) => t.bytes)]);
}

describe('safetensors', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'safetensors-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const rows = 7;
  const dim = 5;
  const values = Float32Array.from({ length: rows * dim }, (_, i) => (i % 3 === 0 ? -1 : 1) * (i + 0.5) / 8);
  const f16 = Buffer.alloc(rows * dim * 2);
  values.forEach((v, i) => f16.writeUInt16LE(new Uint16Array(Float16Array.of(v).buffer)[0], i * 2)); // exact in float16

  it.each([
    ['F32', Buffer.from(values.buffer)],
    ['F16', f16],
  ])('streams a 2-D %s tensor block by block to the same floats as a whole-buffer parse', async (dtype, bytes) => {
    // Header padding of 1 byte: the data does not start on a 4-byte boundary.
    const buf = safetensorsFile({ weights: { dtype: 'F32', shape: [rows], bytes: Buffer.from(new Float32Array(rows).fill(0.25).buffer) }, embeddings: { dtype, shape: [rows, dim], bytes } }, 1);
    const file = path.join(root, `${dtype}.safetensors`);
    await writeFile(file, buf);
    const whole = parseSafetensors(buf);
    expect(Array.from(whole.tensors.get('embeddings')!.data)).toEqual(Array.from(values));
    expect(whole.metadata).toEqual({ format: 'pt' });

    const handle = await open(file);
    try {
      const { entries } = await readSafetensorsHeader(handle);
      const matrix = entries.find((e) => e.name === 'embeddings')!;
      const streamed = new Float32Array(rows * dim);
      const blocks: number[] = [];
      // Blocks of 3 rows (the last one shorter).
      await readRows(handle, matrix, (block, first, count) => {
        blocks.push(count);
        streamed.set(block.subarray(0, count * dim), first * dim);
      }, 3 * dim * (dtype === 'F32' ? 4 : 2));
      expect(blocks).toEqual([3, 3, 1]);
      expect(Array.from(streamed)).toEqual(Array.from(values));
      const weights = await readTensor(handle, entries.find((e) => e.name === 'weights')!);
      expect(Array.from(weights!)).toEqual(new Array(rows).fill(0.25));
    } finally {
      await handle.close();
    }
  });

  it('rejects a truncated file and a tensor whose size does not match its shape', async () => {
    const buf = safetensorsFile({ embeddings: { dtype: 'F32', shape: [rows, dim], bytes: Buffer.from(values.buffer) } });
    expect(() => parseSafetensors(buf.subarray(0, buf.length - 4))).toThrow(/out of bounds/);
    const wrongShape = safetensorsFile({ embeddings: { dtype: 'F32', shape: [rows, dim + 1], bytes: Buffer.from(values.buffer) } });
    expect(() => parseSafetensors(wrongShape)).toThrow(/bytes, expected/);
    const file = path.join(root, 'wrong.safetensors');
    await writeFile(file, wrongShape);
    const handle = await open(file);
    try {
      const { entries } = await readSafetensorsHeader(handle);
      await expect(readRows(handle, entries[0], () => undefined)).rejects.toThrow(/bytes, expected/);
    } finally {
      await handle.close();
    }
  });
});
