/**
 * A staging batch, encoded: each entity validated (validate.ts) and turned into its staging row
 * (rows.ts), the rows written as the COPY text of their staging tables (db/copy.ts). The
 * importer's Stager encodes its batches with this on the main thread; `lineup seed`'s workers
 * (demo/seed-worker.ts) encode theirs with the same code in parallel and hand over its bytes.
 */
import type { CopyWriter } from '../db/copy.js';
import type { Collection, ProblemList } from './document.js';
import { MemberListWriter, type BatchLists } from './member-lists.js';
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
  /** The Events' Artist and Venue lists and their members (member-lists.ts). */
  readonly lists: BatchLists;
  /** The batch's problems as a ProblemList holds them: the first ones listed, all counted. */
  readonly problems: readonly string[];
  readonly problemTotal: number;
}

/** What an import needs of its batches besides the rows (importer.ts decides, from the store). */
export interface BatchEncoding {
  /**
   * The Events' Artist and Venue lists are written aside: a first import resolves them
   * (direct-memberships.ts); otherwise `take` returns none.
   */
  readonly keepLists: boolean;
  /**
   * Each row carries the hash an earlier formula would have stored, where it differs (rows.ts
   * `formerOwn`): needed only when the store holds entities.
   */
  readonly formerHashes: boolean;
}

/** Everything kept: correct for any store (a first import's encoding only leaves work out). */
export const EVERYTHING: BatchEncoding = { keepLists: true, formerHashes: true };

const width = (collection: Collection) => COMMON_COLUMNS.length + STAGE[collection].columns.length;

/** A batch's lists when none are kept. */
const NO_LISTS: BatchLists = { members: new Uint8Array(0), lists: new Uint8Array(0) };

/**
 * Each row is written as COPY text as soon as its entity is validated, into the writer the batch
 * is written into (`into`): a batch's rows held until the batch is taken would outlive the young
 * generation's collections, and copying them into the old one (and marking it) costs a large share
 * of a seed's Node CPU on V8's helper threads. A batch is a run of each collection in
 * document order, so a collection's rows are contiguous: one span per run.
 */
export class BatchEncoder {
  private writer: CopyWriter | null = null;
  private spans: { readonly collection: Collection; readonly start: number }[] = [];
  /** Rows waiting in the batch. */
  size = 0;
  /** Entities added since the last `take`. */
  entities = 0;
  /** The batch's lists, kept only for an import that resolves them (direct-memberships.ts). */
  private readonly members: MemberListWriter | null;

  private readonly formerHashes: boolean;

  /** Problems go to `problems` as they are found. */
  constructor(
    readonly problems: ProblemList,
    { keepLists, formerHashes }: BatchEncoding = EVERYTHING,
  ) {
    this.members = keepLists ? new MemberListWriter() : null;
    this.formerHashes = formerHashes;
  }

  /** Writes the next batch's rows into `writer`, from its first byte. */
  into(writer: CopyWriter): void {
    writer.clear();
    this.writer = writer;
  }

  /** Validates one array element of `collection` (its `index` in the array) and writes its row. */
  add(collection: Collection, index: number, value: unknown): void {
    this.entities++;
    const { publicId, record, partial } = validateEntity(collection, value, index, this.problems);
    let row: Cell[] | null = null;
    // invalid entities are staged as placeholders: they still count for duplicates and references
    if (record) {
      row = stageRow(collection, index, record, this.formerHashes);
      this.members?.add(collection, index, record);
    }
    else if (publicId && partial) row = placeholderRow(collection, index, publicId, partial);
    if (!row) return;
    const writer = this.writer;
    if (writer === null) throw new Error('BatchEncoder: a batch is written into a writer given by into()');
    if (this.spans[this.spans.length - 1]?.collection !== collection) this.spans.push({ collection, start: writer.length });
    writer.row(row, width(collection));
    this.size++;
  }

  /**
   * The batch's rows as COPY bytes, a view of its writer's buffer per run of a collection (valid
   * until that writer is written again), and its lists; the next batch needs `into` first.
   */
  take(): { tables: StagedText[]; lists: BatchLists } {
    const writer = this.writer;
    const tables: StagedText[] = [];
    if (writer !== null) {
      const bytes = writer.buffer; // (after its last growth)
      const ends = [...this.spans.slice(1).map((s) => s.start), writer.length];
      this.spans.forEach(({ collection, start }, i) => tables.push({ collection, text: bytes.subarray(start, ends[i]) }));
    }
    this.writer = null;
    this.spans = [];
    this.size = 0;
    this.entities = 0;
    return { tables, lists: this.members?.take() ?? NO_LISTS };
  }
}
