/** How `lineup seed`'s workers cut the demo document into staging batches (seed-worker.ts). */
import type { Collection } from '../document.js';
import type { DemoSegment } from '../demo.js';
import type { EncodedBatch } from '../staging-batch.js';

/**
 * Batches a seed worker may have posted and not had acknowledged. A worker ends after posting its
 * last batch, so the acknowledgements of up to this many of its batches (and their bytes) find it
 * gone; every earlier batch's bytes went back to it.
 */
export const SEED_WORKER_CREDITS = 3;

/**
 * What a worker posts: batch number `seq`, encoded; its tables' bytes are views of `buffer`,
 * which is moved with the message and moved back with the acknowledgement, for the next batch.
 */
export interface SeedWorkerMessage {
  readonly seq: number;
  readonly batch: EncodedBatch;
  readonly buffer: ArrayBuffer;
}

export function batchCount(segments: readonly DemoSegment[], size: number): number {
  return Math.ceil(segments.reduce((n, s) => n + s.count, 0) / size);
}

/** The entities of batch `seq` ([seq·size, (seq+1)·size) in document order), each with its index in its array. */
export function* batchEntities(segments: readonly DemoSegment[], seq: number, size: number): Generator<[Collection, number, unknown]> {
  let skip = seq * size;
  let left = size;
  for (const s of segments) {
    if (skip >= s.count) {
      skip -= s.count;
      continue;
    }
    for (let i = skip; i < s.count && left > 0; i++, left--) yield [s.collection, i, s.entity(i)];
    skip = 0;
    if (left === 0) return;
  }
}
