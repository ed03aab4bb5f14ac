/**
 * "Near a place" in SQL (an extension: docs/api-guide.md), the same statement text on PostgreSQL and
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

/**
 * The search: its point's latitude and longitude as placeholders, added once per statement and
 * shared by every expression that measures a distance (a statement that leaves one of them out,
 * the compact boundary's without the distance column, keeps no unused parameter: PostgreSQL
 * cannot type one, 42P18).
 */
export interface NearPoint {
  readonly near: Near;
  readonly lat: string;
  readonly lon: string;
}

export const nearPoint = (near: Near, p: Params): NearPoint => ({ near, lat: p.add(near.latitude, 'float8'), lon: p.add(near.longitude, 'float8') });

/** The great-circle distance in km from the point to Venue `v`'s published coordinates. */
const distanceSql = (v: string, point: NearPoint) => distanceFrom(v, point.lat, point.lon);

/** The same, from the point whose latitude and longitude are the placeholders `lat`, `lon`. */
export function distanceFrom(v: string, lat: string, lon: string): string {
  return `(2 * ${EARTH_RADIUS_KM} * asin(least(1.0, sqrt(
      power(sin(radians(${v}.latitude - ${lat}) / 2), 2)
      + cos(radians(${lat})) * cos(radians(${v}.latitude)) * power(sin(radians(${v}.longitude - ${lon}) / 2), 2)))))`;
}

/** Venue `v` (already required active by the caller) has published coordinates within the radius. */
export function venueNearCondition(v: string, point: NearPoint, p: Params): string {
  return `${venueInBox(v, point, p)} AND ${distanceWithin(distanceSql(v, point), point.near, p)}`;
}

/**
 * Venue `v` has published coordinates in the radius' bounding box: a Venue near the point
 * (venueNearCondition) once its exact distance is also within the radius (distanceWithin).
 */
export function venueInBox(v: string, point: NearPoint, p: Params): string {
  const near = point.near;
  const box = boundingBox(near.latitude, near.longitude, matchBound(near.radiusKm));
  const range = (column: string, [min, max]: readonly [number, number]) =>
    `${v}.${column} BETWEEN ${p.add(min, 'float8')} AND ${p.add(max, 'float8')}`;
  const longitudes = box.longitudes.map((r) => range('longitude', r));
  return [
    `${v}.publish_coordinates`,
    range('latitude', [box.minLatitude, box.maxLatitude]),
    ...(longitudes.length === 0 ? [`${v}.longitude IS NOT NULL`] : [`(${longitudes.join(' OR ')})`]),
  ].join(' AND ');
}

/** The distance `distance` (the SQL of distanceFrom, or a column that holds it) is within the radius. */
export const distanceWithin = (distance: string, near: Near, p: Params): string => `${distance} < ${p.add(matchBound(near.radiusKm), 'float8')}`;

/** An Event `e` with at least one active Venue whose published coordinates are within the radius. */
export function eventNearCondition(e: string, near: Near, p: Params): string {
  return `EXISTS (SELECT 1 FROM event_venues nev JOIN venues nv ON nv.id = nev.venue_id
                   WHERE nev.event_id = ${e}.id AND nv.active AND ${venueNearCondition('nv', nearPoint(near, p), p)})`;
}

/** `sort=distance` on Venues: nearest first, then publicId. */
export function distanceKeys(v: string, point: NearPoint): SortKey[] {
  return [
    { expr: distanceSql(v, point), direction: 'asc', cast: 'float8' },
    { expr: `${v}.public_id`, direction: 'asc', cast: 'text' },
  ];
}

/** The public `distanceKm`: kilometres to 3 decimals. */
export const distanceKmColumn = (v: string, point: NearPoint) => `round(${distanceSql(v, point)}::numeric, 3)::float8 AS distance_km`;

/**
 * The grid of `event_places` (migration 007): levels of square cells in degrees of latitude and
 * longitude (powers of two, so the division is exact in binary floating point). Each published
 * Venue position is stored at every level; a search uses the finest level at which the cells
 * covering its box are at most MAX_CELLS, else the coarsest when they are at most
 * MAX_COARSE_CELLS there; else (a wide radius near a pole: the box spans most longitudes) none,
 * and the caller filters instead of walking. The cell number is computed with the same float8 arithmetic in SQL (cellSql) and
 * here (cellsCovering), so both sides agree on every boundary.
 */
export const GRID_LEVELS: readonly { readonly level: number; readonly size: number }[] = [
  { level: 1, size: 0.25 },
  { level: 2, size: 1 },
  { level: 3, size: 4 },
];
const MAX_CELLS = 24;
const MAX_COARSE_CELLS = 48;
const LEVEL_SPAN = 100_000_000;
const ROW_SPAN = 10_000;

const cellNumber = (level: number, row: number, column: number) => level * LEVEL_SPAN + row * ROW_SPAN + column;

/** The cell (bigint) of a position at a level given as SQL expressions (level, size as float8). */
export const cellSql = (level: string, size: string, latitude: string, longitude: string) =>
  `(${level} * ${LEVEL_SPAN} + floor((${latitude} + 90) / ${size}) * ${ROW_SPAN} + floor((${longitude} + 180) / ${size}))::bigint`;

export interface Cells {
  /** The cells (any order) whose union holds the box. */
  readonly cells: readonly number[];
  /** Every cell of the level lies in [first, end). */
  readonly first: number;
  readonly end: number;
}

/** The cells of one level covering a bounding box. Pure. */
function cellsAt({ level, size }: (typeof GRID_LEVELS)[number], box: Box): number[] {
  const index = (value: number, offset: number) => Math.floor((value + offset) / size);
  const rows: number[] = [];
  for (let r = index(box.minLatitude, 90); r <= index(box.maxLatitude, 90); r++) rows.push(r);
  const columns = new Set<number>();
  const ranges = box.longitudes.length === 0 ? [[-180, 180] as const] : box.longitudes;
  for (const [west, east] of ranges) for (let c = index(west, 180); c <= index(east, 180); c++) columns.add(c);
  return rows.flatMap((r) => [...columns].map((c) => cellNumber(level, r, c)));
}

/** The grid cells to read for a box (see GRID_LEVELS), or null when there would be too many. */
export function cellsCovering(box: Box): Cells | null {
  let cells: number[] = [];
  let chosen = GRID_LEVELS[0]!;
  for (const level of GRID_LEVELS) {
    chosen = level;
    cells = cellsAt(level, box);
    if (cells.length <= MAX_CELLS) break;
  }
  if (cells.length > MAX_COARSE_CELLS) return null;
  return { cells, first: chosen.level * LEVEL_SPAN, end: (chosen.level + 1) * LEVEL_SPAN };
}
