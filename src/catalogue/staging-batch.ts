/**
 * A staging batch, encoded: each entity validated (validate.ts) and turned into its staging row
 * (rows.ts), the rows written as the COPY text of their staging tables (db/copy.ts). The
 * importer's Stager encodes its batches with this on the main thread; `lineup seed`'s workers
 * (demo/seed-worker.ts) encode theirs with the same code in parallel and hand over its bytes.
 */
import type { CopyWriter } from '../db/copy.js';
import type { Collection, ProblemList } from './document.js';
import { COMMON_COLUMNS, STAGE, placeholderRow, stageRow, type Cell } from './rows.js';
import { validateEntity } from './validate.js';

/** One staging table's share of a batch: rows in COPY's text format, as UTF-8 bytes. */
export interface StagedText {
  readonly collection: Collection;
  readonly text: Uint8Array;
}

/** A batch as a seed worker hands it over. */
export interface EncodedBatch {
  /** Entities read (staged or not). */
  readonly entities: number;
  readonly tables: readonly StagedText[];
  /** The batch's problems as a ProblemList holds them: the first ones listed, all counted. */
  readonly problems: readonly string[];
  readonly problemTotal: number;
}

const width = (collection: Collection) => COMMON_COLUMNS.length + STAGE[collection].columns.length;

export class BatchEncoder {
  private rows = new Map<Collection, Cell[][]>();
  /** Rows waiting in the batch. */
  size = 0;
  /** Entities added since the last `take`. */
  entities = 0;

  /** Problems go to `problems` as they are found. */
  constructor(readonly problems: ProblemList) {}

  /** Validates one array element of `collection` (its `index` in the array) and keeps its row. */
  add(collection: Collection, index: number, value: unknown): void {
    this.entities++;
    const { publicId, record, partial } = validateEntity(collection, value, index, this.problems);
    let row: Cell[] | null = null;
    // invalid entities are staged as placeholders: they still count for duplicates and references
    if (record) row = stageRow(collection, index, record);
    else if (publicId && partial) row = placeholderRow(collection, index, publicId, partial);
    if (!row) return;
    let rows = this.rows.get(collection);
    if (!rows) this.rows.set(collection, (rows = []));
    rows.push(row);
    this.size++;
  }

  /**
   * The batch's rows as COPY bytes per staging table (in the order first seen), written into
   * `writer` from its first byte: views of its buffer, valid until the writer is written again.
   * Starts the next batch.
   */
  take(writer: CopyWriter): StagedText[] {
    writer.clear();
    const spans = [...this.rows].map(([collection, rows]) => {
      const start = writer.length;
      const cells = width(collection);
      for (const row of rows) writer.row(row, cells);
      return { collection, start, end: writer.length };
    });
    const bytes = writer.buffer; // (after its last growth)
    this.rows = new Map();
    this.size = 0;
    this.entities = 0;
    return spans.map(({ collection, start, end }) => ({ collection, text: bytes.subarray(start, end) }));
  }
}
