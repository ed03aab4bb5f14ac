/**
 * The LIKE forms of the Events' term filters (src/queries/sql.ts `wildcardContains`,
 * src/queries/bounded-scan.ts `unindexedMatchText`), on each engine:
 *   - a pattern for LIKE's default escape matches what the term matched with `ESCAPE ''` (the
 *     form it replaced: `%` and `_` wildcards, every other character itself, `\` too);
 *   - the column under COLLATE "C" matches the same rows as the column;
 *   - and no index serves it: with the trigram indexes the only ones left to scan, the plain
 *     column's pattern is its trigram index's condition and the unindexed form's never is (the
 *     walk shapes and bounded searches rely on it: src/queries/search-shape.ts,
 *     src/queries/bounded-scan.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { unindexedMatchText } from '../../src/queries/bounded-scan.js';
import { wildcardContains } from '../../src/queries/sql.js';
import { engines, openTestDatabase, type TestDatabase } from '../helper.js';

const TEXTS = ['london', 'new london', 'lon%don', 'lon_don', 'a\\b', 'a\\\\b', 'a\\%b', '\\', '', 'ñandú', 'x_y%z', 'LONDON'];
const TERMS = ['london', 'on', 'n_o', 'lon%on', '%', '_', '\\', 'a\\b', '\\%', 'a\\\\', 'ñ', 'x_y%', 'zz', ''];
const COLUMNS = ['e.primary_locality_key', 'e.primary_country_key', 'e.name_lower', 'e.name_folded'];
const TRIGRAM_INDEXES = /Bitmap Index Scan on events_(primary_locality|primary_country|name|name_folded)_trgm/;

for (const engine of engines()) {
  describe(`LIKE forms of the term filters (${engine.name})`, () => {
    let t: TestDatabase;
    before(async () => {
      t = await openTestDatabase(engine);
    });
    after(() => t?.drop());

    test("the default-escape pattern and the unindexed column match what the term matched with ESCAPE ''", async () => {
      let matches = 0;
      for (const text of TEXTS) {
        for (const term of TERMS) {
          const { rows } = await t.db.pool.query<{ before: boolean; now: boolean; unindexed: boolean }>(
            `SELECT $1::text LIKE $2::text ESCAPE '' AS before, $1::text LIKE $3::text AS now, ${unindexedMatchText('$1::text')} LIKE $3::text AS unindexed`,
            [text, `%${term}%`, wildcardContains(term)],
          );
          const row = rows[0]!;
          assert.equal(row.now, row.before, `${JSON.stringify(text)} LIKE ${JSON.stringify(term)}`);
          assert.equal(row.unindexed, row.before, `${JSON.stringify(text)} COLLATE "C" LIKE ${JSON.stringify(term)}`);
          if (row.before) matches += 1;
        }
      }
      assert.ok(matches > 20 && matches < TEXTS.length * TERMS.length, `some pairs match, some do not (${matches})`);
    });

    test('the plain column is read from its trigram index, the unindexed form never', async () => {
      const client = await t.db.pool.connect();
      try {
        // in a transaction rolled back: only the trigram indexes left among the Events' partial
        // indexes (any other one, scanned whole, is cheaper on a small table), and only bitmap scans
        await client.query('BEGIN');
        // from the catalogue of this schema's table alone: pg_indexes would write the definition
        // of every index of the database, and another test file may drop its schema's meanwhile
        const { rows: others } = await client.query<{ name: string }>(
          `SELECT i.indexrelid::regclass::text AS name FROM pg_index i
            WHERE i.indrelid = 'events'::regclass AND i.indpred IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM pg_opclass o WHERE o.oid = ANY (i.indclass::oid[]) AND o.opcname = 'gin_trgm_ops')`,
        );
        assert.ok(others.length > 0);
        for (const { name } of others) await client.query(`DROP INDEX ${name}`);
        for (const scan of ['seqscan', 'indexscan', 'indexonlyscan']) await client.query(`SET LOCAL enable_${scan} = off`);
        for (const column of COLUMNS) {
          const explain = async (expr: string) =>
            (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN SELECT e.id FROM events e WHERE e.active AND ${expr} LIKE '%london%'`)).rows
              .map((r) => r['QUERY PLAN'])
              .join('\n');
          const plain = await explain(column);
          assert.match(plain, TRIGRAM_INDEXES, `${column}: the control reads its index\n${plain}`);
          assert.match(plain, /Index Cond: .*~~ '%london%'/, `${column}: the control's pattern is the index's condition\n${plain}`);
          // (a trigram index may still be scanned whole for its predicate, `active`: not for the term)
          const unindexed = await explain(unindexedMatchText(column));
          assert.doesNotMatch(unindexed, /Index Cond/, `${column}:\n${unindexed}`);
          assert.match(unindexed, /Filter: .*~~ '%london%'/, `${column}: the pattern is a filter\n${unindexed}`);
        }
      } finally {
        await client.query('ROLLBACK');
        client.release();
      }
    });
  });
}
