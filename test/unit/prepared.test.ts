/**
 * Prepared statements (src/db/prepared.ts, Statement.stablePlan): names derive from the text and
 * are bounded; only statements whose best plan cannot depend on their values are marked.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseEventControls } from '../../src/controls/events.js';
import { parseQueryString } from '../../src/controls/query-string.js';
import { PreparedNames } from '../../src/db/prepared.js';
import { planEvents } from '../../src/plan/events.js';
import { artistPreviewsStatement, venuePreviewsStatement } from '../../src/queries/event-relations.js';
import { eventsPageStatement } from '../../src/queries/events.js';

describe('PreparedNames', () => {
  test('one name per text, stable, distinct for different texts', () => {
    const names = new PreparedNames(10);
    const a = names.nameOf('SELECT 1');
    assert.match(a ?? '', /^lineup_[0-9a-f]{20}$/);
    assert.equal(names.nameOf('SELECT 1'), a);
    assert.notEqual(names.nameOf('SELECT 2'), a);
    assert.equal(new PreparedNames(10).nameOf('SELECT 1'), a, 'the name depends on the text only');
  });

  test('at most `capacity` texts are ever named; known texts keep their names', () => {
    const names = new PreparedNames(3);
    const first = ['a', 'b', 'c'].map((t) => names.nameOf(t));
    assert.ok(first.every((n) => n !== undefined));
    assert.equal(names.nameOf('d'), undefined, 'a fourth text runs unnamed');
    assert.equal(names.size, 3);
    assert.equal(names.nameOf('b'), first[1]);
  });
});

describe('stablePlan marking of the Events statements', () => {
  const page = (qs: string) => eventsPageStatement(planEvents('/v1/events', parseEventControls(parseQueryString(qs)), new Date('2026-11-23T12:00:00Z')));

  test('plain walks of a sort index are stable (first page, other orders, the updatedAt order)', () => {
    for (const qs of ['', 'limit=50', 'sort=-startLocalDate', 'sort=startInstant', 'sort=updatedAt&fields=name,updatedAt']) {
      assert.equal(page(qs).stablePlan, true, qs);
    }
  });

  test('upcoming in the default order, no other filter, is stable: its bound is a sub-SELECT priced alike in every plan', () => {
    for (const qs of ['temporalPhaseCode=upcoming', 'temporalPhaseCode=upcoming&limit=50']) {
      const statement = page(qs);
      assert.equal(statement.stablePlan, true, qs);
      // its ranges (queries/phase.ts upcomingRanges) start from bounds written the same way
      assert.match(statement.text, /start_local_date >= \(SELECT \(\$\d+::timestamptz AT TIME ZONE 'UTC'\)::date - 1\)/);
      assert.match(statement.text, /> \(\(SELECT \(\$\d+::timestamptz AT TIME ZONE 'UTC'\)::date\), 0, \$\d+::timestamptz\)/);
    }
    assert.doesNotMatch(page('temporalPhaseCode=upcoming&nameContains=tour').text, /\(SELECT \(\$\d+::timestamptz/, 'other filters see the value');
  });

  test('the near walk in the default order, alone or with upcoming, is stable (its text fixes the grid cells)', () => {
    for (const qs of ['near=51.5,-0.12', 'near=51.5,-0.12&temporalPhaseCode=upcoming', 'near=-33.45,-70.66&radiusKm=5&limit=50']) {
      const statement = page(qs);
      assert.equal(statement.stablePlan, true, qs);
      assert.match(statement.text, /FROM event_places np/);
    }
  });

  test('a range of the leading column of the sort index alone is stable: its bounds are sub-SELECTs', () => {
    for (const qs of ['startLocalDateGte=2026-01-01', 'startLocalDateGte=2026-01-01&startLocalDateLt=2026-02-01', 'sort=-startLocalDate&startLocalDateLt=2026-01-01']) {
      const statement = page(qs);
      assert.equal(statement.stablePlan, true, qs);
      assert.match(statement.text, /e\.start_local_date (>=|<) \(SELECT \$\d+::date\)/, qs);
    }
    const feed = page('sort=updatedAt&fields=name,updatedAt&updatedSince=2025-01-01T00:00:00Z');
    assert.equal(feed.stablePlan, true, 'the updatedAt feed');
    assert.match(feed.text, /e\.updated_at >= \(SELECT \$\d+::timestamptz\)/);
    assert.doesNotMatch(page('startLocalDateGte=2026-01-01&nameContains=tour').text, /\(SELECT \$\d+::date\)/, 'other filters see the value');
  });

  test('current alone is stable in every order: its span bounds are sub-SELECTs priced alike in every plan', () => {
    for (const qs of ['temporalPhaseCode=current', 'temporalPhaseCode=current&sort=-startLocalDate', 'temporalPhaseCode=current&sort=updatedAt&limit=50']) {
      const statement = page(qs);
      assert.equal(statement.stablePlan, true, qs);
      assert.match(statement.text, /e\.start_at > \(SELECT \$\d+::timestamptz\) - interval '24 hours'/, qs);
      assert.doesNotMatch(statement.text, /e\.start_at > \$\d+::timestamptz - interval/, qs);
    }
    for (const qs of ['temporalPhaseCode=current&nameContains=tour', 'temporalPhaseCode=current&near=51.5,-0.12', 'temporalPhaseCode=current&artistId=abcdefghijkl']) {
      const statement = page(qs);
      assert.equal(statement.stablePlan, false, qs);
      assert.doesNotMatch(statement.text, /\(SELECT \$\d+::timestamptz\) - interval/, `${qs}: other filters see the value`);
    }
  });

  test('filters whose selectivity depends on the value are planned per request', () => {
    for (const qs of [
      'nameContains=tour',
      'cityContains=london',
      'countryContains=fr',
      'temporalPhaseCode=upcoming&nameContains=tour',
      'temporalPhaseCode=upcoming&sort=startInstant',
      'near=51.5,-0.12&nameContains=tour',
      'near=51.5,-0.12&sort=startInstant',
      'near=51.5,-0.12&temporalPhaseCode=historical',
      'temporalPhaseCode=historical',
      'administrativeStateCode=cancelled',
      'startLocalDateGte=2026-01-01&sort=startInstant',
      'startLocalDateGte=2026-01-01&nameContains=tour',
      'startLocalDateLt=2026-01-01&near=51.5,-0.12',
      'startInstantLt=2026-01-01T00:00:00Z',
      'artistId=abcdefghijkl',
      'sort=updatedAt&fields=name,updatedAt&updatedSince=2025-01-01T00:00:00Z&startLocalDateGte=2026-01-01',
      'sort=updatedAt&fields=name,updatedAt&updatedSince=2025-01-01T00:00:00Z&nameContains=tour',
      'venueId=abcdefghijkl',
      'seriesId=abcdefghijkl',
    ]) {
      assert.equal(page(qs).stablePlan, false, qs);
    }
  });

  test('preview statements over a page of ids are stable', () => {
    assert.equal(artistPreviewsStatement(['1', '2'], false).stablePlan, true);
    assert.equal(venuePreviewsStatement(['1'], true).stablePlan, true);
  });
});
