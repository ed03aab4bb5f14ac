/**
 * A one-term search is run as the statement of the plan the planner chose (src/queries/search-shape.ts):
 * `walk` (the term unindexed, the order's index walked) or `matches` (the term's index, sorted by
 * unindexed keys). Whichever is chosen, every page, its `hasMore` and the whole traversal must be
 * the ones of the plain statement: compared here for both shapes, every order, name terms of each
 * statement form (one word, several words, neighbouring whole words for the pair index, one whole
 * word for the word index, no match), city and country terms, on both engines.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { seedDemo } from '../../src/catalogue/demo.js';
import { PlanChoices } from '../../src/db/plan-choices.js';
import { PreparedStatements } from '../../src/db/prepared.js';
import { Reader } from '../../src/db/reader.js';
import { eventRows } from '../../src/queries/event-own.js';
import { fetchEventsPage } from '../../src/queries/events-read.js';
import { eventsPageStatement } from '../../src/queries/events.js';
import { wholePairs, wholeWords } from '../../src/queries/name-search.js';
import { splitPage } from '../../src/queries/page.js';
import { shapedSearch, type SearchChoice, type SearchShape } from '../../src/queries/search-shape.js';
import type { Statement } from '../../src/queries/statement.js';
import { engines, openTestDatabase, type TestDatabase } from '../helper.js';
import { SORTS, plan, traverse, type Read } from './event-traversal.js';
import { withIndexPlans } from './index-plans.js';

const LIMIT = 7;

for (const engine of engines()) {
  describe(`one-term searches in either shape read the plain statement's pages (${engine.name})`, () => {
    let t: TestDatabase;
    let terms: string[];
    before(async () => {
      t = await openTestDatabase(engine);
      await seedDemo(t.db, { events: 240, seed: 'shapes', anchorDate: '2026-03-15' });
      const one = async (sql: string) => (await t.db.pool.query<{ v: string }>(sql)).rows[0]!.v;
      // a name of several words with neighbouring whole words inside (the pair index form), a
      // common and a rare three-letter run, a city and a country substring
      const long = await one(`SELECT name AS v FROM events WHERE active AND name_lower LIKE '% live at %' ORDER BY id LIMIT 1`);
      const runs = (await t.db.pool.query<{ run: string; n: string }>(
        `SELECT substr(name_lower, i, 3) AS run, count(DISTINCT id)::text AS n FROM events, generate_series(1, 40) i
          WHERE active AND substr(name_lower, i, 3) ~ '^[a-z]{3}$' GROUP BY 1 ORDER BY count(DISTINCT id) DESC, 1`,
      )).rows;
      const city = await one(`SELECT substr(primary_locality_key, 2, 4) AS v FROM events WHERE active AND length(primary_locality_key) > 5 ORDER BY id LIMIT 1`);
      const country = await one(`SELECT substr(primary_country_key, 1, 3) AS v FROM events WHERE active AND primary_country_key IS NOT NULL ORDER BY id LIMIT 1`);
      // two characters of the word before " live at ": "live" is its one whole word, no pair
      const lower = long.toLowerCase();
      const around = lower.slice(lower.indexOf(' live at ') - 2, lower.indexOf(' live at ') + 8);
      assert.ok(wholePairs(lower).length > 0, long);
      assert.deepEqual([wholePairs(around), wholeWords(around)], [[], ['live']], around);
      terms = [
        `nameContains=${encodeURIComponent(long)}`,
        `nameContains=${encodeURIComponent(around)}`,
        `nameContains=${encodeURIComponent(runs[0]!.run)}`,
        `nameContains=${encodeURIComponent(runs.find((r) => Number(r.n) >= 2 && Number(r.n) <= 5)!.run)}`,
        `nameContains=${encodeURIComponent('ÉTÉ Zqx')}`,
        `cityContains=${encodeURIComponent(city)}`,
        `countryContains=${encodeURIComponent(country)}`,
      ];
      for (const qs of terms) assert.ok(shapedSearch(plan(qs)), qs);
    });
    after(() => t?.drop());

    const read = (shape?: SearchShape): Read => async (p) => splitPage(await eventRows(new Reader(t.db), eventsPageStatement(p, undefined, shape === undefined ? undefined : { shape, heavy: false })), p.limit);

    for (const sort of SORTS) {
      test(`sort=${sort}: walk and matches page as the plain statement`, async () => {
        let listed = 0;
        for (const term of terms) {
          const qs = `${term}&sort=${sort}&limit=${LIMIT}&fields=name,artists,venues,profileMedia`;
          const expected = await traverse(qs, read());
          listed += expected.flatMap((page) => page.ids).length;
          assert.deepEqual(await traverse(qs, read('walk')), expected, `${qs}: walk`);
          assert.deepEqual(await traverse(qs, read('matches')), expected, `${qs}: matches`);
        }
        assert.ok(listed > 3 * LIMIT, `the terms match pages of Events (${listed})`);
      });
    }

    test('a city or country walk in the default order picks its ids from the order index alone (migration 021)', async () => {
      await withIndexPlans(t.db, async (plans) => {
        // the walk must be a scan of the order's index, index-only when the index holds the term's column
        for (const term of terms.filter((q) => !q.startsWith('nameContains='))) {
          const lines = await plans.text(eventsPageStatement(plan(`${term}&limit=${LIMIT}`), undefined, { shape: 'walk', heavy: false }));
          assert.match(lines, /Index Only Scan using events_by_start_date on events/, `${term}\n${lines}`);
        }
      });
    });

    test("a read asks the planner once per term (PostgreSQL, named statements); the page is then the shape's prepared statement", async () => {
      const seen: Statement[] = [];
      const choices = new PlanChoices<SearchChoice>();
      const reader = () => new Reader(t.db, (s) => seen.push(s), undefined, new PreparedStatements(true), undefined, choices);
      const qs = `${terms[1]}&limit=${LIMIT}&fields=name`;
      const first = await fetchEventsPage(reader(), plan(qs));
      const names = seen.splice(0).map((s) => s.name);
      const again = await fetchEventsPage(reader(), plan(qs));
      const expected = await read()(plan(qs));
      assert.deepEqual(first.rows.map((r) => r.public_id), expected.rows.map((r) => r.public_id));
      assert.deepEqual(again.rows.map((r) => r.public_id), expected.rows.map((r) => r.public_id));
      if (engine.name === 'postgres') {
        assert.deepEqual(names, ['events.pagePlan', 'events.page']);
        assert.deepEqual(seen.map((s) => [s.name, s.stablePlan]), [['events.page', true]]);
        assert.equal(choices.size, 1);
        // with named statements off (behind a transaction pooler) there is nothing to save: planned per request
        seen.length = 0;
        await fetchEventsPage(new Reader(t.db, (s) => seen.push(s), undefined, new PreparedStatements(false), undefined, choices), plan(qs));
        assert.deepEqual(seen.map((s) => [s.name, s.stablePlan]), [['events.page', false]]);
      } else {
        // PGlite runs every statement unnamed: the plain statement, no plan asked
        assert.deepEqual(names, ['events.page']);
        assert.deepEqual(seen.map((s) => [s.name, s.stablePlan]), [['events.page', false]]);
        assert.equal(choices.size, 0);
      }
    });
  });
}
