/**
 * "Near a place" in SQL (decisions §8, issue 18), the same statement text on PostgreSQL and
 * PGlite: a bounding box on the published coordinates (indexed: venues_published_position,
 * migration 006) narrows the Venues, then the exact great-circle distance (haversine on a sphere
 * of radius 6,371.0088 km) decides. Written here rather than with cube/earthdistance: those use
 * their own earth radius (6,378,168 m), so the exact rule would have to be restated anyway, and
 * the box needs no extension on either engine.
 *
 * Only coordinates whose publication is permitted (`publishedCoordinates` would show them) are
 * ever read: every condition and every distance requires `publish_coordinates`.
 */
import type { Near } from '../controls/near.js';
import type { Params, SortKey } from './sql.js';

export const EARTH_RADIUS_KM = 6371.0088;

/**
 * A Venue at exactly the radius matches. The radius is given to at most 6 decimals (1 mm), so a
 * distance matches when, rounded to 6 decimals, it is at most the radius: distance < radius +
 * 0.0000005 km. Floating-point rounding of the formula cannot then drop a Venue at the radius.
 */
export const matchBound = (radiusKm: number) => radiusKm + 0.0000005;

export interface Box {
  readonly minLatitude: number;
  readonly maxLatitude: number;
  /** One or two longitude ranges (two when the box crosses the antimeridian); none: any longitude. */
  readonly longitudes: readonly (readonly [number, number])[];
}

/** Slack on every side of the box (degrees, ~0.1 m): the exact distance decides, the box only narrows. */
const SLACK = 1e-6;
const degrees = (rad: number) => (rad * 180) / Math.PI;
const radians = (deg: number) => (deg * Math.PI) / 180;

/** Every point within `bound` km of the centre lies in this box (spherical geometry). Pure. */
export function boundingBox(latitude: number, longitude: number, boundKm: number): Box {
  const angle = boundKm / EARTH_RADIUS_KM;
  const minLatitude = latitude - degrees(angle) - SLACK;
  const maxLatitude = latitude + degrees(angle) + SLACK;
  const ratio = Math.sin(angle) / Math.cos(radians(latitude));
  if (minLatitude <= -90 || maxLatitude >= 90 || !(ratio < 1)) {
    return { minLatitude: Math.max(minLatitude, -90), maxLatitude: Math.min(maxLatitude, 90), longitudes: [] };
  }
  const spread = degrees(Math.asin(ratio)) + SLACK;
  const west = longitude - spread;
  const east = longitude + spread;
  if (west < -180) return { minLatitude, maxLatitude, longitudes: [[west + 360, 180], [-180, east]] };
  if (east > 180) return { minLatitude, maxLatitude, longitudes: [[west, 180], [-180, east - 360]] };
  return { minLatitude, maxLatitude, longitudes: [[west, east]] };
}

/** The great-circle distance in km from the point to Venue `v`'s published coordinates. */
export function distanceSql(v: string, near: Near, p: Params): string {
  const lat = p.add(near.latitude, 'float8');
  const lon = p.add(near.longitude, 'float8');
  return `(2 * ${EARTH_RADIUS_KM} * asin(least(1.0, sqrt(
      power(sin(radians(${v}.latitude - ${lat}) / 2), 2)
      + cos(radians(${lat})) * cos(radians(${v}.latitude)) * power(sin(radians(${v}.longitude - ${lon}) / 2), 2)))))`;
}

/** Venue `v` (already required active by the caller) has published coordinates within the radius. */
export function venueNearCondition(v: string, near: Near, p: Params): string {
  const bound = matchBound(near.radiusKm);
  const box = boundingBox(near.latitude, near.longitude, bound);
  const range = (column: string, [min, max]: readonly [number, number]) =>
    `${v}.${column} BETWEEN ${p.add(min, 'float8')} AND ${p.add(max, 'float8')}`;
  const longitudes = box.longitudes.map((r) => range('longitude', r));
  return [
    `${v}.publish_coordinates`,
    range('latitude', [box.minLatitude, box.maxLatitude]),
    ...(longitudes.length === 0 ? [`${v}.longitude IS NOT NULL`] : [`(${longitudes.join(' OR ')})`]),
    `${distanceSql(v, near, p)} < ${p.add(bound, 'float8')}`,
  ].join(' AND ');
}

/** An Event `e` with at least one active Venue whose published coordinates are within the radius. */
export function eventNearCondition(e: string, near: Near, p: Params): string {
  return `EXISTS (SELECT 1 FROM event_venues nev JOIN venues nv ON nv.id = nev.venue_id
                   WHERE nev.event_id = ${e}.id AND nv.active AND ${venueNearCondition('nv', near, p)})`;
}

/** `sort=distance` on Venues: nearest first, then publicId. */
export function distanceKeys(v: string, near: Near, p: Params): SortKey[] {
  return [
    { expr: distanceSql(v, near, p), direction: 'asc', cast: 'float8' },
    { expr: `${v}.public_id`, direction: 'asc', cast: 'text' },
  ];
}

/** The public `distanceKm`: kilometres to 3 decimals. */
export const distanceKmColumn = (v: string, near: Near, p: Params) => `round(${distanceSql(v, near, p)}::numeric, 3)::float8 AS distance_km`;
