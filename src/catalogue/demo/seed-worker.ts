/**
 * A `lineup seed` worker thread (demo/seed-workers.ts starts them): generates its share of the
 * demo document's staging batches — batch b is the document's entities [b·size, (b+1)·size) in
 * document order, and worker k of n takes the batches b ≡ k (mod n) — validates and encodes
 * them exactly as the importer does (staging-batch.ts), and posts each as COPY text (its bytes).
 * It keeps at most CREDITS batches unacknowledged, so a slow database holds the generator back.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { CopyWriter } from '../../db/copy.js';
import { ProblemList } from '../document.js';
import { demoCatalogueOf, demoSegments, type DemoOptions } from '../demo.js';
import { BatchEncoder, type BatchEncoding, type EncodedBatch } from '../staging-batch.js';
import { asParsed } from '../stream.js';
import { batchEntities, batchCount, SEED_WORKER_CREDITS as CREDITS, type SeedWorkerMessage } from './seed-batches.js';

export interface SeedWorkerData {
  readonly options: DemoOptions;
  readonly part: number;
  readonly parts: number;
  readonly batchSize: number;
  readonly encoding: BatchEncoding;
}

const { options, part, parts, batchSize, encoding } = workerData as SeedWorkerData;
const port = parentPort!;
const segments = demoSegments(demoCatalogueOf(options));

// Each batch's rows are written as COPY bytes into a buffer that is moved to the main thread (not
// copied) and comes back with the acknowledgement, so neither thread allocates a batch's bytes
// again: a main thread that only stages batches collects rarely, and new batch strings or
// Buffers piled up in it (up to ≈ 90 MB at 1,000,000 Events).
const free: Buffer[] = [];
let credits = CREDITS;
let wake: (() => void) | null = null;
const onAck = (returned: ArrayBuffer | null) => {
  if (returned) free.push(Buffer.from(returned));
  credits++;
  wake?.();
  wake = null;
};
port.on('message', onAck);

const batches = batchCount(segments, batchSize);
for (let seq = part; seq < batches; seq += parts) {
  // (a credit first: then a returned buffer is free, and no more than CREDITS buffers exist)
  while (credits === 0) await new Promise<void>((resolve) => (wake = resolve));
  credits--;
  // CopyWriter allocates its buffers with allocUnsafeSlow: each its own ArrayBuffer, never shared
  const writer = new CopyWriter(free.pop());
  // each row is written as soon as it is encoded (staging-batch.ts)
  const encoder = new BatchEncoder(new ProblemList(), encoding);
  encoder.into(writer);
  for (const [collection, index, value] of batchEntities(segments, seq, batchSize)) encoder.add(collection, index, asParsed(value));
  const { entities, problems } = encoder;
  const { tables, lists } = encoder.take();
  const batch: EncodedBatch = { entities, tables, lists, problems: problems.items, problemTotal: problems.total };
  const buffer = writer.buffer.buffer as ArrayBuffer;
  port.postMessage({ seq, batch, buffer } satisfies SeedWorkerMessage, [buffer]);
}
port.off('message', onAck); // nothing left to send: the thread ends
