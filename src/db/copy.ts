/**
 * Bulk load of text rows with `COPY … FROM` (issue 16): the importer's staging tables are filled
 * this way. One encoding (COPY's text format, below) for both engines; only the transport
 * differs: PostgreSQL streams `COPY FROM STDIN` through pg-copy-streams on the import's own
 * connection (so it is part of the import transaction), PGlite reads the same text from a blob
 * (`COPY … FROM '/dev/blob'`, PGlite's documented way) on its one connection.
 *
 * Measured at 100,000 Events (bench/notes.md): the `INSERT … SELECT FROM unnest($1::text[], …)`
 * batches it replaces were most of the import's reading phase.
 */
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/** A cell as the column type's input function reads it; null is SQL NULL. */
export type CopyCell = string | null;

/** Loads `text` (COPY text format, as `copyText` writes it; or its UTF-8 bytes) into `table (columns)`. */
export type CopyIn = (client: pg.PoolClient, table: string, columns: readonly string[], text: string | Uint8Array) => Promise<void>;

const SPECIAL = /[\\\t\n\r]/;
const SPECIALS = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/**
 * Rows in COPY's text format (tab-separated, `\N` for NULL, backslash escapes for backslash,
 * tab, newline and carriage return). Written here: pg-copy-streams moves bytes and encodes
 * nothing, and the format is these four escapes.
 */
export function copyText(rows: readonly (readonly CopyCell[])[], width: number): string {
  let out = '';
  for (const row of rows) {
    for (let c = 0; c < width; c++) {
      const cell = row[c] ?? null;
      if (c > 0) out += '\t';
      if (cell === null) out += '\\N';
      else out += SPECIAL.test(cell) ? cell.replace(SPECIALS, (ch) => ESCAPES[ch]!) : cell;
    }
    out += '\n';
  }
  return out;
}

const copySql = (table: string, columns: readonly string[], source: string) =>
  `COPY ${table} (${columns.join(', ')}) FROM ${source}`;

/**
 * Each connection's bytes for its COPYs, reused: a batch's text is encoded into it rather than
 * into a new Buffer each time. New Buffers are memory outside the JavaScript heap, freed only
 * when a collection finds them; a thread that allocates little else collects rarely (measured in
 * a `lineup seed` main thread staging its workers' batches as text: ≈ 80 MB of spent batches
 * waiting at 1,000,000 Events; the workers now hand over bytes, seed-worker.ts). Reuse is safe:
 * the next COPY on a connection starts after the previous one has completed.
 */
const scratch = new WeakMap<pg.PoolClient, Buffer>();
const SCRATCH_MIN = 1 << 20;

function encodedOnce(client: pg.PoolClient, text: string): Buffer {
  const bytes = Buffer.byteLength(text, 'utf8');
  let buffer = scratch.get(client);
  if (!buffer || buffer.length < bytes) {
    buffer = Buffer.allocUnsafeSlow(Math.max(SCRATCH_MIN, bytes + (bytes >> 2)));
    scratch.set(client, buffer);
  }
  buffer.write(text, 0, bytes, 'utf8');
  return buffer.subarray(0, bytes);
}

/** PostgreSQL: COPY FROM STDIN on the given client (inside its transaction, if any). */
export const copyInPostgres: CopyIn = async (client, table, columns, text) => {
  const stream = client.query(copyFrom(copySql(table, columns, 'STDIN')));
  const bytes = typeof text === 'string' ? encodedOnce(client, text) : Buffer.from(text.buffer, text.byteOffset, text.byteLength);
  // (resolves once the server has answered the COPY: every byte was sent, the bytes can be reused)
  await pipeline(Readable.from([bytes]), stream);
};

interface PgliteCopier {
  query(sql: string, params: unknown[], options: { blob: Blob }): Promise<unknown>;
}

/**
 * PGlite: the node-postgres shim has no COPY FROM STDIN; the instance reads a blob. Called while
 * the import holds the one connection (SingleClientPool), so it runs in the import transaction.
 */
export function copyInPglite(instance: PgliteCopier): CopyIn {
  return async (_client, table, columns, text) => {
    await instance.query(copySql(table, columns, `'/dev/blob'`), [], { blob: new Blob([text]) });
  };
}
