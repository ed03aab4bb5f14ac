/**
 * A filter that bounds the other start column of a start order is read in two branches
 * (src/queries/start-bounds.ts): a range of the order's index from the bound the filter implies,
 * and the Events whose local date lies more than a day from their instant (the document allows
 * it), which escape that bound. Here such Events are made for every case, on both sides, and every
 * page of every case must list exactly what a plain statement (the filter and the order, nothing
 * else) lists, also when a search without a trigram reads the page in bounded parts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { seedDemo } from '../../src/catalogue/demo.js';
import { encodeCursor } from '../../src/controls/cursor.js';
import { parseEventControls } from '../../src/controls/events.js';
import { parseQueryString } from '../../src/controls/query-string.js';
import { Reader } from '../../src/db/reader.js';
import { eventSortArity, planEvents, type EventsPlan } from '../../src/plan/events.js';
import { sortKeysOf } from '../../src/present/page.js';
import { fetchEventsPage } from '../../src/queries/events-read.js';
import { phaseSql } from '../../src/queries/phase.js';
import { startBranches } from '../../src/queries/start-bounds.js';
import { Params } from '../../src/queries/sql.js';
import { engines, openTestDatabase, type TestDatabase } from '../helper.js';

const NOW = new Date('2026-03-15T12:00:00Z');
const LIMIT = 7;
const plan = (qs: string) => planEvents('/v1/events', parseEventControls(parseQueryString(qs)), NOW);

const ORDER: Record<string, string> = {
  startLocalDate: 'start_local_date, start_rank, start_key, public_id',
  '-startLocalDate': 'start_local_date DESC, start_rank, start_key DESC, public_id',
  startInstant: 'start_at, public_id',
  '-startInstant': 'start_at DESC, public_id',
};

/** [query, the plain filter ($1: NOW)] */
const CASES: [string, string][] = [
  ['sort=startLocalDate&startInstantGte=2026-03-15T12:00:00Z', `start_at >= '2026-03-15T12:00:00Z'`],
  ['sort=startLocalDate&startInstantGte=2026-04-20T00:00:00Z', `start_at >= '2026-04-20T00:00:00Z'`],
  ['sort=-startLocalDate&startInstantLt=2026-03-15T12:00:00Z', `start_at < '2026-03-15T12:00:00Z'`],
  ['sort=startInstant&temporalPhaseCode=upcoming', `${phaseSql('e', '$1::timestamptz').phase} = 'upcoming'`],
  ['sort=-startInstant&temporalPhaseCode=historical', `${phaseSql('e', '$1::timestamptz').phase} = 'historical'`],
  ['sort=startInstant&startLocalDateGte=2026-03-15', `start_local_date >= '2026-03-15'`],
  ['sort=startInstant&startLocalDateGte=2026-03-15&startLocalDateLt=2026-12-01', `start_local_date >= '2026-03-15' AND start_local_date < '2026-12-01'`],
  ['sort=-startInstant&startLocalDateLt=2026-03-15', `start_local_date < '2026-03-15'`],
  // bounds at both ends of the order (the end's escaping Events lie after the range)
  ['sort=startLocalDate&startInstantGte=2026-01-01T00:00:00Z&startInstantLt=2026-09-01T00:00:00Z', `start_at >= '2026-01-01T00:00:00Z' AND start_at < '2026-09-01T00:00:00Z'`],
  ['sort=-startLocalDate&startInstantGte=2026-01-01T00:00:00Z&startInstantLt=2026-09-01T00:00:00Z', `start_at >= '2026-01-01T00:00:00Z' AND start_at < '2026-09-01T00:00:00Z'`],
  ['sort=startLocalDate&temporalPhaseCode=historical&startInstantGte=2025-06-01T00:00:00Z', `${phaseSql('e', '$1::timestamptz').phase} = 'historical' AND start_at >= '2025-06-01T00:00:00Z'`],
  ['sort=startInstant&temporalPhaseCode=upcoming&startLocalDateLt=2027-01-01', `${phaseSql('e', '$1::timestamptz').phase} = 'upcoming' AND start_local_date < '2027-01-01'`],
  ['sort=-startInstant&temporalPhaseCode=historical&startLocalDateGte=2025-06-01', `${phaseSql('e', '$1::timestamptz').phase} = 'historical' AND start_local_date >= '2025-06-01'`],
  ['sort=startInstant&temporalPhaseCode=historical', `${phaseSql('e', '$1::timestamptz').phase} = 'historical'`],
];

