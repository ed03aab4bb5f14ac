/**
 * `lineup seed` across the machine's cores: reading was one Node core generating, validating and
 * encoding the document while PostgreSQL waited (101 s at 1,000,000 Events; 61 s with two
 * workers on the same 2 cores, the same hour). Worker threads (seed-worker.ts) now generate and
 * encode interleaved batches in parallel; this thread only stages them, one COPY after another
 * on the import's connection, in document order — so the staging tables hold the same rows in
 * the same order as an in-process seed, and the merge assigns the same internal ids.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { demoCatalogueOf, demoSegments, type DemoOptions } from '../demo.js';
import { EVERYTHING, type BatchEncoding, type EncodedBatch } from '../staging-batch.js';
import { batchCount, type SeedWorkerMessage } from './seed-batches.js';
import type { SeedWorkerData } from './seed-worker.js';

/**
 * Each worker's heap. Unbounded, a worker's old generation grows until the importer's peak RSS
 * passes its 300 MB target; tightly bounded, it collects more often and reads more slowly. 128 MB
 * with a 16 MB young generation keeps both in bounds. What a worker keeps is small (the Editions'
 * indexes, the Series it has generated, two batches' bytes).
 */
const WORKER_HEAP = { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 16 };

/**
 * The worker's module next to this one: dist/…/seed-worker.js; or, when this module runs from
 * its TypeScript source (the tests, through tsx), the .ts source, loaded by a bootstrap that
 * registers tsx in the worker first — tsx's `--import` hooks do not reach worker threads.
 */
function startWorker(workerData: SeedWorkerData): Worker {
  const options = { workerData, resourceLimits: WORKER_HEAP };
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./seed-worker.js', import.meta.url), options);
  const entry = JSON.stringify(new URL('./seed-worker.ts', import.meta.url).href);
  return new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${entry}); })`, { ...options, eval: true });
}

/** Worker threads for a seed on this machine: one per core, at most 4. */
export const defaultSeedWorkers = (): number => Math.max(1, Math.min(4, os.availableParallelism()));

/**
 * Runs `workers` seed workers over the demo document of `options` and hands their batches to
 * `stage` in document order, one at a time, encoded as `encoding` says (the importer's choice, from
 * the store); resolves when the last batch is staged. Any failure
 * (a worker's or `stage`'s) stops every worker and rejects.
 */
export function stageDemoInParallel(
  options: DemoOptions,
  workers: number,
  batchSize: number,
  stage: (batch: EncodedBatch) => Promise<void>,
  encoding: BatchEncoding = EVERYTHING,
): Promise<void> {
  const total = batchCount(demoSegments(demoCatalogueOf(options)), batchSize);
  if (total === 0) return Promise.resolve();
  const parts = Math.min(workers, total);
  return new Promise<void>((resolve, reject) => {
    const ready = new Map<number, SeedWorkerMessage>();
    let next = 0;
    let writing = false;
    let settled = false;
    const threads: Worker[] = [];
    const settle = (err?: unknown) => {
      if (settled) return;
      settled = true;
      for (const t of threads) void t.terminate();
      if (err === undefined) resolve();
      else reject(err);
    };
    // one COPY at a time, in batch order; each staged batch gives its worker one more credit
    const drain = async () => {
      if (writing) return;
      writing = true;
      try {
        while (!settled && ready.has(next)) {
          const { batch, buffer } = ready.get(next)!;
          ready.delete(next);
          await stage(batch);
          // the COPY has completed: its bytes go back to their worker with one more credit
          threads[next % parts]!.postMessage(buffer, [buffer]);
          next++;
        }
        if (next === total) settle();
      } catch (err) {
        settle(err);
      } finally {
        writing = false;
      }
    };
    for (let part = 0; part < parts; part++) {
      const thread = startWorker({ options, part, parts, batchSize, encoding });
      thread.on('message', (message: SeedWorkerMessage) => {
        ready.set(message.seq, message);
        void drain();
      });
      thread.on('error', settle);
      thread.on('exit', (code) => {
        if (code !== 0 && !settled) settle(new Error(`lineup seed: worker ${part} stopped (exit code ${code})`));
      });
      threads.push(thread);
    }
  });
}
