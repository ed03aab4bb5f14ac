/**
 * The staging COPYs of an import, in document order, held back while the import's connection is
 * busy with other statements (parents-first.ts: the parents' merge runs while the Events are still
 * read). A held batch's bytes go to a temporary file at once, so the reader goes on (a seed
 * worker gets its buffer back, a document's tokenizer its next batch) instead of waiting for the
 * connection; once released, the held batches are COPYed in order in the background, and later
 * batches queue behind them until the file is drained (then it starts again from empty). Nothing
 * is held in the heap: at 1,000,000 Events ≈ 385 of the 500 Event batches (≈ 460 MB of COPY text)
 * are read while the parents merge.
 */
import type { Collection } from './document.js';
import { TempDir, type TempFile } from './temp-files.js';

/** COPYs one staging table's bytes (staging.ts `insertStaged` on the import's connection). */
export type StageCopy = (collection: Collection, bytes: Uint8Array) => Promise<void>;

interface Held {
  readonly collection: Collection;
  readonly offset: number;
  readonly length: number;
}

export class StagingSpool {
  private dir: TempDir | null = null;
  private file: TempFile | null = null;
  private readonly queue: Held[] = [];
  private holding = false;
  private draining: Promise<void> | null = null;
  private failure: { readonly error: unknown } | null = null;
  /** Bytes read back for a COPY (grown to the largest held batch). */
  private scratch = Buffer.alloc(0);

  constructor(private readonly copy: StageCopy) {}

  /** Bytes in the temporary file: the batches held or queued (0 once drained). */
  get fileBytes(): number {
    return this.file?.size ?? 0;
  }

  /** From now on every batch is held, until `release`. */
  hold(): void {
    this.holding = true;
  }

  /** COPYs the held batches in order, in the background; later batches queue behind them. */
  release(): void {
    this.holding = false;
    this.kick();
  }

  /**
   * Stages one table's bytes: COPYed now when nothing is held or queued, else written to the file
   * (the caller may reuse `bytes` as soon as this resolves). Rethrows a failed background COPY.
   */
  async stage(collection: Collection, bytes: Uint8Array): Promise<void> {
    if (this.failure) throw this.failure.error;
    if (!this.holding && this.queue.length === 0 && this.draining === null) return this.copy(collection, bytes);
    this.queue.push({ collection, offset: this.open().append(bytes), length: bytes.length });
    this.kick();
  }

  /** Resolves once everything staged is COPYed (releasing what is held); rethrows a failed COPY. */
  async drained(): Promise<void> {
    this.holding = false;
    for (this.kick(); this.draining !== null; this.kick()) await this.draining;
    if (this.failure) throw this.failure.error;
  }

  /**
   * Waits for a background COPY in progress (the connection is then free for a ROLLBACK), stops
   * COPYing the rest and removes the file.
   */
  async close(): Promise<void> {
    this.queue.length = 0;
    this.failure ??= { error: new Error('the staging spool is closed') };
    while (this.draining !== null) await this.draining.catch(() => {});
    this.dir?.remove();
    this.dir = null;
    this.file = null;
  }

  private open(): TempFile {
    if (this.file === null) {
      this.dir = TempDir.create('lineup-staging-');
      this.file = this.dir.open('batches');
    }
    return this.file;
  }

  private kick(): void {
    if (this.holding || this.draining !== null || this.queue.length === 0 || this.failure) return;
    const run = async () => {
      await null; // never settled synchronously: `draining` is set before the loop runs
      try {
        while (!this.holding && this.queue.length > 0 && !this.failure) {
          const { collection, offset, length } = this.queue.shift()!;
          if (this.scratch.length < length) this.scratch = Buffer.allocUnsafe(length);
          await this.copy(collection, this.open().readAt(this.scratch.subarray(0, length), offset));
        }
        // drained: the file is written again from its start (its size is the largest backlog)
        if (this.queue.length === 0) this.file?.clear();
      } catch (error) {
        this.failure ??= { error };
      } finally {
        // (no await between the loop's last check and this: a batch staged since is in the loop)
        this.draining = null;
      }
    };
    this.draining = run();
  }
}
