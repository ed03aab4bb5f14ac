/**
 * Extension "near a place" on GET /v1/venues and GET /v1/events: the
 * radius over published coordinates only (an unpublished Venue sits at the search point), a
 * Venue at exactly the radius, the antimeridian and a pole, sort=distance with distanceKm and
 * cursors, every Event filter and sort combined, and the 400s.
 */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { importCatalogue } from '../../src/catalogue/importer.js';
import type { CatalogueDocument } from '../../src/catalogue/document.js';
import { pageOf } from '../../src/contract/common.js';
import { Event } from '../../src/contract/event.js';
import { Venue } from '../../src/contract/resources.js';
import { engines, serveForSuite } from '../helper.js';
import { pid } from '../fixtures/resources.js';
import { assertInvalid, traverse } from './resource-support.js';

const V = (n: number) => pid('ve', n);
const EV = (n: number) => pid('ev', n);
const R = 6371.0088;
/** The reference: haversine in JavaScript. */
function km(a: [number, number], b: [number, number]): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const h = Math.sin(rad(b[0] - a[0]) / 2) ** 2 + Math.cos(rad(a[0])) * Math.cos(rad(b[0])) * Math.sin(rad(b[1] - a[1]) / 2) ** 2;
  return 2 * R * Math.asin(Math.min(1, Math.sqrt(h)));
}

const CENTRE: [number, number] = [52.52, 13.405];
const MADRID: [number, number] = [40.4168, -3.7038];
interface PlaceVenue {
  n: number;
  name: string;
  at: [number, number] | null;
  published: boolean;
  active?: boolean;
  cc?: string;
  /** Its profile media: public (ready and active) or not. */
  media?: 'public' | 'pending';
}
const venues: PlaceVenue[] = [
  { n: 1, name: 'Centre Published', at: CENTRE, published: true },
  { n: 2, name: 'Centre Secret', at: CENTRE, published: false },
  { n: 3, name: 'East 20km', at: [52.52, 13.705], published: true, cc: 'PL', media: 'public' },
  { n: 4, name: 'East 47km', at: [52.52, 14.105], published: true, media: 'public' },
  { n: 5, name: 'Centre Inactive', at: CENTRE, published: true, active: false },
  { n: 6, name: 'Equator', at: [0, 0], published: true },
  { n: 7, name: 'Date Line West', at: [10, 179.9], published: true },
  { n: 8, name: 'Near Pole', at: [89.9, 0], published: true },
  { n: 9, name: 'Also Centre', at: CENTRE, published: true, media: 'pending' },
  { n: 10, name: 'No Coordinates', at: null, published: true },
  // names too long for an ordinary cursor: the next link carries a compact boundary
  ...[11, 12, 13].map((n) => ({ n, name: `${String.fromCharCode(64 + n - 10)} ${'long name '.repeat(90)}`, at: [MADRID[0] + (n - 11) / 100, MADRID[1]] as [number, number], published: true })),
];

const schedule = (localDate: string) => ({ referenceTimeZoneId: 'Europe/Berlin', start: { precision: 'date' as const, localDate } });
interface PlaceEvent {
  n: number;
  venues: number[];
  date: string;
  cancelled?: boolean;
}
const events: PlaceEvent[] = [
  { n: 1, venues: [2], date: '2030-01-01' }, // only the unpublished Venue
  { n: 2, venues: [1], date: '2030-01-03' },
  { n: 3, venues: [2, 3], date: '2030-01-02' },
  { n: 4, venues: [4], date: '2030-01-04' },
  { n: 5, venues: [5], date: '2030-01-05' }, // only the inactive Venue
  { n: 6, venues: [1, 9], date: '2020-01-01', cancelled: true },
  { n: 7, venues: [10, 2], date: '2030-01-06' },
  { n: 8, venues: [6], date: '2030-01-07' },
];