describe('start bounds: which pages are read in two branches', () => {
  test('a bound on the side the order starts from, from the phase or the other start column', () => {
    const branches = (qs: string) => startBranches(plan(qs).controls, 'e', new Params(), () => '$0', 'inline', true);
    for (const [qs] of CASES) assert.ok(branches(qs) !== null, qs);
    for (const qs of ['sort=updatedAt&temporalPhaseCode=upcoming', 'sort=startInstant', 'sort=startLocalDate&administrativeStateCode=cancelled']) {
      assert.equal(branches(qs), null, qs);
    }
    // a bound at the order's end alone: without it the walk would read to the end for no row
    assert.equal(branches('sort=startInstant&temporalPhaseCode=historical')!.rares.length, 1);
    assert.equal(branches('sort=startLocalDate&startInstantGte=2026-01-01T00:00:00Z&startInstantLt=2026-02-01T00:00:00Z')!.rares.length, 2);
    // a bounded search keeps the start's bound only (its rest reads everything after its walk)
    const oneSided = (qs: string) => startBranches(plan(qs).controls, 'e', new Params(), () => '$0', 'inline', false);
    assert.equal(oneSided('sort=startLocalDate&startInstantGte=2026-01-01T00:00:00Z&startInstantLt=2026-02-01T00:00:00Z')!.rares.length, 1);
    assert.equal(oneSided('sort=startInstant&temporalPhaseCode=historical'), null);
    assert.deepEqual(branches('sort=startInstant&temporalPhaseCode=upcoming')!.rares.map((r) => r.unindexed), [true]);
    assert.deepEqual(branches('sort=startLocalDate&startInstantGte=2026-01-01T00:00:00Z&startInstantLt=2026-02-01T00:00:00Z')!.rares.map((r) => r.unindexed), [false, true]);
  });
});

