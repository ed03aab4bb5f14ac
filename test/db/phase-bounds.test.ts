/**
 * The phase filters' bounds around the operation time (src/queries/phase.ts):
 * `temporalPhaseCode=upcoming` in the default order reads its usual branch as ranges that pass over
 * the Events of the day before and of the day that have started (`upcomingRanges`, migration 014),
 * and `temporalPhaseCode=current` takes its dated candidates from the local dates any zone can
 * have at that time (`localTodays`). Here the Events of a catalogue are moved into the days around
 * the operation time with every schedule rule (both instants, a start instant alone, a start
 * instant and a `date` end, dates only, an unknown zone), zones from UTC-12 to UTC+14 and instants
 * up to two days away from their local dates, and for operation times across the day (among them
 * the instants where the local todays' window moves) every page must list exactly what the plain
 * statement (the phase rule and the order, nothing else) lists.
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
import { eventsPageStatement } from '../../src/queries/events.js';
import { fetchEventsPage } from '../../src/queries/events-read.js';
import { SHORT_SPAN_DAYS, phaseSql } from '../../src/queries/phase.js';
import { engines, openTestDatabase, type TestDatabase } from '../helper.js';
import { withIndexPlans, type PlanNode } from './index-plans.js';

const DAY = '2026-03-15';
// operation times (a request's, to the millisecond) across the UTC day: in some zones the local today is still the day before, in
// others already the next; at 10:00 UTC+14 reaches the next day, at 12:00 UTC-12 leaves the day before
const NOWS = [
  '2026-03-15T00:30:00Z', '2026-03-15T05:00:00Z', '2026-03-15T09:59:59.999Z', '2026-03-15T10:00:00Z',
  '2026-03-15T11:59:59.999Z', '2026-03-15T12:00:00Z', '2026-03-15T23:30:00Z',
];
const LIMIT = 5;
// days from start date to end date: both sides of SHORT_SPAN_DAYS (queries/phase.ts)
const SPAN_LENGTHS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 14, 30, 60, 1, 7, 8, 2, 3, 6, 45];
const ZONES = ['Etc/GMT+12', 'America/Los_Angeles', 'Europe/London', 'Asia/Tokyo', 'Pacific/Kiritimati'];

const plan = (qs: string, now: string) => planEvents('/v1/events', parseEventControls(parseQueryString(qs)), new Date(now));

describe('phase bounds: the statement', () => {
  test('the upcoming page alone reads its usual branch as three ranges, a bounded search walks it whole', () => {
    const text = eventsPageStatement(plan('temporalPhaseCode=upcoming', NOWS[0]!)).text;
    assert.match(text, /\(e\.start_local_date, e\.start_rank, e\.start_key\) >/);
    assert.match(text, /e\.end_at IS NULL AND e\.end_precision IS NOT NULL/);
    // four branches: three ranges and the Events whose dates escape the bound
    assert.equal(text.split('UNION ALL').length, 4);
    // another order keeps its own bounds
    assert.doesNotMatch(eventsPageStatement(plan('temporalPhaseCode=upcoming&sort=-startLocalDate', NOWS[0]!)).text, /e\.start_rank, e\.start_key\) >/);
  });
});

for (const engine of engines()) {
  describe(`phase bounds around the operation time (${engine.name})`, () => {
    let t: TestDatabase;
    before(async () => {
      t = await openTestDatabase(engine);
      await seedDemo(t.db, { events: 200, seed: 'upcoming-ranges', anchorDate: DAY });
      const q = (sql: string, values: unknown[] = []) => t.db.pool.query(sql, values);
      // k numbers the Events: its rule, zone and local date (two days before to two days after)
      // vary independently, and its instant lies within two hours of one of the operation times
      const moved = await q(
        `WITH k AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM events WHERE active ORDER BY id LIMIT 180),
         s AS (SELECT id, k, k % 6 AS rule, $1::date - 2 + (k / 30 % 5)::int AS d,
                      ($3::timestamptz[])[1 + k * 3 % array_length($3::timestamptz[], 1)] + (k * 7 % 13 - 6) * interval '20 minutes' AS at,
                      ($2::text[])[1 + k / 6 % 5] AS zone
                 FROM k)
         UPDATE events e SET
           start_local_date = s.d,
           time_zone = CASE WHEN s.rule = 4 THEN 'Mars/Olympus_Mons' ELSE s.zone END,
           time_zone_known = s.rule <> 4,
           start_precision = CASE WHEN s.rule IN (3, 5) THEN 'date' ELSE 'date-time' END,
           start_local_time = CASE WHEN s.rule IN (3, 5) THEN NULL ELSE '20:00' END,
           start_instant = CASE WHEN s.rule IN (3, 5) THEN NULL ELSE to_char(s.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') END,
           start_at = CASE WHEN s.rule IN (3, 5) THEN NULL ELSE s.at END,
           end_precision = CASE s.rule WHEN 0 THEN 'date-time' WHEN 2 THEN 'date' WHEN 4 THEN 'date-time' WHEN 5 THEN 'date' ELSE NULL END,
           end_local_date = CASE WHEN s.rule IN (0, 2, 4) THEN s.d + (s.k % 2)::int WHEN s.rule = 5 THEN s.d - 1 ELSE NULL END,
           end_local_time = CASE WHEN s.rule IN (0, 4) THEN '23:00' ELSE NULL END,
           end_instant = NULL,
           end_at = CASE WHEN s.rule IN (0, 4) THEN s.at + interval '3 hours' ELSE NULL END
         FROM s WHERE e.id = s.id`,
        [DAY, ZONES, NOWS],
      );
      assert.equal(moved.rowCount, 180);
      // the other active Events (18): spans of local dates of every length a page of current alone reads apart
      // (queries/phase.ts currentCandidateBranches: 1 to SHORT_SPAN_DAYS by length, longer by
      // range), ending on the day before, the day or the day after
      const spans = await q(
        `WITH k AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM events WHERE active ORDER BY id OFFSET 180),
         s AS (SELECT id, k, ($3::int[])[1 + k % 20] AS len, ($2::text[])[1 + k % 5] AS zone FROM k)
         UPDATE events e SET
           start_local_date = $1::date + (s.k % 3)::int - 1 - s.len, time_zone = s.zone, time_zone_known = true,
           start_precision = 'date', start_local_time = NULL, start_instant = NULL, start_at = NULL,
           end_precision = 'date', end_local_date = $1::date + (s.k % 3)::int - 1, end_local_time = NULL, end_instant = NULL, end_at = NULL
         FROM s WHERE e.id = s.id`,
        [DAY, ZONES, SPAN_LENGTHS],
      );
      // (at least the first 13 lengths: 1 to 10, 14, 30, 60)
      assert.ok((spans.rowCount ?? 0) >= 13, `${spans.rowCount} spans`);
      await q('ANALYZE events');
    });
    after(() => t?.drop());

    async function traverse(qs: string, now: string): Promise<string[]> {
      const ids: string[] = [];
      let p: EventsPlan = plan(qs, now);
      for (let pages = 0; ; pages++) {
        assert.ok(pages < 200, 'terminates');
        const { rows, hasMore } = await fetchEventsPage(new Reader(t.db), p);
        ids.push(...rows.map((r) => r.public_id));
        if (!hasMore) return ids;
        assert.equal(rows.length, LIMIT);
        const keys = sortKeysOf(rows.at(-1) as unknown as Record<string, unknown>, eventSortArity(p.controls.sort));
        p = plan(`${qs}&cursor=${encodeURIComponent(encodeCursor(p.fingerprint, keys))}`, now);
      }
    }

    // the kinds of upcoming Event the ranges tell apart, as the operation times found them
    const kinds = new Set<string>();
    for (const now of NOWS) {
      test(`at ${now}: every page as the plain statement's`, async () => {
        const { rows } = await t.db.pool.query<{ public_id: string; kind: string | null }>(
          `SELECT public_id,
                  CASE WHEN start_local_date = ($1::timestamptz AT TIME ZONE 'UTC')::date - 1 AND start_rank = 0 THEN 'the day before, timed'
                       WHEN start_local_date = ($1::timestamptz AT TIME ZONE 'UTC')::date AND start_rank = 0 AND start_at <= $1::timestamptz THEN 'the day, started, calendar rule'
                       WHEN start_local_date = ($1::timestamptz AT TIME ZONE 'UTC')::date AND start_rank = 0 AND start_at <= $1::timestamptz + interval '1 hour' THEN 'the day, starting within the hour'
                       WHEN start_local_date = ($1::timestamptz AT TIME ZONE 'UTC')::date AND start_rank = 1 THEN 'the day, dates only'
                  END AS kind
             FROM events e WHERE active AND ${phaseSql('e', '$1::timestamptz').phase} = 'upcoming'
            ORDER BY start_local_date, start_rank, start_key, public_id`,
          [now],
        );
        assert.ok(rows.length > 3 * LIMIT, 'several pages');
        for (const r of rows) if (r.kind !== null) kinds.add(r.kind);
        assert.deepEqual(await traverse(`temporalPhaseCode=upcoming&limit=${LIMIT}&fields=name`, now), rows.map((r) => r.public_id));
        // with a bound at the order's end (each range keeps it) and with another filter (the ranges inline)
        const before = new Date(Date.parse(now) + 30 * 3_600_000).toISOString();
        const { rows: bounded } = await t.db.pool.query<{ public_id: string }>(
          `SELECT public_id FROM events e WHERE active AND ${phaseSql('e', '$1::timestamptz').phase} = 'upcoming' AND start_at < $2::timestamptz
            ORDER BY start_local_date, start_rank, start_key, public_id`,
          [now, before],
        );
        assert.ok(bounded.length > 0 && bounded.length < rows.length, 'the end bound leaves some out');
        assert.deepEqual(await traverse(`temporalPhaseCode=upcoming&startInstantLt=${before}&limit=${LIMIT}&fields=name`, now), bounded.map((r) => r.public_id));
        const { rows: scheduled } = await t.db.pool.query<{ public_id: string }>(
          `SELECT public_id FROM events e WHERE active AND ${phaseSql('e', '$1::timestamptz').phase} = 'upcoming' AND administrative_state_code = 'scheduled'
            ORDER BY start_local_date, start_rank, start_key, public_id`,
          [now],
        );
        assert.deepEqual(await traverse(`temporalPhaseCode=upcoming&administrativeStateCode=scheduled&limit=${LIMIT}&fields=name`, now), scheduled.map((r) => r.public_id));
      });
    }
    test('the fixture had upcoming Events of every kind', () => {
      assert.deepEqual([...kinds].sort(), ['the day before, timed', 'the day, dates only', 'the day, started, calendar rule', 'the day, starting within the hour']);
    });

    // current: the dated Events whose local today is the edge of the window of local todays
    const edges = new Set<string>();
    // and the lengths of its multi-day spans of local dates: read by length, or by range
    const lengths = new Set<string>();
    for (const now of NOWS) {
      test(`at ${now}: every page of current as the plain statement's`, async () => {
        const { rows } = await t.db.pool.query<{ public_id: string; edge: string | null; length: number | null }>(
          `SELECT public_id,
                  CASE WHEN start_at IS NOT NULL AND end_at IS NOT NULL THEN NULL
                       WHEN start_local_date <= ($1::timestamptz AT TIME ZONE 'UTC')::date - 1
                        AND coalesce(end_local_date, start_local_date) = ($1::timestamptz AT TIME ZONE 'UTC')::date - 1 THEN 'dated, ends on the day before'
                       WHEN start_local_date = ($1::timestamptz AT TIME ZONE 'UTC')::date + 1 THEN 'dated, starts on the day after'
                  END AS edge,
                  CASE WHEN (start_at IS NULL OR end_at IS NULL) AND end_local_date > start_local_date THEN end_local_date - start_local_date END AS length
             FROM events e WHERE active AND ${phaseSql('e', '$1::timestamptz').phase} = 'current'
            ORDER BY start_local_date, start_rank, start_key, public_id`,
          [now],
        );
        for (const r of rows) if (r.edge !== null) edges.add(`${r.edge} at ${now}`);
        for (const r of rows) if (r.length !== null) lengths.add(r.length <= SHORT_SPAN_DAYS ? 'short' : 'long');
        assert.deepEqual(await traverse(`temporalPhaseCode=current&limit=${LIMIT}&fields=name`, now), rows.map((r) => r.public_id));
        // alone, its candidates come from each index apart (queries/current-candidates.ts): in
        // every order, with the default fields (the media join, the stored previews)
        assert.deepEqual(await traverse(`temporalPhaseCode=current&limit=${LIMIT}`, now), rows.map((r) => r.public_id));
        for (const [sort, order] of [
          ['-startLocalDate', 'start_local_date DESC, start_rank, start_key DESC, public_id'],
          ['startInstant', 'start_at, public_id'],
          ['-startInstant', 'start_at DESC, public_id'],
          ['updatedAt', 'updated_at, public_id'],
        ] as const) {
          const instant = sort.endsWith('startInstant') ? 'AND start_at IS NOT NULL' : '';
          const { rows: sorted } = await t.db.pool.query<{ public_id: string }>(
            `SELECT public_id FROM events e WHERE active AND ${phaseSql('e', '$1::timestamptz').phase} = 'current' ${instant} ORDER BY ${order}`,
            [now],
          );
          assert.deepEqual(await traverse(`temporalPhaseCode=current&sort=${sort}&limit=${LIMIT}&fields=name`, now), sorted.map((r) => r.public_id), sort);
        }
      });
    }

    test('current alone can read its candidates from its indexes alone, in every order (migration 016 holds every column they need)', async () => {
      await withIndexPlans(t.db, async (plans) => {
        // each part must be an index-only scan of its own index, which only the columns the indexes hold allow
        for (const qs of ['temporalPhaseCode=current', 'temporalPhaseCode=current&sort=-startInstant&fields=name', 'temporalPhaseCode=current&sort=updatedAt&limit=50']) {
          const lines = await plans.text(eventsPageStatement(plan(qs, NOWS[0]!)));
          for (const index of ['events_current_instants', 'events_current_hours', 'events_current_short_dates', 'events_current_long_dates', 'events_current_days']) {
            // (forwards or backwards, as the order asks)
            assert.match(lines, new RegExp(`Index Only Scan (Backward )?using ${index} on events`), `${qs}: ${index}\n${lines}`);
          }
          assert.doesNotMatch(lines, /Bitmap Heap Scan/, qs);
        }
        // In the default order the Events of one local day come out of events_current_days in that
        // order (migration 020), and so do the multi-day spans of each length out of
        // events_current_short_dates (migration 023), merged as they come, not filtered and sorted
        // whole; the phase rule is checked once, above the merge (queries/current-candidates.ts)
        const phaseChecks = (root: PlanNode) => {
          const parents: Record<string, string[]> = { events_current_days: [], events_current_short_dates: [] };
          const checks: string[] = [];
          const visit = (node: PlanNode, parent: PlanNode | null) => {
            parents[node['Index Name'] ?? '']?.push(parent?.['Node Type'] ?? '(none)');
            if (String(node.Filter ?? '').includes("'indeterminate'")) checks.push(node['Index Name'] ?? node['Node Type']);
            for (const child of node.Plans ?? []) visit(child, node);
          };
          visit(root, null);
          return { parents, checks };
        };
        const root = await plans.tree(eventsPageStatement(plan('temporalPhaseCode=current', NOWS[0]!)));
        assert.deepEqual(
          phaseChecks(root),
          { parents: { events_current_days: ['Merge Append'], events_current_short_dates: Array(SHORT_SPAN_DAYS).fill('Merge Append') }, checks: ['Subquery Scan'] },
          JSON.stringify(root),
        );
        // newest first, where the rejected candidates come first, each part checks it and gives
        // only its own first page-length of current Events
        const newest = await plans.tree(eventsPageStatement(plan('temporalPhaseCode=current&sort=-startLocalDate', NOWS[0]!)));
        const { checks } = phaseChecks(newest);
        assert.deepEqual(
          [...checks].sort(),
          ['events_current_days', 'events_current_hours', 'events_current_instants', 'events_current_long_dates', ...Array(SHORT_SPAN_DAYS).fill('events_current_short_dates')],
          JSON.stringify(newest),
        );
      });
    });
    // historical newest first: the Events of the days around now that its ranges tell apart
    const past = new Set<string>();
    for (const now of NOWS) {
      test(`at ${now}: every page of historical newest first as the plain statement's`, async () => {
        const { rows } = await t.db.pool.query<{ public_id: string; kind: string | null }>(
          `SELECT public_id,
                  CASE WHEN start_local_date = ($1::timestamptz AT TIME ZONE 'UTC')::date + 1 AND start_rank = 1 THEN 'the day after, dates only, ending before it starts'
                       WHEN start_local_date >= ($1::timestamptz AT TIME ZONE 'UTC')::date - 1 AND start_rank = 0 AND start_at > $1::timestamptz THEN 'around now, timed, not started, calendar rule'
                       WHEN start_local_date >= ($1::timestamptz AT TIME ZONE 'UTC')::date - 1 AND start_rank = 0 THEN 'around now, timed, started'
                       WHEN start_local_date < ($1::timestamptz AT TIME ZONE 'UTC')::date - 1 THEN 'the days before'
                  END AS kind
             FROM events e WHERE active AND ${phaseSql('e', '$1::timestamptz').phase} = 'historical'
            ORDER BY start_local_date DESC, start_rank, start_key DESC, public_id`,
          [now],
        );
        for (const r of rows) if (r.kind !== null) past.add(r.kind);
        assert.deepEqual(await traverse(`temporalPhaseCode=historical&sort=-startLocalDate&limit=${LIMIT}&fields=name`, now), rows.map((r) => r.public_id));
      });
    }
    test('the fixture had historical Events of every kind', () => {
      assert.deepEqual([...past].sort(), ['around now, timed, not started, calendar rule', 'around now, timed, started', 'the day after, dates only, ending before it starts', 'the days before']);
    });

    test('the fixture had current multi-day spans of local dates read by length and by range', () => {
      assert.deepEqual([...lengths].sort(), ['long', 'short']);
    });

    test('the fixture had current Events at both edges of the window, just before it moved', () => {
      for (const edge of ['dated, ends on the day before at 2026-03-15T11:59:59.999Z', 'dated, starts on the day after at 2026-03-15T10:00:00Z']) {
        assert.ok(edges.has(edge), edge);
      }
    });
  });
}
