/**
 * The Event places kept for "near a place" (migration 007, src/catalogue/event-places.ts): after
 * every kind of import the table holds exactly one row per active Event, active Venue of it with
 * published coordinates, and grid level, with the Venue's cell and position and the Event's sort
 * keys; unpublished coordinates never enter it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Database } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { GRID_LEVELS } from '../../src/queries/near.js';
import { fullEvent } from './fixture.js';
import { clone, importDoc, pid, storePerSuite, testEngines } from './support.js';

const V = { berlin: pid('vqa', 1), secret: pid('vqb', 2), nowhere: pid('vqc', 3), potsdam: pid('vqd', 4) };
const E = { two: pid('eqa', 1), secret: pid('eqb', 2), inactive: pid('eqc', 3), none: pid('eqd', 4) };

type Coordinates = { latitude: number; longitude: number } | null;
const venue = (publicId: string, name: string, coordinates: Coordinates, publishCoordinates: boolean, active = true) => ({
  publicId, slug: name.toLowerCase(), name, statusCode: 'operational', active,
  address: { formattedAddress: null, locality: name, countryName: 'Germany', countryCode: 'DE' },
  ...(coordinates === null ? {} : { coordinates }), publishCoordinates,
});
const event = (publicId: string, venueIds: string[], localDate = '2025-07-01', active = true) => ({
  ...clone(fullEvent), publicId, venueIds, active, artistIds: [], seriesIds: [], editionIds: [], profileMediaId: null, galleryMediaIds: [],
  schedule: { referenceTimeZoneId: 'Europe/Berlin', start: { precision: 'date' as const, localDate } },
});

function baseDocument() {
  return {
    venues: [
      venue(V.berlin, 'Berlin', { latitude: 52.52, longitude: 13.405 }, true),
      // unpublished coordinates at the same place
      venue(V.secret, 'Secret', { latitude: 52.52, longitude: 13.405 }, false),
      venue(V.nowhere, 'Nowhere', null, true),
      venue(V.potsdam, 'Potsdam', { latitude: 52.3906, longitude: 13.0645 }, true),
    ],
    events: [
      event(E.two, [V.berlin, V.potsdam, V.secret]),
      event(E.secret, [V.secret, V.nowhere]),
      event(E.inactive, [V.berlin], '2025-07-02', false),
      event(E.none, []),
    ],
  };
}

type Row = [cell: string, event: string, venue: string, latitude: number, longitude: number, date: string, start: string | null];
const byText = (a: Row, b: Row) => JSON.stringify(a).localeCompare(JSON.stringify(b));

async function stored(db: Database): Promise<Row[]> {
  const { rows } = await db.pool.query<{ r: Row }>(
    `SELECT json_build_array(p.cell::text, e.public_id, v.public_id, p.latitude, p.longitude, to_char(p.start_local_date, 'YYYY-MM-DD'),
                             to_char(p.start_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US')) AS r
       FROM event_places p JOIN events e ON e.id = p.event_id JOIN venues v ON v.id = p.venue_id
      WHERE p.public_id = e.public_id AND p.start_rank = (CASE WHEN e.start_at IS NULL THEN 1 ELSE 0 END) AND p.start_key = e.start_key`,
  );
  const { rows: all } = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM event_places');
  assert.equal(all[0]!.n, rows.length, 'every row carries its Event\'s own sort keys');
  return rows.map((r) => r.r).sort(byText);
}

/** The definition, evaluated here: cells computed in JavaScript from the grid. */
async function expected(db: Database): Promise<Row[]> {
  const { rows } = await db.pool.query<{ e: string; v: string; lat: number; lon: number; d: string; s: string | null }>(
    `SELECT e.public_id AS e, v.public_id AS v, v.latitude AS lat, v.longitude AS lon, to_char(e.start_local_date, 'YYYY-MM-DD') AS d,
            to_char(e.start_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') AS s
       FROM events e JOIN event_venues ev ON ev.event_id = e.id JOIN venues v ON v.id = ev.venue_id
      WHERE e.active AND v.active AND v.publish_coordinates AND v.latitude IS NOT NULL AND v.longitude IS NOT NULL`,
  );
  return rows
    .flatMap((r) =>
      GRID_LEVELS.map(({ level, size }): Row => {
        const cell = level * 100_000_000 + Math.floor((r.lat + 90) / size) * 10_000 + Math.floor((r.lon + 180) / size);
        return [String(cell), r.e, r.v, r.lat, r.lon, r.d, r.s];
      }),
    )
    .sort(byText);
}

