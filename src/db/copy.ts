/**
 * Bulk load of text rows with `COPY … FROM`: the importer's staging tables are filled
 * this way. One encoding (COPY's text format, below) for both engines; only the transport
 * differs: PostgreSQL streams `COPY FROM STDIN` through pg-copy-streams on the import's own
 * connection (so it is part of the import transaction), PGlite reads the same text from a blob
 * (`COPY … FROM '/dev/blob'`, PGlite's documented way) on its one connection.
 * COPY costs the server far less per row than `INSERT … SELECT FROM unnest($1::text[], …)`.
 */
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/** A cell as the column type's input function reads it; null is SQL NULL. */
export type CopyCell = string | null;

/** Loads `bytes` (COPY text format as UTF-8, as `CopyWriter` writes it) into `table (columns)`. */
export type CopyIn = (client: pg.PoolClient, table: string, columns: readonly string[], bytes: Uint8Array) => Promise<void>;

const SPECIAL = /[\\\t\n\r]/;
const SPECIALS = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** The smallest buffer a COPY's bytes are written into. */
const SCRATCH_MIN = 1 << 20;
const NEWLINE = 0x0a;

/**
 * Rows written straight into UTF-8 bytes in COPY's text format (tab-separated, `\N` for NULL,
 * backslash escapes for backslash, tab, newline and carriage return). Written here: pg-copy-streams
 * moves bytes and encodes nothing, and the format is these four escapes. Each cell is encoded into
 * the buffer where it goes: a batch built as one string first (a rope of ~100,000 pieces) would
 * be flattened and then encoded again, about twice the time of writing its cells in place, with
 * the rope's garbage on top, in `lineup seed`'s workers.
 */
export class CopyWriter {
  private bytes: Buffer;
  private written = 0;

  /** Writes into `buffer` (grown, as a new Buffer, when a row does not fit). */
  constructor(buffer?: Buffer) {
    this.bytes = buffer ?? Buffer.allocUnsafeSlow(SCRATCH_MIN);
  }

  /** Bytes written. */
  get length(): number {
    return this.written;
  }

  /** Starts again at the buffer's first byte. */
  clear(): void {
    this.written = 0;
  }

  /** The buffer written into (it changes when it grows), its first `length` bytes the rows. */
  get buffer(): Buffer {
    return this.bytes;
  }

  /** Appends one row of `width` cells (a missing cell is NULL). */
  row(cells: readonly CopyCell[], width: number): void {
    // the row's text joined first (a flat string), then encoded by one write: a write per cell
    // (≈ 40 per Event) would cost more in calls than in encoding
    const texts = this.texts;
    texts.length = width;
    for (let c = 0; c < width; c++) {
      const cell = cells[c] ?? null;
      texts[c] = cell === null ? '\\N' : !SPECIAL.test(cell) ? cell : cell.replace(SPECIALS, (ch) => ESCAPES[ch]!);
    }
    const line = texts.join('\t');
    // UTF-8 takes at most 3 bytes per UTF-16 unit; the newline one more
    this.reserve(line.length * 3 + 1);
    this.written += this.bytes.write(line, this.written);
    this.bytes[this.written++] = NEWLINE;
  }

  /** One row's cell texts (reused). */
  private readonly texts: string[] = [];

  private reserve(bytes: number): void {
    if (this.written + bytes <= this.bytes.length) return;
    const grown = Buffer.allocUnsafeSlow(Math.max(this.bytes.length * 2, this.written + bytes));
    this.bytes.copy(grown, 0, 0, this.written);
    this.bytes = grown;
  }
}

const copySql = (table: string, columns: readonly string[], source: string) =>
  `COPY ${table} (${columns.join(', ')}) FROM ${source}`;

/** PostgreSQL: COPY FROM STDIN on the given client (inside its transaction, if any). */
export const copyInPostgres: CopyIn = async (client, table, columns, bytes) => {
  const stream = client.query(copyFrom(copySql(table, columns, 'STDIN')));
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // (resolves once the server has answered the COPY: every byte was sent, the bytes can be reused)
  await pipeline(Readable.from([view]), stream);
};

interface PgliteCopier {
  query(sql: string, params: unknown[], options: { blob: Blob }): Promise<unknown>;
}

/**
 * PGlite: the node-postgres shim has no COPY FROM STDIN; the instance reads a blob. Called while
 * the import holds the one connection (SingleClientPool), so it runs in the import transaction.
 */
export function copyInPglite(instance: PgliteCopier): CopyIn {
  return async (_client, table, columns, bytes) => {
    await instance.query(copySql(table, columns, `'/dev/blob'`), [], { blob: new Blob([bytes]) });
  };
}
