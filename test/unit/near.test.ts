/**
 * The "near a place" bounding box (src/queries/near.ts): it only narrows, so every point within
 * the radius must lie inside it, also across the antimeridian and near the poles (property test),
 * and it must actually narrow away from the poles.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { EARTH_RADIUS_KM, GRID_LEVELS, boundingBox, cellsCovering } from '../../src/queries/near.js';

const rad = (d: number) => (d * Math.PI) / 180;
const deg = (r: number) => (r * 180) / Math.PI;

/** The point at `distanceKm` from (lat, lon) on bearing `bearing` (great circle). */
function destination(lat: number, lon: number, distanceKm: number, bearing: number): [number, number] {
  const d = distanceKm / EARTH_RADIUS_KM;
  const φ1 = rad(lat);
  const φ2 = Math.asin(Math.sin(φ1) * Math.cos(d) + Math.cos(φ1) * Math.sin(d) * Math.cos(bearing));
  const λ2 = rad(lon) + Math.atan2(Math.sin(bearing) * Math.sin(d) * Math.cos(φ1), Math.cos(d) - Math.sin(φ1) * Math.sin(φ2));
  return [deg(φ2), ((deg(λ2) + 540) % 360) - 180];
}

const inside = (box: ReturnType<typeof boundingBox>, [lat, lon]: [number, number]) =>
  lat >= box.minLatitude && lat <= box.maxLatitude && (box.longitudes.length === 0 || box.longitudes.some(([a, b]) => lon >= a && lon <= b));

/** A centre, a radius up to 500 km, and a point within it (a fraction of the radius, a bearing). */
const pointWithinRadius = [
  fc.double({ min: -90, max: 90, noNaN: true }),
  fc.double({ min: -180, max: 180, noNaN: true }),
  fc.double({ min: 0.001, max: 500, noNaN: true }),
  fc.double({ min: 0, max: 1, noNaN: true }),
  fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
] as const;

describe('near: bounding box', () => {
  it('holds every point within the radius (any centre, radius up to 500 km, any bearing)', () => {
    fc.assert(
      fc.property(
        ...pointWithinRadius,
        (lat, lon, radius, fraction, bearing) => {
          const box = boundingBox(lat, lon, radius);
          return inside(box, destination(lat, lon, radius * fraction, bearing));
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it('wraps across the antimeridian and opens at the poles', () => {
    const east = boundingBox(10, 179.9, 25);
    assert.equal(east.longitudes.length, 2);
    assert.ok(inside(east, [10, -179.9]));
    assert.deepEqual(boundingBox(89.9, 0, 25).longitudes, []);
    const berlin = boundingBox(52.52, 13.405, 25);
    assert.equal(berlin.longitudes.length, 1);
    assert.ok(berlin.maxLatitude - berlin.minLatitude < 0.5 && (berlin.longitudes[0]![1] - berlin.longitudes[0]![0]) < 0.8, 'narrows');
  });
});

describe('near: grid cells of event_places (migration 007)', () => {
  /** The cell of a point at a level, computed here from the grid's definition. */
  const cellOf = (level: number, lat: number, lon: number) => {
    const size = GRID_LEVELS.find((l) => l.level === level)!.size;
    return level * 100_000_000 + Math.floor((lat + 90) / size) * 10_000 + Math.floor((lon + 180) / size);
  };

  it('cover every point within the radius, at one level (any centre, radius up to 500 km)', () => {
    fc.assert(
      fc.property(
        ...pointWithinRadius,
        (lat, lon, radius, fraction, bearing) => {
          const covering = cellsCovering(boundingBox(lat, lon, radius));
          // none only where the box spans most longitudes (near a pole): the read filters instead
          if (covering === null) return Math.abs(lat) > 60;
          const { cells, first, end } = covering;
          const level = first / 100_000_000;
          const [pLat, pLon] = destination(lat, lon, radius * fraction, bearing);
          return end === first + 100_000_000 && cells.every((c) => c >= first && c < end) && cells.includes(cellOf(level, pLat, pLon));
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it('uses the finest level with at most 24 cells: a few small cells for a city, coarser ones for a wide radius', () => {
    const city = cellsCovering(boundingBox(51.5072, -0.1276, 25));
    assert.equal(city?.first, 100_000_000);
    assert.ok(city.cells.length <= 12, String(city.cells.length));
    const wide = cellsCovering(boundingBox(51.5072, -0.1276, 500));
    assert.equal(wide?.first, 300_000_000);
    assert.ok(wide.cells.length <= 24);
    // at 70° a wide radius still walks the coarsest level, each cell once
    const north = cellsCovering(boundingBox(70, 179, 500));
    assert.equal(north?.first, 300_000_000);
    assert.equal(new Set(north.cells).size, north.cells.length, 'no cell twice');
    // at a pole the box spans every longitude: no walk (the read filters instead)
    assert.equal(cellsCovering(boundingBox(89.9, 0, 500)), null);
    assert.equal(cellsCovering(boundingBox(-89.9, 0, 25)), null);
  });
});
