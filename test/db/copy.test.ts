/**
 * The importer stages its rows with COPY (src/db/copy.ts): every cell must arrive exactly as
 * written, whatever characters it holds (COPY's text format gives tab, newline, carriage return
 * and backslash a meaning, and `\N` is NULL), on both engines, inside the caller's transaction.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CopyWriter, type CopyCell } from '../../src/db/copy.js';
import { engines, openTestDatabase, type TestDatabase } from '../helper.js';

const TRICKY: (string | null)[][] = [
  ['1', 'tab\there', 'line\nbreak\r\nand CR\r', '{a,b}', '{"k": "v\\\\n"}'],
  ['2', 'back\\slash \\N \\t', '\\N', '{}', null],
  ['3', '', 'ünïcødé — 🎸', '{NULL,c}', '[]'],
  ['4', null, null, null, null],
];

/** The rows as CopyWriter writes them: their bytes, and those bytes read back as text. */
function copyBytes(rows: readonly (readonly CopyCell[])[], width: number): Buffer {
  const writer = new CopyWriter(Buffer.allocUnsafeSlow(16));
  for (const row of rows) writer.row(row, width);
  return writer.buffer.subarray(0, writer.length);
}
const copyText = (rows: readonly (readonly CopyCell[])[], width: number) => copyBytes(rows, width).toString('utf8');

describe('CopyWriter', () => {
  test('escapes exactly the characters the text format reserves', () => {
    assert.equal(copyText([['a\tb', null, 'c\\d\ne\rf', '']], 4), 'a\\tb\t\\N\tc\\\\d\\ne\\rf\t\n');
  });

  test('writes into a buffer that grows, whatever the UTF-8 width of its cells', () => {
    const rows = [...TRICKY, ['5', '🎸é'.repeat(700), 'x\ty', null, 'ü'], ['6', 'a'.repeat(5000), '', '\\', null]];
    const writer = new CopyWriter(Buffer.allocUnsafeSlow(3));
    for (const row of rows) writer.row(row, 5);
    const escape = (cell: string) => cell.replaceAll('\\', '\\\\').replaceAll('\t', '\\t').replaceAll('\n', '\\n').replaceAll('\r', '\\r');
    const expected = rows.map((row) => `${row.map((cell) => (cell === null ? '\\N' : escape(cell))).join('\t')}\n`).join('');
    assert.equal(writer.buffer.toString('utf8', 0, writer.length), expected);
    assert.equal(writer.length, Buffer.byteLength(expected));
    writer.clear();
    writer.row(['7'], 1);
    assert.equal(writer.buffer.toString('utf8', 0, writer.length), '7\n');
  });
});

for (const engine of engines()) {
  describe(`COPY into a table (${engine.name})`, () => {
    let t: TestDatabase;
    before(async () => {
      t = await openTestDatabase(engine);
    });
    after(async () => t.drop());

    test('round-trips every cell, NULLs included, typed by the columns', async () => {
      const client = await t.db.pool.connect();
      try {
        await client.query('BEGIN');
        await client.query('CREATE TEMP TABLE copy_probe (n integer, a text, b text, c text[], d jsonb) ON COMMIT DROP');
        await t.db.copyIn(client, 'copy_probe', ['n', 'a', 'b', 'c', 'd'], copyBytes(TRICKY, 5));
        const { rows } = await client.query<{ n: number; a: string | null; b: string | null; c: string | null; d: string | null }>(
          'SELECT n, a, b, c::text AS c, d::text AS d FROM copy_probe ORDER BY n',
        );
        assert.deepEqual(
          rows.map((r) => [String(r.n), r.a, r.b, r.c, r.d]),
          [
            ['1', 'tab\there', 'line\nbreak\r\nand CR\r', '{a,b}', '{"k": "v\\\\n"}'],
            ['2', 'back\\slash \\N \\t', '\\N', '{}', null],
            ['3', '', 'ünïcødé — 🎸', '{NULL,c}', '[]'],
            ['4', null, null, null, null],
          ],
        );
        await client.query('ROLLBACK');
        // in the transaction: gone with it
        const { rows: gone } = await client.query(`SELECT to_regclass('pg_temp.copy_probe') AS t`);
        assert.equal(gone[0].t, null);
      } finally {
        client.release();
      }
    });
  });
}