const MEDIA = (n: number) => pid('md', n);
const catalogue: CatalogueDocument = {
  media: venues
    .filter((v) => v.media !== undefined)
    .map((v) => ({
      publicId: MEDIA(v.n),
      status: v.media === 'public' ? ('ready' as const) : ('pending' as const),
      src: `https://img.example/${v.n}.jpg`,
      width: 640,
      height: 480,
      updatedAt: '2024-01-01T00:00:00.000000Z',
    })),
  venues: venues.map((v) => ({
    publicId: V(v.n),
    slug: `venue-${v.n}`,
    name: v.name,
    active: v.active ?? true,
    statusCode: 'operational' as const,
    address: { formattedAddress: `${v.n} Road`, locality: 'Town', countryName: 'Country', countryCode: v.cc ?? 'DE' },
    coordinates: v.at === null ? null : { latitude: v.at[0], longitude: v.at[1] },
    publishCoordinates: v.published,
    profileMediaId: v.media === undefined ? null : MEDIA(v.n),
    updatedAt: '2024-01-01T00:00:00.000000Z',
  })),
  events: events.map((e) => ({
    publicId: EV(e.n),
    slug: `event-${e.n}`,
    name: `Event ${e.n}`,
    administrativeStateCode: e.cancelled ? ('cancelled' as const) : ('scheduled' as const),
    schedule: schedule(e.date),
    venueIds: e.venues.map(V),
    updatedAt: `2024-01-0${(e.n % 9) + 1}T00:00:00.000000Z`,
  })),
};

const NOW = new Date('2025-06-01T12:00:00Z');
const eventAt = (e: PlaceEvent, point: [number, number], radius: number) =>
  e.venues.some((n) => {
    const v = venues.find((x) => x.n === n) as PlaceVenue;
    return v.published && (v.active ?? true) && v.at !== null && km(v.at, point) <= radius;
  });