for (const engine of engines()) {
  describe(`start bounds (${engine.name})`, () => {
    let t: TestDatabase;
    before(async () => {
      t = await openTestDatabase(engine);
      await seedDemo(t.db, { events: 240, seed: 'start-bounds', anchorDate: '2026-03-15' });
      const q = (sql: string, values: unknown[] = []) => t.db.pool.query(sql, values);
      const pick = (where: string, n: number) => `SELECT id FROM events WHERE active AND start_at IS NOT NULL AND ${where} ORDER BY id LIMIT ${n}`;
      // local dates 20 days before and after their instants (not the calendar rule's Events)
      const before = await q(`UPDATE events SET start_local_date = start_local_date - 20, end_local_date = end_local_date - 20
        WHERE id IN (${pick(`end_precision IS DISTINCT FROM 'date' AND id % 3 = 0`, 8)})`);
      const after = await q(`UPDATE events SET start_local_date = start_local_date + 20, end_local_date = end_local_date + 20
        WHERE id IN (${pick(`end_precision IS DISTINCT FROM 'date' AND id % 3 = 1`, 8)})`);
      // the calendar rule (an instant at the start, a date at the end): upcoming by its dates with
      // an instant long past, historical by its dates with an instant to come
      const upcoming = await q(`UPDATE events SET start_local_date = $1::date + 5, end_local_date = $1::date + 5, start_at = $2::timestamptz - interval '10 days'
        WHERE id IN (${pick(`end_at IS NULL AND end_precision = 'date' AND id % 2 = 0`, 3)})`, ['2026-03-15', NOW.toISOString()]);
      const historical = await q(`UPDATE events SET start_local_date = $1::date - 5, end_local_date = $1::date - 5, start_at = $2::timestamptz + interval '10 days'
        WHERE id IN (${pick(`end_at IS NULL AND end_precision = 'date' AND id % 2 = 1`, 3)})`, ['2026-03-15', NOW.toISOString()]);
      assert.deepEqual([before.rowCount, after.rowCount, upcoming.rowCount, historical.rowCount], [8, 8, 3, 3]);
      // Events escaping the bounds at the orders' ends below: instants in a month next to a bound,
      // local dates moved across it
      const ends: [from: string, to: string, days: number][] = [
        ['2026-08-01', '2026-09-01', 20], // startInstantLt=2026-09-01 (date orders)
        ['2026-01-01', '2026-02-01', -40], // startInstantGte=2026-01-01 newest first
        ['2027-01-02', '2027-02-01', -20], // startLocalDateLt=2027-01-01 (instant orders)
        ['2025-05-01', '2025-05-31', 20], // startLocalDateGte=2025-06-01 newest first
        ['2026-02-20', '2026-03-14', 20], // historical (dates after now's) in the date order
      ];
      for (const [from, to, days] of ends) {
        const moved = await q(`UPDATE events SET start_local_date = start_local_date + $3::int, end_local_date = end_local_date + $3::int
          WHERE id IN (${pick(`start_at >= $1::timestamptz AND start_at < $2::timestamptz AND end_precision IS DISTINCT FROM 'date'`, 2)})`, [from, to, days]);
        assert.ok(moved.rowCount! > 0, `an Event with its instant in [${from}, ${to})`);
      }
      await q('ANALYZE events');
    });
    after(() => t?.drop());

    /** Every page's publicIds and hasMore, through the read path (`walked`: a bounded search's walk). */
    async function traverse(qs: string, walked?: number): Promise<{ ids: string[]; hasMore: boolean }[]> {
      const pages: { ids: string[]; hasMore: boolean }[] = [];
      let p: EventsPlan = plan(qs);
      for (;;) {
        const { rows, hasMore } = await fetchEventsPage(new Reader(t.db), p, walked);
        pages.push({ ids: rows.map((r) => r.public_id), hasMore });
        if (!hasMore) return pages;
        assert.ok(pages.length < 100, 'terminates');
        const keys = sortKeysOf(rows.at(-1) as unknown as Record<string, unknown>, eventSortArity(p.controls.sort));
        p = plan(`${qs}&cursor=${encodeURIComponent(encodeCursor(p.fingerprint, keys))}`);
      }
    }

    async function plain(filter: string, sort: string, name: string | null): Promise<string[]> {
      const nameFilter = name === null ? '' : ` AND (name_lower LIKE '%${name}%' OR name_folded LIKE '%${name}%')`;
      const instant = sort.includes('Instant') ? ' AND start_at IS NOT NULL' : '';
      const { rows } = await t.db.pool.query<{ public_id: string }>(
        `SELECT public_id FROM events e WHERE active${instant} AND ${filter}${nameFilter} ORDER BY ${ORDER[sort]}`,
        filter.includes('$1') ? [NOW.toISOString()] : [],
      );
      return rows.map((r) => r.public_id);
    }

    for (const [qs, filter] of CASES) {
      test(`${qs}: every page as the plain statement's, the escaping Events included`, async () => {
        const sort = plan(qs).controls.sort;
        const expected = await plain(filter, sort, null);
        assert.ok(expected.length > 2 * LIMIT, `${qs}: several pages`);
        const pages = await traverse(`${qs}&limit=${LIMIT}&fields=name`);
        assert.deepEqual(pages.flatMap((page) => page.ids), expected);
        assert.ok(pages.slice(0, -1).every((page) => page.hasMore && page.ids.length === LIMIT));
        // moved Events are among the matches (those beyond the bound only the second branch finds)
        const { rows: escaping } = await t.db.pool.query<{ public_id: string }>(
          `SELECT public_id FROM events e WHERE active AND start_at IS NOT NULL AND abs(start_local_date - (start_at AT TIME ZONE 'UTC')::date) > 1 AND ${filter}`,
          filter.includes('$1') ? [NOW.toISOString()] : [],
        );
        assert.ok(escaping.length > 0, `${qs}: Events whose dates escape the bound`);
        // with a search read in bounded parts (its walk walks the first branch)
        const searched = await plain(filter, sort, 'a');
        for (const walked of [1, 4]) {
          assert.deepEqual((await traverse(`${qs}&nameContains=a&limit=${LIMIT}&fields=name`, walked)).flatMap((page) => page.ids), searched, `${qs}, walk ${walked}`);
        }
      });
    }
  });
}
