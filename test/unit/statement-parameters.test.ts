/**
 * Every statement uses every parameter it carries (every test server checks each statement it
 * issues too: test/helper.ts `unusedParameters`). A value added to a statement's parameters by a
 * part of the text that is then left out (a bound of a walk that is not taken, a column a
 * boundary statement does not select) cannot be typed by PostgreSQL (42P18: a 500) and makes the
 * Bind message disagree with an unnamed statement's parameters (a 503 that is no outage). The
 * statement builders are pure, so every combination of the Events page's controls is built here,
 * whole page, walked part and rest part of a bounded search, first page and next page, and the
 * Venues list's page and compact boundary, and each placeholder $1…$n must occur in its text.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { encodeCursor } from '../../src/controls/cursor.js';
import { parseEventControls } from '../../src/controls/events.js';
import { parseQueryString } from '../../src/controls/query-string.js';
import { parseVenueControls } from '../../src/controls/venues.js';
import { eventSortArity, planEvents } from '../../src/plan/events.js';
import { boundedSearch } from '../../src/queries/bounded-scan.js';
import { eventsPageStatement } from '../../src/queries/events.js';
import { boundaryStatement, listPageStatement } from '../../src/queries/list.js';
import type { Statement } from '../../src/queries/statement.js';
import { venueListSource } from '../../src/queries/venues.js';
import { placeholders, unusedParameters } from '../helper.js';

const NOW = new Date('2026-03-15T12:00:00Z');

function assertEveryParameterUsed(statement: Statement, where: string): void {
  assert.deepEqual(unusedParameters(statement), [], `${where}: parameters never used`);
  assert.ok(placeholders(statement.text).every((n) => n >= 1 && n <= statement.values.length), `${where}: a placeholder without a value`);
}

/** Cursor keys of each order, as the page statement returns them. */
const KEYS: Record<string, unknown[]> = {
  startLocalDate: ['2026-03-14', 0, '2026-03-14 10:00:00+00', 'abcdefghijkl'],
  '-startLocalDate': ['2026-03-14', 1, '-infinity', 'abcdefghijkl'],
  startInstant: ['2026-03-14 10:00:00+00', 'abcdefghijkl'],
  '-startInstant': ['2026-03-14 10:00:00+00', 'abcdefghijkl'],
  updatedAt: ['2026-03-14 10:00:00.5+00', 'abcdefghijkl'],
};

const product = <T>(...lists: T[][]): T[][] => lists.reduce<T[][]>((acc, list) => acc.flatMap((a) => list.map((x) => [...a, x])), [[]]);

describe('every statement uses every parameter it carries', () => {
  test('Events pages: every order, phase, place, search, date bound and context, first and next page, each part', () => {
    const sorts = ['', 'sort=-startLocalDate', 'sort=startInstant', 'sort=-startInstant', 'sort=updatedAt&fields=name,updatedAt&updatedSince=2026-01-01T00:00:00Z'];
    const phases = ['', 'temporalPhaseCode=upcoming', 'temporalPhaseCode=current', 'temporalPhaseCode=historical', 'temporalPhaseCode=indeterminate'];
    // a place the grid walk covers, and one whose box spans too many longitudes for it (near a pole)
    const places = ['', 'near=51.5,-0.12&radiusKm=300', 'near=90,0&radiusKm=500'];
    const searches = ['', 'nameContains=tour', 'nameContains=xx', 'cityContains=a', 'countryContains=fr&nameContains=dj'];
    const dates = ['', 'startInstantGte=2022-01-01T00:00:00Z', 'startInstantLt=2027-01-01T00:00:00Z', 'startLocalDateGte=2024-01-01', 'startLocalDateLt=2030-01-01',
      'startInstantGte=2022-01-01T00:00:00Z&startInstantLt=2027-01-01T00:00:00Z&startLocalDateGte=2024-01-01&startLocalDateLt=2030-01-01'];
    const contexts = ['', 'artistId=abcdefghijkl', 'administrativeStateCode=cancelled'];
    let built = 0;
    for (const parts of product(sorts, phases, places, searches, dates, contexts)) {
      const qs = parts.filter((x) => x !== '').join('&');
      let first;
      try {
        first = planEvents('/v1/events', parseEventControls(parseQueryString(qs)), NOW);
      } catch {
        continue; // a combination the controls refuse (400)
      }
      const keys = KEYS[first.controls.sort]!.slice(0, eventSortArity(first.controls.sort));
      const next = planEvents('/v1/events', parseEventControls(parseQueryString(`${qs}&cursor=${encodeURIComponent(encodeCursor(first.fingerprint, keys as never))}`)), NOW);
      for (const plan of [first, next]) {
        const where = `${qs}${plan === next ? ' (next page)' : ''}`;
        assertEveryParameterUsed(eventsPageStatement(plan), where);
        if (boundedSearch(plan)) {
          assertEveryParameterUsed(eventsPageStatement(plan, { part: 'walked', rows: 5000 }), `${where}, walked part`);
          assertEveryParameterUsed(eventsPageStatement(plan, { part: 'rest', rows: 5000 }), `${where}, rest part`);
        }
        built++;
      }
    }
    assert.ok(built > 2000, `${built} plans built`);
  });

  test('Venues lists: page and compact boundary, with and without near, in every order', () => {
    const sorts = ['', 'sort=-name', 'sort=updatedAt&fields=name,updatedAt', 'sort=distance'];
    const filters = ['', 'nameContains=hall', 'locality=berlin&countryCode=DE', 'statusCode=operational'];
    const places = ['', 'near=52.52,13.405', 'near=90,0&radiusKm=500'];
    let built = 0;
    for (const parts of product(sorts, filters, places)) {
      const qs = parts.filter((x) => x !== '').join('&');
      let controls;
      try {
        controls = parseVenueControls(parseQueryString(qs));
      } catch {
        continue;
      }
      const source = venueListSource(controls);
      assertEveryParameterUsed(listPageStatement(source, null, 20), qs);
      assertEveryParameterUsed(boundaryStatement(source, ['abcdefghijkl']), `${qs}, compact boundary`);
      built++;
    }
    assert.ok(built > 20, `${built} lists built`);
  });
});
