/**
 * A hash table from a 12-byte publicId, read in place from a buffer, to an entity's order in its
 * array: what direct-memberships.ts looks up for each of a first import's ≈ 3.7 million list
 * elements at 1,000,000 Events. Written here rather than taken from a Map: a Map needs each key
 * as a string, and making 3.7 million strings of 12 bytes and hashing them (≈ 1 µs per element)
 * was most of the lists' resolving; here a lookup hashes and compares the bytes where they lie.
 * Open addressing, linear probing, at most half full; keys are only added.
 */
import { PID_BYTES } from './member-lists.js';

export class PidTable {
  private readonly mask: number;
  private readonly keys: Uint8Array;
  /** order + 1 per slot; 0: empty */
  private readonly values: Int32Array;

  /** A table for up to `size` publicIds. */
  constructor(size: number) {
    let slots = 16;
    while (slots < 2 * size) slots *= 2;
    this.mask = slots - 1;
    this.keys = new Uint8Array(slots * PID_BYTES);
    this.values = new Int32Array(slots);
  }

  /** FNV-1a over the 12 bytes at `at`. */
  private static hash(bytes: Uint8Array, at: number): number {
    let h = 0x811c9dc5;
    for (let i = 0; i < PID_BYTES; i++) h = Math.imul(h ^ bytes[at + i]!, 0x01000193);
    return h >>> 0;
  }

  /** The slot holding the publicId at `bytes[at…]`, or the empty slot where it would go. */
  private slot(bytes: Uint8Array, at: number): number {
    const keys = this.keys;
    for (let s = PidTable.hash(bytes, at) & this.mask; ; s = (s + 1) & this.mask) {
      if (this.values[s] === 0) return s;
      const k = s * PID_BYTES;
      let i = 0;
      while (i < PID_BYTES && keys[k + i] === bytes[at + i]) i++;
      if (i === PID_BYTES) return s;
    }
  }

  /** Sets the order of the publicId at `bytes[at…]` (a repeated publicId: the last order). */
  set(bytes: Uint8Array, at: number, order: number): void {
    const s = this.slot(bytes, at);
    this.keys.set(bytes.subarray(at, at + PID_BYTES), s * PID_BYTES);
    this.values[s] = order + 1;
  }

  /** The order of the publicId at `bytes[at…]`, or -1. */
  get(bytes: Uint8Array, at: number): number {
    return this.values[this.slot(bytes, at)]! - 1;
  }
}
