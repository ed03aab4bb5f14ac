/**
 * A `nameContains` term from which no index can take a trigram is read in two bounded parts
 * (src/queries/bounded-scan.ts): the first Events of the order, walked and filtered, then, when
 * they did not fill the page, the rest by a scan. Whatever the walk's length, every page, its
 * `hasMore` and the whole traversal are the ones the single page statement returns: compared here
 * for every order, several terms (common, rare, none, every Event) and walks of 1 Event (the rest
 * always runs, starting right after the first Event), a few Events, and more than the catalogue
 * (the rest finds no walked boundary and is empty).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { seedDemo } from '../../src/catalogue/demo.js';
import { migrate } from '../../src/db/migrate.js';
import { Reader } from '../../src/db/reader.js';
import { boundedSearch, trigramFree } from '../../src/queries/bounded-scan.js';
import { eventRows } from '../../src/queries/event-own.js';
import { fetchEventsPage } from '../../src/queries/events-read.js';
import { eventsPageStatement } from '../../src/queries/events.js';
import { splitPage } from '../../src/queries/page.js';
import { engines, openTestDatabase, type TestDatabase } from '../helper.js';
import { NOW, SORTS, plan, traverse, type Read } from './event-traversal.js';

const LIMIT = 9;

describe('searches without a trigram: which are read in bounded parts', () => {
  test('terms without three letters or digits in a row, in either spelling', () => {
    for (const term of ['xx', 'dj', 'a b c', '%_%', 'a-b-c', 'é', '1 2']) assert.ok(trigramFree(term), term);
    for (const term of ['abc', 'señor', 'x123', 'ΑΒΓ', '東京都']) assert.ok(!trigramFree(term), term);
    assert.ok(boundedSearch(plan('nameContains=xx')));
    assert.ok(boundedSearch(plan('nameContains=xx&sort=updatedAt&temporalPhaseCode=upcoming')));
    assert.ok(!boundedSearch(plan('nameContains=abc')));
    assert.ok(!boundedSearch(plan('temporalPhaseCode=upcoming')));
    assert.ok(boundedSearch(plan('nameContains=xx&temporalPhaseCode=upcoming')));
    // near in the default order too: its walked part is the near walk's first Events
    assert.ok(boundedSearch(plan('nameContains=xx&near=52.52,13.405')));
    assert.ok(boundedSearch(plan('nameContains=xx&near=52.52,13.405&sort=updatedAt')));
    assert.ok(!boundedSearch(plan('nameContains=abc&near=52.52,13.405')));
    // the primary Venue's city and country too
    assert.ok(boundedSearch(plan('cityContains=xx')));
    assert.ok(boundedSearch(plan('countryContains=zz&nameContains=tour')));
    assert.ok(!boundedSearch(plan('cityContains=london&countryContains=fra')));
  });
});

for (const engine of engines()) {
  describe(`searches without a trigram read in bounded parts (${engine.name})`, () => {
    let t: TestDatabase;
    let terms: string[];
    before(async () => {
      t = await openTestDatabase(engine);
      await seedDemo(t.db, { events: 240, seed: 'bounded', anchorDate: '2026-03-15' });
      // a common term, a rare one (a pair of letters in only a few names), one in no name
      const { rows } = await t.db.pool.query<{ pair: string; n: string }>(
        `SELECT substr(name_lower, i, 2) AS pair, count(DISTINCT id)::text AS n
           FROM events, generate_series(1, 40) i
          WHERE active AND substr(name_lower, i, 2) ~ '^[a-z]{2}$'
          GROUP BY 1 ORDER BY count(DISTINCT id), 1`,
      );
      const rare = rows.find((r) => Number(r.n) >= 3)!.pair;
      terms = ['a', rare, 'qx', '%'];
      // upcoming Events whose local start date lies more than a day before their start instant
      // (the document allows it): upcoming's second branch in the default order
      const moved = await t.db.pool.query(
        `UPDATE events SET start_local_date = start_local_date - 40
          WHERE id IN (SELECT id FROM events WHERE active AND start_at > $1::timestamptz + interval '3 days' ORDER BY id LIMIT 8)`,
        [NOW.toISOString()],
      );
      assert.equal(moved.rowCount, 8);
    });
    after(() => t?.drop());

    // one Reader per read, as a request has (its statement budget)
    const single: Read = async (p) => splitPage(await eventRows(new Reader(t.db), eventsPageStatement(p)), p.limit);
    const bounded = (walked: number): Read => async (p) => fetchEventsPage(new Reader(t.db), p, walked);

    for (const sort of SORTS) {
      test(`sort=${sort}: every page as the single statement's, for walks of 1, 4 and 10,000 Events`, async () => {
        for (const term of terms) {
          const qs = `nameContains=${encodeURIComponent(term)}&sort=${sort}&limit=${LIMIT}&fields=name`;
          assert.ok(boundedSearch(plan(qs)), qs);
          const expected = await traverse(qs, single);
          for (const walked of [1, 4, 10_000]) assert.deepEqual(await traverse(qs, bounded(walked)), expected, `${qs}, walk ${walked}`);
          if (term === 'qx') assert.deepEqual(expected, [{ ids: [], hasMore: false }]);
          if (term === '%') assert.equal(expected.flatMap((page) => page.ids).length, (await t.db.pool.query('SELECT 1 FROM events WHERE active' + (sort.endsWith('Instant') ? ' AND start_at IS NOT NULL' : ''))).rows.length);
        }
      });
    }

    for (const sort of ['-startLocalDate', 'startLocalDate'] as const) {
      test(`historical, sort=${sort}: every page as the single statement's${sort === '-startLocalDate' ? ' (its two branches)' : ''}`, async () => {
        for (const term of terms) {
          const qs = `nameContains=${encodeURIComponent(term)}&temporalPhaseCode=historical&sort=${sort}&limit=${LIMIT}&fields=name`;
          const expected = await traverse(qs, single);
          for (const walked of [1, 4, 10_000]) assert.deepEqual(await traverse(qs, bounded(walked)), expected, `${qs}, walk ${walked}`);
        }
      });
    }

    for (const sort of ['startLocalDate', '-startLocalDate', 'updatedAt'] as const) {
      test(`upcoming, sort=${sort}: every page as the single statement's${sort === 'startLocalDate' ? ' (its two branches)' : ''}`, async () => {
        for (const term of terms) {
          const qs = `nameContains=${encodeURIComponent(term)}&temporalPhaseCode=upcoming&sort=${sort}&limit=${LIMIT}&fields=name`;
          const expected = await traverse(qs, single);
          if (term === 'a' && sort === 'startLocalDate') {
            const { rows } = await t.db.pool.query<{ public_id: string }>(
              `SELECT public_id FROM events WHERE active AND start_local_date < start_at::date - 30 AND name_lower LIKE '%a%'`,
            );
            const shown = new Set(expected.flatMap((page) => page.ids));
            assert.ok(rows.length > 0 && rows.every((r) => shown.has(r.public_id)), 'the moved Events are upcoming and listed');
          }
          for (const walked of [1, 4, 10_000]) assert.deepEqual(await traverse(qs, bounded(walked)), expected, `${qs}, walk ${walked}`);
        }
      });
    }

    test('near a place in the default order (the near walk, each Event once), alone and upcoming', async () => {
      // the densest place of the catalogue
      const { rows: [place] } = await t.db.pool.query<{ lat: number; lon: number }>(
        `SELECT avg(latitude)::float8 AS lat, avg(longitude)::float8 AS lon FROM event_places
          WHERE cell = (SELECT cell FROM event_places WHERE cell >= 300000000 GROUP BY cell ORDER BY count(DISTINCT event_id) DESC, cell LIMIT 1)`,
      );
      const near = `near=${place!.lat.toFixed(4)},${place!.lon.toFixed(4)}`;
      // Events with several Venues there (a walk that ends between an Event's positions must
      // neither lose nor repeat it): the Venues of Events with two or more, published and moved
      // close to the place; event_places written again by its migration
      await t.db.pool.query(
        `UPDATE venues SET publish_coordinates = true, latitude = $1::float8 + (id % 7) * 0.01, longitude = $2::float8 - (id % 5) * 0.01
          WHERE id IN (SELECT ev.venue_id FROM event_venues ev WHERE ev.event_id IN (
            SELECT ev2.event_id FROM event_venues ev2 JOIN venues v ON v.id = ev2.venue_id AND v.active
             GROUP BY ev2.event_id HAVING count(*) > 1 ORDER BY ev2.event_id LIMIT 12))`,
        [place!.lat, place!.lon],
      );
      await t.db.pool.query('DROP TABLE event_places');
      await t.db.pool.query('DELETE FROM schema_migrations WHERE version = 7');
      assert.deepEqual(await migrate(t.db), [7]);
      const { rows: shared } = await t.db.pool.query(
        `SELECT p.event_id FROM event_places p JOIN events e ON e.id = p.event_id AND e.active
          WHERE p.cell >= 300000000 GROUP BY p.event_id HAVING count(DISTINCT p.venue_id) > 1`,
      );
      assert.ok(shared.length >= 3, 'Events with two placed Venues');
      for (const radius of [100, 500]) {
        for (const term of terms) {
          for (const phase of ['', '&temporalPhaseCode=upcoming']) {
            const qs = `${near}&radiusKm=${radius}&nameContains=${encodeURIComponent(term)}${phase}&limit=${LIMIT}&fields=name`;
            assert.ok(boundedSearch(plan(qs)), qs);
            const expected = await traverse(qs, single);
            if (term === '%' && phase === '') assert.ok(expected.flatMap((page) => page.ids).length > 2 * LIMIT, `${qs}: several pages`);
            for (const walked of [1, 2, 3, 4, 10_000]) assert.deepEqual(await traverse(qs, bounded(walked)), expected, `${qs}, walk ${walked}`);
          }
        }
      }
    });

    test('city and country terms without a trigram, alone, together and beside a name term with one', async () => {
      const { rows } = await t.db.pool.query<{ city: string; country: string }>(
        `SELECT substr(primary_locality_key, 1, 2) AS city, substr(primary_country_key, 2, 2) AS country
           FROM events WHERE active AND primary_locality_key IS NOT NULL AND primary_country_key IS NOT NULL
          GROUP BY 1, 2 ORDER BY count(*) DESC, 1, 2 LIMIT 1`,
      );
      const { city, country } = rows[0]!;
      const queries = [
        `cityContains=${encodeURIComponent(city)}`,
        `countryContains=${encodeURIComponent(country)}&sort=-startLocalDate`,
        `cityContains=${encodeURIComponent(city)}&countryContains=${encodeURIComponent(country)}&temporalPhaseCode=upcoming`,
        `cityContains=${encodeURIComponent(city)}&nameContains=the&sort=updatedAt`,
        'cityContains=qx',
      ];
      for (const q of queries) {
        const qs = `${q}&limit=${LIMIT}&fields=name`;
        assert.ok(boundedSearch(plan(qs)), qs);
        const expected = await traverse(qs, single);
        if (q !== 'cityContains=qx') assert.ok(expected.flatMap((page) => page.ids).length > 0, `${qs}: some Events`);
        for (const walked of [1, 4, 10_000]) assert.deepEqual(await traverse(qs, bounded(walked)), expected, `${qs}, walk ${walked}`);
      }
    });

    test('with another filter, and from a cursor deep in the order', async () => {
      const qs = `nameContains=a&administrativeStateCode=scheduled&limit=${LIMIT}&fields=name`;
      const expected = await traverse(qs, single);
      assert.ok(expected.length > 3);
      for (const walked of [1, 7]) assert.deepEqual(await traverse(qs, bounded(walked)), expected);
    });
  });
}
