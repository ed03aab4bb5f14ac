/**
 * Venue reads (spec: GET /v1/venues, GET /v1/venues/{venueId}): the collection's list source
 * with its own filters (literal name containment, trimmed case-insensitive locality equality,
 * exact country code, status, and the extension `near`, decisions §8) and the detail statement.
 * Allow-listed columns only.
 */
import type { VenueControls } from '../controls/venues.js';
import type { VenueField } from '../plan/resource-fields.js';
import { localityKey } from '../text/normalize.js';
import { selectedMediaJoin as mediaJoin, venueColumns } from './items.js';
import { namedKeys, type SourceBuilder } from './list.js';
import { distanceKeys, distanceKmColumn, distanceWithin, nearPoint, venueInBox, venueNearCondition, type NearPoint } from './near.js';
import { Params, literalNameMatch, addUpdatedSince } from './sql.js';
import type { Statement } from './statement.js';
import { detailStatements } from './statement-memo.js';

export function venueListSource(c: VenueControls): SourceBuilder {
  return (p) => {
    const where = ['v.active'];
    const f = c.filters;
    if (c.nameContains !== null) where.push(literalNameMatch('v', c.nameContains, p));
    if (f.locality !== null) where.push(`v.locality_key = ${p.add(localityKey(f.locality))}`);
    if (f.countryCode !== null) where.push(`v.country_code = ${p.add(f.countryCode)}`);
    if (f.statusCode !== null) where.push(`v.status_code = ${p.add(f.statusCode)}`);
    // the updatedAt feed alone: a range walk of the sort index, stable (queries/sql.ts)
    const feed = addUpdatedSince(where, 'v', c.updatedSince, c.sort === 'updatedAt' && f.near === null, p);
    const point = f.near === null ? null : nearPoint(f.near, p);
    // by distance, the distance within the radius is tested on the order's key (LateRows.onKeys)
    const byDistance = point !== null && c.sort === 'distance';
    if (point !== null) where.push(byDistance ? venueInBox('v', point, p) : venueNearCondition('v', point, p));
    const columns = venueColumns('v', c.fields);
    if (point !== null) columns.push(distanceKmColumn('v', point));
    // near: the Venues in the box are sorted, not walked, so the page is cut on the position
    // index's own columns and only its rows are read (ListSource.lateRows, migration 009)
    const near = f.near !== null;
    // near alone by distance: a top-N of the box's index entries whatever the place (a generic
    // plan serves every place and radius)
    const nearByDistance = near && where.length === 2 && c.sort === 'distance';
    return {
      name: 'venues.list',
      columns,
      from: near ? 'venues v' : `venues v ${mediaJoin('v', c.fields)}`,
      where,
      // sort=distance requires near (controls/venues.ts)
      keys: c.sort === 'distance' ? distanceKeys('v', point as NearPoint) : namedKeys('v', c.sort),
      identity: ['v.public_id'],
      names: ['v.name'],
      stablePlan: where.length === 1 || feed || nearByDistance, // unfiltered, the feed alone, or near alone by distance
      ...(near
        ? {
            lateRows: {
              table: 'venues',
              alias: 'v',
              joins: mediaJoin('v', c.fields),
              ...(byDistance ? { onKeys: ([distance]: readonly string[]) => [distanceWithin(distance!, point.near, p)] } : {}),
            },
          }
        : {}),
    };
  };
}

const venueDetails = detailStatements<VenueField>((fields, venueId) => {
  const p = new Params();
  const text = `SELECT ${venueColumns('v', fields).join(', ')}
    FROM venues v ${mediaJoin('v', fields)}
    WHERE v.public_id = ${p.add(venueId)} AND v.active`;
  return { name: 'venues.detail', text, values: p.values, stablePlan: true };
});

export const venueDetailStatement = (venueId: string, fields: readonly VenueField[]): Statement => venueDetails(fields, venueId);
