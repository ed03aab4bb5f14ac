/**
 * Venues near a place by distance (queries/venues.ts, queries/list.ts LateRows.onKeys): each
 * candidate's distance is computed once, as the order's key, and that key is what the radius is
 * tested against; only the listed Venues compute it again (their distanceKm).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseQueryString } from '../../src/controls/query-string.js';
import { parseVenueControls } from '../../src/controls/venues.js';
import { boundaryStatement, listPageStatement } from '../../src/queries/list.js';
import { venueListSource } from '../../src/queries/venues.js';

const HAVERSINE = /asin\(least\(1\.0, sqrt\(/g;
const distances = (text: string) => text.match(HAVERSINE)?.length ?? 0;

test('a page of Venues near a place by distance computes each distance once, first page and after a cursor', () => {
  const source = venueListSource(parseVenueControls(parseQueryString('near=52.52,13.405&radiusKm=30&sort=distance')));
  for (const after of [null, ['12.5', 'abcdefghijkl']]) {
    const { text } = listPageStatement(source, after, 20);
    assert.equal(distances(text), 2, text);
    assert.match(text, /WHERE c\.o0 < \$\d+::float8/, text);
  }
  // the compact boundary resolves its member over the same eligibility: the radius included
  assert.match(boundaryStatement(source, ['abcdefghijkl']).text, /\)\)\)\)\) < \$\d+::float8/);
});

test('in another order the distance is only a condition (and distanceKm)', () => {
  const { text } = listPageStatement(venueListSource(parseVenueControls(parseQueryString('near=52.52,13.405&sort=-name'))), null, 20);
  assert.equal(distances(text), 2, text);
  assert.doesNotMatch(text, /OFFSET 0/);
});
