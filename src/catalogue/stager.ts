/**
 * The importer's staging (importer.ts): entities validated and encoded into batches
 * (staging-batch.ts), or batches encoded elsewhere (`lineup seed`'s workers), each COPYed into
 * the staging tables on the import's connection, in document order; and, when every parent comes
 * before the first Event, the parents' early checks and merge (parents-first.ts) while the
 * Events' batches are held (staging-spool.ts).
 */
import type pg from 'pg';
import { CopyWriter, type CopyIn } from '../db/copy.js';
import type { DirectMemberships } from './direct-memberships.js';
import { ProblemList, type Collection } from './document.js';
import type { ImportProgress } from './importer.js';
import type { BatchLists } from './member-lists.js';
import { NOTHING_EARLY, mergeParentsFirst, type ParentsRead } from './parents-first.js';
import { insertStaged } from './staging.js';
import { StagingSpool } from './staging-spool.js';
import { BatchEncoder, type BatchEncoding, type EncodedBatch, type StagedText } from './staging-batch.js';
import type { DocumentSink } from './stream.js';

/**
 * Stages the document: validated entities collected into batches (staging-batch.ts), each
 * batch one COPY per staging table; or batches encoded elsewhere (`lineup seed`'s workers).
 */
export class Stager implements DocumentSink {
  readonly problems = new ProblemList();
  entities = 0;
  /**
   * The batches' COPY bytes, two buffers reused in turn: one is written while the other's COPYs
   * run, and a batch is taken only once the previous one's COPYs have completed (stream.ts
   * flushes one batch at a time). New Buffers per batch are memory outside the JavaScript heap,
   * freed only when a collection finds them.
   */
  private readonly writers = [new CopyWriter(), new CopyWriter()] as const;
  private taken = 0;
  private readonly encoder: BatchEncoder;
  /** The staging COPYs, held while the parents merge (parents-first.ts). */
  private readonly spool: StagingSpool;
  /** The parents' early checks and merge, once started (at the first Event staged). */
  private early: Promise<ParentsRead> | null = null;
  private earlyFailure: { readonly error: unknown } | null = null;

  constructor(
    copyIn: CopyIn,
    private readonly client: pg.PoolClient,
    private readonly batchSize: number,
    /** What the batches carry besides their rows (the same for batches encoded elsewhere). */
    readonly encoding: BatchEncoding,
    private readonly onProgress: ((p: ImportProgress) => void) | undefined,
    /** A first import's Event Artist and Venue lists, resolved here (direct-memberships.ts). */
    private readonly direct: DirectMemberships | undefined,
    /** Every parent comes before the first Event (ImportOptions.parentsFirst); --replace (no early merge). */
    private parentsFirst: boolean,
    private readonly replace: boolean,
  ) {
    this.encoder = new BatchEncoder(this.problems, encoding);
    this.encoder.into(this.writers[0]);
    this.spool = new StagingSpool((collection, bytes) => insertStaged(copyIn, client, collection, bytes));
  }

  /** stream.ts: every parent's array has ended, and the Events' begins. */
  parentsRead(): void {
    this.parentsFirst = true;
  }

  get wantsFlush(): boolean {
    return this.encoder.size >= this.batchSize;
  }

  entity(collection: Collection, index: number, value: unknown): void {
    this.entities++;
    this.encoder.add(collection, index, value);
  }

  problem(message: string): void {
    this.problems.add(message);
  }

  async flush(): Promise<void> {
    const { tables, lists } = this.encoder.take();
    this.encoder.into(this.writers[++this.taken % 2]!);
    await this.write(tables, lists);
  }

  /** A batch validated and encoded by a seed worker, staged in document order. */
  async stage(batch: EncodedBatch): Promise<void> {
    this.entities += batch.entities;
    for (const problem of batch.problems) this.problems.add(problem);
    this.problems.countMore(batch.problemTotal - batch.problems.length);
    await this.write(batch.tables, batch.lists);
  }

  private async write(tables: readonly StagedText[], lists: BatchLists): Promise<void> {
    this.direct?.take(lists);
    for (const { collection, text } of tables) {
      if (this.earlyFailure) throw this.earlyFailure.error;
      if (this.early !== null && collection !== 'events') throw new Error(`the import staged ${collection} after the Events its document put after them`);
      if (this.early === null && collection === 'events' && this.parentsFirst) this.startEarly();
      await this.spool.stage(collection, text);
    }
    this.onProgress?.({ entities: this.entities, phase: 'reading' });
  }

  /** The parents' checks and merge, on the connection, while the Events' batches are held. */
  private startEarly(): void {
    this.spool.hold();
    const early = mergeParentsFirst(this.client, this.problems, this.replace);
    this.early = early.then((read) => {
      this.spool.release();
      return read;
    });
    this.early.catch((error: unknown) => void (this.earlyFailure = { error })); // rethrown by write and `settle`
  }

  /** After the last batch: waits for the parents' early work and every held COPY; what was done early. */
  async settle(): Promise<ParentsRead> {
    const early = (await this.early) ?? NOTHING_EARLY;
    await this.spool.drained();
    return early;
  }

  /** On failure, before ROLLBACK: waits for the statements in flight on the connection, drops the held batches. */
  async close(): Promise<void> {
    await this.early?.catch(() => {});
    await this.spool.close();
  }
}
