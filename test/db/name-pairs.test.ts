/**
 * Migration 024's `event_name_pairs`, the expression of the pair index that `nameContains` asks
 * for a term's neighbouring whole words (src/queries/name-search.ts `wholePairs`): on each engine,
 * the pairs of neighbours of the name split on single spaces, each joined by one space, as the
 * soundness property of test/unit/name-search.test.ts models them. A search through the index
 * pages as the plain statement does: test/db/search-shape.test.ts (its several-word name term).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { engines, openTestDatabase, type TestDatabase } from '../helper.js';

const NAMES = ['señor kalani live at sirius hall', '', 'a', 'a b', 'a  b', ' a b ', '  ', 'x\ty z', 'café ﬁne  fête ', '東京 x 東京 x'];
const model = (name: string) => {
  const words = name.split(' ');
  return words.slice(0, -1).map((w, i) => `${w} ${words[i + 1]}`);
};

for (const engine of engines()) {
  describe(`event_name_pairs (${engine.name})`, () => {
    let t: TestDatabase;
    before(async () => {
      t = await openTestDatabase(engine);
    });
    after(() => t?.drop());

    test('the neighbours of the name split on single spaces, joined by one space', async () => {
      for (const name of NAMES) {
        const { rows } = await t.db.pool.query<{ pairs: string[] }>('SELECT event_name_pairs($1) AS pairs', [name]);
        assert.deepEqual(rows[0]!.pairs, model(name), JSON.stringify(name));
      }
    });
  });
}
