/**
 * safetensors files: an 8-byte little-endian header length, a JSON header (dtype, shape and
 * byte range of each tensor), then the raw little-endian data. Float tensors are read as
 * Float32Array whatever their stored type (F32, F16, BF16, F64, I8), integer ones as
 * Int32Array (I32, I64); other types are skipped.
 *
 * `parseSafetensors` decodes a whole buffer. `readRows` streams one 2-D tensor from an open
 * file in blocks of rows through one reused buffer, so that a large table is never held twice
 * (file bytes and decoded copy) while it is being loaded.
 */
import type { FileHandle } from 'node:fs/promises';

/** A tensor of a safetensors file; `start` and `end` are byte offsets in the file. */
export interface TensorEntry {
  name: string;
  dtype: string;
  shape: number[];
  start: number;
  end: number;
}

/** A parsed safetensors file: tensors by name, as typed arrays. */
export interface SafeTensors {
  tensors: Map<string, { dtype: string; shape: number[]; data: Float32Array | Int32Array }>;
  metadata: Record<string, string>;
}

const FLOAT_WIDTHS: Record<string, number> = { F32: 4, F16: 2, BF16: 2, F64: 8, I8: 1 };
const INT_WIDTHS: Record<string, number> = { I32: 4, I64: 8 };

/** True for the stored types read as floats. */
export function isFloatTensor(entry: TensorEntry): boolean {
  return entry.dtype in FLOAT_WIDTHS;
}

let halfTable: Float32Array | null = null;
function float16Table(): Float32Array {
  if (halfTable) return halfTable;
  halfTable = new Float32Array(65536);
  for (let h = 0; h < 65536; h++) {
    const sign = h & 0x8000 ? -1 : 1;
    const exp = (h >> 10) & 0x1f;
    const mant = h & 0x3ff;
    let v: number;
    if (exp === 0) v = mant * 2 ** -24;
    else if (exp === 31) v = mant ? NaN : Infinity;
    else v = (1 + mant / 1024) * 2 ** (exp - 15);
    halfTable[h] = sign * v;
  }
  return halfTable;
}

/** Decodes the float elements of `bytes` (stored as `dtype`) into the start of `out`. */
function decodeFloats(dtype: string, bytes: Uint8Array, out: Float32Array): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = bytes.length / FLOAT_WIDTHS[dtype];
  switch (dtype) {
    case 'F32':
      if (bytes.byteOffset % 4 === 0) out.set(new Float32Array(bytes.buffer, bytes.byteOffset, count));
      else for (let i = 0; i < count; i++) out[i] = view.getFloat32(i * 4, true);
      break;
    case 'F16': {
      const table = float16Table();
      for (let i = 0; i < count; i++) out[i] = table[view.getUint16(i * 2, true)];
      break;
    }
    case 'BF16': {
      const u32 = new Uint32Array(out.buffer, out.byteOffset, count);
      for (let i = 0; i < count; i++) u32[i] = view.getUint16(i * 2, true) << 16;
      break;
    }
    case 'F64':
      for (let i = 0; i < count; i++) out[i] = view.getFloat64(i * 8, true);
      break;
    case 'I8':
      for (let i = 0; i < count; i++) out[i] = view.getInt8(i);
      break;
  }
}

function checkLength(entry: TensorEntry, width: number): number {
  const count = entry.shape.reduce((a, b) => a * b, 1);
  const length = entry.end - entry.start;
  if (length !== count * width) throw new Error(`safetensors: tensor ${entry.name} has ${length} bytes, expected ${count * width}`);
  return count;
}

/** Decodes one tensor's bytes; undefined for a type the embedders never need. */
function decodeTensor(entry: TensorEntry, bytes: Uint8Array): Float32Array | Int32Array | undefined {
  if (isFloatTensor(entry)) {
    const data = new Float32Array(checkLength(entry, FLOAT_WIDTHS[entry.dtype]));
    decodeFloats(entry.dtype, bytes, data);
    return data;
  }
  if (!(entry.dtype in INT_WIDTHS)) return undefined;
  const count = checkLength(entry, INT_WIDTHS[entry.dtype]);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const data = new Int32Array(count);
  if (entry.dtype === 'I32') for (let i = 0; i < count; i++) data[i] = view.getInt32(i * 4, true);
  else for (let i = 0; i < count; i++) data[i] = Number(view.getBigInt64(i * 8, true));
  return data;
}

