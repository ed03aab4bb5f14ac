/**
 * A `lineup seed` worker thread (demo/seed-workers.ts starts them): generates its share of the
 * demo document's staging batches — batch b is the document's entities [b·size, (b+1)·size) in
 * document order, and worker k of n takes the batches b ≡ k (mod n) — validates and encodes
 * them exactly as the importer does (staging-batch.ts), and posts each as COPY text. It keeps at
 * most CREDITS batches unacknowledged, so a slow database holds the generator back.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ProblemList } from '../document.js';
import { demoCatalogueOf, demoSegments, type DemoOptions } from '../demo.js';
import { BatchEncoder, type EncodedBatch } from '../staging-batch.js';
import { asParsed } from '../stream.js';
import { batchEntities, batchCount, type SeedWorkerMessage } from './seed-batches.js';

export interface SeedWorkerData {
  readonly options: DemoOptions;
  readonly part: number;
  readonly parts: number;
  readonly batchSize: number;
}

export const CREDITS = 2;

const { options, part, parts, batchSize } = workerData as SeedWorkerData;
const port = parentPort!;
const segments = demoSegments(demoCatalogueOf(options));

let credits = CREDITS;
let wake: (() => void) | null = null;
const onAck = () => {
  credits++;
  wake?.();
  wake = null;
};
port.on('message', onAck);

const batches = batchCount(segments, batchSize);
for (let seq = part; seq < batches; seq += parts) {
  const encoder = new BatchEncoder(new ProblemList());
  for (const [collection, index, value] of batchEntities(segments, seq, batchSize)) encoder.add(collection, index, asParsed(value));
  const { entities, problems } = encoder;
  const batch: EncodedBatch = { entities, tables: encoder.take(), problems: problems.items, problemTotal: problems.total };
  while (credits === 0) await new Promise<void>((resolve) => (wake = resolve));
  credits--;
  port.postMessage({ seq, batch } satisfies SeedWorkerMessage);
}
port.off('message', onAck); // nothing left to send: the thread ends
