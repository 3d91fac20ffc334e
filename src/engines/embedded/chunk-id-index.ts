/**
 * The chunk ids of the vectors held in memory, and their rows: the ids' UTF-8 bytes end to end
 * with an open-addressing hash table over them. For the full corpus's 394k ids this is ~22 MB
 * (bytes, offsets, table) where a `Map<string, number>` took ~40 MB of live V8 heap and ~90 MB
 * committed (one string per id, read out of Arrow one by one). Lookups compare the bytes: exact.
 */

import { grownArray } from '../vector-math.js';

const encoder = new TextEncoder();
const EMPTY = -1;

export class ChunkIdIndex {
  private bytes = new Uint8Array(1 << 20);
  private used = 0;
  /** Start of each row's id in `bytes` (the end is the next row's start). */
  private starts = new Int32Array(1024 + 1);
  private count = 0;
  /** Row of each slot, EMPTY when free; built by `seal`. */
  private slots = new Int32Array(0);
  private scratch = new Uint8Array(256);

  get size(): number {
    return this.count;
  }

  /** Bytes held. */
  get byteLength(): number {
    return this.bytes.byteLength + this.starts.byteLength + this.slots.byteLength;
  }

  /** Appends the id at `values[from..to)` (UTF-8) as the next row; `seal` before looking up. */
  append(values: Uint8Array, from: number, to: number): void {
    const length = to - from;
    if (this.used + length > this.bytes.length) this.bytes = grownArray(this.bytes, Math.max(this.used + length, this.bytes.length * 2));
    if (this.count + 2 > this.starts.length) this.starts = grownArray(this.starts, this.starts.length * 2);
    this.bytes.set(values.subarray(from, to), this.used);
    this.starts[this.count] = this.used;
    this.used += length;
    this.count += 1;
    this.starts[this.count] = this.used;
  }

  /** Builds the hash table over every appended id (a table at most half full). */
  seal(): void {
    let size = 1;
    while (size < this.count * 2) size *= 2;
    this.slots = new Int32Array(size).fill(EMPTY);
    for (let row = 0; row < this.count; row++) {
      let slot = hash(this.bytes, this.starts[row]!, this.starts[row + 1]!) & (size - 1);
      while (this.slots[slot] !== EMPTY) slot = (slot + 1) & (size - 1);
      this.slots[slot] = row;
    }
    // What was over-allocated while appending is given back.
    this.bytes = this.bytes.slice(0, this.used);
    this.starts = this.starts.slice(0, this.count + 1);
  }

  /** The row of `id`, or undefined. */
  rowOf(id: string): number | undefined {
    if (this.slots.length === 0) return undefined;
    if (id.length * 3 > this.scratch.length) this.scratch = new Uint8Array(id.length * 3);
    const { written } = encoder.encodeInto(id, this.scratch);
    const mask = this.slots.length - 1;
    for (let slot = hash(this.scratch, 0, written) & mask; ; slot = (slot + 1) & mask) {
      const row = this.slots[slot]!;
      if (row === EMPTY) return undefined;
      if (this.equals(row, written)) return row;
    }
  }

  private equals(row: number, length: number): boolean {
    const start = this.starts[row]!;
    if (this.starts[row + 1]! - start !== length) return false;
    for (let i = 0; i < length; i++) if (this.bytes[start + i] !== this.scratch[i]) return false;
    return true;
  }
}

/** FNV-1a, 32 bits. */
function hash(bytes: Uint8Array, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) {
    h ^= bytes[i]!;
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
