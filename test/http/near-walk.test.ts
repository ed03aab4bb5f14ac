/**
 * "Events near a place" through the grid walk (migration 007, src/queries/near-events.ts), checked
 * against the plain request: for many points and radii (every grid level), `near=P&Q` must answer,
 * page by page, exactly the Events of `Q` that have an active Venue with published coordinates
 * within the radius (haversine in JavaScript). The catalogue puts Venues on and around cell
 * boundaries, Events with several Venues in one radius (in one cell and in different cells),
 * unpublished coordinates at the search points, timed and date-only Events on the same dates, and
 * upcoming and past dates; small pages make every cursor start inside the walk.
 */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { importCatalogue } from '../../src/catalogue/importer.js';
import type { CatalogueDocument, EventInput } from '../../src/catalogue/document.js';
import { pageOf } from '../../src/contract/common.js';
import { Event } from '../../src/contract/event.js';
import { engines, serveForSuite } from '../helper.js';
import { pid } from '../fixtures/resources.js';
import { traverse } from './resource-support.js';

const R = 6371.0088;
function km(a: readonly [number, number], b: readonly [number, number]): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const h = Math.sin(rad(b[0] - a[0]) / 2) ** 2 + Math.cos(rad(a[0])) * Math.cos(rad(b[0])) * Math.sin(rad(b[1] - a[1]) / 2) ** 2;
  return 2 * R * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const next = random(18);
// around Berlin, on the 0.25° boundaries (lat 52.5, lon 13.25 / 13.5) and a degree away
const spots: [number, number][] = [
  [52.5, 13.25], [52.499999, 13.249999], [52.52, 13.405], [52.75, 13.5], [51.9, 12.1], [53.6, 14.9], [52.5, 16.0],
];
interface Place { id: string; at: [number, number]; published: boolean; active: boolean }
const places: Place[] = Array.from({ length: 40 }, (_, i) => {
  const [lat, lon] = spots[i % spots.length]!;
  const jitter = i < spots.length ? 0 : 0.4;
  return {
    id: pid('vw', i + 1),
    at: [Number((lat + (next() - 0.5) * jitter).toFixed(6)), Number((lon + (next() - 0.5) * jitter).toFixed(6))],
    published: i % 5 !== 3,
    active: i % 11 !== 7,
  };
});
const shows: EventInput[] = Array.from({ length: 90 }, (_, i) => {
  const count = 1 + Math.floor(next() * 3);
  const venueIds = [...new Set(Array.from({ length: count }, () => places[Math.floor(next() * places.length)]!.id))];
  const day = `2025-0${1 + Math.floor(next() * 9)}-1${Math.floor(next() * 3)}`;
  const timed = next() < 0.5;
  const hour = 10 + Math.floor(next() * 10);
  return {
    publicId: pid('ew', i + 1),
    slug: `walk-${i + 1}`,
    name: `Walk ${i + 1}`,
    active: i % 13 !== 5,
    administrativeStateCode: 'scheduled' as const,
    // a fixed offset zone, so the instant is the local time minus one hour
    schedule: timed
      ? { referenceTimeZoneId: 'Etc/GMT-1', start: { precision: 'date-time' as const, localDate: day, localTime: `${hour}:00`, instant: `${day}T${String(hour - 1).padStart(2, "0")}:00:00Z` } }
      : { referenceTimeZoneId: 'Etc/GMT-1', start: { precision: 'date' as const, localDate: day } },
    venueIds,
    updatedAt: '2024-01-01T00:00:00.000000Z',
  };
});
// local dates months before their instants (the document allows it): the walk's second branch
// holds them for upcoming and a lower bound on the start instant
const escaping = [0, 1].map((k) => ({
  publicId: pid('ex', k + 1),
  slug: `escaping-${k + 1}`,
  name: `Escaping ${k + 1}`,
  administrativeStateCode: 'scheduled' as const,
  schedule: { referenceTimeZoneId: 'Etc/GMT-1', start: { precision: 'date-time' as const, localDate: `2025-0${1 + k}-15`, localTime: '20:00', instant: `2025-0${8 + k}-01T10:00:00Z` } },
  venueIds: [places[2 + k]!.id],
  updatedAt: '2024-01-01T00:00:00.000000Z',
}));
shows.push(...escaping);
const catalogue: CatalogueDocument = {
  venues: places.map((p) => ({
    publicId: p.id,
    slug: p.id.toLowerCase(),
    name: p.id,
    active: p.active,
    statusCode: 'operational' as const,
    address: { formattedAddress: null, locality: 'Berlin', countryName: 'Germany', countryCode: 'DE' },
    coordinates: { latitude: p.at[0], longitude: p.at[1] },
    publishCoordinates: p.published,
    updatedAt: '2024-01-01T00:00:00.000000Z',
  })),
  events: shows,
};

const NOW = new Date('2025-05-10T12:00:00Z');
const near = (publicId: string, point: readonly [number, number], radius: number) =>
  (shows.find((s) => s.publicId === publicId)?.venueIds ?? []).some((id) => {
    const p = places.find((x) => x.id === id)!;
    return p.published && p.active && km(p.at, point) <= radius;
  });

for (const engine of engines()) {
  describe(`near a place: the grid walk against the plain request (${engine.name})`, () => {
    const suite = serveForSuite(engine, {}, { clock: () => NOW, prepare: (db) => importCatalogue(db, Readable.from([JSON.stringify(catalogue)])) });
    const ids = async (query: string) => (await traverse(suite.server, `/v1/events?${query}`, pageOf(Event))).items.map((e) => e.publicId as string);

    it('answers the Events of the plain request with a published Venue in the radius, in order, across pages', async () => {
      const points: [number, number][] = [...spots, [52.6, 13.3], [52.0, 13.0]];
      const radii = [0.001, 12.5, 25, 80, 500];
      let matched = 0;
      for (const query of [
        'limit=3',
        'temporalPhaseCode=upcoming&limit=2',
        'temporalPhaseCode=historical&limit=4',
        // bounds of the walk in each cell (queries/events.ts nearBounds)
        'startLocalDateGte=2025-04-10&limit=3',
        'startLocalDateGte=2025-03-10&startLocalDateLt=2025-06-11&limit=2',
        'startInstantGte=2025-05-10T12:00:00Z&limit=3',
        'temporalPhaseCode=upcoming&startLocalDateLt=2025-08-01&limit=2',
      ]) {
        const plain = await ids(query);
        for (const point of points) {
          for (const radius of radii) {
            const got = await ids(`${query}&near=${point[0]},${point[1]}&radiusKm=${radius}`);
            const want = plain.filter((id) => near(id, point, radius));
            assert.deepEqual(got, want, `${query} near ${point} within ${radius} km`);
            matched += got.length;
          }
        }
      }
      assert.ok(matched > 500, `matched ${matched}`);
      // the escaping Events are found through the second branch
      const bounded = await ids(`startInstantGte=2025-05-10T12:00:00Z&near=${spots[2]![0]},${spots[2]![1]}&radiusKm=25`);
      assert.ok(bounded.includes(pid('ex', 1)), 'an instant after the bound, its local date months before it');
    });
  });
}