/** The tensors and metadata of a header, with byte ranges checked against the file's length. */
function parseHeader(json: string, base: number, fileLength: number): { entries: TensorEntry[]; metadata: Record<string, string> } {
  const header = JSON.parse(json) as Record<string, { dtype: string; shape: number[]; data_offsets: [number, number] } | Record<string, string>>;
  const entries: TensorEntry[] = [];
  let metadata: Record<string, string> = {};
  for (const [name, info] of Object.entries(header)) {
    if (name === '__metadata__') {
      metadata = info as Record<string, string>;
      continue;
    }
    const { dtype, shape, data_offsets } = info as { dtype: string; shape: number[]; data_offsets: [number, number] };
    const [start, end] = data_offsets;
    if (base + end > fileLength || start > end) throw new Error(`safetensors: tensor ${name} is out of bounds`);
    entries.push({ name, dtype, shape, start: base + start, end: base + end });
  }
  return { entries, metadata };
}

function headerLength(first8: Buffer, fileLength: number): number {
  if (fileLength < 8) throw new Error('safetensors: file too short');
  const length = Number(first8.readBigUInt64LE(0));
  if (length <= 0 || 8 + length > fileLength) throw new Error('safetensors: bad header length');
  return length;
}

/** Parses a whole safetensors buffer. */
export function parseSafetensors(buf: Buffer): SafeTensors {
  const length = headerLength(buf, buf.length);
  const { entries, metadata } = parseHeader(buf.toString('utf8', 8, 8 + length), 8 + length, buf.length);
  const tensors: SafeTensors['tensors'] = new Map();
  for (const entry of entries) {
    const data = decodeTensor(entry, buf.subarray(entry.start, entry.end));
    if (data) tensors.set(entry.name, { dtype: entry.dtype, shape: entry.shape, data });
  }
  return { tensors, metadata };
}

async function readExactly(file: FileHandle, buffer: Buffer, length: number, position: number): Promise<void> {
  let done = 0;
  while (done < length) {
    const { bytesRead } = await file.read(buffer, done, length - done, position + done);
    if (bytesRead === 0) throw new Error('safetensors: file ended early');
    done += bytesRead;
  }
}

/** Reads the header of an open safetensors file. */
export async function readSafetensorsHeader(file: FileHandle): Promise<{ entries: TensorEntry[]; metadata: Record<string, string> }> {
  const { size } = await file.stat();
  const first8 = Buffer.alloc(8);
  if (size >= 8) await readExactly(file, first8, 8, 0);
  const length = headerLength(first8, size);
  const json = Buffer.alloc(length);
  await readExactly(file, json, length, 8);
  return parseHeader(json.toString('utf8'), 8 + length, size);
}

/** Reads and decodes one (small) tensor of an open file; undefined for an unneeded type. */
export async function readTensor(file: FileHandle, entry: TensorEntry): Promise<Float32Array | Int32Array | undefined> {
  const bytes = Buffer.alloc(entry.end - entry.start);
  await readExactly(file, bytes, bytes.length, entry.start);
  return decodeTensor(entry, bytes);
}

/**
 * Streams a 2-D float tensor: `onRows(block, firstRow, count)` gets the next `count` rows as
 * floats at the start of `block`, which is reused for the next call (copy what you keep).
 */
export async function readRows(
  file: FileHandle,
  entry: TensorEntry,
  onRows: (block: Float32Array, firstRow: number, count: number) => void,
  blockBytes = 1024 * 1024,
): Promise<void> {
  if (entry.shape.length !== 2 || !isFloatTensor(entry)) throw new Error(`safetensors: tensor ${entry.name} is not a 2-D float tensor`);
  const width = FLOAT_WIDTHS[entry.dtype];
  checkLength(entry, width);
  const [rows, dim] = entry.shape;
  const rowBytes = dim * width;
  const rowsPerBlock = Math.max(1, Math.floor(blockBytes / Math.max(1, rowBytes)));
  const bytes = Buffer.alloc(rowsPerBlock * rowBytes);
  const block = new Float32Array(rowsPerBlock * dim);
  for (let first = 0; first < rows; first += rowsPerBlock) {
    const count = Math.min(rowsPerBlock, rows - first);
    await readExactly(file, bytes, count * rowBytes, entry.start + first * rowBytes);
    decodeFloats(entry.dtype, bytes.subarray(0, count * rowBytes), block);
    onRows(block, first, count);
  }
}