async function assertExact(db: Database): Promise<Row[]> {
  const rows = await stored(db);
  assert.deepEqual(rows, await expected(db));
  return rows;
}

const pairs = (rows: Row[]) => [...new Set(rows.map((r) => `${r[1]} ${r[2]}`))].sort();

for (const engine of testEngines()) {
  describe(`Event places (${engine.name})`, () => {
    const store = storePerSuite(engine);

    test('set by the import: published coordinates of active Venues of active Events only, at every level', async () => {
      await importDoc(store.db, baseDocument());
      const rows = await assertExact(store.db);
      assert.deepEqual(pairs(rows), [`${E.two} ${V.berlin}`, `${E.two} ${V.potsdam}`]);
      assert.equal(rows.length, 2 * GRID_LEVELS.length);
      assert.ok(!rows.some((r) => r[2] === V.secret), 'unpublished coordinates never enter the table');
    });

    test('filled by migration 007 for a catalogue stored before it', async () => {
      await importDoc(store.db, baseDocument());
      await store.db.pool.query('DROP TABLE event_places');
      await store.db.pool.query('DELETE FROM schema_migrations WHERE version = 7');
      assert.deepEqual(await migrate(store.db), [7]);
      assert.equal((await assertExact(store.db)).length, 2 * GRID_LEVELS.length);
    });

    test('rewritten when a Venue alone is re-imported, when an Event changes, and by --replace', async () => {
      await importDoc(store.db, baseDocument());
      // a Venue moves; another stops publishing; the unpublished one starts
      await importDoc(store.db, {
        venues: [
          venue(V.potsdam, 'Potsdam', { latitude: 48.1374, longitude: 11.5755 }, true),
          venue(V.berlin, 'Berlin', { latitude: 52.52, longitude: 13.405 }, false),
          venue(V.secret, 'Secret', { latitude: 52.52, longitude: 13.405 }, true),
        ],
      });
      assert.deepEqual(pairs(await assertExact(store.db)), [`${E.two} ${V.secret}`, `${E.two} ${V.potsdam}`, `${E.secret} ${V.secret}`]);
      // a Venue is deactivated; an Event gets a new date and Venue list; another is deactivated; one activated
      await importDoc(store.db, { venues: [venue(V.secret, 'Secret', { latitude: 52.52, longitude: 13.405 }, true, false)] });
      await importDoc(store.db, {
        events: [
          event(E.two, [V.potsdam], '2026-01-31'),
          event(E.none, [V.potsdam]),
          event(E.inactive, [V.potsdam], '2025-07-02', true),
          event(E.secret, [V.potsdam], '2025-07-01', false),
        ],
      });
      const rows = await assertExact(store.db);
      assert.deepEqual(pairs(rows), [`${E.two} ${V.potsdam}`, `${E.inactive} ${V.potsdam}`, `${E.none} ${V.potsdam}`]);
      assert.ok(rows.some((r) => r[1] === E.two && r[5] === '2026-01-31'), 'the new sort keys');
      // --replace: the Events and Venues the document lacks are gone, with their rows
      const doc = baseDocument();
      doc.venues = doc.venues.filter((v) => v.publicId !== V.potsdam);
      doc.events = [event(E.two, [V.berlin, V.secret])];
      await importDoc(store.db, doc, { replace: true });
      assert.deepEqual(pairs(await assertExact(store.db)), [`${E.two} ${V.berlin}`]);
    });
  });
}