for (const engine of engines()) {
  describe(`near a place (${engine.name})`, () => {
    const suite = serveForSuite(engine, {}, { clock: () => NOW, prepare: (db) => importCatalogue(db, Readable.from([JSON.stringify(catalogue)])) });
    const venueIds = async (query: string) => (await traverse(suite.server, `/v1/venues?${query}`, pageOf(Venue))).items;
    const eventIds = async (query: string) => (await traverse(suite.server, `/v1/events?${query}`, pageOf(Event))).items.map((e) => e.publicId);

    it('finds Venues by published coordinates only, with distanceKm to 3 decimals', async () => {
      const items = await venueIds('near=52.52,13.405&limit=1');
      // by name (the default sort): the unpublished and the inactive Venue at the point never appear
      assert.deepEqual(items.map((v) => v.publicId), [V(9), V(1), V(3)]);
      assert.deepEqual(
        items.map((v) => v.distanceKm),
        [0, 0, Math.round(km(CENTRE, [52.52, 13.705]) * 1000) / 1000],
      );
      assert.ok(items.every((v) => Object.keys(v).at(-1) === 'distanceKm'));
      // without near, items are unchanged
      const plain = await suite.server.json('/v1/venues');
      assert.ok(plain.body.data.every((v: any) => !('distanceKm' in v)));
    });

    it('never lets unpublished coordinates influence an answer', async () => {
      for (const radius of ['0.001', '1', '25', '500']) {
        const venuesFound = (await venueIds(`near=52.52,13.405&radiusKm=${radius}`)).map((v) => v.publicId);
        assert.ok(!venuesFound.includes(V(2)), radius);
        const eventsFound = await eventIds(`near=52.52,13.405&radiusKm=${radius}`);
        assert.ok(!eventsFound.includes(EV(1)) && !eventsFound.includes(EV(7)) && !eventsFound.includes(EV(5)), radius);
      }
      // an Event whose only nearby Venue is unpublished matches through its published one only
      assert.deepEqual(await eventIds('near=52.52,13.705&radiusKm=1'), [EV(3)]);
    });

    it('pages Venues near a place from a compact boundary in every sort', async () => {
      const near = `near=${MADRID.join(',')}&radiusKm=10&limit=1&fields=name`;
      for (const [sort, order] of [['name', [11, 12, 13]], ['-name', [13, 12, 11]], ['distance', [11, 12, 13]]] as const) {
        const first = await suite.server.json(`/v1/venues?${near}&sort=${sort}`);
        assert.ok(new URL(first.body.links.next, 'http://x').searchParams.get('cursor')!.length <= 1024, sort);
        assert.deepEqual((await venueIds(`${near}&sort=${sort}`)).map((v) => v.publicId), order.map(V), sort);
      }
    });

    it('answers a wide search near a pole (no grid walk) and a search without a trigram near a place, each with a start bound', async () => {
      // the walk's bounds and the start branches once added parameters these statements left out:
      // a 500 (42P18) and a 503 (a Bind that disagreed with the statement); each page must be a 200
      assert.deepEqual(await eventIds('near=90,0&radiusKm=500&startLocalDateGte=2024-01-01'), []);
      assert.deepEqual(await eventIds('near=0,0&radiusKm=500&startLocalDateGte=2024-01-01&startLocalDateLt=2031-01-01'), [EV(8)]);
      // date-only Events: no start instant, so none is on or after any instant
      assert.deepEqual(await eventIds('nameContains=nt&near=52.52,13.405&radiusKm=300&startInstantGte=2022-01-01T00:00:00Z&limit=1'), []);
      const berlin = events.filter((e) => eventAt(e, CENTRE, 300) && e.date >= '2024-01-01').sort((a, b) => (a.date < b.date ? -1 : 1)).map((e) => EV(e.n));
      assert.ok(berlin.length > 1);
      assert.deepEqual(await eventIds('nameContains=nt&near=52.52,13.405&radiusKm=300&startLocalDateGte=2024-01-01&limit=1'), berlin);
    });

    it('matches a Venue at exactly the radius (to the millimetre), not one beyond it', async () => {
      // (0,0) to (0,1): exactly R·π/180 = 111.1950802… km
      assert.equal(Math.round(km([0, 0], [0, 1]) * 1e6) / 1e6, 111.19508);
      assert.deepEqual((await venueIds('near=0,1&radiusKm=111.19508')).map((v) => v.publicId), [V(6)]);
      assert.deepEqual((await venueIds('near=0,1&radiusKm=111.195079')).map((v) => v.publicId), []);
      // by distance, the radius is tested on the order's key (queries/list.ts LateRows.onKeys): the
      // Venue is in the bounding box of both radii
      assert.deepEqual((await venueIds('near=0,1&radiusKm=111.19508&sort=distance')).map((v) => v.publicId), [V(6)]);
      assert.deepEqual((await venueIds('near=0,1&radiusKm=111.195079&sort=distance')).map((v) => v.publicId), []);
      assert.deepEqual(await eventIds('near=0,1&radiusKm=111.19508'), [EV(8)]);
      assert.deepEqual(await eventIds('near=0,1&radiusKm=111.195079'), []);
    });

    it('crosses the antimeridian and the pole', async () => {
      const across = await venueIds('near=10,-179.9');
      assert.deepEqual(across.map((v) => [v.publicId, v.distanceKm]), [[V(7), Math.round(km([10, 179.9], [10, -179.9]) * 1000) / 1000]]);
      const pole = await venueIds('near=89.9,180');
      assert.deepEqual(pole.map((v) => v.publicId), [V(8)]);
      assert.ok(Math.abs(pole[0].distanceKm - km([89.9, 0], [89.9, 180])) < 0.001);
    });

    it('sorts by distance then publicId, across pages, and combines with other filters', async () => {
      const expected = venues
        .filter((v) => v.published && (v.active ?? true) && v.at !== null && km(v.at, CENTRE) <= 100)
        .sort((a, b) => km(a.at!, CENTRE) - km(b.at!, CENTRE) || (V(a.n) < V(b.n) ? -1 : 1))
        .map((v) => V(v.n));
      assert.deepEqual(expected, [V(1), V(9), V(3), V(4)]);
      assert.deepEqual((await venueIds('near=52.52,13.405&radiusKm=100&sort=distance&limit=1')).map((v) => v.publicId), expected);
      assert.deepEqual((await venueIds('near=52.52,13.405&radiusKm=100&sort=-name&limit=2')).map((v) => v.publicId), [V(4), V(3), V(1), V(9)]);
      assert.deepEqual((await venueIds('near=52.52,13.405&radiusKm=100&countryCode=PL')).map((v) => v.publicId), [V(3)]);
      assert.deepEqual((await venueIds('near=52.52,13.405&radiusKm=100&nameContains=east&sort=distance')).map((v) => v.publicId), [V(3), V(4)]);
    });

    it("reads each page's Venues after finding them: every item is its Venue's own, profile media included", async () => {
      const found = [
        ...(await venueIds('near=52.52,13.405&radiusKm=100&sort=distance&limit=1')),
        ...(await venueIds('near=52.52,13.405&radiusKm=100&limit=2')),
        ...(await venueIds('near=52.52,13.405&radiusKm=100&nameContains=east&sort=distance&fields=name,profileMedia')),
      ];
      assert.equal(found.length, 10);
      for (const item of found) {
        const { distanceKm, ...own } = item;
        assert.equal(typeof distanceKm, 'number');
        const detail = await suite.server.json(`/v1/venues/${item.publicId}?fields=${Object.keys(own).join(',')}`);
        assert.deepEqual(own, detail.body.data, item.publicId);
      }
      const media = Object.fromEntries(found.map((v) => [v.publicId, v.profileMedia]));
      assert.equal(media[V(3)]?.src, 'https://img.example/3.jpg');
      assert.equal(media[V(4)]?.src, 'https://img.example/4.jpg');
      assert.equal(media[V(9)], null); // its media is not ready
      assert.equal(media[V(1)], null);
    });

    it('filters Events by any active published Venue within the radius, with every sort and filter', async () => {
      for (const radius of [25, 50, 500]) {
        const model = events.filter((e) => eventAt(e, CENTRE, radius));
        const byDate = [...model].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : EV(a.n) < EV(b.n) ? -1 : 1)).map((e) => EV(e.n));
        assert.deepEqual(await eventIds(`near=52.52,13.405&radiusKm=${radius}&limit=1`), byDate, String(radius));
        assert.deepEqual(await eventIds(`near=52.52,13.405&radiusKm=${radius}&sort=-startLocalDate&limit=2`), [...byDate].reverse(), String(radius));
        assert.deepEqual(
          await eventIds(`near=52.52,13.405&radiusKm=${radius}&temporalPhaseCode=upcoming`),
          byDate.filter((id) => id !== EV(6)),
          String(radius),
        );
        assert.deepEqual(await eventIds(`near=52.52,13.405&radiusKm=${radius}&administrativeStateCode=cancelled`), [EV(6)], String(radius));
        assert.deepEqual(await eventIds(`near=52.52,13.405&radiusKm=${radius}&venueId=${V(1)}`), [EV(6), EV(2)], String(radius));
      }
      assert.deepEqual(await eventIds('near=52.52,13.405'), [EV(6), EV(3), EV(2)]);
      // items are unchanged by near
      const plain = await suite.server.json(`/v1/events?venueId=${V(1)}`);
      const near = await suite.server.json(`/v1/events?venueId=${V(1)}&near=52.52,13.405`);
      assert.deepEqual(near.body.data, plain.body.data);
    });

    it('refuses malformed near, radiusKm and sort=distance without near (400 before any read)', async () => {
      for (const bad of ['91,0', '-90.5,0', '0,181', '0,-180.1', '1.1234567,0', '1,%202', '1,2,3', 'a,b', '1', '+1,2', '1.,2', '90.000001,0']) {
        for (const route of ['venues', 'events']) await assertInvalid(suite.server, `/v1/${route}?near=${bad}`, 'near');
      }
      for (const bad of ['0', '0.0', '500.000001', '-1', '1e2', '1000', 'abc', '25.1234567']) {
        for (const route of ['venues', 'events']) await assertInvalid(suite.server, `/v1/${route}?near=1,2&radiusKm=${bad}`, 'radiusKm');
      }
      for (const route of ['venues', 'events']) await assertInvalid(suite.server, `/v1/${route}?radiusKm=10`, 'radiusKm');
      await assertInvalid(suite.server, '/v1/venues?sort=distance', 'sort');
      await assertInvalid(suite.server, '/v1/events?near=1,2&sort=distance', 'sort');
      for (const ok of ['90,180', '-90,-180', '90.000000,-180.0', '0,0', '-0.000001,0.5']) {
        assert.equal((await suite.server.json(`/v1/venues?near=${ok}&radiusKm=500`)).status, 200, ok);
      }
    });

    it('binds cursors to the point and radius (fingerprint), and keeps the canonical next link', async () => {
      const first = await suite.server.json('/v1/venues?near=52.520,13.4050&radiusKm=100&sort=distance&limit=1');
      const next: string = first.body.links.next;
      assert.match(next, /near=52\.52%2C13\.405|near=52\.52,13\.405/);
      const cursor = new URL(next, 'http://x').searchParams.get('cursor') as string;
      assert.equal((await suite.server.json(`/v1/venues?near=52.52,13.405&radiusKm=100&sort=distance&limit=1&cursor=${encodeURIComponent(cursor)}`)).status, 200);
      await assertInvalid(suite.server, `/v1/venues?near=52.52,13.405&radiusKm=99&sort=distance&limit=1&cursor=${encodeURIComponent(cursor)}`, 'cursor');
      await assertInvalid(suite.server, `/v1/venues?near=52.52,13.406&radiusKm=100&sort=distance&limit=1&cursor=${encodeURIComponent(cursor)}`, 'cursor');
      const ev = await suite.server.json('/v1/events?near=52.52,13.405&limit=1');
      const evCursor = new URL(ev.body.links.next, 'http://x').searchParams.get('cursor') as string;
      await assertInvalid(suite.server, `/v1/events?limit=1&cursor=${encodeURIComponent(evCursor)}`, 'cursor');
    });
  });
}
